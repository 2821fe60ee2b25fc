"""A large MindSpore model file for the checker benchmarks, that MindSpore compiles as it is.

Copies of a small Cell (a helper method, Tensor and constant conditions, a loop) and of a `@jit`
step the checker warns about (MS303: an in-place update through an alias, which compiles but
diverges from PyNative), then `run()`, which builds and calls each of them so that MindSpore
compiles every one: the checker and the compiler get the same text.
"""

from __future__ import annotations

HEADER = "import mindspore as ms\nimport numpy as np\nfrom mindspore import Tensor, nn, ops\n"
BLOCK = """

class Block{n}(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense({width}, {width})
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
    y = x
    y += {n}
    return x + y
"""
# Where `bench_checker.py` types inside a function: the line and the text after which it types.
EDITED_LINE = "        return out"


def model_file(lines: int, width: int = 3) -> str:
    """About `lines` lines: as many blocks as fit, then `run()` calling each on a (2, width)
    input."""
    parts, count, n = [HEADER], HEADER.count("\n"), 0
    while count < lines:
        block = BLOCK.format(n=n, width=width)
        parts.append(block)
        count += block.count("\n")
        n += 1
    calls = "\n".join(
        f"    outs.append(Block{i}()(x))\n    outs.append(step{i}(x))" for i in range(n)
    )
    parts.append(
        f"\n\ndef run():\n    x = Tensor(np.ones((2, {width}), np.float32))\n    outs = []\n"
        f"{calls}\n    return len(outs)\n"
    )
    return "".join(parts)
