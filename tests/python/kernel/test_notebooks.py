"""Notebooks executed by nbclient on the MindScope kernel: the magics' MIME payloads against the
schemas in `schemas/` (the runtime's graph/profile/stats documents, %ms_check's findings)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from mindscope_kernel.statsview import stats_bundle
from mindscope_runtime.schemacheck import load_schema, validate

from .kclient import TINY

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = ROOT / "schemas"
FINDINGS_SCHEMA = SCHEMAS / "findings-document.schema.json"
MIME = "application/vnd.mindscope.{}+json"
TAGS = {"p", "b", "table", "thead", "tbody", "tr", "th", "td"}

SETUP = """\
import mindspore as ms
from mindspore import nn
ms.set_device("CPU")
ms.set_context(mode=ms.GRAPH_MODE)
"""
BAD = """\
class Bad(nn.Cell):
    def construct(self, x):
        del x
        return 1
%ms_check
"""
CELLS = {
    "setup": SETUP,
    "tiny": TINY,
    "graph": "%ms_graph net --input 1,4:float32",
    "profile": "%ms_profile net --input 1,4:float32 --steps 2",
    "stats": "%ms_stats net --input 1,4:float32",
    "check_class": "%ms_check Tiny",
    "check_cell": BAD,
    "stats_without_input": "%ms_stats net",
    "stats_of_nothing": "%ms_stats not_defined --input 1,4",
}


@pytest.fixture(scope="module")
def executed(spec_dir: Path, workspace: Path) -> dict[str, list[dict[str, Any]]]:
    """Runs the notebook once; the outputs of each cell by its name in CELLS."""
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS.values()]  # type: ignore[no-untyped-call]
    ksm = KernelSpecManager(kernel_dirs=[str(spec_dir.parent)])
    km = KernelManager(kernel_name=spec_dir.name, kernel_spec_manager=ksm)
    client = NotebookClient(
        nb, km=km, timeout=300, startup_timeout=120, resources={"metadata": {"path": workspace}}
    )
    client.execute()
    nbformat.validate(nb)
    nbformat.write(nb, workspace / "magics.ipynb")  # type: ignore[no-untyped-call]
    return {name: cell.outputs for name, cell in zip(CELLS, nb.cells)}


def _payload(outputs: list[dict[str, Any]], kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(document, whole MIME bundle) of the one rich output; every fallback present and escaped."""
    rich = [o for o in outputs if o["output_type"] == "display_data"]
    assert len(rich) == 1, outputs
    data: dict[str, Any] = rich[0]["data"]
    assert {MIME.format(kind), "text/html", "text/plain"} <= set(data)
    assert set(re.findall(r"</?([a-zA-Z0-9]+)", data["text/html"])) <= TAGS
    document: dict[str, Any] = data[MIME.format(kind)]
    return document, data


def _text(outputs: list[dict[str, Any]]) -> str:
    return "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")


def test_ms_graph_payload_matches_the_schema(executed: dict[str, Any]) -> None:
    doc, data = _payload(executed["graph"], "graph")
    assert validate(doc, load_schema(SCHEMAS / "graph-document.schema.json")) == []
    assert doc["meta"]["rootCell"] == "Tiny" and doc["error"] is None
    assert "MatMul" in data["text/plain"] and "<table>" in data["text/html"]
    assert "Float32[1, 5]" in data["text/plain"]  # built with Tiny(5), as in the notebook


def test_ms_profile_payload_matches_the_schema(executed: dict[str, Any]) -> None:
    doc, data = _payload(executed["profile"], "profile")
    assert validate(doc, load_schema(SCHEMAS / "profile-document.schema.json")) == []
    assert doc["totals"]["steps"] == 2 and "MatMul" in data["text/plain"]


def test_ms_stats_payload_is_the_runtime_stats_document(executed: dict[str, Any]) -> None:
    doc, data = _payload(executed["stats"], "stats")
    assert validate(doc, load_schema(SCHEMAS / "stats-document.schema.json")) == []
    assert doc["meta"]["rootCell"] == "Tiny"
    cells = [(o["cell"], o["cellType"], o["stats"]["shape"]) for o in doc["outputs"]]
    assert cells == [("fc", "Dense", [1, 5]), ("act", "ReLU", [1, 5]), ("", "Tiny", [1, 5])]
    assert [g["parameter"] for g in doc["gradients"]] == ["fc.weight", "fc.bias"]
    assert "Stats of Tiny" in data["text/plain"] and "fc.weight" in data["text/plain"]
    assert "<td>fc.weight</td>" in data["text/html"]


def test_ms_check_payloads_match_the_findings_schema(executed: dict[str, Any]) -> None:
    schema = load_schema(FINDINGS_SCHEMA)
    clean, _ = _payload(executed["check_class"], "findings")
    assert validate(clean, schema) == [] and clean["findings"] == []
    found, data = _payload(executed["check_cell"], "findings")
    assert validate(found, schema) == []
    assert [(f["code"], f["line"]) for f in found["findings"]] == [("MS102", 3)]
    assert "MS102" in data["text/plain"] and "MS102" in data["text/html"]


def test_ms_stats_misuse_is_one_line(executed: dict[str, Any]) -> None:
    assert "give the inputs" in _text(executed["stats_without_input"])
    assert "not_defined is not defined" in _text(executed["stats_of_nothing"])
    assert not any(o["output_type"] == "error" for o in executed["stats_of_nothing"])


def test_stats_html_escapes_names() -> None:
    stat = {"shape": [1], "dtype": "Float32", "mean": 0.0, "std": 0.0, "min": 0.0, "max": 0.0,
            "zeroFraction": 1.0, "rms": 0.0, "absMax": 0.0}  # fmt: skip
    counts = {"outputs": 1, "gradients": 0, "errors": 0, "warnings": 0}
    doc = {
        "meta": {"rootCell": "<Net>", "loss": {"name": "sum", "value": 0.0}, "counts": counts},
        "outputs": [{"cell": "a<script>", "cellType": "X&Y", "stats": stat}],
        "gradients": [],
        "flags": [],
        "firstNonFinite": None,
    }
    html = stats_bundle(doc)["text/html"]
    assert "&lt;Net&gt;" in html and "a&lt;script&gt;" in html and "X&amp;Y" in html
    assert "<script>" not in html and "<Net>" not in html
