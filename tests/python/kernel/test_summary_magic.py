"""%ms_summary in the real kernel on a summary MindSpore 2.10 wrote, and its fallbacks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mindscope_kernel.magics.summary import SUMMARY_MIME, summary_bundle
from tests.python.summary.records import FIXTURE

from .kclient import Kernel


@pytest.mark.slow
def test_ms_summary_shows_every_run_inline(kernel: Kernel, tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "exp1")
    result = kernel.execute(f"%ms_summary {json.dumps(str(tmp_path))[1:-1]} --tag loss")
    assert result.status == "ok", result
    data = result.outputs[-1]["data"]
    document = data[SUMMARY_MIME]
    (run,) = document["runs"]
    assert run["name"] == "exp1"
    assert [s["tag"] for s in run["scalars"]] == ["loss"]
    assert len(run["scalars"][0]["values"]) == 5
    assert "exp1" in data["text/html"] and "loss: 5 points" in data["text/plain"]


@pytest.mark.slow
def test_ms_summary_on_a_missing_folder_is_one_line(kernel: Kernel, tmp_path: Path) -> None:
    result = kernel.execute(f"%ms_summary {tmp_path / 'nope'}")
    assert result.status == "ok"
    assert "MindScope: no such folder" in result.stdout


def test_the_html_fallback_escapes_tag_and_run_names() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    run = {"name": hostile, "scalars": [{"tag": hostile, "steps": [1], "values": [0.5]}],
           "histograms": [], "images": [], "tensors": []}  # fmt: skip
    bundle = summary_bundle({"meta": {"root": "/r"}, "runs": [run], "issues": []})
    assert "<img" not in bundle["text/html"]
    assert "&lt;img src=x onerror=alert(1)&gt;" in bundle["text/html"]
