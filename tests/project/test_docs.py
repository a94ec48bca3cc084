"""The docs site (docs/): it builds in strict mode, every generated reference page is there
(a page per diagnostic code of the registry, a section per command, a row per cap), and the
examples on its pages run.

The build is Sphinx's ``html`` with ``-W --keep-going -n``: any warning fails it, a link to
a page or a label that does not exist among them. It runs on a copy of docs/ in a temporary
folder, so the pages it generates (docs/_ext/century_docs.py) never land in the checkout.

An example runs when its fence says so after the language: ```` ```sh test ```` runs in bash
(``set -e``, with this Python's `century` first on PATH) and ```` ```python test ```` in this
Python, each page's examples in order in one fresh folder of their own, so a page's later
example may use what an earlier one made (a variant, a built engine). A page's Python examples
read as one script: each runs after the page's Python examples before it, so it may use their
names.

Modules an example needs beyond the package follow ``test`` in its fence (```` ```python test
torch sb3_contrib ````): where one is missing, the page's examples before it run and the test
then skips, naming the module and how to install it. A ``pip install`` line of an example
runs with ``--no-index``: it downloads nothing, and fails unless what it names is installed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from century.base import limits
from century.base.diagnostics import CODES

from helpers import ROOT

pytestmark = pytest.mark.slow

DOCS = ROOT / "docs"
GENERATED = ("codes", "_generated", "_build")
"""What a build writes into the docs folder (and .gitignore leaves out)."""
FENCE = re.compile(r"^(`{3,})(sh|python) test\b([^\n]*)\n(.*?)^\1\s*$", re.S | re.M)
"""A runnable example: its fence, its language, the modules it needs, its code."""
PIP_INSTALL = re.compile(r"^(\s*)pip install ", re.M)
"""A ``pip install`` line of a shell example."""
EXAMPLE_SECONDS = 300
STRICT = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-n", "-q"]
"""The strict build: warnings fail it (a broken link or reference among them)."""


SITE_NEEDS = ("sphinx", "myst_parser", "pettingzoo", "gymnasium")
"""What building the site imports (the API pages read the generated environment modules)."""
INSTALL = {
    "sphinx": "pip install -e '.[docs]'",
    "myst_parser": "pip install -e '.[docs]'",
    "pettingzoo": "pip install -e '.[rl]'",
    "gymnasium": "pip install -e '.[rl]'",
    "torch": "pip install torch --index-url https://download.pytorch.org/whl/cpu",
    "sb3_contrib": "pip install sb3-contrib",
    "tqdm": "pip install tqdm",
}
"""How to install each module that the site or an example needs beyond the package."""
PAGE_NEEDS = {"tutorials/training-an-agent.md": ("pettingzoo", "gymnasium")}
"""The examples of a page that all need more than the package."""


def missing(modules: tuple[str, ...]) -> str | None:
    """The first of the modules that is not installed, with how to install it; else None."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed: {INSTALL[module]}"
    return None


def needs(*modules: str) -> None:
    reason = missing(modules)
    if reason:
        pytest.skip(reason)


def sphinx_available() -> None:
    needs(*SITE_NEEDS)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built strictly from a copy of docs/; fails with Sphinx's warnings."""
    sphinx_available()
    base = tmp_path_factory.mktemp("docs")
    source = base / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns(*GENERATED, "__pycache__"))
    out = base / "site"
    start = time.perf_counter()
    done = subprocess.run(
        [*STRICT, "-d", str(base / "doctrees"), str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    took = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-6000:]
    assert done.stderr == "", done.stderr[-6000:]
    print(f"docs built in {took:.1f} s")
    return out


def test_the_site_builds_strictly_with_a_page_per_code(site: Path):
    for code in CODES:
        page = site / "codes" / f"{code}.html"
        assert page.is_file(), f"no page for {code}"
        html = page.read_text(encoding="utf-8")
        assert code in html and "How to fix it" in html, code
    index = (site / "codes" / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{code}.html"' in index for code in CODES)


HREF = re.compile(r'(?:href|src)="([^"#?]*)(?:[#?][^"]*)?"')


def test_every_link_of_the_site_opens_a_file_from_disk(site: Path):
    """Opened from disk (``file://``), a link to a folder shows a listing, not a page: every
    relative link and source of every page names a file that exists."""
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > len(CODES)
    broken = []
    for page in pages:
        for target in HREF.findall(page.read_text(encoding="utf-8")):
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                continue
            resolved = (page.parent / target).resolve()
            if not resolved.is_file():
                broken.append(f"{page.relative_to(site)} -> {target}")
    assert not broken, broken[:20]


def test_code_blocks_have_a_copy_button(site: Path):
    html = (site / "tutorials" / "first-variant.html").read_text(encoding="utf-8")
    assert "copybutton" in html and 'class="highlight' in html


def test_every_command_and_option_has_its_reference(site: Path):
    import typer

    from century.cli import build_app

    html = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    root = typer.main.get_command(build_app())
    ctx = root.context_class(root, info_name="century")
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        assert f'id="cli-{name}"' in html, name
        for param in command.params:
            for option in getattr(param, "opts", ()):
                if option.startswith("-"):
                    assert f'<span class="pre">{option}</span></code>' in html, f"{name} {option}"


def test_every_cap_is_on_the_limits_page_with_its_value_and_meaning(site: Path):
    html = (site / "reference" / "limits.html").read_text(encoding="utf-8")
    caps = {n: v for n, v in vars(limits).items() if n.isupper() and isinstance(v, int | float)}
    assert caps
    for name, value in caps.items():
        shown = f"{value:,}" if isinstance(value, int) else f"{value:g}"
        cells = rf'<span class="pre">{name}</span></code></p></td>\s*<td><p>{re.escape(shown)}</p>'
        found = re.search(cells + r"</td>\s*<td><p>(.+?)</p>", html, re.S)
        assert found, name
        assert found.group(1).strip(), f"{name} has no meaning (a docstring in limits.py)"


def test_the_schema_reference_names_every_key_of_the_game_schema(site: Path):
    import json

    html = (site / "reference" / "data-format.html").read_text(encoding="utf-8")
    game = json.loads((ROOT / "schema" / "game.schema.json").read_text(encoding="utf-8"))
    for key in game["properties"]:
        assert f'<span class="pre">{key}</span>' in html, key


# -- the examples on the pages ---------------------------------------------------------------


Example = tuple[str, tuple[str, ...], str]
"""A runnable example: its language, the modules it needs, its code."""


def examples() -> dict[str, list[Example]]:
    """Every page's runnable examples, by page, in page order."""
    found: dict[str, list[Example]] = {}
    for page in sorted(DOCS.rglob("*.md")):
        parts = page.relative_to(DOCS).parts
        if parts[0] in GENERATED or "_generated" in parts:
            continue
        text = page.read_text("utf-8")
        blocks = [(m[2], tuple(m[3].split()), m[4]) for m in FENCE.finditer(text)]
        if blocks:
            found[page.relative_to(DOCS).as_posix()] = blocks
    return found


EXAMPLES = examples()


def test_the_pages_have_runnable_examples():
    assert len(EXAMPLES) >= 3, sorted(EXAMPLES)


@pytest.mark.parametrize("page", sorted(EXAMPLES))
def test_the_examples_of_a_page_run(page: str, tmp_path: Path):
    needs(*PAGE_NEEDS.get(page, ()))
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("FORCE_COLOR", None)
    script = ""  # the page's Python examples so far
    for number, (language, modules, code) in enumerate(EXAMPLES[page], 1):
        reason = missing(modules)
        if reason:
            pytest.skip(f"{page}: example {number}, after the {number - 1} before it ran: {reason}")
        if language == "sh":
            offline = PIP_INSTALL.sub(r"\1python -m pip install --no-index ", code)
            command = ["bash", "-e", "-c", offline]
        else:
            script += code + "\n"
            command = [sys.executable, "-c", script]
        done = subprocess.run(
            command,
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=EXAMPLE_SECONDS,
            check=False,
        )
        assert done.returncode == 0, (
            f"{page}, example {number} ({language}) exited {done.returncode}:\n{code}\n"
            f"{done.stdout[-2000:]}{done.stderr[-3000:]}"
        )


def test_every_module_an_example_needs_says_how_to_install_it():
    named = {
        module for blocks in EXAMPLES.values() for _, modules, _ in blocks for module in modules
    }
    assert named, "no example names a module it needs"
    assert named <= set(INSTALL), sorted(named - set(INSTALL))
