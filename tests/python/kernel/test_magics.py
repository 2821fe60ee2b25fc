"""The %ms_* magics, readable compile errors, cell files and interrupt on real MindSpore.

%ms_graph, %ms_profile and %ms_stats are tested through nbclient (test_notebooks.py)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .kclient import TINY, Kernel

pytestmark = pytest.mark.slow

SETUP = """\
import mindspore as ms
from mindspore import nn
ms.set_device("CPU")
ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor([[1.0, 2.0, 3.0, 4.0]], ms.float32)
"""


BAD = """\
class Bad(nn.Cell):
    def construct(self, x):
        try:
            y = x + 1
        except Exception:
            y = x
        return y
"""

CAPTURE_STDERR = """\
import os, tempfile
log = tempfile.mktemp()
saved = os.dup(2)
with open(log, "w") as sink:
    os.dup2(sink.fileno(), 2)
    try:
        {body}
    finally:
        os.dup2(saved, 2)
print("realpath failed:", "Get realpath failed" in open(log).read())
"""


@pytest.fixture(scope="module", autouse=True)
def notebook(kernel: Kernel) -> None:
    assert kernel.execute(SETUP).status == "ok"
    assert kernel.execute(TINY).status == "ok"


def _one(result: Any, mime: str) -> dict[str, Any]:
    assert result.status == "ok", result
    data: dict[str, Any] = result.outputs[-1]["data"]
    assert mime in data and "text/html" in data and "text/plain" in data
    return data


def test_ms_mode_shows_and_sets(kernel: Kernel) -> None:
    assert "mode: GRAPH_MODE, jit_syntax_level: LAX" in kernel.execute("%ms_mode").stdout
    out = kernel.execute("%ms_mode pynative --level strict").stdout
    assert "mode: PYNATIVE_MODE, jit_syntax_level: STRICT" in out
    out = kernel.execute("%ms_mode graph --level lax").stdout
    assert "mode: GRAPH_MODE, jit_syntax_level: LAX" in out
    assert "invalid choice" in kernel.execute("%ms_mode fast").stdout


def test_cells_compile_in_graph_mode_without_realpath_errors(kernel: Kernel) -> None:
    body = "print(Tiny()(x).shape)"
    result = kernel.execute(CAPTURE_STDERR.format(body=body))
    assert "(1, 3)" in result.stdout and "realpath failed: False" in result.stdout
    # Control: without the cell file, MindSpore does complain (so the check above means it).
    body = "os.remove(__import__('inspect').getsourcefile(Tiny.construct)); Tiny()(x)"
    result = kernel.execute(CAPTURE_STDERR.format(body=body))
    assert "realpath failed: True" in result.stdout
    assert kernel.execute(TINY).status == "ok"  # writes the cell file back


def test_compile_error_summary_names_cell_line_rule_and_fix(kernel: Kernel) -> None:
    assert kernel.execute(BAD).status == "ok"
    result = kernel.execute("Bad()(x)")
    assert result.status == "error" and result.error is not None
    first = result.error["traceback"][0]
    assert "GRAPH_MODE compile failed: RuntimeError: Unsupported statement 'Try'." in first
    assert "line 3: try:" in first
    assert "MS101" in first and "Fix: Remove the `try`" in first
    assert "Traceback of Net Construct Code" in "\n".join(result.error["traceback"][1:])


def test_ms_check_current_cell_and_a_class(kernel: Kernel) -> None:
    data = _one(kernel.execute(BAD + "%ms_check\n"), "application/vnd.mindscope.findings+json")
    codes = [
        (f["code"], f["line"]) for f in data["application/vnd.mindscope.findings+json"]["findings"]
    ]
    assert codes == [("MS101", 3)]
    assert "MS101" in data["text/plain"] and "MS101" in data["text/html"]
    data = _one(kernel.execute("%ms_check Tiny"), "application/vnd.mindscope.findings+json")
    assert data["application/vnd.mindscope.findings+json"]["findings"] == []


def test_ms_parity_reports_identical_and_divergent_outputs(kernel: Kernel) -> None:
    data = _one(kernel.execute("%ms_parity net(x)"), "application/vnd.mindscope.parity+json")
    assert data["application/vnd.mindscope.parity+json"]["equal"] is True
    divergent = (
        "calls = [0]\n"
        "class Counter(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        calls[0] += 1\n"
        "        return x * calls[0]\n"
        "counter = Counter()\n"
    )
    assert kernel.execute(divergent).status == "ok"
    result = kernel.execute("%ms_parity counter(x)")
    report = _one(result, "application/vnd.mindscope.parity+json")[
        "application/vnd.mindscope.parity+json"
    ]
    assert report["equal"] is False and report["outputs"][0]["maxAbsDiff"] > 0
    assert "DIFFERENT" in result.outputs[-1]["data"]["text/plain"]


def test_html_fallbacks_escape_user_text(kernel: Kernel) -> None:
    result = kernel.execute("%ms_parity net(x) if 1<2 else net(x)")
    data = _one(result, "application/vnd.mindscope.parity+json")
    assert "net(x) if 1&lt;2 else net(x)" in data["text/html"]
    assert "1<2" not in data["text/html"] and "1<2" in data["text/plain"]


def test_interrupt_stops_a_long_loop_and_the_kernel_goes_on(kernel: Kernel) -> None:
    msg_id = kernel.client.execute("while True:\n    out = net(x)\n")
    time.sleep(3)
    kernel.km.interrupt_kernel()
    result = kernel.collect(msg_id, timeout=60)
    assert result.status == "error" and result.reply["ename"] == "KeyboardInterrupt"
    assert "(1, 5)" in kernel.execute("print(net(x).shape)").stdout
