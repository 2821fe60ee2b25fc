"""Time `check_source` on a large generated MindSpore file and print the figures.

usage: python bench/bench_checker.py [--lines 5000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pyserver"))

from mindscope_ls.checker import check_source

HEADER = "import mindspore as ms\nfrom mindspore import nn, ops\n\n"
BLOCK = """
class Block{n}(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(8, 8)
        self.act = nn.ReLU()
        self.scale = {n}

    def _helper(self, x):
        y = self.act(self.fc(x))
        if x.shape[0] > 1:
            y = y * self.scale
        return y

    def construct(self, x, mask=None):
        h = self._helper(x)
        if mask is not None:
            h = h * mask
        if h.sum() > 0:
            out = h
        else:
            out = -h
        for _ in range(2):
            out = out + ops.ones_like(out)
        return out


@ms.jit
def step{n}(x):
    s = {{1, 2}}
    return x * len(s)
"""


def generate(lines: int) -> str:
    parts, count, n = [HEADER], HEADER.count("\n"), 0
    while count < lines:
        block = BLOCK.format(n=n)
        parts.append(block)
        count += block.count("\n")
        n += 1
    return "".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    source = generate(args.lines)
    times, findings = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        findings = check_source(source, "bench.py")
        times.append(time.perf_counter() - start)
    n_lines = source.count("\n")
    print(f"file: {n_lines} lines, {len(source)} chars, {len(findings)} findings")
    print(
        f"check_source: min {min(times) * 1000:.1f} ms, median "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
        f"over {args.repeat} runs"
    )
    print(f"throughput: {n_lines / min(times):,.0f} lines/s")


if __name__ == "__main__":
    main()
