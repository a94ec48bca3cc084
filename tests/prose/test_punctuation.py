"""A language's punctuation is data: its prose file's ``punctuation`` block, checked by the
schema, sets the spaces before ``: ; ? !`` and the quotes without any Python change."""

from __future__ import annotations

from pathlib import Path

from century.pipeline import compile_paths
from century.prose import NNBSP, prose_texts, punctuation, typeset

from helpers.paths import DATA

SPACED = 'punctuation:\n  space_before: ":?"\n  quotes: ["»", "«"]\n'


def _house(folder: Path, block: str) -> Path:
    """A variant of Spice Road whose English prose (the bundled one) carries `block`."""
    rules = folder / "rules"
    rules.mkdir()
    english = (DATA / "rules" / "prose" / "century.en.yaml").read_text("utf-8")
    (rules / "spaced.en.yaml").write_text(english.replace("lang: en\n", f"lang: en\n{block}"))
    (rules / "house.yaml").write_text(
        "id: house\nextends: spice-road\nprose:\n  en: spaced.en.yaml\n", "utf-8"
    )
    return rules


def test_a_language_file_spaces_its_own_punctuation(tmp_path: Path) -> None:
    found = compile_paths([_house(tmp_path, SPACED)], with_bundled=True, only="house")
    texts = prose_texts(found.rulesets["house"], "en")
    plain = prose_texts(compile_paths(only="spice-road").rulesets["spice-road"], "en")
    spaced = [key for key, text in texts.items() if f"{NNBSP}:" in text]
    assert spaced and all(f"{NNBSP}:" not in plain[key] for key in spaced)
    assert all(f"{NNBSP};" not in text for text in texts.values())  # ";" is not listed
    marks = punctuation(found.rulesets["house"], "en")
    assert typeset("say “hi”!", marks) == "say »hi«!"  # "!" is not listed either


def test_the_schema_checks_the_punctuation_block(run, tmp_path: Path) -> None:
    rules = _house(tmp_path, 'punctuation:\n  space_before: "x"\n  quote: [a, b]\n')
    result = run("validate", str(rules))
    assert result.exit_code != 0
    assert "space_before" in result.output and "quote" in result.output
