"""Notebook round trip: MindScope's stdio bridge beside a bare jupyter_client client, same run.

    .venv/bin/python bench/notebook_roundtrip.py [--runs 5] [--lines 10000]

Both start the same MindScope kernel (its kernelspec, this interpreter) and run the same cells,
interleaved so both see the same machine load. The bridge is driven the way the VS Code
controller drives it: `python -m mindscope_kernel.bridge`, JSON lines over stdio
(mindscope_kernel/bridge/client.py speaks the same protocol as extension/src/notebook/).
  - start: from launching the process to the first kernel_info_reply;
  - trivial cell: from sending execute_request to the first output (`print(1)`);
  - print N lines: to the first output, and to the last (reply and idle both received).
Targets (bridge / bare): first output ≤ 1.5x, start ≤ 1.3x.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from mindscope_kernel.bridge.client import BridgeClient
from mindscope_kernel.install import DEFAULT_NAME, write_spec

TRIVIAL = "print(1)"


def many_lines(n: int) -> str:
    return f"for i in range({n}):\n    print('line', i)"


@dataclass
class Sample:
    start: float
    trivial_first: float
    lines_first: float
    lines_all: float


def _check(text: str, lines: int) -> None:
    if text.count("\n") < lines:
        raise RuntimeError(f"expected {lines} lines, got {text.count(chr(10))}")


def measure_bridge(cwd: Path, lines: int) -> Sample:
    started = time.perf_counter()
    client = BridgeClient(cwd)
    try:
        if client.wait_started()["event"] != "started":
            raise RuntimeError("the bridge did not start a kernel")
        client.request("shell", "kernel_info_request", {})
        start = time.perf_counter() - started
        trivial = client.execute(TRIVIAL)
        t0 = time.perf_counter()
        run = client.execute(many_lines(lines))
        lines_all = time.perf_counter() - t0
        _check(run.stdout, lines)
        assert trivial.first_output_s is not None and run.first_output_s is not None
        return Sample(start, trivial.first_output_s, run.first_output_s, lines_all)
    finally:
        client.shutdown()


def _bare_run(client: Any, code: str) -> tuple[float, float, str]:
    """(first output, all done, stdout) for one cell, reading iopub as a front-end does."""
    t0 = time.perf_counter()
    msg_id = client.execute(code)
    first: float | None = None
    text: list[str] = []
    idle = False
    while not idle:
        msg = client.get_iopub_msg(timeout=120)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind = msg["msg_type"]
        if kind == "status":
            idle = msg["content"]["execution_state"] == "idle"
        elif kind != "execute_input":
            first = first if first is not None else time.perf_counter() - t0
            if kind == "stream":
                text.append(msg["content"]["text"])
    client.get_shell_msg(timeout=120)
    assert first is not None
    return first, time.perf_counter() - t0, "".join(text)


def measure_bare(cwd: Path, lines: int, spec_dir: Path) -> Sample:
    ksm = KernelSpecManager(kernel_dirs=[str(spec_dir)])
    km = KernelManager(kernel_name=DEFAULT_NAME, kernel_spec_manager=ksm)
    started = time.perf_counter()
    km.start_kernel(cwd=str(cwd))
    client = km.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        start = time.perf_counter() - started
        trivial_first, _, _ = _bare_run(client, TRIVIAL)
        lines_first, lines_all, text = _bare_run(client, many_lines(lines))
        _check(text, lines)
        return Sample(start, trivial_first, lines_first, lines_all)
    finally:
        client.stop_channels()
        km.shutdown_kernel(now=True)


def _median(samples: list[Sample], field: Callable[[Sample], float]) -> float:
    return statistics.median(field(s) for s in samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lines", type=int, default=10_000)
    args = parser.parse_args()
    samples: dict[str, list[Sample]] = {"bare jupyter_client": [], "mindscope bridge": []}
    with tempfile.TemporaryDirectory() as tmp:
        spec_dir = Path(tmp) / "specs"
        write_spec(spec_dir / DEFAULT_NAME, sys.executable)
        cwd = Path(tmp)
        for _ in range(args.runs):
            samples["bare jupyter_client"].append(measure_bare(cwd, args.lines, spec_dir))
            samples["mindscope bridge"].append(measure_bridge(cwd, args.lines))
    fields: dict[str, Callable[[Sample], float]] = {
        "start": lambda s: s.start,
        "trivial first output": lambda s: s.trivial_first,
        f"{args.lines} lines first output": lambda s: s.lines_first,
        f"{args.lines} lines all output": lambda s: s.lines_all,
    }
    medians = {
        name: {f: _median(runs, get) for f, get in fields.items()} for name, runs in samples.items()
    }
    print(f"median of {args.runs} runs (ms)")
    print(f"{'':22s}" + "".join(f"{f:>28s}" for f in fields))
    for name, values in medians.items():
        print(f"{name:22s}" + "".join(f"{values[f] * 1000:28.1f}" for f in fields))
    bare, ours = medians["bare jupyter_client"], medians["mindscope bridge"]
    print(f"{'ratio (bridge / bare)':22s}" + "".join(f"{ours[f] / bare[f]:27.2f}x" for f in fields))
    print("targets: first output ≤ 1.50x, start ≤ 1.30x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
