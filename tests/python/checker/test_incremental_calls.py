"""The calls rules' cached findings follow edits of the other blocks they read.

`calls.check` is cacheable; the nodes whose findings may read another block (a module
function's or a sub-Cell's parameters, a helper's `return`s, a sub-Cell's class body, a plain
class's attributes, a module-level binding) are judged in every check by `calls.check_outside`.
Each Cell below reads one such thing; the edits change only the blocks it reads (with the same
number of lines, so no class signature changes with them), and the re-check must give what a
fresh check gives. Making any of those nodes cacheable fails this test.
"""

from __future__ import annotations

import random

from mindscope_ls.checker import Workspace

from .test_incremental import assert_same

HEAD = "import mindspore as ms\nfrom mindspore import nn, ops, Tensor\n\n"
BODIES = (
    "y = helper(x, x)",  # MS157: the module function's parameters
    "a, b, c = pair(x)",  # MS158: the module function's `return`s
    "z = self.block(x, x)",  # MS157: the sub-Cell's `construct`
    "n = self.block.ndim",  # MS155: the sub-Cell's class body
    "m = act.ndim",  # MS155: a module-level Cell
    "for i in box:\n            pass",  # MS159: a plain object without `__iter__`
    "y = box.b",  # MS155: a plain object's attributes
    "y = len(box)",  # MS155: a plain object without `__len__`
)
CELLS = "".join(
    f"""
class N{number}(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Sub()

    def construct(self, x):
        {body}
        return x

"""
    for number, body in enumerate(BODIES)
)
PARTS = {
    "helper": [
        "def helper(x, y):\n    return x + y\n",
        "def helper(x):\n    return x\n",
        "def helper(x, y, z):\n    return x\n",
    ],
    "pair": [
        "def pair(x):\n    return x, x\n",
        "def pair(x):\n    return x, x, x\n",
        "def pair(x):\n    return x\n",
    ],
    "sub": [
        "class Sub(nn.Cell):\n    nodim = 2\n    def construct(self, x, y):\n        return x\n",
        "class Sub(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.ndim = 2\n\n    def construct(self, x):\n        return x\n",
        "class Sub(nn.Cell):\n    def construct(self, x):\n        return x\n",
        "class Sub(nn.Cell):\n    ndim = 2\n    def construct(self, x, y):\n        return x\n",
        "class Sub(nn.Cell):\n    nodim = 2\n    def construct(self, x):\n        return x\n",
    ],
    "box": [
        "class Box:\n    def __init__(self):\n        self.a = 1\n",
        "class Box:\n    def __init__(self):\n        self.b = 1\n\n    def __iter__(self):\n"
        "        return self\n\n    def __len__(self):\n        return 1\n",
        "class Box(object):\n    def __init__(self):\n        self.a = 1\n",
    ],
    "glob": [
        "box = Box()\nact = nn.ReLU()\n",
        "box = Box()\nact = ops.ones((2, 2))\n",
        "box = 3\nact = nn.ReLU()\n",
    ],
}


def _text(choice: dict[str, int]) -> str:
    return HEAD + "\n\n".join(PARTS[k][v] for k, v in choice.items()) + "\n\n" + CELLS


def test_edits_of_the_blocks_calls_read_reach_their_findings() -> None:
    first = {name: 0 for name in PARTS}
    codes = {f.code for f in assert_same(_text(first), "m.py", Workspace(), "LAX")}
    assert {"MS155", "MS158", "MS159"} <= codes, codes
    for level in ("LAX", "STRICT"):
        workspace, choice = Workspace(), dict(first)
        for name, variants in PARTS.items():  # each block through its variants, then back
            for variant in [*range(1, len(variants)), 0]:
                choice[name] = variant
                assert_same(_text(choice), "m.py", workspace, level)
        rng = random.Random(1)
        for _ in range(100):
            name = rng.choice(list(PARTS))
            choice[name] = rng.randrange(len(PARTS[name]))
            moved = "\n" * rng.randrange(3) if rng.random() < 0.3 else ""
            assert_same(moved + _text(choice), "m.py", workspace, level)
