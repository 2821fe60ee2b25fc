"""Breakpoints inside construct() and @ms.jit stop while the notebook is in GRAPH_MODE.

Driven through the Jupyter debug protocol exactly as front-ends do: initialize, attach,
dumpCell, setBreakpoints, configurationDone, execute, then stackTrace/scopes/variables and
continue; after disconnect the notebook is in GRAPH_MODE again and compiles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .kclient import Kernel

pytestmark = pytest.mark.slow

SETUP = """\
import os
import mindspore as ms
from mindspore import nn, ops
ms.set_device("CPU")
ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor([[1.0, 2.0, 3.0, 4.0]], ms.float32)
"""

CELL_NET = """\
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        y = self.relu(x) * 2
        return y + 1

out = Net()(x)
print("cell net:", out.asnumpy().tolist())
"""

JIT_FN = """\
@ms.jit
def scale(x):
    z = x * 3
    return z - 1

print("jit fn:", scale(x).asnumpy().tolist())
"""

MODULE = """\
import mindspore as ms
from mindspore import nn


class WsNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        h = self.relu(x)
        return h - 1
"""

IMPORTED = """\
from wsnet import WsNet
print("module net:", WsNet()(x).asnumpy().tolist())
"""

CHECK_GRAPH = """\
n2 = Net()
n2(x)
print("mode", ms.get_context("mode") == ms.GRAPH_MODE, "compiled", n2._compiled,
      "MS_JIT", os.environ.get("MS_JIT"))
"""


@pytest.fixture(scope="module", autouse=True)
def graph_notebook(kernel: Kernel, workspace: Path) -> None:
    (workspace / "wsnet.py").write_text(MODULE)
    assert kernel.execute(SETUP).status == "ok"


def _stop_and_inspect(
    kernel: Kernel, code: str, line: int, path: str | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Any]], str]:
    kernel.start_debugging()
    source = kernel.set_breakpoint(code, line, path)
    msg_id = kernel.client.execute(code)
    stopped = kernel.wait_event(lambda e: e.get("event") == "stopped")
    thread = stopped["body"]["threadId"]
    frames = kernel.debug("stackTrace", {"threadId": thread})["body"]["stackFrames"]
    top = frames[0]
    variables = kernel.locals_of(top["id"])
    kernel.debug("continue", {"threadId": thread})
    result = kernel.collect(msg_id)
    assert result.status == "ok", result
    kernel.debug("disconnect", {"restart": False, "terminateDebuggee": True})
    assert top["source"]["path"] == source
    return top, variables, result.stdout


def _assert_graph_again(kernel: Kernel) -> None:
    result = kernel.execute(CHECK_GRAPH)
    assert result.status == "ok", result
    assert "mode True compiled True MS_JIT None" in result.stdout


def test_breakpoint_in_construct_of_a_cell_defined_in_a_cell(kernel: Kernel) -> None:
    top, variables, stdout = _stop_and_inspect(kernel, CELL_NET, line=7)
    assert top["line"] == 7 and top["name"] == "construct"
    assert "shape=(1, 4)" in str(variables["x"]["value"])
    assert "Float32" in str(variables["x"]["value"])
    assert "[1, 2, 3, 4]" in str(variables["x"]["value"])
    assert "cell net: [[3.0, 5.0, 7.0, 9.0]]" in stdout
    assert stdout.count("debugger attached") == 1
    _assert_graph_again(kernel)


def test_breakpoint_in_a_jit_function(kernel: Kernel) -> None:
    top, variables, stdout = _stop_and_inspect(kernel, JIT_FN, line=3)
    assert top["line"] == 3 and top["name"] == "scale"
    assert "shape=(1, 4)" in str(variables["x"]["value"])
    assert "jit fn: [[2.0, 5.0, 8.0, 11.0]]" in stdout
    _assert_graph_again(kernel)


def test_breakpoint_in_a_cell_imported_from_a_workspace_module(
    kernel: Kernel, workspace: Path
) -> None:
    module = str(workspace / "wsnet.py")
    top, variables, stdout = _stop_and_inspect(kernel, IMPORTED, line=11, path=module)
    assert top["line"] == 11 and top["source"]["path"] == module
    assert "shape=(1, 4)" in str(variables["x"]["value"])
    assert "module net: [[0.0, 1.0, 2.0, 3.0]]" in stdout
    _assert_graph_again(kernel)


def test_tensor_children_show_shape_dtype_and_stats(kernel: Kernel) -> None:
    kernel.start_debugging()
    code = "def probe(t):\n    u = t + 0\n    return u\n\nprobe(x)\n"
    kernel.set_breakpoint(code, 3)
    msg_id = kernel.client.execute(code)
    stopped = kernel.wait_event(lambda e: e.get("event") == "stopped")
    thread = stopped["body"]["threadId"]
    top = kernel.debug("stackTrace", {"threadId": thread})["body"]["stackFrames"][0]
    u = kernel.locals_of(top["id"])["u"]
    children = kernel.debug("variables", {"variablesReference": u["variablesReference"]})
    named = {v["name"]: v["value"] for v in children["body"]["variables"]}
    kernel.debug("continue", {"threadId": thread})
    assert kernel.collect(msg_id).status == "ok"
    kernel.debug("disconnect", {"restart": False, "terminateDebuggee": True})
    assert named["shape"] == "(1, 4)" and named["dtype"] == "mindspore.float32"
    assert named["max"] == "4.0" and named["mean"] == "2.5"
