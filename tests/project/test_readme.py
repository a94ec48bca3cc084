"""The README's Python example runs as written against a freshly built engine."""

from __future__ import annotations

import re
import subprocess
import sys

from helpers import ROOT


def test_readme_engine_example_runs(run, tmp_path):
    out = tmp_path / "build"
    assert run("engine", "spice-road", "--out", str(out / "spice-road")).exit_code == 0
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [example] = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "new_game" in b]
    example = example.replace('"build/spice-road"', repr(str(out / "spice-road")))
    example += "\nassert game.replay(record).to_dict() == state.to_dict()\nprint('ok')\n"
    result = subprocess.run(
        [sys.executable, "-c", example], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
