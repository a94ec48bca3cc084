"""The user's cache folder, and files in it read and folders made as only the user's own.

The folder is ``$CENTURY_CACHE_DIR`` if set (empty: no cache), else the platform's
(``$XDG_CACHE_HOME/century`` or ``~/.cache/century``; ``~/Library/Caches/century`` on macOS;
``%LOCALAPPDATA%/century/Cache`` on Windows). Its users: the compiled prose templates
(`century.prose.codecache`), the reference tables of owner effects and the build's locks.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

CACHE_ENV = "CENTURY_CACHE_DIR"
"""The environment variable that names the cache folder (empty: no cache)."""

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def cache_root() -> Path | None:
    """The cache folder: ``$CENTURY_CACHE_DIR``, else the platform's; None when empty."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen) if chosen else None
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return Path(local) / "century" / "Cache" if local else None
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "century"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache") / "century"


def private_folder(folder: Path) -> bool:
    """Make `folder` (mode 0700) if missing; whether it is then the user's own: a real folder,
    not a link, owned by the user, not writable by group or others, and writable by the user.
    """
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False  # a link (even to a folder of one's own) or a file
    if hasattr(os, "getuid") and (
        info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ):
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def read_regular(path: Path, cap: int, private: bool = False) -> bytes | None:
    """The bytes of `path` when it is a regular file (not a link) of at most `cap` bytes,
    owned by the user (and, if `private`, readable by no one else); None for anything else,
    without blocking on a FIFO or a device."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > cap:
            return None
        if hasattr(os, "getuid") and (
            info.st_uid != os.getuid() or (private and info.st_mode & 0o077)
        ):
            return None
        data = os.read(fd, cap + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= cap else None
