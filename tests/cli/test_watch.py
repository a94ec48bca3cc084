"""`century watch` as a user runs it: a process in a project folder, files edited under it.

The watcher runs in a subprocess; its output is read line by line with a generous deadline
(the machine may be loaded), and no test asserts how long anything took.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import tomllib
from functools import partial
from pathlib import Path

import pytest

from helpers import ROOT

needs_watchfiles = pytest.mark.skipif(
    importlib.util.find_spec("watchfiles") is None,
    reason="the watch extra is not installed (pip install -e '.[watch]')",
)

DEADLINE = 60.0
"""Seconds to wait for an expected line: plenty on a loaded 2-core machine."""


class Watch:
    """A running `century watch` whose output (stdout and stderr) is read as it comes."""

    def __init__(self, cwd: Path, *args: str, background: bool = False) -> None:
        """`background`: started as a script starts a job in the background, SIGINT ignored."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("CENTURY_DEBUG", None)
        ignored = partial(signal.signal, signal.SIGINT, signal.SIG_IGN) if background else None
        self.process = subprocess.Popen(
            [sys.executable, "-m", "century", "watch", *args],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            preexec_fn=ignored,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def until(self, pattern: str) -> list[str]:
        """The lines up to and including the first that matches `pattern` (a regex)."""
        seen: list[str] = []
        while True:
            try:
                line = self._queue.get(timeout=DEADLINE)
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} in {DEADLINE} s") from None
            if line is None:
                raise AssertionError(f"the watcher ended before {pattern!r}:\n" + self.text())
            self.lines.append(line)
            seen.append(line)
            if re.search(pattern, line):
                return seen

    def until_all(self, *patterns: str) -> list[str]:
        """The lines up to the point where each of `patterns` has matched a line, in any order
        (what a watcher prints around a change it sees at once or only on its next look)."""
        seen: list[str] = []
        wanted = list(patterns)
        while wanted:
            seen += self.until("|".join(f"(?:{p})" for p in wanted))
            wanted = [p for p in wanted if not re.search(p, seen[-1])]
        return seen

    def stop(self, signum: int = signal.SIGINT) -> tuple[int, list[str]]:
        """Send `signum`; the exit code and the lines printed until the end."""
        self.process.send_signal(signum)
        code = self.process.wait(timeout=DEADLINE)
        rest: list[str] = []
        while (line := self._queue.get(timeout=DEADLINE)) is not None:
            self.lines.append(line)
            rest.append(line)
        return code, rest

    def text(self) -> str:
        return "\n".join(self.lines)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=DEADLINE)


@pytest.fixture
def watching():
    """Start watchers; whatever a test leaves running is killed."""
    started: list[Watch] = []

    def start(cwd: Path, *args: str, background: bool = False) -> Watch:
        started.append(Watch(cwd, *args, background=background))
        return started[-1]

    yield start
    for each in started:
        each.kill()


def save(path: Path, text: str) -> None:
    """Save `path` as many editors do: write a new file beside it, then rename it over."""
    fresh = path.with_name(f".{path.name}.saving")
    fresh.write_text(text, encoding="utf-8")
    os.replace(fresh, path)


def new_variant(folder: Path) -> None:
    """`century new house --from spice-road` in `folder`: a first variant of the bundled game."""
    done = subprocess.run(
        [sys.executable, "-m", "century", "new", "house", "--from", "spice-road"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def project(folder: Path) -> Path:
    """A project of the bundled base game, one of its variants, and an independent copy of
    the base game with decks of its own (`copy`), in `folder`."""
    (folder / "rules").mkdir(parents=True)
    shutil.copytree(ROOT / "rules" / "prose", folder / "rules" / "prose")
    shutil.copytree(ROOT / "cards", folder / "cards")
    shutil.copytree(folder / "cards" / "spice-road", folder / "cards" / "copy")
    base = (ROOT / "rules" / "spice-road.yaml").read_text(encoding="utf-8")
    (folder / "rules" / "spice-road.yaml").write_text(base, encoding="utf-8")
    copy = base.replace("id: spice-road", "id: copy").replace("cards/spice-road/", "cards/copy/")
    assert copy.count("cards/copy/") == 3
    (folder / "rules" / "copy.yaml").write_text(copy, encoding="utf-8")
    shutil.copy(ROOT / "rules" / "spice-road-classic.yaml", folder / "rules")
    return folder


@pytest.mark.slow
@needs_watchfiles
def test_watch_rebuilds_only_the_games_a_change_touches(tmp_path, watching):
    root = project(tmp_path)
    watch = watching(root)
    first = watch.until(r"^watching ")
    assert "watching cards/, rules/ (12 files); Ctrl-C stops" in first
    for game in ("copy", "spice-road", "spice-road-classic"):
        assert any(line.startswith(f"built build/{game} in ") for line in first), first
    copy_folder = (root / "build" / "copy").stat()

    merchant = root / "cards" / "spice-road" / "merchant.yaml"
    good = merchant.read_text(encoding="utf-8")
    lines = good.splitlines()
    number = next(i for i, line in enumerate(lines) if "get: YR}" in line)
    col = lines[number].index("YR") + 1
    save(merchant, good.replace("get: YR}", "get: YX}", 1))

    broken = watch.until(r"^not built: spice-road-classic ")
    assert broken[0] == (
        "changed cards/spice-road/merchant.yaml: rebuilding spice-road, spice-road-classic"
    )
    located = f"cards/spice-road/merchant.yaml:{number + 1}:{col}: error C302: "
    assert any(line.startswith(located) for line in broken), broken
    assert any(
        line.startswith("checked 2 games (spice-road, spice-road-classic)") for line in broken
    )
    assert "not built: spice-road has errors; build/spice-road is left as it was" in broken
    assert not [line for line in broken if line.startswith("built ")]

    save(merchant, good)
    fixed = watch.until(r"^built build/spice-road-classic in ")
    assert fixed[0] == broken[0]
    assert not [line for line in fixed if ": error " in line], fixed
    [built] = [line for line in fixed if line.startswith("built build/spice-road in ")]
    match = re.fullmatch(r"built build/spice-road in \d+\.\d\d s: (.*)", built)
    assert match, built
    written = match.group(1).split(", ")
    assert {"ruleset.json", "spice_road.py", "rules-en-a4.pdf", "cards-de-a4.pdf"} <= set(written)
    for name in written:
        assert (root / "build" / "spice-road" / name).is_file(), name

    code, rest = watch.stop(signal.SIGINT)
    assert code == 0, watch.text()
    assert rest == ["stopped watching"], rest
    changes = [line for line in watch.lines if line.startswith("changed ")]
    assert len(changes) == 2, watch.text()  # one rebuild attempt per edit
    assert [line for line in watch.lines if line.startswith("built build/copy ")] == [
        line for line in first if line.startswith("built build/copy ")
    ]
    untouched = (root / "build" / "copy").stat()
    assert (untouched.st_ino, untouched.st_mtime_ns) == (
        copy_folder.st_ino,
        copy_folder.st_mtime_ns,
    )
    assert "Traceback" not in watch.text()


@pytest.mark.slow
@needs_watchfiles
def test_watch_keeps_going_after_a_refused_folder_and_stops_on_sigterm(tmp_path, watching):
    root = project(tmp_path)
    (root / "build" / "copy").mkdir(parents=True)
    (root / "build" / "copy" / "notes.txt").write_text("mine", encoding="utf-8")
    watch = watching(root, "rules", "cards", "--target", "ruleset", "--out", "build")
    first = watch.until(r"^watching ")
    assert any(
        line.startswith("error: build/copy holds files century did not write (notes.txt)")
        for line in first
    ), first
    assert (root / "build" / "copy" / "notes.txt").read_text(encoding="utf-8") == "mine"

    (root / "build" / "copy" / "notes.txt").unlink()
    variant = root / "rules" / "spice-road-classic.yaml"
    with variant.open("a", encoding="utf-8") as edit:  # an edit in place
        edit.write("\n")
    again = watch.until(r"^built build/spice-road-classic in ")
    assert again[0] == "changed rules/spice-road-classic.yaml: rebuilding spice-road-classic"
    assert re.search(r"in \d+\.\d\d s: ruleset\.json$", again[-1]), again

    code, rest = watch.stop(signal.SIGTERM)
    assert code == 0, watch.text()
    assert rest == ["stopped watching"], rest


def test_watch_without_the_extra_says_how_to_install_it(run, monkeypatch):
    """The hint names the package the watch extra requires (the distribution itself need not
    be on an index), and says how to add it under pip, pipx and in a checkout."""
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # `import watchfiles` fails
    result = run("watch")
    assert result.exit_code == 1
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [required] = project["optional-dependencies"]["watch"]
    package = re.match(r"[A-Za-z0-9_.-]+", required).group()
    assert result.stderr == (
        f"error: century watch needs {package}: pip install {package} (installed with pipx: "
        f"pipx inject {project['name']} {package}; in a checkout: pip install -e '.[watch]')\n"
    )
    assert result.stdout == ""


@needs_watchfiles
def test_watch_needs_rules_of_its_own(run, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    result = run("watch")
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("error: nothing to watch: this folder has no rules/ or cards/")
    result = run("watch", "no/such/rules")
    assert result.exit_code == 2
    assert result.stderr == "error: no such file or folder: no/such/rules\n"


@pytest.mark.slow
@needs_watchfiles
def test_watch_never_quotes_a_file_a_symlink_brings_in(tmp_path, watching):
    """A watched rules file replaced by a symlink to a file out of the project is skipped
    with a warning and never quoted; SIGHUP then stops the watch."""
    root = tmp_path / "proj"
    (root / "rules").mkdir(parents=True)
    (tmp_path / "secret.yaml").write_text("password: hunter2\n", encoding="utf-8")
    mine = root / "rules" / "mine.yaml"
    mine.write_text("id: mine\nextends: spice-road\n", encoding="utf-8")
    (root / "rules" / "other.yaml").write_text("id: other\nextends: spice-road\n", "utf-8")
    watch = watching(root, "--target", "ruleset")
    watch.until(r"^watching ")
    link = root / "rules" / ".mine.yaml.saving"
    link.symlink_to(tmp_path / "secret.yaml")
    os.replace(link, mine)
    skipped = watch.until(r"rules/mine\.yaml is a symlink leading out of the project folder")
    assert "warning C208" in skipped[-1] and skipped[-1].endswith("; skipped")
    code, _ = watch.stop(signal.SIGHUP)
    assert code == 0, watch.text()
    assert "hunter2" not in watch.text() and "password" not in watch.text()
    assert "Traceback" not in watch.text()


@pytest.mark.slow
@needs_watchfiles
def test_watch_finds_a_first_variant_and_rebuilds_on_a_table_edit(tmp_path, watching):
    """`century new` in an empty folder, its merchant deck exported to a table and named by
    the variant: a plain `century watch` builds the variant and follows edits of the table."""
    for args in (
        ["new", "house", "--from", "spice-road"],
        ["deck", "export", "house", "merchant", "--out", "cards/merchant.csv"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "century", *args], cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    variant = tmp_path / "rules" / "house.yaml"
    save(variant, variant.read_text("utf-8") + "decks: {merchant: ../cards/merchant.csv}\n")
    watch = watching(tmp_path)
    first = watch.until(r"^watching ")
    assert any(line.startswith("built build/house in ") for line in first), first
    table = tmp_path / "cards" / "merchant.csv"
    good = table.read_text("utf-8")
    save(table, good.replace("gain,YR,", "gain,YX,", 1))
    broken = watch.until(r"^not built: house ")
    line = good.splitlines().index("gain,YR,,") + 1
    assert any(x.startswith(f"cards/merchant.csv:{line}:6: error C302: ") for x in broken), broken
    save(table, good)
    watch.until(r"^built build/house in ")
    code, _ = watch.stop(signal.SIGINT)
    assert code == 0, watch.text()


@pytest.mark.slow
@needs_watchfiles
def test_watch_never_watches_the_bundled_data_a_variant_extends(tmp_path, watching):
    """A variant of a bundled game uses the install's rules and decks: the watch builds it
    but watches only the project's own files (the bundled ones change only with an upgrade)."""
    new_variant(tmp_path)
    watch = watching(tmp_path, "--target", "ruleset")
    first = watch.until(r"^watching ")
    assert first[-1] == "watching rules/ (1 file); Ctrl-C stops", first
    assert first[0].startswith("checked 1 game (house) in 8 files under rules/, <bundled>:")
    variant = tmp_path / "rules" / "house.yaml"
    save(variant, variant.read_text("utf-8") + "caravan_limit: 11\n")
    again = watch.until(r"^built build/house in ")
    assert again[0] == "changed rules/house.yaml: rebuilding house", again
    code, _ = watch.stop(signal.SIGTERM)
    assert code == 0, watch.text()
    assert "changed <bundled>" not in watch.text()


@needs_watchfiles
def test_a_stop_that_lands_in_a_finalizer_still_ends_the_watch(run, monkeypatch, tmp_path):
    """A signal is handled wherever the program is; where that is a finalizer (a lock's
    `__del__`, say), Python swallows what the handler raises. The watch must end anyway: here
    SIGTERM arrives inside a `__del__` while the watch waits for changes."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "house", "--from", "spice-road").exit_code == 0

    class Finalized:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10_000):  # the handler runs here, inside the finalizer
                pass

    def watch(*roots: Path, **options: object):
        Finalized()  # collected at once
        for _ in range(100):
            yield set()
        raise AssertionError("the watch went on after SIGTERM")

    monkeypatch.setitem(sys.modules, "watchfiles", type(sys)("watchfiles"))
    monkeypatch.setattr(sys.modules["watchfiles"], "watch", watch, raising=False)
    result = run("watch", "--target", "ruleset")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == "stopped watching", result.stderr


@pytest.mark.slow
@needs_watchfiles
def test_a_watch_started_in_the_background_ignores_ctrl_c(tmp_path, watching):
    """A job a script starts in the background has SIGINT ignored; the watch keeps it so (as
    the docs say, docs/how-to/watch.md) and stops on SIGTERM."""
    new_variant(tmp_path)
    watch = watching(tmp_path, "--target", "ruleset", background=True)
    watch.until(r"^watching ")
    watch.process.send_signal(signal.SIGINT)
    variant = tmp_path / "rules" / "house.yaml"
    save(variant, variant.read_text("utf-8") + "caravan_limit: 11\n")
    watch.until(r"^built build/house in ")  # still watching
    code, rest = watch.stop(signal.SIGTERM)
    assert code == 0, watch.text()
    assert rest == ["stopped watching"], rest


@pytest.mark.slow
@needs_watchfiles
def test_watch_survives_its_rules_folder_deleted_and_made_again(tmp_path, watching):
    """The folder watched goes (a branch switched, say) and comes back: the watch says the
    game is gone, keeps the last output, and builds again once the folder is back."""
    new_variant(tmp_path)
    variant = (tmp_path / "rules" / "house.yaml").read_text(encoding="utf-8")
    watch = watching(tmp_path, "rules", "--target", "ruleset")
    watch.until(r"^watching ")
    shutil.rmtree(tmp_path / "rules")
    # The watch moves to the folder above and says the game is gone, in the order it sees
    # the change: while it looks (gone, then watching anew) or as it starts to look anew.
    gone = watch.until_all(r"^not built: house ", r"^watching (?!rules/)")
    said = [line for line in gone if line.startswith("not built: house ")]
    assert said == ["not built: house is no longer defined; build/house is left as it was"]
    assert (tmp_path / "build" / "house" / "ruleset.json").is_file()
    (tmp_path / "rules").mkdir()
    save(tmp_path / "rules" / "house.yaml", variant)
    back = watch.until(r"^built build/house in ")
    assert "changed rules/house.yaml: rebuilding house" in back, back
    code, _ = watch.stop()
    assert code == 0, watch.text()


@pytest.mark.slow
@needs_watchfiles
def test_a_deck_file_that_disappears_is_an_error_never_a_build_from_the_base(tmp_path, watching):
    """The variant's own deck is deleted: an error at the place that names it, and the last
    good output is kept, never replaced by a build with the base game's deck."""
    new_variant(tmp_path)
    (tmp_path / "cards").mkdir()
    table = tmp_path / "cards" / "merchant.csv"
    export = [sys.executable, "-m", "century", "deck", "export", "house", "merchant"]
    done = subprocess.run([*export, "--out", str(table)], cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stderr
    with (tmp_path / "rules" / "house.yaml").open("a", encoding="utf-8") as edit:
        edit.write("decks:\n  merchant: ../cards/merchant.csv\n")
    watch = watching(tmp_path, "--target", "ruleset")
    watch.until(r"^watching ")
    built = (tmp_path / "build" / "house" / "ruleset.json").read_bytes()
    table.unlink()
    gone = watch.until(r"^not built: house ")
    assert any("error C001: no such file: cards/merchant.csv" in line for line in gone), gone
    assert gone[-1] == "not built: house has errors; build/house is left as it was"
    assert (tmp_path / "build" / "house" / "ruleset.json").read_bytes() == built
    code, _ = watch.stop()
    assert code == 0, watch.text()


@pytest.mark.slow
@needs_watchfiles
def test_watch_rebuilds_when_a_picture_of_the_look_changes(tmp_path, watching):
    """A picture the look names is watched like the rules: a hostile one stops the build with
    its located error, the fixed one builds again."""
    new_variant(tmp_path)
    variant = tmp_path / "rules" / "house.yaml"
    icon = tmp_path / "rules" / "art" / "turmeric.svg"
    good = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="5"/></svg>'
    icon.write_text(good, encoding="utf-8")
    save(variant, variant.read_text("utf-8") + "look: {icons: {turmeric: art/turmeric.svg}}\n")
    watch = watching(tmp_path)
    first = watch.until(r"^watching ")
    assert any(line.startswith("built build/house in ") for line in first), first
    save(icon, good.replace("<circle", '<image href="https://example.org/x.png"/><circle'))
    broken = watch.until(r"^not built: house ")
    assert any(x.startswith("rules/house.yaml:") and "C028" in x for x in broken), broken
    save(icon, good)
    watch.until(r"^built build/house in ")
    code, _ = watch.stop(signal.SIGINT)
    assert code == 0, watch.text()


@pytest.mark.slow
@needs_watchfiles
def test_watch_redraws_a_named_cards_preview_on_save(tmp_path, watching):
    """`--preview CARD` redraws that card's preview in every language on each save, and
    builds nothing else: a changed frame colour is a changed picture."""
    new_variant(tmp_path)
    variant = tmp_path / "rules" / "house.yaml"
    card = "yy-g"
    watch = watching(tmp_path, "--preview", card)
    first = watch.until(r"^watching ")
    assert any(line.startswith(f"preview of {card} in house: ") for line in first), first
    picture = tmp_path / "build" / "house" / "preview" / f"{card}-en.png"
    before = picture.read_bytes()
    assert (tmp_path / "build" / "house" / "preview" / f"{card}-de.png").is_file()
    assert not (tmp_path / "build" / "house" / "rules-en-a4.pdf").exists()
    save(variant, variant.read_text("utf-8") + 'look: {decks: {merchant: {frame: "#7A1F1F"}}}\n')
    watch.until(rf"^preview of {card} in house: ")
    assert picture.read_bytes() != before
    code, _ = watch.stop(signal.SIGINT)
    assert code == 0, watch.text()
