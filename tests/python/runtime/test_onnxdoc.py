"""An .onnx file → graph document, read with the real `onnx` package (no MindSpore)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mindscope_runtime.export.onnxdoc import read_onnx_document
from mindscope_runtime.schemacheck import load_schema, validate

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = Path(__file__).parent / "fixtures" / "tiny_net.onnx"  # TinyNet of tiny_net.py.txt


def test_tiny_net_becomes_a_valid_graph_document() -> None:
    doc = read_onnx_document(FIXTURE)
    assert validate(doc, load_schema(ROOT / "schemas" / "graph-document.schema.json")) == []
    assert doc["meta"]["capture"] == "onnx" and doc["meta"]["onnx"]["fileBytes"] > 0
    ops = [n["opType"] for n in doc["nodes"] if n["category"] == "compute"]
    assert ops == ["Conv", "BatchNormalization", "Relu", "Flatten", "Gemm"]
    conv = doc["nodes"][0]
    assert conv["scope"] == "Default/block-/conv-" and conv["fullName"].endswith("/Conv-op0")
    assert conv["outputs"][0]["shape"] == [1, 4, 4, 4]  # from onnx shape inference
    relu = doc["nodes"][2]
    assert relu["scope"] == "Default/block-"  # no weights: the Cell around its producer's
    edges = {(e["from"], e["to"]) for e in doc["edges"]}
    assert (conv["id"], doc["nodes"][1]["id"]) in edges
    weights = {p["name"]: p["size"] for p in doc["parameters"] if p["kind"] == "weight"}
    assert weights["block.conv.weight"] == 4 * 3 * 3 * 3 and weights["fc.weight"] == 3 * 64
    (root,) = doc["scopes"]
    block = next(c for c in root["children"] if c["name"] == "block")
    assert block["paramCount"] == 108 + 4 * 4  # conv + gamma, beta, moving mean and variance
    assert doc["meta"]["inputs"] == [{"shape": [1, 3, 4, 4], "dtype": "Float32"}]


@pytest.mark.slow
def test_cli_reads_onnx_and_refuses_what_is_not_onnx(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    cmd = [sys.executable, "-m", "mindscope_runtime", "onnx"]
    proc = subprocess.run([*cmd, str(FIXTURE), "-o", str(out)], capture_output=True, text=True)
    status = json.loads(proc.stdout)
    assert proc.returncode == 0 and status["summary"]["computeOps"] == 5
    assert json.loads(out.read_text())["kind"] == "mindscope.graph"
    bad = tmp_path / "bad.onnx"
    bad.write_text("not a model")
    proc = subprocess.run([*cmd, str(bad), "-o", str(out)], capture_output=True, text=True)
    status = json.loads(proc.stdout)
    assert proc.returncode == 1 and status["error"]["kind"] == "bad-onnx"
    assert "bad.onnx is not a readable ONNX model" in status["error"]["message"]
