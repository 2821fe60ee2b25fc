"""The real CLI in subprocesses against real MindSpore on CPU (slow: ~30 s in all)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from mindscope_runtime.schemacheck import load_schema, validate

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]

MODEL = textwrap.dedent(
    """
    import numpy as np
    import mindspore as ms
    from mindspore import nn


    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, pad_mode="same")
            self.bn = nn.BatchNorm2d(8)
            self.relu = nn.ReLU()

        def construct(self, x):
            return self.relu(self.bn(self.conv(x)))


    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(8 * 8 * 8, 10)

        def construct(self, x):
            y = self.block(x)
            y = self.flatten(y)
            return self.fc(y)


    class NoTry(nn.Cell):
        def __init__(self):
            super().__init__()
            self.block = Block()

        def construct(self, x):
            try:
                y = self.block(x)
            except ValueError:
                y = x
            return y


    class Boom(nn.Cell):
        def __init__(self):
            super().__init__()
            raise ValueError("broken __init__")


    def make_net():
        return Net()


    net_instance = Net()


    def make_inputs():
        print("user print must not reach stdout")
        return np.ones((2, 3, 8, 8), np.float32)
    """
)


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("model") / "model.py"
    path.write_text(MODEL)
    return path


def run_cli(*args: str, cwd: Path) -> tuple[int, dict[str, Any], str]:
    env = {**os.environ, "GLOG_v": "3"}
    proc = subprocess.run(
        [sys.executable, "-m", "mindscope_runtime", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, f"stdout must be one status line, got {proc.stdout!r}"
    return proc.returncode, json.loads(lines[0]), proc.stderr


def schema(name: str) -> dict[str, Any]:
    return load_schema(ROOT / "schemas" / f"{name}-document.schema.json")


def test_graph_document(model: Path) -> None:
    out = model.parent / "graph.json"
    code, status, stderr = run_cli(
        "graph", f"{model}:Net", "--input", "2,3,8,8:float32", "-o", str(out), cwd=model.parent
    )
    assert code == 0 and status["ok"], status
    assert "[mindscope" in stderr
    doc = json.loads(out.read_text())
    assert validate(doc, schema("graph")) == []
    assert doc["meta"]["capture"] == "ir-dump" and doc["meta"]["mindsporeVersion"] == "2.10.0"
    assert doc["meta"]["syntaxLevel"] == "LAX" and doc["meta"]["mode"] == "GRAPH_MODE"
    conv = next(n for n in doc["nodes"] if n["opType"] == "Conv2D")
    assert conv["fullName"].startswith("Default/block-Block/conv-Conv2d/")
    assert conv["outputs"][0]["shape"] == [2, 8, 8, 8]
    assert conv["userSource"]["file"] == str(model)
    assert "self.conv(x)" in conv["userSource"]["code"]
    assert conv["frameworkSource"]["file"].endswith("conv.py")
    (root,) = doc["scopes"]
    assert root["cellType"] == "Net" and root["paramCount"] == 216 + 32 + 5120 + 10
    assert {p["kind"] for p in doc["patterns"]} >= {"Conv-BN-Act"}


@pytest.mark.parametrize("name", ["make_net", "net_instance"])
def test_factory_and_instance_targets(model: Path, name: str) -> None:
    out = model.parent / f"{name}.json"
    code, status, stderr = run_cli(
        "graph", f"{model}:{name}", "--inputs-from", ":make_inputs", "-o", str(out), "--quiet",
        cwd=model.parent,
    )  # fmt: skip
    assert code == 0 and status["summary"]["computeOps"] == 6
    assert "user print must not reach stdout" in stderr


def test_compile_failure_gives_error_and_cell_graph(model: Path) -> None:
    out = model.parent / "notry.json"
    code, status, _ = run_cli(
        "graph", f"{model}:NoTry", "--input", "2,3,8,8", "-o", str(out), cwd=model.parent
    )
    assert code == 1 and not status["ok"]
    assert status["error"]["kind"] == "compile-failed"
    assert "Try" in status["error"]["message"]
    assert status["error"]["file"] == str(model)
    doc = json.loads(out.read_text())
    assert validate(doc, schema("graph")) == []
    assert doc["meta"]["capture"] == "pynative-hooks"
    assert MODEL.splitlines()[doc["error"]["line"] - 1].strip() == "try:"
    assert [n["opType"] for n in doc["nodes"]] == ["Conv2d", "BatchNorm2d", "ReLU"]
    assert doc["nodes"][0]["fullName"] == "Default/block-Block/conv-Conv2d"
    assert {"from": "cell0", "to": "cell1", "toInput": 0, "kind": "data"} in doc["edges"]
    assert not (model.parent / "rank_0").exists()  # MindSpore's analyze_fail.ir stays out


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["missing.py:Net", "--input", "2,3"], "file-not-found"),
        (["{model}:Net", "--input", "2,x"], "bad-input-spec"),
        (["{model}:Net"], "usage"),
    ],
)
def test_errors_are_one_json_line_and_write_nothing(
    model: Path, args: list[str], kind: str
) -> None:
    out = model.parent / f"err-{kind}.json"
    argv = ["graph", *(a.format(model=model) for a in args), "-o", str(out), "--quiet"]
    code, status, _ = run_cli(*argv, cwd=model.parent)
    assert code != 0 and status["ok"] is False
    assert status["error"]["kind"] == kind
    assert "\n" not in status["error"]["message"]
    assert not out.exists()


def assert_has_every_csv_op(doc: dict[str, Any], profiler_dir: Path) -> None:
    """Every op row of MindSpore's own cpu_op_detail_info CSV (read here with the csv module)
    is in the document with the same type, calls and total time; the totals agree."""
    (path,) = profiler_dir.rglob("cpu_op_detail_info_*.csv")
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows
    ours: dict[str, list[dict[str, Any]]] = {}
    for op in doc["ops"]:
        ours.setdefault(op["fullName"], []).append(op)
    for row in rows:
        mine = ours.get(row["full_op_name"])
        assert mine, f"{row['full_op_name']} missing from the document"
        assert {m["type"] for m in mine} == {row["op_type"]}
        assert sum(m["calls"] for m in mine) == int(row["op_occurrences"])
        total = sum(m["totalMs"] for m in mine)
        assert total == pytest.approx(float(row["op_total_time(ms)"]), rel=1e-3, abs=1e-4)
    assert set(ours) == {r["full_op_name"] for r in rows}
    csv_total = sum(float(r["op_total_time(ms)"]) for r in rows)
    assert doc["totals"]["opMs"] == pytest.approx(csv_total, rel=1e-3)


def test_profile_graph_mode(model: Path) -> None:
    out, trace = model.parent / "profile.json", model.parent / "trace.json"
    kept = model.parent / "profiler-graph"
    code, status, _ = run_cli(
        "profile", f"{model}:Net", "--input", "2,3,8,8", "--steps", "3", "--warmup", "1",
        "-o", str(out), "--trace-out", str(trace), "--keep-profiler-output", str(kept),
        cwd=model.parent,
    )  # fmt: skip
    assert code == 0 and status["ok"], status
    doc = json.loads(out.read_text())
    assert validate(doc, schema("profile")) == []
    assert_has_every_csv_op(doc, kept)
    assert len(doc["steps"]) == 3 and doc["meta"]["steps"] == 3
    memory = doc["memory"]  # MindSpore's cpu_ms_memory_record: the conv output alone is 4 KiB
    assert memory["source"] == "cpu_ms_memory_record" and memory["peakActiveBytes"] >= 4096
    assert any(e["ph"] == "C" for e in doc["timeline"]["events"])
    types = {row["type"] for row in doc["ops"]}
    assert {"Conv2D", "BatchNorm", "MatMul"} <= types
    conv = next(r for r in doc["ops"] if r["type"] == "Conv2D")
    assert conv["scope"] == "Default/block-Block/conv-Conv2d" and conv["calls"] == 3
    assert sum(r["totalMs"] for r in doc["byType"]) == pytest.approx(doc["totals"]["opMs"], 1e-3)
    exported = json.loads(trace.read_text())
    assert any(e.get("name", "").endswith("Conv2D-op0") for e in exported["traceEvents"])


def test_profile_pynative_attributes_ops_to_cells(model: Path) -> None:
    out = model.parent / "profile-pynative.json"
    kept = model.parent / "profiler-pynative"
    code, status, _ = run_cli(
        "profile", f"{model}:Net", "--input", "2,3,8,8", "--steps", "2", "--mode", "pynative",
        "-o", str(out), "--quiet", "--keep-profiler-output", str(kept), cwd=model.parent,
    )  # fmt: skip
    assert code == 0, status
    doc = json.loads(out.read_text())
    assert validate(doc, schema("profile")) == []
    assert_has_every_csv_op(doc, kept)  # PyNative rows are split per Cell: sums must agree
    assert doc["memory"] is not None and doc["memory"]["peakAllocatedBytes"] > 0
    assert doc["meta"]["scopeAttribution"] == "hooks"
    hooked = [r for r in doc["ops"] if r["scopeSource"] == "hooks"]
    assert any(r["type"] == "MatMul" and r["scope"] == "Default/fc-Dense" for r in hooked)
