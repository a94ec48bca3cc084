"""Compiled prose templates kept between runs, in the user's cache folder.

Compiling a Jinja template (parsing, the sandbox's checks, generating and compiling Python)
costs far more than rendering it, and the same rule-sheet sentences are compiled by every
`century validate`. `template` keeps each compiled template's code (marshalled) in
``$CENTURY_CACHE_DIR`` if set, else the platform's cache folder (``$XDG_CACHE_HOME/century``
or ``~/.cache/century``; ``~/Library/Caches/century`` on macOS; ``%LOCALAPPDATA%/century/Cache``
on Windows): never the project or an output folder.

Cached code is run, so the cache trusts nothing it did not write itself:

- a folder is used only when it is the user's own: a real folder (not a link), owned by the
  user and not writable by group or others (as Jinja's own default cache folder); else no
  cache;
- every entry carries a keyed digest (HMAC-SHA256) of its template's source and code, under a
  random key kept in the file ``key`` of the cache folder, readable by the user alone; an
  entry whose digest does not match (written by someone else, copied from another cache,
  corrupted or cut short) is never unmarshalled, and the template is compiled again;
- entries and the key are read as every other input is (`century.base.inputs`): regular files
  only, opened without following a link and without blocking, checked with `fstat`, capped
  in size; a FIFO, a device or a link in their place is compiled again (and replaced).

The files of a cache live in a folder named after a fingerprint of everything that shapes
the compiled code besides the source (the Jinja and Python versions, the entry format and the
sources of the sandbox, the prose environment and the limits), so a stale entry is never
used. A folder that cannot be made or written means no cache, silently: the template is
compiled as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import marshal
import os
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from century.base.cache import cache_root, private_folder, read_regular

_SHAPERS = ("prose/sandbox.py", "prose/__init__.py", "base/limits.py")
"""The files of `century` whose source shapes a compiled prose template."""

_FORMAT = b"century-code-2"
"""The entry format: a digest of 32 bytes, then the marshalled code."""

KEY_FILE = "key"
"""The file of the cache folder that holds the key of the entries' digests."""

_KEY_BYTES = 32
MAX_ENTRY_BYTES = 1 << 20
"""The largest entry read (the bundled rule sheets' largest is about 10 kB)."""


def _fingerprint() -> str | None:
    """A digest of what shapes the compiled code besides the source (None: unknown)."""
    import jinja2

    digest = hashlib.sha256(f"{jinja2.__version__} {sys.version}".encode() + _FORMAT)
    package = Path(__file__).parent.parent
    try:
        for name in _SHAPERS:
            digest.update((package / name).read_bytes())
    except OSError:
        return None
    return digest.hexdigest()[:16]


def _write_whole(folder: Path, name: str, data: bytes) -> None:
    """Put `data` at `folder/name` in one step (a temporary file of mode 0600 renamed over
    it: a link, FIFO or device there is replaced, never written through)."""
    import tempfile

    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _key(root: Path) -> bytes | None:
    """The key of the digests, from ``root/key``; made (or remade, when it is not a private
    regular file of the right length) with fresh random bytes. None when it cannot be."""
    path = root / KEY_FILE
    key = read_regular(path, _KEY_BYTES, private=True)
    if key is not None and len(key) == _KEY_BYTES:
        return key
    key = os.urandom(_KEY_BYTES)
    try:
        _write_whole(root, KEY_FILE, key)
    except OSError:
        return None
    return key


@dataclass(frozen=True)
class CodeCache:
    """The entries of one kind of template, in `folder`, authenticated with `key`."""

    folder: Path
    key: bytes

    def _digest(self, name: str, code: bytes) -> bytes:
        signed = f"{self.folder.name}/{name}".encode() + b"\0" + code
        return hmac.new(self.key, signed, hashlib.sha256).digest()

    def load(self, name: str) -> types.CodeType | None:
        """The code kept under `name` when its entry is whole and was written with this
        cache's key; else None."""
        data = read_regular(self.folder / f"{name}.code", MAX_ENTRY_BYTES)
        if data is None or len(data) <= 32:
            return None
        view = memoryview(data)
        if not hmac.compare_digest(view[:32], self._digest(name, data[32:])):
            return None
        try:
            code = marshal.loads(view[32:])
        except (EOFError, ValueError, TypeError):
            return None
        return code if isinstance(code, types.CodeType) else None

    def store(self, name: str, code: types.CodeType) -> None:
        """Keep `code` under `name` (skipped silently when the folder cannot be written or
        the entry would be over the cap)."""
        body = marshal.dumps(code)
        if len(body) + 32 > MAX_ENTRY_BYTES:
            return
        with contextlib.suppress(OSError):
            _write_whole(self.folder, f"{name}.code", self._digest(name, body) + body)


@functools.cache
def _cache(kind: str) -> CodeCache | None:
    """The cache of `kind`'s templates, or None when there can be none."""
    root = cache_root()
    fingerprint = _fingerprint()
    if root is None or fingerprint is None or not private_folder(root):
        return None
    folder = root / f"{kind}-{fingerprint}"
    key = _key(root)
    if key is None or not private_folder(folder):
        return None
    return CodeCache(folder, key)


def template(env: Any, source: str, kind: str = "prose") -> Any:
    """`env.from_string(source)`, with the compiled code taken from the cache when it holds
    it and put there when it did not (a cache that cannot be written is skipped)."""
    cache = _cache(kind)
    if cache is None:
        return env.from_string(source)
    try:
        name = hashlib.sha256(source.encode()).hexdigest()
    except UnicodeError:  # text Jinja takes but UTF-8 cannot hold
        return env.from_string(source)
    code = cache.load(name)
    if code is None:
        code = env.compile(source)
        cache.store(name, code)
    return env.template_class.from_code(env, code, env.make_globals(None), None)
