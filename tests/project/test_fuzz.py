"""Random mutations of the bundled files never produce a traceback: exit 0 or 1 only."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from helpers import ROOT

FILES = [
    "rules/spice-road.yaml",
    "rules/golem.yaml",
    "cards/spice-road/merchant.yaml",
    "cards/spice-road/points.yaml",
    "cards/spice-road/starting.yaml",
    "rules/prose/century.en.yaml",
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    kind = rng.randrange(6)
    if kind == 0 and len(lines) > 1:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 1 and len(lines) > 2:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 2:  # truncate
        return data[: rng.randrange(len(data) + 1)]
    elif kind == 3:  # random bytes somewhere
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.randbytes(rng.randrange(1, 8)) + data[at:]
    elif kind == 4:  # swap two values
        values = [i for i, line in enumerate(lines) if b": " in line]
        if len(values) > 1:
            i, j = rng.sample(values, 2)
            ki, _, vi = lines[i].partition(b": ")
            kj, _, vj = lines[j].partition(b": ")
            lines[i], lines[j] = ki + b": " + vj, kj + b": " + vi
    else:  # replace a token with something hostile
        hostile = [b"-1", b"null", b"[]", b"{}", b"&a x", b"*a", b'"\\u0000"', b"1e999", b"~"]
        i = rng.randrange(len(lines))
        words = lines[i].split(b" ")
        words[rng.randrange(len(words))] = rng.choice(hostile)
        lines[i] = b" ".join(words)
    return b"\n".join(lines)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    """A copy of the bundled rules and cards that the fuzzer may break."""
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(ROOT / "rules", root / "rules")
    shutil.copytree(ROOT / "cards", root / "cards")
    return root


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(150))
def test_mutation_never_crashes(seed: int, sandbox: Path, run):
    rng = random.Random(seed)
    name = FILES[seed % len(FILES)]
    target = sandbox / name
    original = (ROOT / name).read_bytes()
    target.write_bytes(mutate(original, rng))
    try:
        result = run("validate", "--format", "json", str(sandbox / "rules"))
    finally:
        target.write_bytes(original)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"traceback for seed {seed} on {name}: {result.exception!r}"
    )
    assert result.exit_code in (0, 1), result.output
