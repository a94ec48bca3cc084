"""The layout of the code as the docs draw it (`docs/explanation/architecture.md`) is the
tree: every module and folder of the package is named there, in its folder, and every name
there exists."""

from __future__ import annotations

import re
from pathlib import Path

import century

from helpers.paths import ROOT

PACKAGE = Path(century.__file__).resolve().parent
PAGE = ROOT / "docs" / "explanation" / "architecture.md"
NAME = re.compile(r"[\w.-]+(?:/|\.py(?:\.j2)?|\.typed)")


def drawn() -> set[str]:
    """The paths (relative to the package, folders ending in ``/``) the page's drawing names:
    each line's leading names, at its depth; ``a.py, b.py`` and ``x.typ`` files in a line's
    words are the folder's own and not listed here."""
    block = PAGE.read_text(encoding="utf-8").split("```\ncompiler/century/\n", 1)[1]
    block = block.split("```", 1)[0]
    folders: list[str] = []
    found: set[str] = set()
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip() or indent % 2 or indent > 2 * (len(folders) + 1):
            continue
        depth = indent // 2 - 1
        head = line.strip().split("  ", 1)[0]
        names = [n.strip() for n in head.split(",")]
        if not all(NAME.fullmatch(n) for n in names):
            continue  # a continued description
        del folders[depth:]
        for name in names:
            found.add("".join(folders) + name)
        if names[-1].endswith("/"):
            folders.append(names[-1])
    return found


def tree() -> set[str]:
    """The package's modules and folders of modules (data and caches aside)."""
    found = set()
    for path in PACKAGE.rglob("*"):
        relative = path.relative_to(PACKAGE)
        if {"data", "__pycache__"} & set(relative.parts) or "static" in relative.parts[1:]:
            continue
        if path.is_dir() and any(path.glob("*.py")):
            found.add(relative.as_posix() + "/")
        elif path.suffix == ".py" and path.name != "__init__.py":
            found.add(relative.as_posix())
    return found


def test_every_module_is_drawn_where_it_is() -> None:
    missing = sorted(tree() - drawn())
    assert missing == [], f"not on {PAGE.name}: {missing}"


def test_every_name_drawn_exists() -> None:
    gone = [name for name in sorted(drawn()) if not (PACKAGE / name).exists()]
    assert gone == [], f"on {PAGE.name} but not in the tree: {gone}"
