"""MS112 through loops: a parameter carried by a Tensor `while` whose body keeps its dtype
(`x = x * 2`), numbers a `for` target takes over a constant tuple or `range`, and `while True`
left by a Tensor `break` (`cases/round30/fl_*`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import Severity, check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x):\n"
)
TAIL = "\n\ndef run():\n    return Net()(Tensor(np.ones((2, 3), np.{dtype})))\n"


def codes(body: str, dtype: str = "float32") -> list[tuple[int, str]]:
    source = (
        HEAD + "".join(f"        {line}\n" for line in body.splitlines()) + TAIL.format(dtype=dtype)
    )
    found = check_source(source, "m.py", level="LAX")
    return [(f.line, f.code) for f in found if f.severity is Severity.ERROR]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        # the parameter keeps float32 through `x = x * 2`: the early return's int32 cannot join
        (
            "while x.sum() < 100:\n    if x.max() > 10:\n        return x.astype(ms.int32)\n"
            "    x = x * 2\nreturn x",
            [(10, "MS112")],
        ),
        (
            "while x.sum() < 100:\n    if x.max() > 10:\n        return x * 3\n"
            "    x = x * 2\nreturn x",
            [],
        ),
        # `x = x.astype(...)` in the loop: the carried value is not one dtype, nothing assumed
        (
            "while x.sum() < 100:\n    if x.max() > 10:\n        return x.astype(ms.int32)\n"
            "    x = x.astype(ms.float16)\nreturn x",
            [(8, "MS112")],
        ),
        # a call whose dtype is unknown keeps the carried value unknown
        (
            "while x.sum() < 100:\n    x = ops.relu(x) + 1\n    if x.max() > 10:\n"
            "        return x.astype(ms.int32)\nreturn x",
            [],
        ),
    ],
)
def test_a_carried_parameter(body: str, want: list[tuple[int, str]]) -> None:
    assert codes(body) == want


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("for s in (1, 2):\n    if x.sum() > s:\n        return s\nreturn x", [(10, "MS112")]),
        ("for i in range(3):\n    if x.sum() > i:\n        return i\nreturn x", [(10, "MS112")]),
        ("for s in (1, 2):\n    if x.sum() > s:\n        return s\nreturn 3", []),
        ("for s in (1.0, 2.0):\n    if x.sum() > s:\n        return s\nreturn 0.0", []),
        ("for s in (1, 2.5):\n    if x.sum() > s:\n        return s\nreturn x", []),  # mixed
        ("for s in ('a', 'b'):\n    if x.sum() > 1:\n        return s\nreturn x", []),  # strs
        ("for s in self.scales:\n    if x.sum() > s:\n        return s\nreturn x", []),
    ],
)
def test_a_for_target_over_numbers(body: str, want: list[tuple[int, str]]) -> None:
    assert codes(body) == want


@pytest.mark.parametrize(
    ("body", "want"),
    [
        (
            "while True:\n    x = x * 2\n    if x.sum() > 50:\n        break\n"
            "    x = x.astype(ms.float16)\nreturn x",
            [(11, "MS112")],
        ),
        # opening with the Tensor `break`: compiles
        (
            "while True:\n    if x.sum() > 50:\n        break\n"
            "    x = (x * 2).astype(ms.int32)\nreturn x",
            [],
        ),
        # left on a Python counter: compiles
        (
            "i = 0\nwhile True:\n    i += 1\n    if i > 3:\n        break\n"
            "    x = x.astype(ms.int32)\nreturn x",
            [],
        ),
        (
            "while True:\n    x = x * 2\n    if x.sum() > 50:\n        break\n"
            "    x = x + 1\nreturn x",
            [],
        ),
    ],
)
def test_while_true_left_on_a_tensor(body: str, want: list[tuple[int, str]]) -> None:
    assert codes(body) == want
