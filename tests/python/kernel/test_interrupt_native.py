"""Interrupting a cell that MindSpore's native code holds (issue 19): a GRAPH_MODE `while` on a
Tensor. The kernel cannot stop it, so it must say so under the cell within a few seconds, reply
to the interrupt, and restart on a second interrupt; then the notebook works again. A cell that
Python can interrupt gets no notice. Real kernel, real jupyter_client, real MindSpore."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .kclient import Kernel

pytestmark = pytest.mark.slow

SETUP = """\
import mindspore as ms
from mindspore import nn
ms.set_device("CPU")
ms.set_context(mode=ms.GRAPH_MODE)


class Spin(nn.Cell):
    def construct(self, x):
        while (x * 0).sum() < 1:  # a run-time loop on a Tensor: it never ends
            x = x + 1
        return x


x = ms.Tensor([1.0, 2.0], ms.float32)
"""


@pytest.fixture()
def kernel(spec_dir: Path, workspace: Path) -> Iterator[Kernel]:
    running = Kernel(spec_dir, workspace)  # its own: the test restarts it
    yield running
    running.close()


def interrupt(kernel: Kernel) -> dict[str, Any]:
    """An interrupt_request on control, as front-ends send it; its reply."""
    msg = kernel.client.session.msg("interrupt_request", {})
    kernel.client.control_channel.send(msg)
    while True:
        reply = kernel.client.control_channel.get_msg(timeout=10)
        if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
            answer: dict[str, Any] = reply
            return answer


def stderr_of(kernel: Kernel, msg_id: str, text: str, timeout: float) -> str:
    """Wait for a stderr stream under the cell `msg_id` that contains `text`."""
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        try:
            msg = kernel.client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            break
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            seen += str(msg["content"]["text"])
            if text in seen:
                return seen
    raise AssertionError(f"no {text!r} under the cell within {timeout} s; stderr: {seen!r}")


def test_a_native_loop_is_reported_and_a_second_interrupt_restarts(kernel: Kernel) -> None:
    assert kernel.execute(SETUP).status == "ok"
    stuck = kernel.client.execute("Spin()(x)")
    time.sleep(4)  # compiled (tiny) and looping in C++
    assert interrupt(kernel)["content"]["status"] == "ok"
    told = stderr_of(kernel, stuck, "cannot be interrupted", timeout=15)
    assert "Interrupt again to restart" in told
    assert kernel.km.is_alive(), "one interrupt must not end the kernel"
    interrupt(kernel)
    stderr_of(kernel, stuck, "restarting the kernel", timeout=15)
    deadline = time.monotonic() + 30
    while kernel.km.is_alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not kernel.km.is_alive(), "the kernel did not end on the second interrupt"
    # What a front-end's restarter does; then the notebook runs GRAPH_MODE cells again.
    kernel.km.restart_kernel(now=True)
    kernel.client.wait_for_ready(timeout=90)
    assert kernel.execute(SETUP).status == "ok"
    result = kernel.execute("print(nn.Dense(2, 3)(ms.ops.ones((1, 2), ms.float32)).shape)")
    assert "(1, 3)" in result.stdout


def test_a_python_loop_is_interrupted_without_the_notice(kernel: Kernel) -> None:
    assert kernel.execute(SETUP).status == "ok"
    msg_id = kernel.client.execute("import time\nwhile True:\n    time.sleep(0.01)\n")
    time.sleep(2)
    assert interrupt(kernel)["content"]["status"] == "ok"
    result = kernel.collect(msg_id, timeout=60)
    assert result.status == "error" and result.reply["ename"] == "KeyboardInterrupt"
    time.sleep(4)  # past the grace: still no notice, and the kernel is alive
    assert "cannot be interrupted" not in kernel.execute("print('after')").stderr
    assert kernel.km.is_alive()
