"""The kernel's runtime runs (`%ms_graph`, `%ms_profile`…) start like every other Python child
(issue 19): through the start script, so a `json.py`, `runpy.py` or `mindscope_runtime/` in the
notebook's folder does not run, while the cells' own modules beside the notebook still import."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from mindscope_kernel import runtime_cli

REPO = Path(__file__).resolve().parents[3]
MINDIR = REPO / "tests" / "python" / "runtime" / "fixtures" / "tiny_net.mindir"
SHADOWS = ("json.py", "runpy.py", "mindscope_runtime/__init__.py", "mindscope_runtime/__main__.py")
HELPER = """import mindspore.nn as nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        return self.dense(x)
"""


def notebook_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A notebook's folder with modules that leave a marker when imported."""
    folder, markers = tmp_path / "notebook", tmp_path / "markers"
    markers.mkdir()
    for name in SHADOWS:
        file = folder / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(f"open({str(markers / name.replace('/', '_'))!r}, 'w').close()\n")
    return folder, markers


def test_the_command_is_the_start_script() -> None:
    assert runtime_cli.START_SCRIPT.is_file()
    assert runtime_cli.start_command("mindscope_runtime") == [
        sys.executable,
        str(runtime_cli.START_SCRIPT),
        "mindscope_runtime",
    ]


def test_the_notebook_folder_goes_in_the_user_path_not_pythonpath() -> None:
    env = runtime_cli.child_env({"PYTHONPATH": "/ext/runtime", "MS_JIT": "0"}, "/w/nb")
    assert env == {"PYTHONPATH": "/ext/runtime", "MINDSCOPE_USER_PATH": "/w/nb"}


def test_a_run_imports_nothing_from_the_notebook_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, markers = notebook_folder(tmp_path)
    shutil.copy(MINDIR, folder / "model.mindir")
    monkeypatch.chdir(folder)  # the kernel runs in the notebook's folder
    result = runtime_cli.run("mindir", str(folder / "model.mindir"), [], timeout=120)
    assert result.status.get("ok") is True, result.stderr[-2000:]
    assert result.document is not None and result.document["kind"] == "mindscope.graph"
    assert sorted(os.listdir(markers)) == []


@pytest.mark.slow
def test_a_graph_run_still_imports_the_cells_modules_beside_the_notebook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, markers = notebook_folder(tmp_path)
    (folder / "helper.py").write_text(HELPER)
    # What nbtargets writes for cells that say `from helper import Net; net = Net()`.
    definitions = tmp_path / "definitions" / "notebook_definitions.py"
    definitions.parent.mkdir()
    definitions.write_text("from helper import Net\n\nnet = Net()\n")
    monkeypatch.chdir(folder)
    result = runtime_cli.run("graph", f"{definitions}:net", ["--input", "2,3:float32"])
    assert result.document is not None, result.error
    ops = {node["opType"] for node in result.document["nodes"]}
    assert ops & {"MatMul", "Dense"}, ops  # helper.Net's layer was compiled
    assert sorted(os.listdir(markers)) == []
