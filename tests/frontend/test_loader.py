"""Safe loading: the rejections that need generated input, and the located marks."""

from __future__ import annotations

import pytest

from century.base.diagnostics import DiagnosticError
from century.base.limits import MAX_FILE_BYTES as MAX_BYTES
from century.frontend.loader import load_text


def test_file_over_the_size_cap_is_refused_before_parsing(run, tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"id: big\nextends: spice-road\n" + b"# padding\n" * (MAX_BYTES // 10 + 1))
    result = run("validate", str(big))
    assert result.exit_code == 1
    assert "1000000-byte limit" in result.stderr
    assert f"{big}:1:1: error C003:" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # libyaml's own depth limit ("nesting depth", PyYAML >= 6.0.4) or the loader's
        (b"[" * 20000 + b"]" * 20000, "nest"),
        (b"[" * 150 + b"]" * 150, "nested too deeply"),
        (b"a: " + b"9" * 5000 + b"\n", "cannot read value"),
        (b"a: !custom 1\n", "the tag '!custom' is not allowed"),
        (b"? [1, 2]\n: 3\n", "mapping keys must be plain scalars"),
        (b"\xef\xbb\xbfa: &x 1\n", "anchors and aliases are not allowed"),
        (b"a: ok\nb: \x07bell\n", "character U+0007 is not allowed"),
    ],
)
def test_hostile_yaml_gets_a_located_error(text: bytes, message: str):
    with pytest.raises(DiagnosticError) as caught:
        load_text(text, "hostile.yaml")
    [diag] = caught.value.diagnostics
    assert diag.file == "hostile.yaml" and diag.line >= 1 and diag.col >= 1
    assert message in diag.message


def test_marks_point_at_keys_and_values():
    node = load_text(b"a:\n  b: [1, {c: 2}]\n", "f.yaml")
    assert (node.locate(("a", "b", 1, "c")).line, node.locate(("a", "b", 1, "c")).col) == (2, 14)
    assert node.locate(("a", "b"), key=True).col == 3
    assert node.locate(("a", "missing")).line == 2  # nearest existing ancestor
    assert node.plain() == {"a": {"b": [1, {"c": 2}]}}


def test_keys_are_text_and_dates_stay_text():
    node = load_text(b"2: six\nwhen: 2020-01-01\n", "f.yaml")
    assert node.plain() == {"2": "six", "when": "2020-01-01"}
