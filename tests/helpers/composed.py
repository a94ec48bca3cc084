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
        "en": "Take 2 turmeric, then upgrade 1 spice.",
        "de": "Nimm 2 Kurkuma, dann werte 1 Gewürz auf.",
        "fr": "Prenez 2 curcuma, puis améliorez 1 épice.",
    },
    "{+yyy/up2}": {
        "en": "Either take 3 turmeric or upgrade 2 spices.",
        "de": "Entweder nimm 3 Kurkuma oder werte 2 Gewürze auf.",
        "fr": "Soit prenez 3 curcuma, soit améliorez 2 épices.",
    },
    "any2-+b": {
        "en": "Pay 2 spices of your choice, then take 1 cinnamon.",
        "de": "Gib 2 Gewürze deiner Wahl ab, dann nimm 1 Zimt.",
        "fr": "Payez 2 épices de votre choix, puis prenez 1 cannelle.",
    },
    "y-rx2": {
        "en": "Pay 1 turmeric, then take 1 saffron (up to twice).",
        "de": "Gib 1 Kurkuma ab, dann nimm 1 Safran (bis zu zweimal).",
        "fr": "Payez 1 curcuma, puis prenez 1 safran (jusqu’à deux fois).",
    },
    "{+gg/r-gx3}": {
        "en": "Either take 2 cardamom or pay 1 saffron, then take 1 cardamom (up to three times).",
        "de": "Entweder nimm 2 Kardamom oder gib 1 Safran ab, dann nimm 1 Kardamom"
        " (bis zu dreimal).",
        "fr": "Soit prenez 2 cardamome, soit payez 1 safran, puis prenez 1 cardamome"
        " (jusqu’à trois fois).",
    },
}
"""Each composed card's id and its sentence on the rule sheet, in every language."""


def composed_variant(folder: Path) -> Ruleset:
    """The variant ``composed`` of Spice Road, written into `folder` (the current folder:
    `century new` writes there) and compiled."""
    titles = ["--title", "en=Composed", "--title", "de=Zusammengesetzt", "--title", "fr=Composée"]
    made = CliRunner().invoke(cli.app, ["new", "composed", "--from", "spice-road", *titles])
    assert made.exit_code == 0, made.output
    path = folder / "rules" / "composed.yaml"
    path.write_text(path.read_text("utf-8") + COMPOSED_EDITS, encoding="utf-8")
    return checked(compile_paths([folder / "rules"])).rulesets["composed"]
