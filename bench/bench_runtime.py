"""How long graph capture and profiling take on a small conv net, against plain GRAPH_MODE.

Usage: .venv/bin/python bench/bench_runtime.py [--steps 20] [--batch 8]

MindSpore latches its IR-dump switch at a process's first compile, so the plain compile and
the capture are measured in two child processes of this run (each warms MindSpore up with a
throwaway compile first, then times a fresh Cell). Profiling is compared in the plain child:
the same steps with and without `mindspore.Profiler`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MODEL = """
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell(
            nn.Conv2d(3, 16, 3, pad_mode="same"), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, pad_mode="same"), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(32, 64, 3, pad_mode="same"), nn.BatchNorm2d(64), nn.ReLU(),
        )
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(64 * 16 * 16, 10)

    def construct(self, x):
        return self.fc(self.flatten(self.features(x)))
"""


def _child(phase: str, model_file: Path, steps: int, batch: int) -> dict[str, Any]:
    from mindscope_runtime.msenv import configure, enable_ir_dump, import_mindspore

    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if phase == "capture":
            enable_ir_dump(tmp)
        ms = import_mindspore()
        configure(ms, mode="graph", syntax_level="lax", device="CPU")
        import numpy as np

        from mindscope_runtime.atomic import write_json_atomic
        from mindscope_runtime.targets import parse_target, resolve_cell

        target = parse_target(f"{model_file}:Net")

        def fresh() -> Any:
            cell = resolve_cell(target, ms.nn.Cell)
            cell.set_train(False)
            return cell

        rng = np.random.default_rng(0)
        x = ms.Tensor(rng.standard_normal((batch, 3, 32, 32)).astype(np.float32))
        fresh()(ms.Tensor(np.ones((1, 3, 32, 32), np.float32))).asnumpy()  # warm-up compile
        start = time.perf_counter()
        if phase == "capture":
            from mindscope_runtime.capture_graph import capture_graph

            doc = capture_graph(ms, fresh(), [x], target=str(target))
            if doc["error"]:
                raise SystemExit(f"capture failed: {doc['error']['message']}")
            results["capture_s"] = time.perf_counter() - start
            results["compile_in_capture_s"] = doc["meta"]["compileSeconds"]
            results["parse_s"] = doc["meta"]["parseSeconds"]
            results["compute_ops"] = doc["meta"]["counts"]["computeOps"]
            results["doc_kb"] = write_json_atomic(Path(tmp) / "g.json", doc).stat().st_size / 1024
            return results
        from mindscope_runtime.profile_run import profile_cell

        fresh().compile(x)
        results["plain_compile_s"] = time.perf_counter() - start
        cell = fresh()
        start = time.perf_counter()
        cell(x).asnumpy()
        results["plain_first_forward_s"] = time.perf_counter() - start
        times = []
        for _ in range(steps):
            start = time.perf_counter()
            cell(x)
            ms.runtime.synchronize()
            times.append(time.perf_counter() - start)
        results["plain_steps_s"] = sum(times)
        results["plain_step_median_ms"] = statistics.median(times) * 1e3
        start = time.perf_counter()
        pdoc = profile_cell(ms, fresh(), [x], target=str(target), steps=steps, warmup=2)
        results["profile_total_s"] = time.perf_counter() - start
        results["profiled_steps_s"] = sum(s["wallMs"] for s in pdoc["steps"]) / 1e3
        results["profile_doc_kb"] = (
            write_json_atomic(Path(tmp) / "p.json", pdoc).stat().st_size / 1024
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--phase", choices=["plain", "capture"], help=argparse.SUPPRESS)
    parser.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        out = _child(args.phase, args.model, args.steps, args.batch)
        sys.stdout.write("RESULT " + json.dumps(out) + "\n")
        return
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "bench_model.py"
        model.write_text(MODEL)
        merged: dict[str, Any] = {}
        for phase in ("plain", "capture"):
            proc = subprocess.run(
                [sys.executable, __file__, "--phase", phase, "--model", str(model),
                 "--steps", str(args.steps), "--batch", str(args.batch)],
                capture_output=True, text=True, check=True, env={**os.environ, "GLOG_v": "3"},
            )  # fmt: skip
            line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
            merged.update(json.loads(line[len("RESULT ") :]))
    merged["capture_over_plain_compile"] = merged["capture_s"] / merged["plain_compile_s"]
    merged["parse_share_of_plain_compile"] = merged["parse_s"] / merged["plain_compile_s"]
    merged["profile_step_slowdown"] = merged["profiled_steps_s"] / merged["plain_steps_s"]
    merged["profile_total_over_plain_steps"] = merged["profile_total_s"] / merged["plain_steps_s"]
    print(f"model: conv net, input {args.batch}x3x32x32, {merged['compute_ops']} compute ops")
    for key, value in merged.items():
        print(f"  {key:34s} {value:.3f}" if isinstance(value, float) else f"  {key:34s} {value}")


if __name__ == "__main__":
    main()
