"""The system compiler as both compiled engines run it (`century.engine.cc`): a ``CC`` that is
no command line is refused in one line by ``--backend c`` and ``--native`` alike, and a tool
that cannot be started or runs too long is the caller's error with a one-line message."""

from __future__ import annotations

import sys

import pytest

from century.engine import cc


@pytest.mark.parametrize(
    ("option", "said"),
    [("--backend=c", "the C engine"), ("--native", "the engine natively")],
)
def test_a_cc_that_is_no_command_line_is_refused_in_one_line(
    run, monkeypatch, tmp_path, option, said
):
    if option == "--native":
        pytest.importorskip("mypyc", reason="mypyc is checked for before the compiler")
    monkeypatch.setenv("CC", 'cc "-O2')
    monkeypatch.setattr("century.targets.engine.prebuilt", lambda ruleset: None)
    result = run("engine", "spice-road", option, "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"error: spice-road: cannot compile {said}: "
        f"CC is not a command line (No closing quotation): 'cc \"-O2'\n"
    )
    assert not (tmp_path / "out").exists()


class Refused(ValueError):
    """The error a caller of `cc.run` raises."""


def test_a_tool_that_cannot_start_is_the_callers_error(tmp_path):
    with pytest.raises(Refused, match=r"^cannot run the C compiler: No such file or directory"):
        cc.run([str(tmp_path / "no-such-cc")], tmp_path, "the C compiler", 60, Refused)


def test_a_tool_that_runs_too_long_is_given_up(tmp_path):
    sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
    with pytest.raises(Refused, match=r"^mypyc took more than 1 s$"):
        cc.run(sleeper, tmp_path, "mypyc", 1, Refused)


def test_a_run_gives_the_status_and_all_it_printed(tmp_path):
    script = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"
    status, output = cc.run([sys.executable, "-c", script], tmp_path, "python", 60, Refused)
    assert (status, output) == (3, "out\nerr")
    assert cc.last_lines("\n".join(map(str, range(40)))) == tuple(map(str, range(25, 40)))
    assert cc.last_lines("") == ("no output",)
