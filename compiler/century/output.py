"""Output that never loses a user's file: manifests, checks, locks and atomic writes.

Every folder `century` writes into gets a manifest, ``.century-manifest.json``, listing the
files it wrote there. A later write may replace those files and nothing else:

- `check_folder` refuses a folder that holds files the manifest does not list (a user's own
  file, a deck, a rules folder) before any work is done;
- `replace_dir` builds a whole folder (a game's build output) in a temporary folder beside
  it and swaps it in, so readers see the old or the new folder, never a half-written one;
- `write_files` writes single files atomically and adds them to the folder's manifest;
- `locked` serialises the writers into a folder (an advisory lock on the folder itself,
  released by the operating system if the process dies); under the lock, the temporary
  folders and files a killed writer left behind are removed (they carry the `TEMP` prefix,
  so nothing else is).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType

MANIFEST = ".century-manifest.json"
"""The file listing what century wrote in a folder."""
TEMP = ".century-tmp."
"""The prefix of every temporary file and folder century makes while writing."""
LOCK_WAIT = 600.0
"""Seconds a writer waits for another one writing into the same folder before giving up."""
SOURCE_SUFFIXES = (".yaml", ".yml", ".schema.json")


class OutputError(Exception):
    """An output folder or file that cannot or must not be written; `usage` marks a bad
    option (exit 2) rather than a folder holding files century did not write (exit 1)."""

    def __init__(self, message: str, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


# -- manifests -------------------------------------------------------------------------------


def read_manifest(folder: Path) -> set[str] | None:
    """The files century wrote in `folder` (relative POSIX paths), or None without a manifest."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"]
        if data.get("generator") != "century" or not all(isinstance(f, str) for f in files):
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise OutputError(f"{path} is not a manifest century can read; remove it") from None
    return set(files)


def manifest_bytes(files: Iterable[str]) -> bytes:
    """A manifest listing `files`, the same bytes for the same files."""
    data = {"generator": "century", "version": 1, "files": sorted(set(files))}
    return (json.dumps(data, indent=2) + "\n").encode("utf-8")


def _entries(folder: Path) -> Iterator[str]:
    """Every file (and empty folder, and symlink) below `folder`, as relative POSIX paths."""
    for root, dirs, names in os.walk(folder):
        base = Path(root)
        for name in names:
            yield (base / name).relative_to(folder).as_posix()
        for name in list(dirs):
            path = base / name
            if path.is_symlink() or not any(path.iterdir()):
                dirs.remove(name)
                yield path.relative_to(folder).as_posix()


# -- checks ----------------------------------------------------------------------------------


def check_target(path: Path, what: str = "--out") -> None:
    """Refuse (usage error) an output folder that is a file, or that cannot be created or
    written into, before any work is done."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"{what} {path} is a file, not a folder", usage=True)
    existing = path
    while not existing.exists():
        if existing.is_symlink():
            raise OutputError(f"{what} {path}: {existing} is a broken symlink", usage=True)
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{what} {path}: {existing} is a file, not a folder", usage=True)
    try:  # a real probe: permissions, read-only file systems, /proc, even for root
        fd, probe = tempfile.mkstemp(prefix=f"{TEMP}probe.", dir=existing)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise OutputError(
            f"{what} {path}: cannot write into {existing} ({err.strerror or err})", usage=True
        ) from None


def check_file_target(path: Path, what: str) -> None:
    """Refuse (usage error) an output file that is a folder or cannot be written."""
    if path.is_dir():
        raise OutputError(f"{what} {path} is a folder, not a file", usage=True)
    check_target(path.parent, what)
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"{what} {path}: the file cannot be written", usage=True)


def check_folder(folder: Path, names: Iterable[str] | None = None) -> None:
    """Refuse a folder century must not write into: with `names`, one where any of those
    files exists without being in the manifest; without, one (to be replaced whole) that holds
    anything the manifest does not list. Rules data (YAML, schemas) is never replaced."""
    if folder.is_symlink():
        raise OutputError(f"{folder} is a symlink; century writes into real folders only")
    if not folder.is_dir():
        return
    ours = read_manifest(folder) or set()
    if names is None:
        foreign = [entry for entry in _entries(folder) if entry not in ours | {MANIFEST}]
    else:
        foreign = [name for name in names if (folder / name).exists() and name not in ours]
    source = [entry for entry in foreign if entry.endswith(SOURCE_SUFFIXES)]
    if source:
        raise OutputError(
            f"{folder} holds rules data ({_few(source)}); century never writes over it: "
            "choose another output folder"
        )
    if foreign:
        raise OutputError(
            f"{folder} holds files century did not write ({_few(foreign)}); "
            "move them or choose another output folder"
        )


def check_root(folder: Path) -> None:
    """Refuse an output root (the folder game folders go into) that holds rules data."""
    if not folder.is_dir():
        return
    source = sorted(p.name for p in folder.iterdir() if p.name.endswith(SOURCE_SUFFIXES))
    if source:
        raise OutputError(f"{folder} holds rules data ({_few(source)}); build into another folder")


def _few(names: list[str]) -> str:
    shown = ", ".join(sorted(names)[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


# -- locks -----------------------------------------------------------------------------------


@contextlib.contextmanager
def locked(folder: Path, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold the write lock of `folder` (created if needed), waiting up to `wait` seconds for
    another century writing there; then remove what killed writers left in it. Writers of
    single files lock the folder above theirs, so one lock covers a build's game folders.

    Where the system has no advisory locks (Windows: no `fcntl`, and a folder cannot be
    opened as a file), writes stay atomic but are not serialised, and leftovers stay: they
    could be another writer's work in progress."""
    folder.mkdir(parents=True, exist_ok=True)
    fcntl = _locks()
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        _acquire(fcntl, fd, folder, wait)
        clean_leftovers(folder, folders=True)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _locks() -> ModuleType | None:
    """The advisory-lock module of this system (`fcntl`), or None where there is none."""
    try:
        import fcntl
    except ImportError:
        return None
    return fcntl


def _acquire(fcntl: ModuleType, fd: int, folder: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise OutputError(
                    f"another century is still writing into {folder} after {wait:.0f} s; "
                    "try again when it is done"
                ) from None
            if not told:
                print(f"waiting for another century writing into {folder}", file=sys.stderr)
                told = True
            time.sleep(0.05)


def clean_leftovers(folder: Path, folders: bool) -> None:
    """Remove the temporary folders (`folders`) or files an interrupted century left in
    `folder`: folders are a build's (its lock is on `folder`), files a single-file writer's
    (its lock is on the folder above)."""
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if not path.name.startswith(TEMP) or path.is_symlink():
            continue
        if folders and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        elif not folders and path.is_file():
            with contextlib.suppress(OSError):
                path.unlink()


# -- writing ---------------------------------------------------------------------------------


@contextlib.contextmanager
def atomic_dir(dest: Path) -> Iterator[Path]:
    """Yield a fresh temporary folder beside `dest`; on success it replaces `dest` whole,
    with a manifest of every file in it.

    On an exception the temporary folder is removed and `dest` is left as it was. Call it
    under `locked(dest.parent)` after `check_folder(dest)`.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f"{TEMP}{dest.name}.", dir=dest.parent))
    tmp.chmod(0o755)
    try:
        yield tmp
        (tmp / MANIFEST).write_bytes(manifest_bytes(_entries(tmp)))
        (tmp / MANIFEST).chmod(0o644)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = Path(tempfile.mkdtemp(prefix=f"{TEMP}{dest.name}.old.", dir=dest.parent))
    old.rmdir()  # the name is reserved; Windows renames a folder only onto a free name
    if dest.exists():
        os.replace(dest, old)
    os.replace(tmp, dest)
    shutil.rmtree(old, ignore_errors=True)


def write_files(folder: Path, files: dict[str, bytes]) -> list[Path]:
    """Write `files` (relative paths) into `folder`, each atomically, and list them in its
    manifest; refuse (`OutputError`) to replace a file century did not write there. Call it
    under `locked(folder.parent)`."""
    check_folder(folder, files)
    folder.mkdir(parents=True, exist_ok=True)
    if _locks() is not None:  # else a leftover may be another writer's work in progress
        clean_leftovers(folder, folders=False)
    written = []
    for name, data in files.items():
        atomic_write_bytes(folder / name, data)
        written.append(folder / name)
    listed = (read_manifest(folder) or set()) | set(files)
    atomic_write_bytes(folder / MANIFEST, manifest_bytes(listed))
    return written


def atomic_write_bytes(dest: Path, data: bytes) -> None:
    """Write a file so that readers see either the old or the new content, never a part."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP}{dest.name}.", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
