"""Kernel start-up time and per-cell overhead: MindScope kernel vs the stock ipykernel.

    .venv/bin/python bench/bench_kernel.py [--runs 3] [--cells 50]

Both kernels run in this interpreter, started through jupyter_client in the same run; the ratio
is MindScope / stock. Start-up is the time to the first kernel_info_reply; per-cell overhead is
the mean round trip of a trivial cell (`pass`), which includes writing the cell file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from mindscope_kernel.install import write_spec


def stock_spec(folder: Path) -> Path:
    spec = folder / "stock-python"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "stock", "language": "python"})
    )
    return spec


def measure(spec: Path, cells: int) -> tuple[float, float]:
    km = KernelManager(
        kernel_name=spec.name, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)])
    )
    started = time.perf_counter()
    km.start_kernel()
    client = km.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        ready = time.perf_counter() - started
        client.execute_interactive("pass", timeout=60)  # warm
        t0 = time.perf_counter()
        for _ in range(cells):
            client.execute_interactive("pass", timeout=60)
        per_cell = (time.perf_counter() - t0) / cells
    finally:
        client.stop_channels()
        km.shutdown_kernel(now=True)
    return ready, per_cell


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cells", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ours = Path(tmp) / "mindscope-bench"
        write_spec(ours, sys.executable)
        specs = {"stock ipykernel": stock_spec(Path(tmp)), "mindscope": ours}
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in specs}
        for _ in range(args.runs):  # interleaved, so both see the same machine load
            for name, spec in specs.items():
                results[name].append(measure(spec, args.cells))
    rows = {name: (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
            for name, runs in results.items()}  # fmt: skip
    for name, (ready, per_cell) in rows.items():
        print(f"{name:16s} ready {ready * 1000:8.1f} ms   per cell {per_cell * 1000:6.2f} ms")
    (s_ready, s_cell), (m_ready, m_cell) = rows["stock ipykernel"], rows["mindscope"]
    print(f"{'ratio':16s} ready {m_ready / s_ready:8.2f}x     per cell {m_cell / s_cell:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
