"""How long graph capture, profiling and MINDIR reading take, against MindSpore's own peers.

Usage: .venv/bin/python bench/bench_runtime.py [--model resnet50|small] [--steps N] [--batch B]

MindSpore latches its IR-dump switch at a process's first compile, so the plain compile and
the capture are measured in two child processes of this run (each warms MindSpore up with a
throwaway compile first, then times a fresh Cell). Profiling is compared in the plain child:
the same steps with and without `mindspore.Profiler`. The plain child also exports the model
as MINDIR and times `mindspore.load` (the peer) beside MindScope's pure-Python decoder.
Targets (issue 5): parsing adds <= 20% to the compile; documents for ResNet-50 <= 5 MB.
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

SMALL = """
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

RESNET50 = """
from mindspore import nn


class Bottleneck(nn.Cell):
    def __init__(self, cin, mid, stride):
        super().__init__()
        cout = mid * 4
        self.conv1 = nn.Conv2d(cin, mid, 1)
        self.bn1 = nn.BatchNorm2d(mid)
        self.conv2 = nn.Conv2d(mid, mid, 3, stride=stride, pad_mode="same")
        self.bn2 = nn.BatchNorm2d(mid)
        self.conv3 = nn.Conv2d(mid, cout, 1)
        self.bn3 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.SequentialCell(nn.Conv2d(cin, cout, 1, stride=stride),
                                          nn.BatchNorm2d(cout))

    def construct(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        skip = x if self.down is None else self.down(x)
        return self.relu(y + skip)


def stage(cin, mid, blocks, stride):
    layers = [Bottleneck(cin, mid, stride)]
    layers += [Bottleneck(mid * 4, mid, 1) for _ in range(blocks - 1)]
    return nn.SequentialCell(layers)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stem = nn.SequentialCell(nn.Conv2d(3, 64, 7, stride=2, pad_mode="same"),
                                      nn.BatchNorm2d(64), nn.ReLU(),
                                      nn.MaxPool2d(3, 2, pad_mode="same"))
        self.layer1 = stage(64, 64, 3, 1)
        self.layer2 = stage(256, 128, 4, 2)
        self.layer3 = stage(512, 256, 6, 2)
        self.layer4 = stage(1024, 512, 3, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(2048, 1000)

    def construct(self, x):
        x = self.layer4(self.layer3(self.layer2(self.layer1(self.stem(x)))))
        return self.fc(self.flatten(self.pool(x)))
"""

MODELS = {"small": (SMALL, 32), "resnet50": (RESNET50, 224)}


def _child(phase: str, model_file: Path, steps: int, batch: int, size: int) -> dict[str, Any]:
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
        x = ms.Tensor(rng.standard_normal((batch, 3, size, size)).astype(np.float32))
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
            results["graph_nodes"] = doc["meta"]["counts"]["nodes"]
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
        results.update(_mindir(ms, fresh(), x, Path(tmp)))
    return results


def _mindir(ms: Any, cell: Any, x: Any, tmp: Path) -> dict[str, Any]:
    """Export MINDIR; time `mindspore.load` (peer) and MindScope's decoder on the same file."""
    from mindscope_runtime.atomic import write_json_atomic
    from mindscope_runtime.mindirdoc import read_mindir_document

    ms.export(cell, x, file_name=str(tmp / "model"), file_format="MINDIR")
    path = tmp / "model.mindir"
    start = time.perf_counter()
    ms.load(str(path))
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    doc = read_mindir_document(path)
    decoded = time.perf_counter() - start
    return {
        "mindir_mb": path.stat().st_size / 2**20,
        "mindspore_load_s": loaded,
        "mindscope_decode_s": decoded,
        "mindir_doc_kb": write_json_atomic(tmp / "m.json", doc).stat().st_size / 1024,
        "mindir_compute_ops": doc["meta"]["counts"]["computeOps"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", choices=sorted(MODELS), default="resnet50")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--phase", choices=["plain", "capture"], help=argparse.SUPPRESS)
    parser.add_argument("--model-file", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, default=32, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        out = _child(args.phase, args.model_file, args.steps, args.batch, args.size)
        sys.stdout.write("RESULT " + json.dumps(out) + "\n")
        return
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "bench_model.py"
        text, size = MODELS[args.model]
        model.write_text(text)
        merged: dict[str, Any] = {}
        for phase in ("plain", "capture"):
            proc = subprocess.run(
                [sys.executable, __file__, "--phase", phase, "--model-file", str(model),
                 "--steps", str(args.steps), "--batch", str(args.batch), "--size", str(size)],
                capture_output=True, text=True, check=True, env={**os.environ, "GLOG_v": "3"},
            )  # fmt: skip
            line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
            merged.update(json.loads(line[len("RESULT ") :]))
    merged["capture_over_plain_compile"] = merged["capture_s"] / merged["plain_compile_s"]
    merged["parse_share_of_plain_compile"] = merged["parse_s"] / merged["plain_compile_s"]
    merged["profile_step_slowdown"] = merged["profiled_steps_s"] / merged["plain_steps_s"]
    merged["profile_total_over_plain_steps"] = merged["profile_total_s"] / merged["plain_steps_s"]
    merged["mindscope_decode_over_mindspore_load"] = (
        merged["mindscope_decode_s"] / merged["mindspore_load_s"]
    )
    shape = f"{args.batch}x3x{size}x{size}"
    print(f"model: {args.model}, input {shape}, {merged['compute_ops']} compute ops")
    for key, value in merged.items():
        print(f"  {key:34s} {value:.3f}" if isinstance(value, float) else f"  {key:34s} {value}")


if __name__ == "__main__":
    main()
