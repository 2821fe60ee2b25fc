"""Tensors in compiled code (round 30, helper `ix`): MS357 (an item of a Tensor taken out of
another written, the original read after), MS230 on nested lists of Tensors and MS231 quiet
on a folded constant Tensor.

Each verdict was measured with MindSpore 2.10 on CPU (`tests/graphmode/cases/round30/ix_*`);
these fast tests pin the logic on variations.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops, "
    "Parameter\n\n\nclass Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.p = Parameter(Tensor(np.zeros((3, 4), np.float32)), name='p')\n\n"
    "    def construct(self, x, i):\n"
)


def codes(body: str, level: str = "LAX") -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    return [f.code for f in check_source(source, "m.py", level=level)]


@pytest.mark.parametrize(
    "body",
    [
        "y = x[0]\ny[1] = 9.0\nreturn x",
        "y = x[:, 1]\ny[0] = 9.0\nreturn x",
        "y = x[1:]\ny[...] = 0.0\nreturn x",
        "y = x[0]\ny[1] += 9.0\nreturn x.sum()",
        "y = x.reshape(12)\ny[0] = 1.0\nreturn x",
        "y = x.T\ny[0] = 1.0\nreturn x",
        "r = self.p[0]\nr[0] = 1.0\nreturn self.p + x",
        "x[1:][0] = 7.0\nreturn x",
        "for k in range(2):\n    y = x[k]\n    y[0] = 9.0\nreturn x",
    ],
)
def test_view_written_then_base_read_warns(body: str) -> None:
    assert "MS357" in codes(body)


@pytest.mark.parametrize(
    "body",
    [
        "y = x[0].copy()\ny[1] = 9.0\nreturn x",
        "y = x[0] * 1\ny[1] = 9.0\nreturn x",
        "y = x[0]\ny[1] = 9.0\nreturn y",
        "y = x[0]\nx = x * 2\ny[1] = 9.0\nreturn x",
        "y = x[0]\ny = y + 1\ny[1] = 9.0\nreturn x",
        "x[1][2] = 5.0\nreturn x",
        "x[:, 0][1] = 5.0\nreturn x",
        "x[1:, :][0] = 7.0\nreturn x",
        "y = x[1:]\ny += 1\nreturn x",
        "y = x.astype(ms.float16)\ny[0] = 1.0\nreturn x",
    ],
)
def test_copies_and_folded_chains_stay_quiet(body: str) -> None:
    assert "MS357" not in codes(body)


def test_jit_function_view_write_is_quiet() -> None:
    source = (
        "import mindspore as ms\n\n@ms.jit\ndef f(x):\n    y = x[1]\n    y[0] = 9.0\n    return x\n"
    )
    assert "MS357" not in [f.code for f in check_source(source, "m.py", level="LAX")]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("return Tensor([[x[0, 0]], [x[1, 1]]])", "MS230"),
        ("return Tensor(((x[0, 0],),))", "MS230"),
        ("return x[[0, i]]", "MS231"),
    ],
)
def test_strict_failures(body: str, code: str) -> None:
    assert code in codes(body, "STRICT")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("return x == Tensor([0.0, 1.0])", "MS226"),
        ("return x == 2.0", "MS226"),
        ("return x + [0.0, 1.0]", "MS226"),
        ("return Tensor([[1.0], [2.0]]) + x", "MS230"),
        ("k = Tensor(1, ms.int32)\nreturn x[[0, k]]", "MS231"),
        ("k = Tensor(1, ms.int64)\nreturn x[[0, k]]", "MS231"),
        ("k = Tensor(np.array(1))\nreturn x[[0, k]]", "MS231"),
    ],
)
def test_strict_look_alikes_quiet(body: str, code: str) -> None:
    assert code not in codes(body, "STRICT")
