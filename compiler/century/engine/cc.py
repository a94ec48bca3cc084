"""The system C compiler, as the C engine (`century.engine.cbuild`) and the engine compiled
with mypyc (`century.engine.native`) both use it: which command it is, what this machine lacks
to run it, and one run of it (or of mypyc, which runs it) in a build folder.

`run` gives the exit status and what the tool printed; a tool that cannot be started or
takes too long is the caller's error type with a one-line message, and `last_lines` is the
end of the output a failed build shows.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sysconfig
from collections.abc import Mapping, Sequence
from pathlib import Path

LOG_LINES = 15
"""How many of a failed build's last lines of output are shown."""


def compiler() -> list[str]:
    """The C compiler's command words: ``CC`` if set (empty: none), else the one Python was
    built with, else ``cc``. ValueError when ``CC`` is not a command line."""
    if "CC" in os.environ:
        return shlex.split(os.environ["CC"])
    return shlex.split(sysconfig.get_config_var("CC") or "cc")


def missing_compiler(empty: str, look_up: bool = True) -> str:
    """What this machine lacks to compile an extension module ("" when nothing): `empty`
    when ``CC`` names no command, a compiler not on the path (unless `look_up` is false: a
    build that finds its own), or Python's C headers."""
    try:
        words = compiler()
    except ValueError as err:
        return f"CC is not a command line ({err}): {os.environ.get('CC', '')[:60]!r}"
    if not words or not words[0]:
        return empty
    if look_up and shutil.which(words[0]) is None:
        return f"no C compiler found ({words[0]})"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"Python's C headers are missing (no Python.h in {include})"
    return ""


def run(
    command: Sequence[str],
    folder: Path,
    tool: str,
    timeout: float,
    error: type[Exception],
    env: Mapping[str, str] | None = None,
) -> tuple[int, str]:
    """Run `command` (the tool named `tool`) in `folder` with no input: (its exit status,
    what it printed, stripped). `error` with a one-line message when it cannot be started or
    runs longer than `timeout` seconds."""
    try:
        done = subprocess.run(
            list(command),
            cwd=folder,
            env=None if env is None else dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise error(f"{tool} took more than {timeout:.0f} s") from None
    except OSError as err:
        raise error(f"cannot run {tool}: {err.strerror or err}") from None
    return done.returncode, (done.stdout + done.stderr).strip()


def last_lines(output: str) -> tuple[str, ...]:
    """The last `LOG_LINES` lines of `output`, or ``no output``."""
    return tuple(output.splitlines()[-LOG_LINES:]) or ("no output",)
