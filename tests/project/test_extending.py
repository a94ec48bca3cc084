"""The extension recipes of CONTRIBUTING.md, done for real: a third language is data only,
and a new target is one module that `century build` and the command line pick up, the
fields of its options' dataclass its command's options."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel import Locale
from pypdf import PdfReader

from helpers import ROOT

NEW_TARGET = '''"""A word list: every merchant card id of the game, one per line."""

from dataclasses import dataclass

from century.targets import Target, option


@dataclass(frozen=True)
class WordOptions:
    upper: bool = option(False, "--upper", help="Write the ids in capitals.")


def render(ruleset, options):
    words = [card.id.upper() if options.upper else card.id for card in ruleset.merchant_deck]
    return {"words.txt": ("\\n".join(words) + "\\n").encode()}


TARGET = Target(
    "words", "a list of the card ids (words.txt)", render, in_build=False, options=WordOptions
)
'''


def century_with(extra_targets: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run the command line with one more folder of targets on the package's search path."""
    script = (
        "import sys, century.targets as t\n"
        f"t.__path__.append({str(extra_targets)!r})\n"
        "from century.cli import main\n"
        "sys.argv = ['century', *sys.argv[1:]]\n"
        "main()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script, *args], cwd=cwd, capture_output=True, text=True
    )


@pytest.mark.slow
def test_a_new_target_is_one_module(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "words.py").write_text(NEW_TARGET, encoding="utf-8")
    built = century_with(plugins, "build", "--target", "words", "--out", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    words = (tmp_path / "out" / "spice-road" / "words.txt").read_text().split()
    assert len(words) == 43 and "yy-g" in words
    assert not (tmp_path / "out" / "spice-road" / "ruleset.json").exists()
    own = century_with(plugins, "words", "golem", "--out", "golem-words", cwd=tmp_path)
    assert own.returncode == 0, own.stderr
    assert (tmp_path / "golem-words" / "words.txt").is_file()
    upper = century_with(plugins, "words", "golem", "--upper", "--out", "up", cwd=tmp_path)
    assert upper.returncode == 0, upper.stderr
    assert "UP3" in (tmp_path / "up" / "words.txt").read_text().split()
    listed = century_with(plugins, "--help", cwd=tmp_path).stdout
    assert "words" in listed
    assert "--upper" in century_with(plugins, "words", "--help", cwd=tmp_path).stdout


def add_language(node: Any, lang: str, source: str) -> Any:
    """Every translated text (a mapping with a `source` entry) gains `lang`."""
    if isinstance(node, dict):
        node = {k: v if k == "prose" else add_language(v, lang, source) for k, v in node.items()}
        if source in node and all(isinstance(v, str) for v in node.values()):
            node[lang] = f"{node[source]} [{lang}]"
        return node
    if isinstance(node, list):
        return [add_language(v, lang, source) for v in node]
    return node


def add_forms(data: dict[str, Any], lang: str, source: str) -> None:
    """The word forms of `source`, made the forms of `lang`'s marked words (`add_language`),
    one for each CLDR plural category of `lang`, as a translator writes them."""
    forms = data.get("forms")
    if not isinstance(forms, dict) or source not in forms:
        return
    tags = sorted(Locale.parse(lang).plural_form.tags | {"other"})

    def form(word: Any, mark: str) -> Any:
        if isinstance(word, str):
            return word + mark
        return {tag: word.get(tag, word["other"]) + mark for tag in tags}

    mark = f" [{lang}]"
    # the game's names, marked as `add_language` marks them, and the words the prose (a copy
    # of `source`'s) writes as they are
    forms[lang] = {
        **{key: form(word, "") for key, word in forms[source].items()},
        **{key + mark: form(word, mark) for key, word in forms[source].items()},
    }


@pytest.mark.slow
def test_a_third_language_needs_no_python(tmp_path, monkeypatch):
    for art in (ROOT / "rules").rglob("*.svg"):  # the pictures of a game's look, as they are
        (tmp_path / art.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(art, tmp_path / art.relative_to(ROOT))
    for folder in ("rules", "cards"):
        for path in (ROOT / folder).rglob("*.yaml"):
            target = tmp_path / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            if "languages" in data:
                data["languages"] = [*data["languages"], "it"]
                data["prose"]["it"] = "prose/century.it.yaml"
            if data.get("lang") == "en":
                prose = {**data, "lang": "it"}
                fr = target.with_name("century.it.yaml")
                fr.write_text(yaml.safe_dump(prose, allow_unicode=True), encoding="utf-8")
            data = add_language(data, "it", "en")
            add_forms(data, "it", "en")
            target.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    checked = subprocess.run(
        [sys.executable, "-m", "century", "validate", "--strict"], capture_output=True, env=env
    )
    assert checked.returncode == 0, checked.stderr.decode()
    sheets = subprocess.run(
        [sys.executable, "-m", "century", "sheets", "golem", "--lang", "it", "--out", "out"],
        capture_output=True,
        env=env,
    )
    assert sheets.returncode == 0, sheets.stderr.decode()
    text = "".join(
        page.extract_text() for page in PdfReader(tmp_path / "out" / "rules-it-a4.pdf").pages
    )
    assert "[it]" in text
