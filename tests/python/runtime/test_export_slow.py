"""`python -m mindscope_runtime export` in subprocesses: real MindSpore 2.10 exports, verified
in real GraphCell and onnxruntime sessions; int8 through onnxruntime's quantizer; the
generated snippets run (slow: ~2 min in all on 2 busy cores)."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mindscope_runtime.schemacheck import load_schema, validate

from .test_cli_slow import run_cli

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
RESNET = ROOT / "examples" / "cifar_resnet" / "model.py"
FAST = ("--runs", "2", "--batches", "1", "--quiet")
FLOAT_TOLERANCE = 1e-5


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "models.py"
    shutil.copy(Path(__file__).parent / "fixtures" / "export_models.py.txt", path)
    return path


def export(target: str, out: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code, status, _ = run_cli("export", target, "-o", str(out), *FAST, *args, cwd=out.parent)
    return code, status


def report(status: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(Path(status["output"]).read_text())
    errors = validate(doc, load_schema(ROOT / "schemas" / "export-report.schema.json"))
    assert errors == [], errors
    return doc


def by_format(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["format"]: a for a in doc["artefacts"]}


def assert_float_verified(artefact: dict[str, Any]) -> None:
    check = artefact["verification"]
    assert check["ok"] and check["error"] is None, check
    assert check["batches"] == 2 and check["tolerance"] == FLOAT_TOLERANCE
    for row in check["outputs"]:
        assert row["maxAbsError"] < FLOAT_TOLERANCE, row
    assert check["latencyMs"]["median"] > 0 and check["latencyMs"]["runs"] == 2
    assert Path(artefact["file"]).stat().st_size == artefact["bytes"] > 0


def run_snippet(artefact: dict[str, Any]) -> list[tuple[str, list[int], str]]:
    """Run the generated script; its (name, shape, dtype) lines."""
    proc = subprocess.run(
        [sys.executable, artefact["snippet"]], capture_output=True, text=True, timeout=240
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    found = re.findall(r"^(.+): shape=\[([\d, ]*)\] dtype=(\w+)$", proc.stdout, re.MULTILINE)
    return [(n, [int(d) for d in s.split(",") if d.strip()], t) for n, s, t in found]


def expected_lines(artefact: dict[str, Any]) -> list[tuple[str, list[int], str]]:
    return [(o["name"], o["shape"], o["dtype"]) for o in artefact["outputs"]]


def test_resnet20_exports_verifies_quantizes_static_and_snippets_run(tmp_path: Path) -> None:
    code, status = export(
        f"{RESNET}:resnet20", tmp_path / "out", "--inputs-from", "make_inputs",
        "--quantize", "int8-static", "--calib", "4",
    )  # fmt: skip
    assert code == 0 and status["ok"], status
    doc = report(status)
    assert doc["meta"]["rootCell"] == "ResNet" and doc["meta"]["formats"] == ["MINDIR", "ONNX"]
    rows = by_format(doc)
    assert set(rows) == {"MINDIR", "ONNX", "ONNX-int8"}
    for fmt in ("MINDIR", "ONNX"):
        assert_float_verified(rows[fmt])
    onnx_ops = {h["op"]: h["count"] for h in rows["ONNX"]["opHistogram"]}
    assert onnx_ops["Conv"] == 21  # 1 stem + 9 blocks x 2 + 2 projection shortcuts
    mindir_ops = {h["op"]: h["count"] for h in rows["MINDIR"]["opHistogram"]}
    assert mindir_ops["Conv2D"] == 21
    assert rows["ONNX"]["inputs"] == [{"name": "x", "shape": [2, 3, 32, 32], "dtype": "float32"}]
    # MINDIR takes a second batch size as exported; MindSpore's ONNX export is static-shape.
    assert rows["MINDIR"]["verification"]["dynamicShape"]["ok"] is True
    onnx_dynamic = rows["ONNX"]["verification"]["dynamicShape"]
    assert onnx_dynamic["batch"] == 4 and not onnx_dynamic["ok"] and onnx_dynamic["error"]
    int8 = rows["ONNX-int8"]
    error = int8["verification"]["outputs"][0]["maxAbsError"]
    assert math.isfinite(error) and 0 < error < 1.0, error  # measured, lossy, not garbage
    quant = int8["quantization"]
    assert quant["mode"] == "int8-static" and quant["calibBatches"] == 4
    assert 0 < quant["sizeRatio"] < 0.5 and quant["latencyRatio"] > 0
    assert quant["worstLayers"] and all(w["op"] for w in quant["worstLayers"])
    sqnr = [w["sqnrDb"] for w in quant["worstLayers"]]
    assert sqnr == sorted(sqnr)
    for artefact in doc["artefacts"]:
        assert run_snippet(artefact) == expected_lines(artefact)


def test_transformer_block_exports_and_quantizes_dynamic(models: Path, tmp_path: Path) -> None:
    code, status = export(
        f"{models}:TransformerBlock", tmp_path / "out", "--input", "2,8,32:float32",
        "--quantize", "int8-dynamic",
    )  # fmt: skip
    assert code == 0 and status["ok"], status
    rows = by_format(report(status))
    for fmt in ("MINDIR", "ONNX"):
        assert_float_verified(rows[fmt])
    onnx_ops = {h["op"] for h in rows["ONNX"]["opHistogram"]}
    assert {"MatMul", "Softmax", "Transpose"} <= onnx_ops
    int8 = rows["ONNX-int8"]
    assert {h["op"] for h in int8["opHistogram"]} & {"MatMulInteger", "DynamicQuantizeLinear"}
    error = int8["verification"]["outputs"][0]["maxAbsError"]
    assert math.isfinite(error) and 0 < error < 1.0
    assert int8["quantization"]["worstLayers"] is None and int8["quantization"]["note"]
    assert run_snippet(rows["ONNX"]) == expected_lines(rows["ONNX"])


def test_mindcv_squeezenet_exports_and_verifies(models: Path, tmp_path: Path) -> None:
    code, status = export(f"{models}:squeezenet", tmp_path / "out", "--input", "2,3,64,64")
    assert code == 0 and status["ok"], status
    rows = by_format(report(status))
    assert set(rows) == {"MINDIR", "ONNX"}
    for artefact in rows.values():
        assert_float_verified(artefact)
    assert rows["ONNX"]["outputs"][0]["shape"] == [2, 10]
    assert run_snippet(rows["MINDIR"]) == expected_lines(rows["MINDIR"])


@pytest.mark.parametrize(
    ("cell", "op", "where"),
    [
        ("InPlaceNet", "InplaceAddExt", "in Cell block (Residual), scope Default/block-Residual"),
        ("ExactGeluNet", "Erf", "in Cell ffn.1 (GELU), scope Default/ffn-SequentialCell/1-GELU"),
    ],
)
def test_op_without_onnx_mapping_names_the_op_and_cell(
    models: Path, tmp_path: Path, cell: str, op: str, where: str
) -> None:
    code, status = export(f"{models}:{cell}", tmp_path / "out", "--input", "2,8", "--format",
                          "onnx")  # fmt: skip
    assert code == 1 and not status["ok"]
    error = status["error"]
    assert error["kind"] == "export-unsupported-op" and error["op"] == op
    assert (
        "\n" not in error["message"] and f"no ONNX mapping for op {op} {where}" in error["message"]
    )


def test_cell_that_fails_to_compile_is_one_located_line(models: Path, tmp_path: Path) -> None:
    code, status = export(f"{models}:NoTry", tmp_path / "out", "--input", "2,8")
    assert code == 1
    error = status["error"]
    assert error["kind"] == "compile-failed" and "\n" not in error["message"]
    assert error["message"].startswith("MINDIR export failed: NoTry does not compile:")
    assert "Try" in error["message"] and error["file"] == str(models)
    line = models.read_text().splitlines()[error["line"] - 1]
    assert line.strip() == "try:"
    assert not (tmp_path / "out" / "export-report.json").exists()
