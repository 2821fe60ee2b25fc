"""Target and input specs, atomic writes: fast, no MindSpore needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindscope_runtime.atomic import write_json_atomic
from mindscope_runtime.errors import RuntimeToolError, one_line
from mindscope_runtime.inputs import InputSpec, parse_input_spec
from mindscope_runtime.targets import load_module, lookup, parse_target


def test_parse_target_splits_on_last_colon(tmp_path: Path) -> None:
    spec = parse_target(f"{tmp_path}/model.py:Net")
    assert spec.file == (tmp_path / "model.py").resolve()
    assert spec.name == "Net"


def test_parse_target_uses_default_file_for_bare_name(tmp_path: Path) -> None:
    default = tmp_path / "m.py"
    assert parse_target(":make_inputs", default_file=default).file == default
    assert parse_target("make_inputs", default_file=default).name == "make_inputs"


@pytest.mark.parametrize("bad", ["model.py:", "model.py:1abc", "model.py:a-b"])
def test_parse_target_rejects_bad_names(bad: str) -> None:
    with pytest.raises(RuntimeToolError) as info:
        parse_target(bad)
    assert info.value.kind == "bad-target"


def test_parse_target_without_file_needs_default() -> None:
    with pytest.raises(RuntimeToolError):
        parse_target("Net")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2,3,32,32:float32", InputSpec((2, 3, 32, 32), "float32")),
        ("2,3", InputSpec((2, 3), "float32")),
        ("(4, 16):int32", InputSpec((4, 16), "int32")),
        ("8x128:fp16", InputSpec((8, 128), "float16")),
        (":int64", InputSpec((), "int64")),
    ],
)
def test_parse_input_spec(text: str, expected: InputSpec) -> None:
    assert parse_input_spec(text) == expected


@pytest.mark.parametrize("bad", ["2,a:float32", "2,-3", "2,0", "2,3:float31"])
def test_parse_input_spec_rejects(bad: str) -> None:
    with pytest.raises(RuntimeToolError) as info:
        parse_input_spec(bad)
    assert info.value.kind == "bad-input-spec"
    assert "\n" not in info.value.message


def test_load_module_and_lookup(tmp_path: Path) -> None:
    source = tmp_path / "things.py"
    source.write_text("class Outer:\n    VALUE = 3\n")
    module = load_module(source)
    assert lookup(module, parse_target(f"{source}:Outer.VALUE")) == 3
    with pytest.raises(RuntimeToolError) as info:
        lookup(module, parse_target(f"{source}:Missing"))
    assert info.value.kind == "name-not-found"


def test_load_module_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RuntimeToolError) as info:
        load_module(tmp_path / "nope.py")
    assert info.value.kind == "file-not-found"


def test_load_module_reports_user_line_of_import_error(tmp_path: Path) -> None:
    source = tmp_path / "broken.py"
    source.write_text("x = 1\nraise ValueError('bad model file')\n")
    with pytest.raises(RuntimeToolError) as info:
        load_module(source)
    assert info.value.kind == "import-failed"
    assert info.value.line == 2
    assert info.value.file == str(source)


def test_write_json_atomic_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "doc.json"
    write_json_atomic(target, {"a": 1})
    write_json_atomic(target, {"a": 2})
    assert json.loads(target.read_text()) == {"a": 2}
    assert [p.name for p in target.parent.iterdir()] == ["doc.json"]


def test_write_json_atomic_leaves_nothing_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "doc.json"
    with pytest.raises(ValueError):
        write_json_atomic(target, {"bad": float("nan")})
    assert list(tmp_path.iterdir()) == []


def test_one_line_collapses_and_bounds() -> None:
    assert one_line("a\n  b\n\nc") == "a b c"
    assert len(one_line("x" * 1000, 50)) == 50
