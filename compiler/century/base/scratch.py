"""Scratch folders in the system's temporary folder (a look's copies for the renderer, a
compile's sources), removed when the work ends, and, when a process was killed before it
could remove its own, by the next one.

Each is named ``century-KIND-PID-...`` after the process that made it: a folder of a process
that no longer runs, owned by this user, is a leftover, removed when the next folder of its
kind is made. A folder of a running process is never touched.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

PREFIX = "century-"


@contextlib.contextmanager
def scratch(kind: str) -> Iterator[Path]:
    """A fresh folder ``century-KIND-PID-...`` in the temporary folder, removed afterwards;
    the leftovers of killed processes of the same kind removed first."""
    clean_scratch(kind)
    with tempfile.TemporaryDirectory(prefix=f"{PREFIX}{kind}-{os.getpid()}-") as folder:
        yield Path(folder)


def clean_scratch(kind: str) -> None:
    """Remove the scratch folders of `kind` whose process has ended (POSIX; elsewhere a
    process cannot be asked after without touching it, and nothing is removed)."""
    if os.name != "posix":
        return
    start = f"{PREFIX}{kind}-"
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(start):
            continue
        pid = entry.name[len(start) :].split("-", 1)[0]
        if not pid.isascii() or not pid.isdigit() or _running(int(pid)):
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False) and entry.stat().st_uid == os.getuid():
                shutil.rmtree(entry.path, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether the process `pid` runs (or may: one of another user's)."""
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True
