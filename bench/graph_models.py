"""The `.mindir` files and graph documents the graph benchmarks and the memory test open.

Usage: .venv/bin/python bench/graph_models.py [--rebuild] [NAME ...]

Exports, once, with random weights, into ~/.cache/mindscope/bench/: mindcv's resnet50,
vit_b_16_224 and mobilenet_v3_large, and a synthetic stack of Cells of 10,000 compute ops
(`stack10k`: stages of layers of 4-op blocks); `stack50k` (50,000 compute ops) is composed from
stack10k's exported graph by bench/compose_mindir.py, since exporting it made no progress in
55 min of MindSpore's compile; then reads each with
`python -m mindscope_runtime mindir` into `<name>.json` beside it. Files already there are
kept; `--rebuild` reads the documents again from the kept `.mindir` files (a document written by
an older runtime keeps that runtime's scopes; stack50k's read takes ~20 min on a busy machine).
Prints one line per model: file, size, compute ops.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CACHE = Path.home() / ".cache" / "mindscope" / "bench"
ROOT = Path(__file__).resolve().parents[1]
# stage count, layers per stage, blocks per layer; 4 compute ops per block.
STACKS = {"stack10k": (5, 20, 25)}
COMPOSED = {"stack50k": 5}  # copies of stack10k chained by bench/compose_mindir.py
MINDCV = {
    "resnet50": (1, 3, 224, 224),
    "vit_b_16_224": (1, 3, 224, 224),
    "mobilenet_v3_large_100": (1, 3, 224, 224),
}
WIDTH = 8


def stack_cell(stages: int, layers: int, blocks: int) -> Any:
    from mindspore import nn

    class Block(nn.Cell):  # type: ignore[misc]
        """MatMul, BiasAdd, ReLU, Add: four compute ops."""

        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Dense(WIDTH, WIDTH)
            self.act = nn.ReLU()

        def construct(self, x: Any) -> Any:
            return x + self.act(self.fc(x))

    def layer() -> Any:
        return nn.SequentialCell([Block() for _ in range(blocks)])

    def stage() -> Any:
        return nn.SequentialCell([layer() for _ in range(layers)])

    class Stack(nn.Cell):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.stages = nn.SequentialCell([stage() for _ in range(stages)])

        def construct(self, x: Any) -> Any:
            return self.stages(x)

    return Stack()


def export(name: str) -> Path:
    out = CACHE / f"{name}.mindir"
    if out.exists():
        return out
    if name in COMPOSED:
        export("stack10k")
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / "compose_mindir.py"), "--copies",
             str(COMPOSED[name])],
            check=True,
        )  # fmt: skip
        return out
    import mindspore as ms
    import numpy as np

    ms.set_device("CPU")
    if name in STACKS:
        net = stack_cell(*STACKS[name])
        shape: tuple[int, ...] = (2, WIDTH)
    else:
        import mindcv  # type: ignore[import-untyped]

        net = mindcv.create_model(name, pretrained=False)
        shape = MINDCV[name]
    net.set_train(False)
    x = ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    CACHE.mkdir(parents=True, exist_ok=True)
    ms.export(net, x, file_name=str(out.with_suffix("")), file_format="MINDIR")
    return out


def document(mindir: Path, rebuild: bool = False) -> Path:
    doc = mindir.with_suffix(".json")
    if rebuild or not doc.exists():
        subprocess.run(
            [sys.executable, "-m", "mindscope_runtime", "mindir", str(mindir), "-o", str(doc)],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=ROOT,
        )
    return doc


def main() -> None:
    args = sys.argv[1:]
    rebuild = "--rebuild" in args
    names = [a for a in args if a != "--rebuild"] or [*MINDCV, *STACKS, *COMPOSED]
    for name in names:
        t0 = time.perf_counter()
        doc = document(export(name), rebuild)
        meta = json.loads(doc.read_text())["meta"]
        print(
            f"{name}: {doc.with_suffix('.mindir')} "
            f"({doc.with_suffix('.mindir').stat().st_size / 1e6:.1f} MB), "
            f"{meta['counts']['computeOps']} compute ops, {time.perf_counter() - t0:.1f} s"
        )


if __name__ == "__main__":
    main()
