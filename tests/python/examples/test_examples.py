"""The demo workspace in examples/ really runs: the training script, the model in GRAPH_MODE,
and the notebook through a real ipykernel.

MindSpore compiles `construct` from its source file, so the model is always exercised from a
file (a script or a notebook cell file), never from `python -c`.
"""

import json
import math
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
TRAIN_SCRIPT = EXAMPLES / "cifar_resnet" / "train.py"
NOTEBOOK = EXAMPLES / "notebook.ipynb"
# The interpreter running pytest is the one that has MindSpore (the repo's .venv).
PYTHON = sys.executable

pytestmark = pytest.mark.slow


def run_python(
    args: list[str], cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_train_script_prints_finite_losses_in_graph_mode() -> None:
    args = [str(TRAIN_SCRIPT), "--steps", "2", "--batch-size", "4", "--mode", "graph"]
    proc = run_python(args, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    losses = re.findall(r"^step (\d+)/2 loss (\S+)", proc.stdout, flags=re.MULTILINE)
    assert [step for step, _ in losses] == ["1", "2"], proc.stdout
    for _, loss in losses:
        # ln(10) ~ 2.3 for an untrained 10-class head; anything far off means a broken step.
        assert math.isfinite(float(loss)) and 0 < float(loss) < 10, proc.stdout


def test_resnet20_forward_in_graph_mode(tmp_path: Path) -> None:
    script = tmp_path / "forward.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json
            import sys

            sys.path.insert(0, {str(EXAMPLES)!r})
            import mindspore as ms
            import numpy as np
            from cifar_resnet.model import make_inputs, resnet20

            ms.set_context(mode=ms.GRAPH_MODE)
            ms.set_device("CPU")
            net = resnet20()
            net.set_train(False)
            inputs = make_inputs()
            out = net(*inputs)
            print(json.dumps({{
                "mode": ms.get_context("mode") == ms.GRAPH_MODE,
                "input_shapes": [list(t.shape) for t in inputs],
                "shape": list(out.shape),
                "finite": bool(np.isfinite(out.asnumpy()).all()),
            }}))
            """
        )
    )
    proc = run_python([str(script)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result == {
        "mode": True,
        "input_shapes": [[2, 3, 32, 32]],
        "shape": [2, 10],
        "finite": True,
    }


def load_code_cells(path: Path) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    cells = notebook["cells"]
    for cell in cells:
        assert {"cell_type", "metadata", "source"} <= cell.keys()
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def execute(client: Any, code: str, timeout: float = 120) -> tuple[dict[str, Any], str]:
    """Run one cell as a front-end would; return the reply content and the cell's text output."""
    chunks: list[str] = []

    def on_output(msg: dict[str, Any]) -> None:
        content = msg["content"]
        if msg["msg_type"] == "stream":
            chunks.append(content["text"])
        elif msg["msg_type"] == "error":
            chunks.append("\n".join(content["traceback"]))

    reply = client.execute_interactive(code, timeout=timeout, output_hook=on_output)
    return reply["content"], "".join(chunks)


def test_notebook_runs_in_a_real_kernel() -> None:
    from jupyter_client.manager import KernelManager

    cells = load_code_cells(NOTEBOOK)
    assert len(cells) >= 4
    km = KernelManager(kernel_name="python3")
    # The spec says `python`: jupyter_client swaps that for sys.executable (checked below).
    km.start_kernel(cwd=str(EXAMPLES))
    client = km.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        reply, text = execute(client, "import os, sys; print(sys.executable); print(os.getcwd())")
        assert reply["status"] == "ok"
        assert text.split() == [PYTHON, str(EXAMPLES)]

        outputs = []
        for index, code in enumerate(cells):
            reply, text = execute(client, code)
            assert reply["status"] == "ok", f"cell {index} failed:\n{code}\n{text}"
            outputs.append(text)
    finally:
        client.stop_channels()
        km.shutdown_kernel(now=True)

    printed = "".join(outputs)
    assert "MindSpore 2." in printed
    assert printed.count("(2, 3, 32, 32) -> (2, 10)") == 2, printed
    diff = re.search(r"max \|graph - pynative\| = (\S+)", printed)
    assert diff is not None and float(diff.group(1)) < 1e-3, printed
    loss = re.search(r"^loss (\S+)", printed, flags=re.MULTILINE)
    assert loss is not None and math.isfinite(float(loss.group(1))), printed


def test_train_script_records_a_summary_the_reader_decodes(tmp_path: Path) -> None:
    from mindscope_runtime.summary.reader import SummaryReader

    args = [str(TRAIN_SCRIPT), "--steps", "2", "--batch-size", "4", "--summary-dir",
            str(tmp_path / "run"), "--summary-every", "2"]  # fmt: skip
    proc = run_python(args, cwd=ROOT, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    printed = [float(v) for v in re.findall(r"^step \d+/2 loss (\S+)", proc.stdout, re.MULTILINE)]
    runs, issues, _ = SummaryReader(tmp_path).poll(final=True)
    assert issues == []
    ((_, data),) = runs
    assert data.scalars["loss"].values == pytest.approx(printed, abs=1e-4)  # printed with 4 digits
    assert data.scalars["learning_rate"].values == pytest.approx([0.05, 0.05])
    (weights,) = data.histograms.values()
    assert [h["step"] for h in weights] == [1, 2]
    assert data.images["input"][0]["width"] == 32
    # The compiled training step (forward, backward, update) is recorded once, as a graph
    # (MindSpore writes a graph event without its step: 0).
    ((_, _, graph_def),) = data.graphs
    assert len(graph_def.node) > 100, len(graph_def.node)
