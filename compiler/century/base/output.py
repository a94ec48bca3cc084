"""Output that never loses a user's file: manifests, checks, locks and atomic writes.

Every folder `century` writes into gets a manifest, ``.century-manifest.json``, listing the
files it wrote there. A later write may replace those files and nothing else:

- `check_folder` refuses a folder that holds files the manifest does not list (a user's own
  file, a deck, a rules folder) before any work is done;
- `replace_dir` builds a whole folder (a game's build output) in a temporary folder beside
  it and swaps it in, so readers see the old or the new folder, never a half-written one;
- `write_files` writes single files atomically, after adding them to the folder's manifest
  (so a writer killed half-way leaves files its manifest lists, which the next run replaces);
- `locked` serialises the writers into a folder on every system (`filelock`: the system's
  lock on a file named after the folder, released if the process dies); under the lock,
  the temporary folders and files a killed writer left behind are removed (they carry the
  `TEMP` prefix, so nothing else is).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path, PureWindowsPath

from century.base.diagnostics import DiagnosticError
from century.base.inputs import read_json, was_read
from century.base.limits import MAX_MANIFEST_BYTES

MANIFEST = ".century-manifest.json"
"""The file listing what century wrote in a folder."""
TEMP = ".century-tmp."
"""The prefix of every temporary file and folder century makes while writing."""
LOCKS = "century-locks"
"""The folder, in the user's temporary folder, of the files whose locks serialise the writers
into each output folder (so no lock file is left in the user's folders)."""
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
    """The files century wrote in `folder` (relative POSIX paths), or None without a manifest.

    A manifest is data from disk, so it is checked whole before anything relies on it: it is
    a regular JSON file within the caps of `century.base.inputs`, and every entry is a plain
    relative path inside `folder`, through no symlink, of a kind century writes (never YAML,
    no JSON Schema but the bundled ones). Any other manifest is refused (`OutputError`)."""
    path = folder / MANIFEST
    if not os.path.lexists(path):
        return None
    unreadable = f"{path} is not a manifest century can read; remove it"
    if path.is_symlink():
        raise OutputError(f"{path} is a symlink, not a manifest century wrote; remove it")
    try:
        data = read_json(path, str(path), MAX_MANIFEST_BYTES, log=False)
    except DiagnosticError as err:
        raise OutputError(f"{unreadable} ({err.diagnostics[0].message})") from None
    files = data.get("files") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("generator") != "century"
        or not isinstance(files, list)
        or not all(isinstance(f, str) for f in files)
    ):
        raise OutputError(unreadable)
    for entry in files:
        problem = _manifest_entry_problem(folder, entry)
        if problem:
            raise OutputError(
                f"{path} lists {_short(entry)}, {problem}; century refuses this manifest and "
                "removes nothing"
            )
    return set(files)


def _manifest_entry_problem(folder: Path, entry: str) -> str:
    """Why `entry` cannot be in a manifest of `folder`, or "" when it can."""
    if not _plain(entry):
        return "which is not a plain relative path inside the folder"
    if entry.endswith((".yaml", ".yml")):
        return "which is rules data (YAML); century writes none into output folders"
    if entry.endswith(".schema.json") and entry.split("/")[-1] not in _bundled_schemas():
        return "a JSON Schema that century does not ship"
    if _first_link(folder, entry) is not None:
        return "which is (or lies in) a symlink"
    return ""


def _plain(name: str) -> bool:
    """Whether `name` is a plain relative POSIX path: no empty, ``.`` or ``..`` parts, no
    leading slash, backslash or drive."""
    return (
        "\\" not in name
        and not PureWindowsPath(name).drive
        and all(part not in ("", ".", "..") for part in name.split("/"))
    )


def _first_link(folder: Path, name: str) -> Path | None:
    """The first of the folders leading to `name` in `folder`, or the file itself, that is a
    symlink; None when there is none."""
    parts = name.split("/")
    for depth in range(1, len(parts) + 1):
        path = folder.joinpath(*parts[:depth])
        if path.is_symlink():
            return path
    return None


def _bundled_schemas() -> set[str]:
    from century.base.resources import SCHEMAS

    return {path.name for path in SCHEMAS.glob("*.schema.json")}


def _short(text: str, most: int = 60) -> str:
    """`text` quoted, cut to `most` characters (a hostile entry may be long)."""
    return repr(text if len(text) <= most else text[:most] + "...")


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
    files exists without being in the manifest, is a symlink or lies below one, or was read
    as input by this run; without, one (to be replaced whole) that holds anything the
    manifest does not list, or any file this run read. Rules data (YAML, schemas) is never
    replaced."""
    if folder.is_symlink():
        raise OutputError(f"{folder} is a symlink; century writes into real folders only")
    if not folder.is_dir():
        for name in names or ():
            check_inside(folder, name)
        return
    ours = read_manifest(folder) or set()
    if names is None:
        entries = list(_entries(folder))
        foreign = [entry for entry in entries if entry not in ours | {MANIFEST}]
    else:
        names = list(names)
        for name in names:
            check_inside(folder, name)
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
    if names is None:
        refuse_inputs(folder / entry for entry in entries)


def check_inside(folder: Path, name: str) -> None:
    """Refuse (`OutputError`) to write the file `name` (a relative POSIX path) in `folder`
    where it would leave the folder: through a folder below it that is a symlink, onto a
    symlink, or outside it by ``..``; or replace a file this run read as input."""
    if not _plain(name):
        raise OutputError(f"{_short(name)} is not a file name inside {folder}")
    link = _first_link(folder, name)
    if link is not None:
        raise OutputError(
            f"{link} is a symlink; century writes only real files in real folders inside "
            f"{folder}, never through a link"
        )
    if not (folder / name).parent.is_dir() and (folder / name).parent.exists():
        raise OutputError(f"{(folder / name).parent} is not a folder; century cannot write in it")
    refuse_inputs([folder / name])


def check_below(base: Path, folder: Path) -> None:
    """Refuse a `folder` inside `base` that is reached through a folder that is a symlink
    (``build/reports`` linking elsewhere, say): output stays inside `base`."""
    try:
        parts = folder.relative_to(base).parts
    except ValueError:
        return
    for depth in range(1, len(parts)):
        path = base.joinpath(*parts[:depth])
        if path.is_symlink():
            raise OutputError(
                f"{path} is a symlink; century writes into real folders only, never through a link"
            )


def refuse_inputs(paths: Iterable[Path]) -> None:
    """Refuse (`OutputError`) to delete or replace any of `paths` that this run read as
    input (a rules file, a deck, a report): input is never output, whatever a manifest says."""
    for path in paths:
        if was_read(path):
            raise OutputError(
                f"{path} is an input of this run; century never deletes or replaces the files "
                "it reads: choose another output folder"
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

    The lock is `filelock`'s, the system's own file lock (``fcntl`` on POSIX, ``msvcrt`` on
    Windows), on `lock_file` of the folder: writers take turns everywhere, and a killed
    writer's lock is released with its process."""
    from filelock import FileLock, Timeout

    folder.mkdir(parents=True, exist_ok=True)
    try:
        lock = FileLock(str(lock_file(folder)))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            print(f"waiting for another century writing into {folder}", file=sys.stderr)
            lock.acquire(timeout=wait)
    except Timeout:
        raise OutputError(
            f"another century is still writing into {folder} after {wait:.0f} s; "
            "try again when it is done"
        ) from None
    except OSError as err:
        raise OutputError(
            f"cannot lock {folder} for writing ({err.strerror or err})", usage=True
        ) from None
    try:
        clean_leftovers(folder, folders=True)
        yield
    finally:
        lock.release()


def lock_file(folder: Path) -> Path:
    """The file whose lock is `folder`'s write lock: in the user's temporary folder (`LOCKS`),
    named by the folder's real path, so that every name of one folder shares one lock.

    The folder of the locks is used only when it is the user's own (a real folder, not a
    link, not another user's, not writable by group or others: `century.base.cache`): else
    another user could hold or swap the locks. Failing that, the locks
    go to ``locks`` in the user's cache folder; `OutputError` when neither is private."""
    from century.base.cache import cache_root, private_folder

    real = os.path.normcase(os.path.realpath(folder))
    user = f"-{os.getuid()}" if hasattr(os, "getuid") else ""  # Windows: a temp folder per user
    shared = Path(tempfile.gettempdir()) / f"{LOCKS}{user}"
    cache = cache_root()
    for locks in (shared, *([cache / "locks"] if cache is not None else [])):
        if private_folder(locks):
            return locks / (hashlib.sha256(real.encode("utf-8")).hexdigest()[:32] + ".lock")
    raise OutputError(
        f"cannot lock {folder} for writing: {shared} is not a private folder of yours (a "
        "link, another user's, or writable by others); remove it",
        usage=True,
    )


def clean_leftovers(folder: Path, folders: bool) -> None:
    """Remove the temporary folders (`folders`) or files an interrupted century left in
    `folder`: folders are a build's (its lock is on `folder`), files a single-file writer's
    (its lock is on the folder above)."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for path in folder.iterdir():
        if not path.name.startswith(TEMP) or path.is_symlink() or was_read(path):
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
    if dest.is_dir() and not dest.is_symlink():
        try:
            refuse_inputs(dest / entry for entry in _entries(dest))
        except OutputError:
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
    inside = folder.resolve()
    for name in files:  # the checks above make this hold; a last guard against a race
        if not (folder / name).resolve().is_relative_to(inside):
            raise OutputError(f"{folder / name} would be written outside {folder}")
    for parent in sorted({folder, *((folder / name).parent for name in files)}):  # where
        clean_leftovers(parent, folders=False)  # writes (``images/x.png``) leave temporaries
    listed = (read_manifest(folder) or set()) | set(files)
    atomic_write_bytes(folder / MANIFEST, manifest_bytes(listed))  # first: a killed write
    written = []  # leaves only files the manifest lists
    for name, data in files.items():
        atomic_write_bytes(folder / name, data)
        written.append(folder / name)
    return written


def write_file(dest: Path, data: bytes) -> None:
    """Write the single file `dest` atomically under the lock of its folder, first removing
    the temporary files an interrupted write of `dest` left beside it. Refuse (`OutputError`)
    to replace anything but a regular file: a FIFO, a device node, a folder or a link."""
    with locked(dest.parent):
        if os.path.lexists(dest) and (dest.is_symlink() or not dest.is_file()):
            raise OutputError(
                f"{dest} is not a regular file; century replaces only regular files it may "
                "overwrite, never a link, a FIFO, a device or a folder"
            )
        for path in dest.parent.glob(f"{glob_escape(TEMP + dest.name)}.*"):
            if path.is_file() and not path.is_symlink() and not was_read(path):
                with contextlib.suppress(OSError):
                    path.unlink()
        atomic_write_bytes(dest, data)


def glob_escape(name: str) -> str:
    """`name` with the characters `glob` reads as patterns escaped."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def atomic_write_bytes(dest: Path, data: bytes, *, replace_input: bool = False) -> None:
    """Write a file so that readers see either the old or the new content, never a part;
    refuse (`OutputError`) to replace a file this run read as input, unless `replace_input`
    (the user asked for it by name, as ``century new --force`` does)."""
    if not replace_input:
        refuse_inputs([dest])
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
