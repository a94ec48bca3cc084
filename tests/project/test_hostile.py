"""The hostile corpus: careless and hostile input, one case per file in tests/cases/hostile/,
each run through the CLI in a fresh folder, with its expected answer.

A case is a YAML mapping:

``about``, ``class``
    what the input is, and which class of the hostile-input list it belongs to.
``args``
    the ``century`` command line, run in the case's folder.
``files`` / ``encoded`` / ``links`` / ``fifos`` / ``generate``
    what the folder holds first: text files (UTF-8; ``encoded``: ``{encoding, text}`` in
    another encoding, written without a byte-order mark), symlinks, FIFOs, and generated inputs (see
    `GENERATORS`: long variant chains, prose with a given sentence, files with many values,
    deck tables with many rows, game records and simulation reports with a change).
``stdin``
    what is typed.
``cwd``
    the subfolder of the case's folder the command runs in (default: the folder itself).
``exit``, ``expect``, ``absent_text``
    the exit code, texts the output must contain (an item that is a list: one of its texts,
    where the answer depends on a dependency's version), texts it must not (contents of files
    that are not rules files, raw control characters).
``written``, ``absent``
    files the run may write, and paths that must not exist afterwards.

Every case also checks that no traceback or internal error is printed, that every file the
folder held is still there unchanged (unless listed in ``written``), and that no temporary
file is left behind.
"""

from __future__ import annotations

import base64
import copy
import functools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from century import cli

from helpers import CASES as CORPUS
from helpers import ROOT, spice_road

CASES = sorted((CORPUS / "hostile").glob("*.yaml"))


def load_case(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_corpus_covers_every_class():
    classes = {load_case(case)["class"] for case in CASES}
    assert classes == {
        "output",
        "limits-data",
        "limits-prose",
        "limits-engine",
        "schema",
        "paths",
        "engine-api",
        "terminal",
        "determinism",
        "input-never-output",
        "writes-inside",
        "never-quoted",
        "bounded-json",
        "process-caps",
        "seeds",
        "endless-games",
        "library-api",
        "no-false-pass",
        "recoverable",
        "never-injected",
    }
    assert len(CASES) >= 60


# -- generated inputs ------------------------------------------------------------------------

ENGLISH = ROOT / "rules" / "prose" / "century.en.yaml"


def gen_chain(folder: Path, spec: dict[str, Any]) -> None:
    """`count` variants, each extending the next, the last extending spice-road."""
    count = spec["count"]
    for i in range(count):
        base = "spice-road" if i == count - 1 else f"v{i + 1}"
        write(folder / spec["folder"] / f"v{i}.yaml", f"id: v{i}\nextends: {base}\n")


def gen_prose(folder: Path, spec: dict[str, Any]) -> None:
    """A variant whose English rule-sheet text has `goal` replaced by `spec['goal']`."""
    data = yaml.safe_load(ENGLISH.read_text(encoding="utf-8"))
    data["text"]["goal"] = spec["goal"]
    name = spec.get("id", "bomb")
    write(folder / "rules" / f"{name}.en.yaml", yaml.safe_dump(data, allow_unicode=True))
    write(
        folder / "rules" / f"{name}.yaml",
        f"id: {name}\nextends: spice-road\nprose:\n  en: {name}.en.yaml\n",
    )


def gen_values(folder: Path, spec: dict[str, Any]) -> None:
    """`files` deck files of `lists` lists of 250 numbers each, all different."""
    for n in range(spec.get("files", 1)):
        lines = ["deck: merchant", "cards: []", "extra:"]
        numbers = (
            ", ".join(str(n * 10**6 + i * 1000 + j) for j in range(250))
            for i in range(spec["lists"])
        )
        lines += [f"  k{i}: [{row}]" for i, row in enumerate(numbers)]
        write(folder / spec["folder"] / f"values-{n}.yaml", "\n".join(lines) + "\n")


def gen_nesting(folder: Path, spec: dict[str, Any]) -> None:
    depth = spec["depth"]
    write(
        folder / spec["file"], "id: deep\nextends: spice-road\nname: " + "[" * depth + "]" * depth
    )


def gen_padding(folder: Path, spec: dict[str, Any]) -> None:
    write(folder / spec["file"], "id: big\nextends: spice-road\n" + "# pad\n" * spec["lines"])


def gen_many_cards(folder: Path, spec: dict[str, Any]) -> None:
    adds = "".join(
        f"      - {{kind: gain, get: {'Y' * (1 + i % 9)}, id: c{i}}}\n"
        for i in range(spec["count"])
    )
    text = f"id: many\nextends: spice-road\ncards:\n  merchant:\n    add:\n{adds}"
    write(folder / spec["file"], text)


@functools.cache
def valid_record() -> dict[str, Any]:
    from century.engine import load_engine

    engine = load_engine(spice_road())
    rng = random.Random(3)
    state = engine.new_game(2, 3)
    for _ in range(20):
        moves = state.legal_moves()
        state.play(moves[rng.randrange(len(moves))])
    return state.record()


def gen_record(folder: Path, spec: dict[str, Any]) -> None:
    """A record of 20 random moves of spice-road, with `patch` applied (``moves_cut`` keeps
    that many moves and then adds ``moves_add``), and cut to `truncate` characters."""
    record = copy.deepcopy(valid_record())
    record.update(spec.get("patch", {}))
    if "moves_cut" in spec:
        record["moves"] = record["moves"][: spec["moves_cut"]] + spec.get("moves_add", [])
    if "start" in spec:
        record["start"] = spec["start"]
    text = json.dumps(record)
    write(folder / spec["file"], text[: spec.get("truncate", len(text))])


@functools.cache
def valid_report() -> dict[str, Any]:
    from century.reports.report import build_report
    from century.simulation.config import SimConfig
    from century.simulation.simulate import simulate

    ruleset = spice_road()
    config = SimConfig(games=2, players=2, bots=("random", "random"), seed=1)
    return json.loads(json.dumps(build_report(simulate(ruleset, config, 1, None, None))))


def gen_report(folder: Path, spec: dict[str, Any]) -> None:
    report = copy.deepcopy(valid_report())
    report.update(spec.get("patch", {}))
    write(folder / spec["file"], json.dumps(report))


def gen_manifest(folder: Path, spec: dict[str, Any]) -> None:
    """A manifest of century's in `spec['folder']` listing `spec['files']`."""
    from century.base.output import MANIFEST, manifest_bytes

    (folder / spec["folder"] / MANIFEST).write_bytes(manifest_bytes(spec["files"]))


def gen_table(folder: Path, spec: dict[str, Any]) -> None:
    """A merchant deck table of `spec['rows']` gain cards (each a cube more, up to nine)."""
    rows = "".join(f"gain,{'Y' * (1 + i % 9)}\n" for i in range(spec["rows"]))
    write(folder / spec["file"], "kind,get\n" + rows)


def gen_png(folder: Path, spec: dict[str, Any]) -> None:
    """A real PNG of `spec['width']` × `spec['height']` grey pixels, all zero: a few hundred
    kilobytes that would decode to that many bytes (a decompression bomb); without its end
    chunk when `spec['end']` is false."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    width, height = spec["width"], spec["height"]
    packer = zlib.compressobj(9)
    row = bytes(width + 1)  # the filter byte and the pixels of one row
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body)
    path = folder / spec["file"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png + (chunk(b"IEND", b"") if spec.get("end", True) else b""))


def gen_copy(folder: Path, spec: dict[str, str]) -> None:
    """Copies of folders of this repository (``{dest: source}``), e.g. the bundled rules."""
    for dest, source in spec.items():
        shutil.copytree(ROOT / source, folder / dest)


GENERATORS = {
    "copy": gen_copy,
    "chain": gen_chain,
    "prose": gen_prose,
    "values": gen_values,
    "nesting": gen_nesting,
    "padding": gen_padding,
    "many_cards": gen_many_cards,
    "table": gen_table,
    "record": gen_record,
    "report": gen_report,
    "manifest": gen_manifest,
    "png": gen_png,
}


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def prepare(folder: Path, case: dict[str, Any]) -> None:
    for name, text in (case.get("files") or {}).items():
        write(folder / name, text)
    for name, spec in (case.get("encoded") or {}).items():  # text in another encoding
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(spec["text"].encode(spec["encoding"]))
    for name, target in (case.get("links") or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, folder / name)
    for name in case.get("fifos") or []:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(folder / name)
    for spec in case.get("generate") or []:
        (kind, options), *_ = spec.items()
        GENERATORS[kind](folder, options)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every regular file below `folder` and its bytes (FIFOs and links left alone)."""
    found = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = Path(root, name)
            if path.is_file() and not path.is_symlink():
                found[path.relative_to(folder).as_posix()] = path.read_bytes()
    return found


# -- the corpus --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_hostile_case(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    case = load_case(path)
    folder = tmp_path / "case"
    folder.mkdir()
    prepare(folder, case)
    before = snapshot(folder)
    monkeypatch.chdir(folder / case.get("cwd", "."))
    stdin = case.get("stdin")
    if "stdin_base64" in case:
        stdin = base64.b64decode(case["stdin_base64"])
    result = CliRunner().invoke(cli.app, [str(a) for a in case["args"]], input=stdin)
    output = result.stdout + result.stderr
    shown = f"{path.name}: exit {result.exit_code}\n{output[-3000:]}"
    assert result.exit_code == case["exit"], shown
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{shown}\n{result.exception!r}"
    )
    for bad in ("Traceback", "internal error", "this is a bug"):
        assert bad not in output, shown
    for text in case.get("expect") or []:
        choices = text if isinstance(text, list) else [text]
        assert any(choice in output for choice in choices), f"expected {text!r} in {shown}"
    for text in case.get("absent_text") or []:
        assert text not in output, f"did not expect {text!r} in {shown}"
    after = snapshot(folder)
    written = set(case.get("written") or [])
    for name, data in before.items():
        if name not in written:
            assert after.get(name) == data, f"{name} was changed or removed: {shown}"
    for name in case.get("absent") or []:
        assert not list(folder.glob(name)), f"{name} exists after {shown}"
    leftovers = [name for name in after if ".century-tmp." in name]
    assert not leftovers, f"temporary files left: {leftovers}"


# -- real processes: concurrent and killed builds, signals in the terminal game ---------------


def century(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "century", *args],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_concurrent_builds_into_one_folder_both_finish(tmp_path: Path):
    out = tmp_path / "out"
    runs = [
        century(
            "build", "--target", "ruleset", "--target", "engine", "--out", str(out), cwd=tmp_path
        )
        for _ in range(3)
    ]
    results = [(run.wait(timeout=300), run.stderr.read()) for run in runs]
    for code, stderr in results:
        assert code == 0, stderr
        assert "Traceback" not in stderr
    assert sorted(p.name for p in out.iterdir()) == ["golem", "spice-road", "spice-road-classic"]
    for game in out.iterdir():
        names = {p.name for p in game.iterdir()}
        assert names == {
            ".century-manifest.json",
            f"{game.name.replace('-', '_')}.py",
            "ruleset.json",
        }


@pytest.mark.slow
def test_a_killed_build_is_cleaned_up_by_the_next(tmp_path: Path):
    out = tmp_path / "out"
    run = century("build", "--out", str(out), cwd=tmp_path)  # every target: PDFs take a while
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(out.glob(".century-tmp.*/*")):
        time.sleep(0.02)
    run.kill()
    run.wait(timeout=60)
    assert list(out.glob(".century-tmp.*")), "the build was killed while writing"
    again = century("build", "--target", "ruleset", "--out", str(out), cwd=tmp_path)
    assert again.wait(timeout=300) == 0, again.stderr.read()
    assert not list(out.glob(".century-tmp.*")), "the killed build's temporary folders remain"
    assert all((game / ".century-manifest.json").is_file() for game in out.iterdir())


LOOK = """id: mine
extends: spice-road
look:
  decks:
    point: {back: art/back.svg}
"""


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="a process is asked after with kill(pid, 0)")
def test_a_killed_builds_look_copies_are_removed_by_the_next(tmp_path: Path):
    rules = tmp_path / "rules"
    write(rules / "mine.yaml", LOOK)
    write(rules / "art" / "back.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 6 9"/>')
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    running = scratch / f"century-look-{os.getpid()}-abc"  # a live process's: kept
    running.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}

    def images(out: str) -> subprocess.Popen:
        command = [sys.executable, "-m", "century", "images", "mine", "--out", out]
        return subprocess.Popen(command, cwd=tmp_path, env=env, stderr=subprocess.PIPE)

    def copies() -> list[Path]:
        return [path for path in scratch.glob("century-look-*") if path != running]

    run = images("out")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not copies() and run.poll() is None:
        time.sleep(0.02)
    run.kill()
    run.wait(timeout=60)
    left = copies()
    assert left, "the build was killed while its look was copied"
    again = images("again")  # stopped once its own copies are made: the leftovers are gone
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and again.poll() is None and copies() == left:
        time.sleep(0.02)
    again.kill()
    again.wait(timeout=60)
    assert not any(path.exists() for path in left), "the killed build's copies remain"
    assert running.is_dir()


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from the process table, /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table")
@pytest.mark.parametrize(
    ("command", "name"),
    [
        (["simulate", "spice-road", "--games", "100000", "--bots", "greedy"], "SIGTERM"),
        (["simulate", "spice-road", "--games", "100000", "--bots", "greedy"], "SIGINT"),
        (["bots", "spice-road", "--games", "100000", "--bots", "greedy,random"], "SIGHUP"),
    ],
)
def test_a_signal_ends_every_worker_process(tmp_path: Path, command: list[str], name: str):
    """SIGTERM, SIGINT and SIGHUP stop simulate and bots with every worker process they
    started ended, none left behind (checked in the process table), and nothing written."""
    run = century(*command, "--workers", "2", "--out", "out", cwd=tmp_path)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        workers = children(run.pid)
        time.sleep(0.05)
    assert len(workers) == 2, "the command started two worker processes"
    run.send_signal(getattr(signal, name))
    code = run.wait(timeout=60)
    stderr = run.stderr.read()
    assert code == 128 + getattr(signal, name), stderr
    assert "stopped" in stderr or "interrupted" in stderr
    assert "Traceback" not in stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if alive(pid)], "worker processes were left behind"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_workers_are_capped_by_the_cpus_and_the_games():
    from century.simulation.simulate import default_workers, workers_for

    cpus = default_workers()
    assert workers_for(0, 10_000) == cpus
    assert workers_for(10_000, 10_000) == cpus
    assert workers_for(64, 3) == min(3, cpus)
    assert workers_for(0, 1) == 1


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_play_saves_the_record_on_a_signal(tmp_path: Path, name: str):
    record = tmp_path / "game.json"
    run = century("play", "spice-road", "--seed", "2", "--record", str(record), cwd=tmp_path)
    run.stdin.write("1\n")
    run.stdin.flush()
    seen = ""
    while seen.count("your move>") < 2:  # one move played, waiting for the next
        seen += run.stdout.read1(4096) if hasattr(run.stdout, "read1") else run.stdout.read(1)
    run.send_signal(getattr(signal, name))
    code = run.wait(timeout=60)
    rest = run.stdout.read()
    assert code == 128 + getattr(signal, name), rest + run.stderr.read()
    assert f"{name}: leaving the game" in rest and f"record saved to {record}" in rest
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["rules"] == "spice-road" and len(data["moves"]) == 2


def test_schema_write_never_replaces_the_schemas_it_copies(tmp_path, monkeypatch):
    """Input is never output: `schema --write` into the folder it copies from is refused even
    when a manifest there lists every schema (as one century wrote would)."""
    from century.base import resources
    from century.base.output import MANIFEST, manifest_bytes

    bundled = tmp_path / "schema"
    shutil.copytree(resources.SCHEMAS, bundled)
    names = sorted(path.name for path in bundled.glob("*.schema.json"))
    (bundled / MANIFEST).write_bytes(manifest_bytes(names))
    before = snapshot(bundled)
    monkeypatch.setattr(resources, "SCHEMAS", bundled)
    result = CliRunner().invoke(cli.app, ["schema", "--write", str(bundled)])
    assert result.exit_code == 1, result.output
    assert "is an input of this run; century never deletes or replaces" in result.output
    assert snapshot(bundled) == before


def limited_files(size: int) -> Any:
    """A `preexec_fn` under which no file the process writes can grow past `size` bytes (a
    full disk, as the writer meets it: `EFBIG` from the write)."""

    def limit() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="POSIX file size limits")
@pytest.mark.parametrize(
    "args",
    [
        ["schema", "--write", "out"],
        ["simulate", "spice-road", "--games", "4", "--bots", "random", "--out", "out"],
    ],
)
def test_a_write_cut_short_is_told_and_the_next_run_accepts_the_folder(tmp_path, args):
    """A disk that fills half-way through the files of a folder: one clear error, and the
    files written before it are listed in the folder's manifest, so the next run replaces
    them instead of blaming the user for files century wrote."""
    env = {**os.environ, "CENTURY_CACHE_DIR": ""}
    cut = subprocess.run(
        [sys.executable, "-m", "century", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=limited_files(2500),
    )
    assert cut.returncode == 1, cut.stderr
    assert "cannot write into out: File too large" in cut.stderr
    assert "internal error" not in cut.stderr and "Traceback" not in cut.stderr
    assert any((tmp_path / "out").iterdir()), "the disk filled after some files"
    again = subprocess.run(
        [sys.executable, "-m", "century", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert not [p for p in (tmp_path / "out").rglob("*") if p.name.startswith(".century-tmp.")]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="a full device")
@pytest.mark.parametrize(
    "args", [["deck", "export", "spice-road", "merchant"], ["validate", "--format", "json"]]
)
def test_standard_output_on_a_full_disk_or_closed_is_an_error(tmp_path, args):
    command = [sys.executable, "-m", "century", *args]
    with open("/dev/full", "w") as full:
        done = subprocess.run(command, cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == "error: cannot write the output: No space left on device"
    closed = subprocess.run(
        ["sh", "-c", '"$@" >&-', "sh", *command], cwd=tmp_path, capture_output=True, text=True
    )
    assert closed.returncode == 1, closed.stderr
    assert closed.stderr.strip() == "error: cannot write the output: standard output is closed"
