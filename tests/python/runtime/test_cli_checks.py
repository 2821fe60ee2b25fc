"""`-o` and `--input` are checked before the model runs: a specific kind, one line, exit 1, and
the model file never imported (it leaves a marker when it is). Fast: fails before MindSpore."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.inputs import check_input_sizes, parse_input_spec
from mindscope_runtime.outputs import check_output, check_output_folder


def cli(folder: Path, *args: str) -> tuple[int, dict[str, Any]]:
    marker = folder / "imported"
    (folder / "model.py").write_text(f"open({str(marker)!r}, 'w').close()\nNet = None\n")
    run = subprocess.run([sys.executable, "-m", "mindscope_runtime", *args], cwd=folder,
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    lines = run.stdout.splitlines()
    assert len(lines) == 1, (run.stdout, run.stderr[-2000:])
    assert not marker.exists(), "the model was imported before the arguments were checked"
    return run.returncode, json.loads(lines[0])


@pytest.mark.parametrize(
    ("output", "says"),
    [
        ("/proc/version/graph.json", "/proc/version is a file, not a folder"),
        (".", "is a folder"),
        ("", "-o is empty"),
        ("   ", "-o is empty"),
    ],
)
def test_unwritable_output_fails_first(tmp_path: Path, output: str, says: str) -> None:
    code, status = cli(tmp_path, "graph", "model.py:Net", "--input", "2,3", "-o", output)
    assert code == 1 and status["ok"] is False
    assert status["error"]["kind"] == "bad-output", status
    assert says in status["error"]["message"] and "Errno" not in status["error"]["message"]


def test_the_mindir_command_checks_its_output_too(tmp_path: Path) -> None:
    code, status = cli(tmp_path, "mindir", "missing.mindir", "-o", str(tmp_path))
    assert code == 1 and status["error"]["kind"] == "bad-output", status


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["profile", "--trace-out", "/proc/version/t.json"], "--trace-out '/proc/version/t.json'"),
        (["profile", "--trace-out", "."], "--trace-out '.': is a folder"),
        (["profile", "--keep-profiler-output", "/proc/version/p"], "/proc/version is a file"),
        (["graph", "--keep-ir", "/proc/version"], "--keep-ir '/proc/version': is a file"),
        (["graph", "--keep-ir", ""], "--keep-ir is empty"),
        (["summary", "--graph-out", "/proc/version/g.json"], "--graph-out '/proc/version/g.json'"),
    ],
)
def test_every_output_path_is_checked_before_the_model_runs(
    tmp_path: Path, args: list[str], says: str
) -> None:
    """A bad --trace-out / --keep-ir / --keep-profiler-output fails first, named by its flag,
    not after the model ran and profiled."""
    command, *rest = args
    out = str(tmp_path / "doc.json")
    target = [str(tmp_path)] if command == "summary" else ["model.py:Net", "--input", "2,3"]
    code, status = cli(tmp_path, command, *target, "-o", out, *rest)
    assert code == 1 and status["error"]["kind"] == "bad-output", status
    assert says in status["error"]["message"] and "Errno" not in status["error"]["message"]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("", "is empty"),
        ("2,3:", "nothing after ':'"),
        ("1,,3", "an empty dimension"),
        ("2,3,", "an empty dimension"),
        (",".join(["1"] * 34), "34 dimensions (at most 32)"),
        ("1" * 20, "is over 2,147,483,647"),
    ],
)
def test_malformed_input_specs_fail_first(tmp_path: Path, spec: str, says: str) -> None:
    code, status = cli(tmp_path, "graph", "model.py:Net", "--input", spec, "-o", "g.json")
    assert code == 1 and status["error"]["kind"] == "bad-input-spec", status
    assert says in status["error"]["message"] and "\n" not in status["error"]["message"]


def test_inputs_larger_than_memory_fail_first(tmp_path: Path) -> None:
    spec = "100000,100000,2:float32"  # 74.5 GiB
    code, status = cli(tmp_path, "profile", "model.py:Net", "--input", spec, "-o", "p.json")
    assert code == 1 and status["error"]["kind"] == "input-too-large", status
    assert "74.5 GiB" in status["error"]["message"]


def test_good_specs_and_outputs_still_pass(tmp_path: Path) -> None:
    assert parse_input_spec(":int32").shape == ()
    assert parse_input_spec("2x3:fp16").shape == (2, 3)
    assert parse_input_spec(" (2, 3, 32, 32) ").dtype == "float32"
    check_input_sizes([parse_input_spec("2,3,32,32")], limit=2**20)
    with pytest.raises(RuntimeToolError, match=r"need 1\.0 GiB"):
        check_input_sizes([parse_input_spec("268435456")], limit=2**20)
    assert check_output(str(tmp_path / "new" / "deeper" / "g.json")).name == "g.json"
    existing = tmp_path / "old.json"
    existing.write_text("{}")
    assert check_output(str(existing)) == existing
    with pytest.raises(RuntimeToolError, match="not a regular file"):
        check_output("/dev/null")


def test_export_writes_into_a_folder_and_checks_it_first(tmp_path: Path) -> None:
    """`export -o DIR`: an existing or creatable folder passes, a file or /proc path fails
    before the model is imported."""
    assert check_output_folder(str(tmp_path)) == tmp_path
    assert check_output_folder(str(tmp_path / "new" / "dir")).name == "dir"
    a_file = tmp_path / "report.json"
    a_file.write_text("{}")
    with pytest.raises(RuntimeToolError, match="is a file: this command writes into a folder"):
        check_output_folder(str(a_file))
    code, status = cli(
        tmp_path, "export", "model.py:Net", "--input", "2,3", "-o", "/proc/version/out"
    )
    assert code == 1 and status["error"]["kind"] == "bad-output", status
    assert "/proc/version is a file, not a folder" in status["error"]["message"]
