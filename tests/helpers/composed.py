"""The one variant with composed merchant cards (card effects written as steps that are none
of the short forms), made as a user makes one: `century new` in a folder, then the cards
added to the file. The printed targets' tests build it and read back what they print."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from century import cli
from century.model.ruleset import Ruleset
from century.pipeline import compile_paths

from helpers.rulesets import checked

COMPOSED_EDITS = """
cards:
  merchant:
    add:
      - {effect: [gain: YY, upgrade: 1]}
      - {effect: [choose: [[gain: YYY], [upgrade: 2]]], name: {en: Crossroads, de: Kreuzweg}}
      - {effect: [pay_any: 2, gain: B]}
      - {effect: [{repeat: [pay: Y, gain: R], max: 2}]}
      - {effect: [choose: [[gain: GG], [{repeat: [pay: R, gain: G], max: 3}]]]}
"""
"""Five composed cards: a gain then an upgrade, a choice (named), a payment of any cubes
then a gain, a bounded repeat, and a bounded repeat nested in a choice."""

COMPOSED_SENTENCES: dict[str, dict[str, str]] = {
    "+yy.up1": {
        "en": "Take 2 turmeric, then upgrade 1 spice.",
        "de": "Nimm 2 Kurkuma, dann werte 1 Gewürz auf.",
    },
    "{+yyy/up2}": {
        "en": "Either take 3 turmeric or upgrade 2 spices.",
        "de": "Entweder nimm 3 Kurkuma oder werte 2 Gewürze auf.",
    },
    "any2-+b": {
        "en": "Pay 2 spices of your choice, then take 1 cinnamon.",
        "de": "Gib 2 Gewürze deiner Wahl ab, dann nimm 1 Zimt.",
    },
    "y-rx2": {
        "en": "Pay 1 turmeric, then take 1 saffron (up to twice).",
        "de": "Gib 1 Kurkuma ab, dann nimm 1 Safran (bis zu zweimal).",
    },
    "{+gg/r-gx3}": {
        "en": "Either take 2 cardamom or pay 1 saffron, then take 1 cardamom (up to three times).",
        "de": "Entweder nimm 2 Kardamom oder gib 1 Safran ab, dann nimm 1 Kardamom"
        " (bis zu dreimal).",
    },
}
"""Each composed card's id and its sentence on the rule sheet, in both languages."""


_GAINS = ("YY", "YYY", "R", "YR", "G", "RR", "B", "YG", "YYR", "GG")
_NAMES = (
    {"en": "Crossroads", "de": "Kreuzweg"},
    {"en": "Caravanserai of the Salt Road", "de": "Karawanserei an der Salzstraße"},
    {"en": "Night Market", "de": "Nachtmarkt"},
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
        named = f", name: {{en: {name['en']}, de: {name['de']}}}" if name else ""
        lines.append(f"      - {{effect: {effect}{named}}}")
    return "\n".join(lines) + "\n"


def composed_variant(folder: Path, edits: str = COMPOSED_EDITS, game: str = "composed") -> Ruleset:
    """The variant `game` (``composed``) of Spice Road with `edits` (`COMPOSED_EDITS`) added,
    written into `folder` (the current folder: `century new` writes there) and compiled."""
    titles = ["--title", "en=Composed", "--title", "de=Zusammengesetzt"]
    made = CliRunner().invoke(cli.app, ["new", game, "--from", "spice-road", *titles])
    assert made.exit_code == 0, made.output
    path = folder / "rules" / f"{game}.yaml"
    path.write_text(path.read_text("utf-8") + edits, encoding="utf-8")
    return checked(compile_paths([folder / "rules"])).rulesets[game]
