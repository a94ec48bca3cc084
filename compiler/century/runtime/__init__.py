"""The sources copied into generated modules: the rules code of every engine (`engine`), the
learning adapters' action codec (`actions`), and the PettingZoo (`pettingzoo`) and OpenSpiel
(`openspiel`) adapters.

One rule holds them all, this module too: standard library only and nothing of this package,
because a copy must run where only the game's own modules lie beside it (the adapters also
import their learning libraries). For type checkers a copy imports its siblings under this
package's names (``import century.runtime.engine as engine``); the copy names the game's
modules instead. Each has one block of game constants between two marker comments, empty
here; `fill` is the one function that fills it.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

_BLOCK = re.compile(r"^# <(?P<kind>[a-z ]*constants)>\n.*?^# </(?P=kind)>\n", re.S | re.M)


@cache
def source(name: str) -> str:
    """The source of the copied module `name` from its docstring on (the comment above it
    is for this package only)."""
    text = files(__name__).joinpath(f"{name}.py").read_text(encoding="utf-8")
    return text[text.index('"""') :]


def fill(source: str, constants: str) -> str:
    """`source` with the lines between its constants markers replaced by `constants` (whole
    lines, each ending in a newline); ValueError when it has no such block."""
    found = _BLOCK.search(source)
    if found is None:
        raise ValueError("the source has no block of constants")
    if constants and not constants.endswith("\n"):
        constants += "\n"
    kind = found["kind"]
    block = f"# <{kind}>\n{constants}# </{kind}>\n"
    return source[: found.start()] + block + source[found.end() :]
