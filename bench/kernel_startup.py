"""Kernel start-up: MindScope kernel beside a stock ipykernel, in the same run.

    .venv/bin/python bench/kernel_startup.py [--runs 3] [--cells 30]

For each kernel (both run in this interpreter, started through jupyter_client, interleaved so
both see the same machine load), from `start_kernel`:
  - ready: the first kernel_info_reply;
  - first MindSpore cell: the execute_reply of a first cell that imports MindSpore and runs
    a Dense layer in GRAPH_MODE (so it includes MindSpore's import and first compile);
  - per cell: the mean round trip of a trivial cell (`pass`) afterwards (includes writing the
    cell file).
The first cell also reports whether MindSpore was already imported when it started: it must
not be (the kernel defers the import until a cell needs it). Target: ready ≤ 1.2x stock.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from mindscope_kernel.install import write_spec

FIRST_CELL = """\
import sys
already = "mindspore" in sys.modules
import mindspore as ms
from mindspore import nn
ms.set_device("CPU")
ms.set_context(mode=ms.GRAPH_MODE)
print(nn.Dense(4, 3)(ms.ops.ones((2, 4), ms.float32)).shape, "already:", already)
"""


@dataclass
class Sample:
    ready: float
    first_cell: float
    per_cell: float
    preloaded: bool


def stock_spec(folder: Path) -> Path:
    spec = folder / "stock-python"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "stock", "language": "python"})
    )
    return spec


def measure(spec: Path, cells: int) -> Sample:
    ksm = KernelSpecManager(kernel_dirs=[str(spec.parent)])
    km = KernelManager(kernel_name=spec.name, kernel_spec_manager=ksm)
    started = time.perf_counter()
    km.start_kernel()
    client = km.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)  # returns on the first kernel_info_reply
        ready = time.perf_counter() - started
        out: list[str] = []
        reply = client.execute_interactive(
            FIRST_CELL, timeout=300, output_hook=lambda m: out.append(m["content"].get("text", ""))
        )
        first_cell = time.perf_counter() - started
        text = "".join(out)
        if reply["content"]["status"] != "ok" or "(2, 3)" not in text:
            raise RuntimeError(f"{spec.name}: the MindSpore cell failed: {text}")
        t0 = time.perf_counter()
        for _ in range(cells):
            client.execute_interactive("pass", timeout=60)
        per_cell = (time.perf_counter() - t0) / max(cells, 1)
    finally:
        client.stop_channels()
        km.shutdown_kernel(now=True)
    return Sample(ready, first_cell, per_cell, "already: True" in text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cells", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ours = Path(tmp) / "mindscope-bench"
        write_spec(ours, sys.executable)
        specs = {"stock ipykernel": stock_spec(Path(tmp)), "mindscope": ours}
        samples: dict[str, list[Sample]] = {name: [] for name in specs}
        for _ in range(args.runs):
            for name, spec in specs.items():
                samples[name].append(measure(spec, args.cells))
    medians: dict[str, tuple[float, float, float]] = {}
    for name, runs in samples.items():
        medians[name] = (
            statistics.median(s.ready for s in runs),
            statistics.median(s.first_cell for s in runs),
            statistics.median(s.per_cell for s in runs),
        )
        ready, first, per_cell = medians[name]
        print(
            f"{name:16s} ready {ready * 1000:7.0f} ms   first MindSpore cell {first * 1000:7.0f} ms"
            f"   per cell {per_cell * 1000:6.2f} ms"
        )
    stock, ours_ = medians["stock ipykernel"], medians["mindscope"]
    print(
        f"{'ratio':16s} ready {ours_[0] / stock[0]:7.2f}x   first MindSpore cell "
        f"{ours_[1] / stock[1]:7.2f}x   per cell {ours_[2] / stock[2]:6.2f}x"
        "   (target: ready ≤ 1.20x)"
    )
    preloaded = any(s.preloaded for s in samples["mindscope"])
    print(f"MindSpore imported before the first cell: {'YES' if preloaded else 'no'}")
    return 1 if preloaded else 0


if __name__ == "__main__":
    sys.exit(main())
