"""%ms_export against the real kernel: the export report as a MIME output with fallbacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from .kclient import TINY, Kernel

pytestmark = pytest.mark.slow

EXPORT_MIME = "application/vnd.mindscope.export+json"
SETUP = "import mindspore as ms\nfrom mindspore import nn\nms.set_device('CPU')\n"


def test_ms_export_shows_the_report_and_keeps_the_artefacts(kernel: Kernel, tmp_path: Path) -> None:
    assert kernel.execute(SETUP).status == "ok"
    assert kernel.execute(TINY).status == "ok"
    out = tmp_path / "tiny"
    result = kernel.execute(
        f"%ms_export net --input 2,4:float32 --quantize int8-dynamic -o {out}", timeout=300
    )
    assert result.status == "ok", result
    data = result.outputs[-1]["data"]
    assert EXPORT_MIME in data and "text/html" in data and "text/plain" in data
    report = data[EXPORT_MIME]
    assert report["kind"] == "mindscope.export" and report["meta"]["rootCell"] == "Tiny"
    formats = [a["format"] for a in report["artefacts"]]
    assert formats == ["MINDIR", "ONNX", "ONNX-int8"]
    for artefact in report["artefacts"][:2]:
        assert artefact["verification"]["ok"], artefact["verification"]
        assert Path(artefact["file"]).is_file() and Path(artefact["snippet"]).is_file()
    assert "Verification against the eager Cell" in data["text/plain"]
    assert "<table>" in data["text/html"] and "Tiny.onnx" in data["text/html"]
    assert (out / "export-report.json").is_file()


def test_ms_export_errors_are_one_line(kernel: Kernel) -> None:
    result = kernel.execute("%ms_export net")
    assert result.status == "ok"
    assert result.stdout.strip() == (
        "MindScope: %ms_export: give the inputs, e.g. --input 2,3,32,32:float32"
    )
