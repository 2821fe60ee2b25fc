"""Run a program with the real MindSpore in a child forked from a clean parent, and read what
MindSpore's message says about it.

Shared by the checker-facts worker (scripts/checker_facts/worker.py) and the corpus runner
(tests/graphmode/runner.py): both import MindSpore once, then fork one child per program so no
program sees another's compiled graphs, context or module state. It lives with the facts tools
because it is tooling that drives MindSpore; the tests' runner imports it, not the other way.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import sys
from types import ModuleType
from typing import Any, Callable, TextIO

LOCATION = re.compile(r"In file (.+?):(\d+)")


def named_lines(message: str, path: str) -> list[int]:
    """Lines of `path` that a MindSpore message points at, in the order it names them."""
    real = os.path.realpath(path)
    found: list[int] = []
    for file, line in LOCATION.findall(message):
        if os.path.realpath(file) == real and int(line) not in found:
            found.append(int(line))
    return found


def load_program(path: str, name: str) -> ModuleType:
    """Imports the file at `path` as module `name`, registered where MindSpore's parser looks
    a function's module up to read its source."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def failure(error: BaseException, path: str, max_message: int) -> dict[str, Any]:
    """The result of a program that raised: the type, the message and the lines it names."""
    message = str(error)
    return {
        "ok": False,
        "type": type(error).__name__,
        "msg": message[:max_message],
        "lines": named_lines(message, path),
    }


def in_fork(work: Callable[[], dict[str, Any]], timeout: int, max_message: int) -> dict[str, Any]:
    """`work()` in a forked child with an alarm after `timeout` seconds; its JSON result, or a
    `Crash` when the child died without one (the alarm, a segfault)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(timeout)
        try:
            result = work()
        except BaseException as error:
            result = {"ok": False, "type": type(error).__name__, "msg": str(error)[:max_message]}
        try:
            data = json.dumps(result)
        except (TypeError, ValueError):
            data = json.dumps({**result, "value": {"object": "unrenderable"}})
        os.write(write, data.encode())
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if chunks:
        out: dict[str, Any] = json.loads(b"".join(chunks))
        return out
    return {"ok": False, "type": "Crash", "msg": f"child died (wait status {status})", "lines": []}


def run_program(
    path: str,
    name: str,
    *,
    graph: bool,
    level: str = "LAX",
    read: bool = False,
    max_message: int = 2000,
) -> dict[str, Any]:
    """Runs `path`'s `run()` in GRAPH_MODE at `level` or in PyNative (in the calling process: a
    forked child); with `read`, reads every Tensor it returns (PyNative launches ops
    asynchronously: an op without a kernel fails only when its result is read).
    {"ok": True} or `failure`."""
    import mindspore as ms

    ms.set_context(
        mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE, jit_syntax_level=getattr(ms, level)
    )
    try:
        result = load_program(path, name).run()
        if read:
            _read(result)
        return {"ok": True}
    except BaseException as error:
        return failure(error, path, max_message)


def _read(value: Any) -> None:
    if isinstance(value, (tuple, list)):
        for item in value:
            _read(item)
    elif isinstance(value, dict):
        for item in value.values():
            _read(item)
    elif hasattr(value, "asnumpy"):
        value.asnumpy()


def mindspore_on_cpu() -> TextIO:
    """Imports MindSpore on the CPU with stdout kept for the JSON lines: whatever MindSpore or
    the programs print goes to stderr. Returns the stream to write results to."""
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    import mindspore as ms

    ms.set_device("CPU")
    return out
