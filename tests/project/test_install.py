"""The tool as people install it: build the sdist and the wheel, install the wheel into a fresh
virtual environment, and run `century` from a folder outside the checkout.

Slow (about half a minute: the build backend and the dependencies come from the network or
pip's cache). CI runs it; set CENTURY_SKIP_INSTALL_TEST=1 to leave it out of a local run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from helpers import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("CENTURY_SKIP_INSTALL_TEST") == "1",
        reason="CENTURY_SKIP_INSTALL_TEST=1: the install test was left out on request",
    ),
]

DATA_FOLDERS = ("rules", "cards", "schema")


def bundled_files() -> dict[str, bytes]:
    """The bundled data of the checkout, by its path under the data folder."""
    return {
        path.relative_to(ROOT).as_posix(): path.read_bytes()
        for folder in DATA_FOLDERS
        for path in sorted((ROOT / folder).rglob("*"))
        if path.is_file()
    }


def run(cmd: list[str | Path], cwd: Path, env: dict[str, str] | None = None):
    done = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built as `python -m build` does: the wheel from the sdist."""
    out = tmp_path_factory.mktemp("dist")
    done = run([sys.executable, "-m", "build", "--outdir", out, ROOT], cwd=out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A fresh virtual environment with the wheel installed; returns the environment to use."""
    venv = tmp_path_factory.mktemp("venv")
    done = run([sys.executable, "-m", "venv", venv], cwd=venv)
    assert done.returncode == 0, done.stderr
    [wheel] = dist.glob("*.whl")
    python = venv / "bin" / "python"
    done = run([python, "-m", "pip", "install", "--quiet", wheel], cwd=venv)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    return env


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """An empty working folder outside the checkout."""
    assert not tmp_path.resolve().is_relative_to(ROOT)
    return tmp_path


def test_wheel_holds_the_package_and_its_data_and_nothing_else(dist: Path):
    [wheel] = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for name, content in bundled_files().items():
            assert archive.read(f"century/data/{name}") == content, name
    [info] = {name.split("/")[0] for name in names} - {"century"}
    assert info.endswith(".dist-info")
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".orig", "~"))]
    assert "century/shared/typst/fonts/LICENSE-DejaVu.txt" in names
    package = ROOT / "compiler" / "century"
    assets = [  # templates, fonts: every file of the package that is not Python or data
        path.relative_to(package.parent).as_posix()
        for path in package.rglob("*")
        if path.is_file()
        and path.suffix not in (".py", ".pyc")
        and not path.relative_to(package).as_posix().startswith("data/")
    ]
    assert "century/targets/tts/tts.typ" in assets
    assert [asset for asset in assets if asset not in names] == []
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_sdist_holds_the_tests_and_the_data_as_plain_files(dist: Path):
    [sdist] = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[1]: m for m in archive.getmembers() if "/" in m.name}
        assert all(m.isfile() or m.isdir() for m in members.values()), "no links in the sdist"
        for name, content in bundled_files().items():
            for where in (name, f"compiler/century/data/{name}"):
                member = archive.extractfile(members[where])
                assert member is not None and member.read() == content, where
    needed = ["tests/conftest.py", "tests/helpers/__init__.py", "tests/project/test_install.py"]
    for name in [*needed, "tests/README.md", "LICENSE", "pyproject.toml"]:
        assert name in members, name
    assert any(n.startswith("tests/cases/invalid/") for n in members)
    assert any(n.startswith("tests/golden/") for n in members)


def test_installed_century_builds_validates_and_writes_schemas(installed, elsewhere: Path):
    where = run(["python", "-c", "import century; print(century.__file__)"], elsewhere, installed)
    assert Path(where.stdout.strip()).is_relative_to(installed["VIRTUAL_ENV"]), where.stdout

    done = run(["century", "build"], elsewhere, installed)
    assert done.returncode == 0, done.stdout + done.stderr
    games = sorted(p.name for p in (elsewhere / "build").iterdir())
    assert games == ["golem", "spice-road", "spice-road-classic"]
    for game in games:
        folder = elsewhere / "build" / game
        assert json.loads((folder / "ruleset.json").read_text(encoding="utf-8"))["id"] == game
        assert (folder / f"{game.replace('-', '_')}.py").read_text(encoding="utf-8")
        pdfs = sorted(folder.glob("*.pdf"))
        kinds = {pdf.name.split("-")[0] for pdf in pdfs}
        assert kinds == {"rules", "cards"}, f"{game}: {[pdf.name for pdf in pdfs]}"
        for pdf in pdfs:
            assert pdf.read_bytes().startswith(b"%PDF-"), f"{game}/{pdf.name}"

    done = run(["century", "validate"], elsewhere, installed)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = elsewhere / "broken.yaml"
    broken.write_text("id: broken\nextends: spice-road\ncaravan_limit: many\n", encoding="utf-8")
    done = run(["century", "validate", "broken.yaml"], elsewhere, installed)
    assert done.returncode == 1 and "broken.yaml:3:" in done.stderr, done.stderr

    done = run(["century", "watch"], elsewhere, installed)  # installed without the watch extra
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith("error: century watch needs watchfiles: pip install watchfiles")

    done = run(["century", "schema", "--write", "schemas"], elsewhere, installed)
    assert done.returncode == 0, done.stdout + done.stderr
    written = sorted(p.name for p in (elsewhere / "schemas").glob("*.json"))
    assert ".century-manifest.json" in written  # what century wrote, for the next run
    written.remove(".century-manifest.json")
    assert written == sorted(p.name for p in (ROOT / "schema").glob("*.schema.json"))
    for name in written:
        assert (elsewhere / "schemas" / name).read_bytes() == (ROOT / "schema" / name).read_bytes()


def test_installed_century_draws_card_images_and_a_tabletop_kit(installed, elsewhere: Path):
    """The PNG targets find their templates (and the print kit's they import) when installed."""
    for command in ("images", "tts"):
        done = run(
            ["century", command, "spice-road", "--lang", "en", "--dpi", "50"], elsewhere, installed
        )
        assert done.returncode == 0, done.stdout + done.stderr
    folder = elsewhere / "build" / "spice-road"
    assert (folder / "images" / "en" / "backs" / "merchant.png").read_bytes()[:4] == b"\x89PNG"
    assert (folder / "images" / "index.html").is_file()
    saved = json.loads((folder / "tts" / "spice-road-en.json").read_text(encoding="utf-8"))
    assert [o["Name"] for o in saved["ObjectStates"]][:3] == ["Deck", "Deck", "Deck"]
    assert (folder / ".century-manifest.json").is_file()


def test_installed_first_variant_is_found_and_names_the_bundled_base_briefly(
    installed, elsewhere: Path
):
    """`century new` in an empty folder, then `century show` and a variant-caused error: the
    base game's place is `<bundled>/rules/...`, never the environment's site-packages path."""
    folder = elsewhere / "first"
    folder.mkdir()
    done = run(["century", "new", "house", "--from", "spice-road"], folder, installed)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run(["century", "show", "house"], folder, installed)
    assert done.returncode == 0 and "# <bundled>/rules/spice-road.yaml:" in done.stdout
    variant = folder / "rules" / "house.yaml"
    variant.write_text(variant.read_text("utf-8") + "caravan_limit: 2\n", encoding="utf-8")
    done = run(["century", "validate"], folder, installed)
    assert done.returncode == 1
    assert "rules/house.yaml:" in done.stderr and "<bundled>/rules/spice-road.yaml:" in done.stderr
    assert installed["VIRTUAL_ENV"] not in done.stderr
    assert len(done.stderr.strip().splitlines()[-1]) <= 100
