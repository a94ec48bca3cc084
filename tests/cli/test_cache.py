"""The compiled prose templates `century validate` keeps between runs (`century.prose.codecache`):
in the user's cache folder, never the project; a later run reads them instead of compiling;
a broken entry is compiled again and a folder that cannot be written is done without. The
cache runs no code it did not write: a folder that is not the user's own is not used, an
entry without the digest of the user's key is compiled again, and an entry that is not a
regular file (a FIFO, a link to a device) is compiled again without blocking."""

from __future__ import annotations

import marshal
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from century.base.cache import CACHE_ENV, read_regular
from century.prose.codecache import KEY_FILE, MAX_ENTRY_BYTES

pytestmark = pytest.mark.slow


def validate(cwd: Path, **env: str | None) -> subprocess.CompletedProcess[str]:
    """`century validate` of the bundled games, run in `cwd` with `env` added to the
    environment (None removes the variable)."""
    base = {k: v for k, v in os.environ.items() if k not in env}
    done = subprocess.run(
        [sys.executable, "-m", "century", "validate"],
        cwd=cwd,
        env={**base, **{k: v for k, v in env.items() if v is not None}},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done


def entries(cache: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(cache.glob("*/*.code"))}


def test_a_second_run_reads_the_templates_the_first_compiled(tmp_path):
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    assert len(kept) > 50  # one per distinct rule-sheet sentence with placeholders
    stamps = {path: path.stat().st_mtime_ns for path in kept}
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert entries(cache) == kept
    assert {path: path.stat().st_mtime_ns for path in kept} == stamps  # read, not rewritten


def test_a_broken_entry_is_compiled_again_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    for path in kept:
        path.write_bytes(b"not bytecode")
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert entries(cache) == kept


def test_an_entry_cut_short_is_compiled_again_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    for path, data in kept.items():
        path.write_bytes(data[: len(data) // 2])  # the header whole, the code cut
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert entries(cache) == kept


def test_a_cache_folder_that_cannot_be_made_is_done_without(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder\n", encoding="utf-8")
    plain = validate(tmp_path, **{CACHE_ENV: ""})  # empty: no cache
    done = validate(tmp_path, **{CACHE_ENV: str(blocked / "cache")})
    assert (done.stdout, done.stderr) == (plain.stdout, plain.stderr)
    assert blocked.read_text(encoding="utf-8") == "not a folder\n"


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the XDG cache folder")
def test_the_default_cache_is_the_users_not_the_projects(tmp_path):
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (project / "notes.txt").write_text("mine\n", encoding="utf-8")
    validate(project, **{CACHE_ENV: None, "XDG_CACHE_HOME": None, "HOME": str(home)})
    assert [p.name for p in project.iterdir()] == ["notes.txt"]
    assert entries(home / ".cache" / "century")


ROOT_ONLY = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="gives a folder to another user"
)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702])
def test_a_cache_folder_others_can_write_is_not_used(tmp_path, mode):
    cache = tmp_path / "shared"
    cache.mkdir()
    cache.chmod(mode)
    plain = validate(tmp_path, **{CACHE_ENV: ""})
    done = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (done.stdout, done.stderr) == (plain.stdout, plain.stderr)
    assert list(cache.iterdir()) == []  # no key, no entries: nothing read or written there


def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(mine)
    validate(tmp_path, **{CACHE_ENV: str(tmp_path / "link")})
    assert list(mine.iterdir()) == []


@ROOT_ONLY
def test_a_cache_folder_of_another_user_is_not_used(tmp_path):
    cache = tmp_path / "theirs"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    for path in [cache, *cache.rglob("*")]:
        os.chown(path, 65534, 65534, follow_symlinks=False)
    kept = entries(cache)
    for path in kept:  # their code, with a digest of their key: it must not be run as mine
        path.write_bytes(path.read_bytes()[:32] + marshal.dumps(compile(PLANT, "x", "exec")))
    done = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (done.stdout, done.stderr) == (first.stdout, first.stderr)
    assert not (tmp_path / "planted").exists()


PLANT = "open('planted', 'w').write('ran')"
"""Code a forged entry holds: run, it leaves a file `planted` in the working folder."""


def test_an_entry_written_without_the_key_is_never_run(tmp_path):
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    forged = marshal.dumps(compile(PLANT, "x", "exec"))
    for path in kept:
        path.write_bytes(bytes(32) + forged)
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    assert not (tmp_path / "planted").exists()
    assert entries(cache) == kept  # compiled again and replaced


def test_an_entry_of_another_cache_is_compiled_again(tmp_path):
    """Entries copied from a cache with another key (another user's, say) do not pass."""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    validate(tmp_path, **{CACHE_ENV: str(ours)})
    validate(tmp_path, **{CACHE_ENV: str(theirs)})
    mine = entries(ours)
    for path, data in entries(theirs).items():
        (ours / path.relative_to(theirs)).write_bytes(data)
    validate(tmp_path, **{CACHE_ENV: str(ours)})
    assert entries(ours) == mine


def test_a_key_others_can_read_is_replaced(tmp_path):
    cache = tmp_path / "cache"
    validate(tmp_path, **{CACHE_ENV: str(cache)})
    key = cache / KEY_FILE
    old, kept = key.read_bytes(), entries(cache)
    key.chmod(0o644)
    validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert key.read_bytes() != old
    assert stat.S_IMODE(key.stat().st_mode) & 0o077 == 0
    assert set(entries(cache)) == set(kept)  # every entry compiled again under the new key


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("odd", ["fifo", "device link", "folder"])
def test_an_entry_that_is_not_a_regular_file_is_compiled_again(tmp_path, odd):
    """A FIFO (which would block a reader), a link to an endless device, a folder: the run
    neither hangs nor fails, and the entry is replaced by a regular file (never written
    through the link)."""
    cache = tmp_path / "cache"
    first = validate(tmp_path, **{CACHE_ENV: str(cache)})
    kept = entries(cache)
    for path in kept:
        path.unlink()
        if odd == "fifo":
            os.mkfifo(path)
        elif odd == "device link":
            path.symlink_to("/dev/zero")
        else:
            path.mkdir()
    again = validate(tmp_path, **{CACHE_ENV: str(cache)})
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    if odd == "folder":  # a folder cannot be replaced by a file; it is left alone
        assert all(path.is_dir() for path in kept)
    else:
        assert entries(cache) == kept
        assert all(not path.is_symlink() for path in kept)


def test_an_entry_over_the_cap_is_not_read(tmp_path):
    entry = tmp_path / "big.code"
    entry.write_bytes(b"x" * (MAX_ENTRY_BYTES + 1))
    assert read_regular(entry, MAX_ENTRY_BYTES) is None
    entry.write_bytes(b"x" * MAX_ENTRY_BYTES)
    assert read_regular(entry, MAX_ENTRY_BYTES) == b"x" * MAX_ENTRY_BYTES
