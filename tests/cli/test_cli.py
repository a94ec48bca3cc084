"""Command-line conventions: version, completion, help texts, one-line usage errors."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from century import __version__
from century.bots.compiled import bots_build
from century.cli import app

COMMANDS = sorted(c.name or c.callback.__name__ for c in app.registered_commands if c.callback)


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"century {__version__} (bots: {bots_build()})"


def test_shell_completion_is_offered(run):
    text = run("--help").stdout
    assert "--install-completion" in text and "--show-completion" in text


@pytest.mark.parametrize("command", COMMANDS)
def test_help_uses_ordinary_metavars(run, command):
    result = run(command, "--help")
    assert result.exit_code == 0, result.output
    usage = result.stdout.splitlines()[0]
    assert usage.startswith(f"Usage: century {command} [OPTIONS]")
    assert not re.search(r"<(bool|str|int|float|path|list)|\{\w+\}", result.stdout), result.stdout
    assert "Value error" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show"], "Missing argument 'GAME'"),
        (["build", "--paper", "a5"], "'a5' is not one of 'a4', 'letter'"),
        (["nosuch"], "No such command 'nosuch'"),
        (["validate", "--format", "yaml"], "'yaml' is not one of 'text', 'json'"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and message in line and "Value error" not in line


def test_the_console_script_module_runs():
    result = subprocess.run(
        [sys.executable, "-m", "century", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0 and __version__ in result.stdout
