"""The export command's pure parts: errors, histograms, failure lines, snippets, deps."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.export import deps
from mindscope_runtime.export.failure import no_mapping_error, op_scopes, unmapped_op
from mindscope_runtime.export.metrics import histogram, median_ms, merge_errors, output_errors
from mindscope_runtime.export.snippets import script_name, snippet_text

# MindSpore 2.10's message for an op its ONNX exporter cannot convert (measured).
NO_MAPPING = (
    "Can not find key InplaceAddExt in convert map. Exporting InplaceAddExt operator is not yet "
    "supported.\n\n----------------------------------------------------\n- C++ Call Stack:"
)


def test_output_errors_are_absolute_and_relative_to_the_output_scale() -> None:
    want = [np.array([[1.0, -4.0], [0.0, 2.0]], np.float32)]
    got = [want[0] + np.array([[0.0, 0.5], [0.25, 0.0]], np.float32)]
    (row,) = output_errors(got, want)
    assert row == {"index": 0, "maxAbsError": 0.5, "maxRelError": 0.125}


def test_output_errors_reject_a_different_count_or_shape() -> None:
    a = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="2 outputs"):
        output_errors([a, a], [a])
    with pytest.raises(ValueError, match="shape"):
        output_errors([np.zeros((4, 3))], [a])


def test_merge_errors_keeps_the_worst_batch_per_output() -> None:
    rows = [
        [{"index": 0, "maxAbsError": 1e-7, "maxRelError": 1e-6}],
        [{"index": 0, "maxAbsError": 3e-7, "maxRelError": 5e-7}],
    ]
    assert merge_errors(rows) == [{"index": 0, "maxAbsError": 3e-7, "maxRelError": 1e-6}]


def test_histogram_most_frequent_first() -> None:
    ops = ["Relu", "Conv", "Add", "Conv", "Relu", "Conv"]
    assert histogram(ops) == [
        {"op": "Conv", "count": 3},
        {"op": "Relu", "count": 2},
        {"op": "Add", "count": 1},
    ]


def test_median_ms_counts_the_runs() -> None:
    calls: list[int] = []
    timing = median_ms(lambda: calls.append(1), runs=5, warmup=2)
    assert len(calls) == 7 and timing["runs"] == 5 and timing["median"] >= timing["min"] >= 0


def test_unmapped_op_from_mindspores_message() -> None:
    assert unmapped_op(NO_MAPPING) == "InplaceAddExt"
    assert unmapped_op("RuntimeError: something else") is None


def test_op_scopes_and_the_one_line_error() -> None:
    doc = {
        "scopes": [{"path": "Default", "cellType": "Net", "attrPath": "", "children": [
            {"path": "Default/block-Residual", "cellType": "Residual", "attrPath": "block",
             "children": []}]}],
        "nodes": [
            {"opType": "MatMul", "scope": "Default/block-Residual"},
            {"opType": "InplaceAddExt", "scope": "Default/block-Residual"},
            {"opType": "InplaceAddExt", "scope": "Default"},
        ],
    }  # fmt: skip
    places = op_scopes(doc, "InplaceAddExt")
    assert places == [
        {"scope": "Default/block-Residual", "cell": "Residual", "attrPath": "block"},
        {"scope": "Default", "cell": "Net", "attrPath": ""},
    ]
    error = no_mapping_error("InplaceAddExt", places, "Net", "ONNX")
    assert error.kind == "export-unsupported-op" and "\n" not in error.message
    assert "op InplaceAddExt in Cell block (Residual), scope Default/block-Residual" in (
        error.message
    )
    assert "1 more place" in error.message
    assert error.to_json()["scopes"] == ["Default/block-Residual", "Default"]
    root_only = no_mapping_error("CumProd", places[1:], "Net", "ONNX")
    assert "in Cell Net (the root Cell)" in root_only.message


def test_snippets_are_valid_python_with_the_real_signature(tmp_path: Path) -> None:
    inputs = [{"name": "x", "shape": [2, 3, 32, 32], "dtype": "float32"},
              {"name": "ids", "shape": ["batch", 8], "dtype": "int32"}]  # fmt: skip
    outputs = [{"name": "72", "shape": [2, 10], "dtype": "float32"}]
    for fmt, suffix in (("ONNX", ".onnx"), ("MINDIR", ".mindir")):
        artefact = tmp_path / f"ResNet{suffix}"
        text = snippet_text(artefact, fmt, inputs, outputs)
        compile(text, script_name(artefact), "exec")
        assert '"x": [\n        [\n            2,' in text and '"batch"' in text and '"72"' in text
        assert f"with_name({artefact.name!r})" in text
    assert script_name(tmp_path / "ResNet.int8.onnx") == "run_ResNet_int8_onnx.py"


def test_missing_onnxruntime_is_one_line_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import raises ImportError
    with pytest.raises(RuntimeToolError) as caught:
        deps.onnxruntime()
    assert caught.value.kind == "dependency-missing"
    assert "install onnxruntime" in caught.value.message and "\n" not in caught.value.message
