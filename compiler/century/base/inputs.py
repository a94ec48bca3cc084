"""Reading input files: every file a command reads from disk passes through here.

- `read_bytes` reads regular files only: FIFOs, devices and folders are refused at once
  (opened without blocking, checked with `fstat`), and a file over its byte cap is refused
  before it is read;
- `read_json` also refuses JSON nested deeper than `MAX_JSON_DEPTH`, numbers of more than
  `MAX_DIGITS` digits, ``NaN`` and infinities, each located at ``file:line:col``;
- every file read is entered in the run's read log (`was_read`), so that output never
  deletes or replaces a file the same run read as input (`century.base.output`).

Problems raise `DiagnosticError` with one located diagnostic, as the YAML loader does.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from century.base.diagnostics import WHOLE, Diagnostic, DiagnosticError, Mark
from century.base.limits import MAX_DIGITS, MAX_JSON_DEPTH

_READ: set[str] = set()
"""The real paths of the files read in this run."""


def start_run() -> None:
    """Forget the files earlier runs read (a command starts a run; see `was_read`)."""
    _READ.clear()


def was_read(path: Path) -> bool:
    """Whether the file at `path` (symlinks followed) was read as input in this run."""
    return os.path.realpath(path) in _READ


def read_bytes(
    path: Path,
    name: str,
    cap: int,
    at: Mark | None = None,
    hint: str = "name a file",
    *,
    log: bool = True,
) -> bytes:
    """The bytes of the regular file `path` (at most `cap`), entered in the read log unless
    `log` is false (a file read only to see whether century may replace it).

    `name` is how diagnostics show the file; they are located at `at` (where another file
    names this one), else at the file. `hint` is said when the path is not a regular file.
    """
    mark = at or Mark(name, 1, 1)

    def refuse(code: str, message: str, why: str = "") -> DiagnosticError:
        return DiagnosticError([Diagnostic.at(mark, code, message, hint=why)])

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        if err.errno == errno.ENOENT:  # no line to point at, unless another file names it
            missing = at or Mark(name, WHOLE, WHOLE)
            raise DiagnosticError(
                [Diagnostic.at(missing, "C001", f"no such file: {name}")]
            ) from None
        if err.errno == errno.ELOOP:
            raise refuse("C020", f"{name} is a symlink loop") from None
        raise refuse("C002", f"cannot read {name}: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise refuse("C020", f"{name} is {kind}", hint)
        if info.st_size > cap:
            raise refuse(
                "C003",
                f"file is {info.st_size} bytes, over the {cap}-byte limit",
                "check that this is the intended file",
            )
        if log:
            _READ.add(os.path.realpath(path))
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(cap + 1)
    except OSError as err:
        raise refuse("C002", f"cannot read {name}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if len(data) > cap:
        raise refuse("C003", f"file is over the {cap}-byte limit")
    return data


_TOKENS = re.compile(
    rb'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]|(?<!\d)\d{%d,}|NaN|Infinity|[eE][+-]?\d{3,}'
    % (MAX_DIGITS + 1)
)
"""What the JSON pre-check looks at: strings (skipped whole, possessively, so a long string
keeps no backtracking state; one left open runs to the end, which the parser then refuses as
not JSON), brackets, over-long digit runs (tried once per run of digits,
so the scan stays linear), the constants JSON does not allow and exponents of three or more
digits."""


def read_json(path: Path, name: str, cap: int, *, log: bool = True) -> Any:
    """The JSON value in the file `path`, read as `read_bytes` does and checked against the
    nesting and digit caps before it is parsed."""
    raw = read_bytes(path, name, cap, hint="name a JSON file", log=log)
    return parse_json(raw, name)


def decode_utf8(raw: bytes) -> str:
    """`raw` as UTF-8 text; `UnicodeDecodeError` also at a NUL byte, which no text file holds
    (text saved as UTF-16 without its byte-order mark has one in every other byte)."""
    text = raw.decode("utf-8")
    at = raw.find(b"\x00")
    if at >= 0:
        raise UnicodeDecodeError("utf-8", raw, at, at + 1, "a NUL byte: UTF-16 or no text")
    return text


def parse_json(raw: bytes, name: str) -> Any:
    """The JSON value in `raw`; `DiagnosticError` located in the file `name` for text that is
    not UTF-8, nested past `MAX_JSON_DEPTH`, has a number of over `MAX_DIGITS` digits, is not
    JSON, or holds ``NaN`` or an infinity."""

    def refuse(offset: int, code: str, message: str, hint: str = "") -> DiagnosticError:
        line = raw.count(b"\n", 0, offset) + 1
        col = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
        return DiagnosticError([Diagnostic.at(Mark(name, line, col), code, message, hint=hint)])

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise refuse(
            err.start, "C004", f"not UTF-8 text: byte 0x{raw[err.start]:02x} cannot be decoded"
        ) from None
    depth = 0
    for token in _TOKENS.finditer(raw):
        first = token.group()[:1]
        if first in b"[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise refuse(token.start(), "C012", f"nested deeper than {MAX_JSON_DEPTH} levels")
        elif first in b"]}":
            depth -= 1
        elif first.isdigit():
            raise refuse(token.start(), "C023", f"a number of more than {MAX_DIGITS} digits")
        elif first in b"NI":
            raise refuse(token.start(), "C022", f"not JSON: {token.group().decode()}")
        elif first in b"eE" and abs(int(token.group()[1:])) > 300:
            raise refuse(token.start(), "C023", "a number too large or too small to read")

    def number(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            raise ValueError(f"the number {literal[:20]} is too large")
        return value

    def constant(literal: str) -> None:
        raise ValueError(f"{literal} is not a number JSON allows")

    try:
        return json.loads(text, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as err:
        offset = len(text[: err.pos].encode("utf-8"))
        raise refuse(offset, "C022", f"not JSON: {err.msg}") from None
    except ValueError as err:
        raise refuse(0, "C022", f"not JSON century reads: {err}") from None
