"""Profiler parsers and the profile document, on real MindSpore 2.10 CPU Profiler output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mindscope_runtime.profdoc import attribute, build_profile_document, by_cell
from mindscope_runtime.profparse import (
    OpExecution,
    find_profiler_files,
    parse_execute_timestamps,
    parse_op_detail_csv,
    parse_op_type_csv,
    parse_trace_view,
)
from mindscope_runtime.schemacheck import load_schema, validate
from mindscope_runtime.timeline import chrome_trace

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "fixtures" / "profiler"


def _read(mode: str, name: str) -> str:
    return (FIXTURES / mode / name).read_text()


def test_op_detail_rows() -> None:
    rows = parse_op_detail_csv(_read("graph", "cpu_op_detail_info_0.csv"))
    conv = next(r for r in rows if r["type"] == "Conv2D")
    assert conv["fullName"] == "Default/block-Block/conv-Conv2d/Conv2D-op0"
    assert conv["calls"] == 3
    assert conv["totalMs"] == pytest.approx(5.74378)
    assert conv["avgMs"] == pytest.approx(1.91459)
    assert sum(r["share"] for r in rows) == pytest.approx(1.0, abs=1e-4)


def test_op_type_rows() -> None:
    rows = parse_op_type_csv(_read("graph", "cpu_op_type_info_0.csv"))
    assert {r["type"] for r in rows} == {"Conv2D", "BatchNorm", "ReLU", "BiasAdd", "MatMul"}
    assert all(r["callsPerStep"] == 1 for r in rows)


def test_execute_timestamps_agree_with_detail_totals() -> None:
    executions = parse_execute_timestamps(_read("graph", "cpu_op_execute_timestamp_0.txt"))
    assert len(executions) == 15
    assert executions == sorted(executions, key=lambda e: e.start_ns)
    detail = parse_op_detail_csv(_read("graph", "cpu_op_detail_info_0.csv"))
    for row in detail:
        mine = [e.dur_ms for e in executions if e.full_name == row["fullName"]]
        assert sum(mine) == pytest.approx(row["totalMs"], rel=1e-3)


def test_trace_view_numbers() -> None:
    events = parse_trace_view(_read("graph", "trace_view.json"))
    ops = [e for e in events if e["ph"] == "X" and e["pid"] == 2]
    assert len(ops) == 15  # one per op execution; pid 3 holds MindSpore's scope-layer events
    assert all(isinstance(e["ts"], float) and isinstance(e["dur"], float) for e in ops)
    assert parse_trace_view("") == []


def test_find_profiler_files(tmp_path: Path) -> None:
    run = tmp_path / "vm_1_2_ascend_ms"
    (run / "FRAMEWORK").mkdir(parents=True)
    (run / "ASCEND_PROFILER_OUTPUT").mkdir()
    for name in ("cpu_op_detail_info_0.csv", "cpu_op_type_info_0.csv"):
        (run / "FRAMEWORK" / name).write_text("")
    (run / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").write_text("[]")
    files = find_profiler_files(tmp_path)
    assert files is not None and files.run_dir == run
    assert files.timestamps is None and files.trace_view is not None
    assert find_profiler_files(tmp_path / "empty") is None


def _document(mode: str, intervals: Any = None) -> dict[str, Any]:
    executions = parse_execute_timestamps(_read(mode, "cpu_op_execute_timestamp_0.txt"))
    first, last = executions[0].start_ns, executions[-1].start_ns + 1_000_000
    meta = {
        "mindsporeVersion": "2.10.0", "mode": "GRAPH_MODE", "syntaxLevel": "LAX",
        "device": "CPU", "target": "net.py:Net", "inputs": [], "steps": 1, "warmup": 0,
        "scopeAttribution": "mindspore",
    }  # fmt: skip
    return build_profile_document(
        meta=meta,
        detail=parse_op_detail_csv(_read(mode, "cpu_op_detail_info_0.csv")),
        type_rows=parse_op_type_csv(_read(mode, "cpu_op_type_info_0.csv")),
        executions=executions,
        trace=parse_trace_view(_read(mode, "trace_view.json")),
        marks=[(first, last)],
        intervals=intervals,
    )


def test_graph_mode_document() -> None:
    doc = _document("graph")
    conv = doc["ops"][0]
    assert (conv["type"], conv["scope"], conv["scopeSource"]) == (
        "Conv2D", "Default/block-Block/conv-Conv2d", "mindspore"
    )  # fmt: skip
    cells = {c["scope"]: c for c in doc["byCell"]}
    assert cells["Default"]["totalMs"] == pytest.approx(doc["totals"]["opMs"])
    assert cells["Default/block-Block"]["selfMs"] == 0
    assert doc["steps"][0]["opCount"] == 15
    ts = [e["ts"] for e in doc["timeline"]["events"] if e["ph"] == "X"]
    assert min(ts) == 0


def test_pynative_rows_split_by_hook_intervals_keep_totals() -> None:
    executions = parse_execute_timestamps(_read("pynative", "cpu_op_execute_timestamp_0.txt"))
    matmuls = [e for e in executions if e.full_name == "MatMul"]
    intervals = [("Default/fc-Dense", m.start_ns - 10, m.start_ns + 10) for m in matmuls[1:]]
    intervals.append(("Default", executions[0].start_ns - 100, executions[-1].start_ns + 100))
    doc = _document("pynative", intervals)
    matmul_rows = [r for r in doc["ops"] if r["fullName"] == "MatMul"]
    assert {r["scope"] for r in matmul_rows} == {"Default/fc-Dense", "Default"}
    detail = parse_op_detail_csv(_read("pynative", "cpu_op_detail_info_0.csv"))
    assert doc["totals"]["opMs"] == pytest.approx(sum(r["totalMs"] for r in detail), rel=1e-3)


def test_attribute_picks_innermost_interval() -> None:
    execution = OpExecution("MatMul", "HostCpuOps", 50, 0.1, 0)
    intervals = [("Default", 0, 100), ("Default/fc-Dense", 40, 60), ("Default/x", 70, 80)]
    assert attribute(execution, intervals) == "Default/fc-Dense"
    assert attribute(OpExecution("A", "", 500, 0.1, 0), intervals) is None


def test_by_cell_without_scope() -> None:
    rows = [{"scope": "", "totalMs": 1.0, "calls": 2}]
    assert by_cell(rows)[0]["scope"] == "(no scope)"


def test_profile_documents_match_schema_and_export_trace() -> None:
    schema = load_schema(ROOT / "schemas" / "profile-document.schema.json")
    for mode in ("graph", "pynative"):
        doc = _document(mode)
        assert validate(doc, schema) == []
        trace = chrome_trace(doc)
        events = doc["timeline"]["events"]  # every event, metadata first, then by time
        timed = sorted((e for e in events if e["ph"] != "M"), key=lambda e: e["ts"])
        assert trace["traceEvents"] == [e for e in events if e["ph"] == "M"] + timed


def test_validator_reports_violations() -> None:
    schema = load_schema(ROOT / "schemas" / "profile-document.schema.json")
    doc = _document("graph")
    doc["version"] = 99
    del doc["ops"][0]["calls"]
    doc["steps"][0]["wallMs"] = -1
    errors = validate(doc, schema)
    assert any("$.version" in e for e in errors)
    assert any("$.ops[0]: missing required 'calls'" in e for e in errors)
    assert any("$.steps[0].wallMs" in e for e in errors)
