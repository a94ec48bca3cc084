"""File names from data: card ids, languages and game ids become safe, stable file names.

Ids are data, so a name keeps only lower-case letters, digits, ``+`` and ``-`` as they are
and writes every other byte of the id's UTF-8 as ``_`` and two hex digits (``_`` itself too,
and a leading ``-``). That mapping is one-to-one, so different ids never share a name, and
upper-case letters are escaped too, so no two names differ only in case (which would clash
on macOS and Windows). A name is never a path (no ``/``, ``\\``, ``.``), never a name Windows
reserves (``con``, ``nul``, ``com1``, ... get a trailing ``_``, which no escape produces), and
never longer than `MAX_STEM` characters (a longer one is cut and ends in ``~`` and a hash of
the whole id).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

KEEP = frozenset("abcdefghijklmnopqrstuvwxyz0123456789+-")
MAX_STEM = 64
"""Longest file name stem; the file systems' limit is 255 bytes, paths add up."""
WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul"}
    | {f"com{i}" for i in range(1, 10)}
    | {f"lpt{i}" for i in range(1, 10)}
)


def _escape(char: str) -> str:
    return "".join(f"_{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))


def file_stem(text: str) -> str:
    """A file name (without extension) for `text`: the same on every run and every system,
    different for different texts (up to a hash collision for ids over `MAX_STEM`)."""
    stem = "".join(c if c in KEEP else _escape(c) for c in text)
    if stem.startswith("-"):
        stem = _escape("-") + stem[1:]
    if not stem:
        stem = "_"
    if stem in WINDOWS_RESERVED:
        stem += "_"
    if len(stem) > MAX_STEM:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        stem = stem[: MAX_STEM - 17] + "~" + digest
    return stem


def unique_stems(texts: Iterable[str]) -> list[str]:
    """`file_stem` of each text, in order; a stem already taken (the same text twice, or a
    hash collision) gets ``~2``, ``~3``, ... so every name in one folder is different."""
    taken: set[str] = set()
    stems = []
    for text in texts:
        stem = base = file_stem(text)
        n = 1
        while stem in taken:
            n += 1
            stem = f"{base}~{n}"
        taken.add(stem)
        stems.append(stem)
    return stems
