"""The one variant with composed merchant cards (card effects written as steps that are none
of the short forms), made as a user makes one: `century new` in a folder, then the cards
added to the file. The printed targets' tests build it and read back what they print."""

from __future__ import annotations

import contextlib
from pathlib import Path

from typer.testing import CliRunner

from century import cli
from century.model.ruleset import Ruleset
from century.pipeline import compile_paths

from helpers.rulesets import bundled_rulesets, checked

COMPOSED_EDITS = """
cards:
  merchant:
    add:
      - {effect: [gain: YY, upgrade: 1]}
      - effect: [choose: [[gain: YYY], [upgrade: 2]]]
        name: {en: Crossroads, de: Kreuzweg, fr: Carrefour}
      - {effect: [pay_any: 2, gain: B]}
      - {effect: [{repeat: [pay: Y, gain: R], max: 2}]}
      - {effect: [choose: [[gain: GG], [{repeat: [pay: R, gain: G], max: 3}]]]}
"""
"""Five composed cards: a gain then an upgrade, a choice (named), a payment of any cubes
then a gain, a bounded repeat, and a bounded repeat nested in a choice."""

COMPOSED_SENTENCES: dict[str, dict[str, str]] = {
    "+yy.up1": {
        "en": "Take 2 turmeric, then upgrade 1 spice by one rank.",
        "de": "Nimm 2 Kurkuma, dann wandle 1 Gewürz um eine Stufe um.",
        "fr": "Prenez 2 curcuma, puis améliorez 1 épice d’un rang.",
    },
    "{+yyy/up2}": {
        "en": "Choose one: [take 3 turmeric] or [make 1 or 2 upgrades of one rank each, on one"
        " spice or several].",
        "de": "Wähle eine Möglichkeit: [nimm 3 Kurkuma] oder [führe 1 oder 2 Umwandlungen um je"
        " eine Stufe aus, an einem Gewürz oder an mehreren].",
        "fr": "Choisissez une option: [prenez 3 curcuma] ou [faites 1 ou 2 améliorations d’un"
        " rang chacune, sur une épice ou plusieurs].",
    },
    "any2-+b": {
        "en": "Pay 2 spices of your choice, then take 1 cinnamon.",
        "de": "Gib 2 Gewürze deiner Wahl ab, dann nimm 1 Zimt.",
        "fr": "Payez 2 épices de votre choix, puis prenez 1 cannelle.",
    },
    "y-rx2": {
        "en": "Do [pay 1 turmeric, then take 1 saffron] once, and again if you like, up to twice"
        " in all.",
        "de": "Führe [gib 1 Kurkuma ab, dann nimm 1 Safran] einmal aus und nach Belieben erneut,"
        " insgesamt bis zu zweimal.",
        "fr": "Faites [payez 1 curcuma, puis prenez 1 safran] une fois, et à nouveau si vous"
        " le voulez, jusqu’à deux fois en tout.",
    },
    "{+gg/r-gx3}": {
        "en": "Choose one: [take 2 cardamom] or [do [pay 1 saffron, then take 1 cardamom] once,"
        " and again if you like, up to three times in all].",
        "de": "Wähle eine Möglichkeit: [nimm 2 Kardamom] oder [führe [gib 1 Safran ab, dann nimm"
        " 1 Kardamom] einmal aus und nach Belieben erneut, insgesamt bis zu dreimal].",
        "fr": "Choisissez une option: [prenez 2 cardamome] ou [faites [payez 1 safran, puis"
        " prenez 1 cardamome] une fois, et à nouveau si vous le voulez, jusqu’à trois fois en"
        " tout].",
    },
}
"""Each composed card's id and its sentence on the rule sheet, in every language."""


_GAINS = ("YY", "YYY", "R", "YR", "G", "RR", "B", "YG", "YYR", "GG")
_NAMES = (
    {"en": "Crossroads", "de": "Kreuzweg", "fr": "Carrefour"},
    {
        "en": "Caravanserai of the Salt Road",
        "de": "Karawanserei an der Salzstraße",
        "fr": "Caravansérail de la route du sel",
    },
    {"en": "Night Market", "de": "Nachtmarkt", "fr": "Marché de nuit"},
)


def composed_edits(count: int) -> str:
    """`count` distinct composed merchant cards as the ``cards:`` block of a variant: the
    five kinds of `COMPOSED_EDITS` with other cubes, every third one named (some names long,
    to wrap), so a sheet's list of composed effects can be made as long as a test needs."""
    if count == 0:
        return ""
    shapes = (
        lambda a, n: f"[gain: {a}, upgrade: {n}]",
        lambda a, n: f"[choose: [[gain: {a}], [upgrade: {n + 1}]]]",
        lambda a, n: f"[pay_any: {n + 1}, gain: {a}]",
        lambda a, n: f"[{{repeat: [pay: Y, gain: {a}], max: {n + 1}}}]",
        lambda a, n: f"[choose: [[gain: {a}], [{{repeat: [pay: R, gain: G], max: {n + 1}}}]]]",
    )
    lines = ["", "cards:", "  merchant:", "    add:"]
    for i in range(count):
        effect = shapes[i % len(shapes)](_GAINS[i // len(shapes) % len(_GAINS)], 1 + i // 10)
        name = _NAMES[i // 3 % len(_NAMES)] if i % 3 == 1 else None
        named = f", name: {{en: {name['en']}, de: {name['de']}, fr: {name['fr']}}}" if name else ""
        lines.append(f"      - {{effect: {effect}{named}}}")
    return "\n".join(lines) + "\n"


def composed_variant(folder: Path, edits: str = COMPOSED_EDITS, game: str = "composed") -> Ruleset:
    """The variant `game` (``composed``) of Spice Road with `edits` (`COMPOSED_EDITS`) added,
    written into `folder` (the current folder: `century new` writes there) and compiled."""
    titles = ["--title", "en=Composed", "--title", "de=Zusammengesetzt", "--title", "fr=Composée"]
    made = CliRunner().invoke(cli.app, ["new", game, "--from", "spice-road", *titles])
    assert made.exit_code == 0, made.output
    path = folder / "rules" / f"{game}.yaml"
    path.write_text(path.read_text("utf-8") + edits, encoding="utf-8")
    return checked(compile_paths([folder / "rules"])).rulesets[game]


def with_composed_variant(folder: Path) -> dict[str, Ruleset]:
    """Every bundled game by id, and ``composed-variant``: `composed_variant` made in `folder`
    (an empty folder; the current folder while `century new` writes there)."""
    found = bundled_rulesets()
    with contextlib.chdir(folder):
        found["composed-variant"] = composed_variant(folder)
    return found
