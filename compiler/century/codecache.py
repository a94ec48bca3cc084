"""Compiled prose templates kept between runs, in the user's cache folder.

Compiling a Jinja template (parsing, the sandbox's checks, generating and compiling Python)
costs far more than rendering it, and the same rule-sheet sentences are compiled by every
`century validate`. `template` keeps each compiled template as Jinja bytecode
(`jinja2.FileSystemBytecodeCache`) in ``$CENTURY_CACHE_DIR`` if set, else the platform's
cache folder (``$XDG_CACHE_HOME/century`` or ``~/.cache/century``; ``~/Library/Caches/century``
on macOS; ``%LOCALAPPDATA%/century/Cache`` on Windows): never the project or an output folder.

The files of a cache live in a folder named after a fingerprint of everything that shapes
the compiled code besides the source (the Jinja and Python versions and the sources of the
sandbox, the prose environment and the limits), and each file is checked against the
checksum of its template's source, so a stale entry is never used. A folder that cannot be
made or written means no cache, silently: the template is compiled as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import pickle
import sys
import types
from pathlib import Path
from typing import Any

CACHE_ENV = "CENTURY_CACHE_DIR"
"""The environment variable that names the cache folder (empty: no cache)."""

_SHAPERS = ("sandbox", "prose", "limits")
"""The modules of `century` whose source shapes a compiled prose template."""


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


def _fingerprint() -> str | None:
    """A digest of what shapes the compiled code besides the source (None: unknown)."""
    import jinja2

    digest = hashlib.sha256(f"{jinja2.__version__} {sys.version}".encode())
    here = Path(__file__).parent
    try:
        for name in _SHAPERS:
            digest.update((here / f"{name}.py").read_bytes())
    except OSError:
        return None
    return digest.hexdigest()[:16]


@functools.cache
def _reader() -> Any:
    """Jinja's file cache, reading each entry whole: Jinja's own reader unmarshals the code
    straight from the open file, in many small reads, four times slower than unmarshalling
    the bytes (~10 ms of the 141 templates of a `century validate`)."""
    from jinja2 import FileSystemBytecodeCache
    from jinja2.bccache import bc_magic

    class WholeFileCache(FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Any) -> None:
            """The code of `bucket` when its file holds Jinja's header for the bucket's
            source followed by marshalled code; else none, so the source is compiled again."""
            try:
                with open(self._get_cache_filename(bucket), "rb") as file:
                    data = file.read()
            except OSError:
                return
            header = bc_magic + pickle.dumps(bucket.checksum, 2)  # as `Bucket.write_bytecode`
            if not data.startswith(header):
                return
            try:
                code = marshal.loads(memoryview(data)[len(header) :])
            except (EOFError, ValueError, TypeError):
                return
            if isinstance(code, types.CodeType):
                bucket.code = code

    return WholeFileCache


@functools.cache
def _cache(kind: str) -> Any:
    """The bytecode cache of `kind`'s templates, or None when there can be none."""
    root = cache_root()
    fingerprint = _fingerprint()
    if root is None or fingerprint is None:
        return None
    folder = root / f"{kind}-{fingerprint}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None
    return _reader()(str(folder), "%s.jinja")


def template(env: Any, source: str, kind: str = "prose") -> Any:
    """`env.from_string(source)`, with the compiled code taken from the cache when it holds
    it and put there when it did not (a cache that cannot be written is skipped)."""
    cache = _cache(kind)
    if cache is None:
        return env.from_string(source)
    try:
        name = hashlib.sha256(source.encode()).hexdigest()
        bucket = cache.get_bucket(env, name, None, source)
    except (UnicodeError, OSError):  # text Jinja takes but UTF-8 cannot hold; an unreadable file
        return env.from_string(source)
    if bucket.code is None:
        bucket.code = env.compile(source)
        with contextlib.suppress(OSError):
            cache.set_bucket(bucket)
    return env.template_class.from_code(env, bucket.code, env.make_globals(None), None)
