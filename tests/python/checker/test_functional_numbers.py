"""Round 37 (`mt_`): `ops`/`mint` functions given Python values in compiled code. MS3045 (an
arithmetic op given Python numbers only), MS3046 (a 64-bit fill narrowed to 32 bits), MS220 on
the tuple a multi-output op returns, MS204 on NumPy calls holding numbers read from Tensors.
Each source was measured with MindSpore 2.10 (CPU): `tests/graphmode/cases/round37/mt_*`."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops, mint\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x, n):\n"
)
BODY_LINE = 8  # the first body line


def found(body: str, level: str = "LAX") -> list[tuple[int, str]]:
    lines = "".join(f"        {line}\n" for line in body.strip("\n").splitlines())
    source = HEAD + lines + "\n\nNet()(Tensor(np.ones((2, 3), np.float32)), Tensor(3, ms.int32))\n"
    return [(f.line, f.code) for f in check_source(source, "m.py", level=level)]


@pytest.mark.parametrize(
    "body",
    [
        "return ops.add(2, 3)",
        "return ops.mul(x.shape[0], 4)",
        "return ops.div(7, 2)",
        "return ops.div(7, 2.0)",
        "return mint.sub(5, 3)",
        "return ops.add(input=2, other=3)",
        "return ops.add(int(n), 1)",
        "return ops.add(2 ** 31 - 1, 1)",
        "return ops.add(2, 3) * 2",
        "return (ops.sub(len(x), 1),)",
    ],
)
def test_functional_op_of_numbers_warns(body: str) -> None:
    assert (BODY_LINE, "MS3045") in found(body)


def test_functional_op_of_numbers_through_a_local() -> None:
    assert (BODY_LINE, "MS3045") in found("s = ops.add(x.shape[0], x.shape[1])\nreturn s")


@pytest.mark.parametrize(
    "body",
    [
        "return ops.add(2.0, 3.0)",  # Float32 in both
        "return ops.add(2, 0.5)",
        "return ops.div(7.0, 2.0)",
        "return ops.add(n, 3)",  # a Tensor operand
        "return ops.div(7, 2) * x",  # promoted back by the Float32 input
        "return ops.div(7, 2).astype(ms.float32)",
        "return ops.add(2, 3) / 2",
        "return ops.add(2, 3).item()",
        "return ops.where(x > 2, x, ops.add(1, 1))",
        "return ops.greater(3, 2)",
    ],
)
def test_functional_op_of_numbers_quiet(body: str) -> None:
    assert all(code != "MS3045" for _, code in found(body))


@pytest.mark.parametrize(
    "body",
    [
        "return ops.full((1,), 0.1, dtype=ms.float64)",
        "return ops.full((2,), 1 / 3, dtype=ms.float64)",
        "return ops.fill(ms.float64, (1,), 1e-7)",
        "return ops.full_like(x, 0.1, dtype=ms.float64)",
        "return ops.full((1,), 2 ** 40 + 1, dtype=ms.int64)",
        "return ops.full((1,), 2 ** 40)",
        "return ops.scalar_to_tensor(0.1, ms.float64)",
        "return Tensor(0.1 * 3, ms.float64)",
        "return ms.tensor(x.shape[0] / 3, ms.float64)",
        "return ops.pad(x.astype(ms.float64), (1, 1), value=0.1)",
    ],
)
def test_fill_value_narrowed_warns(body: str) -> None:
    assert (BODY_LINE, "MS3046") in found(body)


def test_fill_of_a_float64_tensor_warns() -> None:
    body = "y = x.astype(ms.float64)\nreturn y.fill(0.1), ops.full(y.shape, 0.1, dtype=y.dtype)"
    assert [c for c in found(body) if c[1] == "MS3046"] == [(9, "MS3046"), (9, "MS3046")]


@pytest.mark.parametrize(
    "body",
    [
        "return ops.full((1,), 0.5, dtype=ms.float64)",  # exact in float32
        "return ops.full((1,), 16777217, dtype=ms.float64)",  # an int stays an int
        "return ops.full((1,), 0.1)",  # float32 target
        "return Tensor(1e-7, ms.float64)",  # a literal keeps float64
        "return ms.tensor([0.1, 0.2], ms.float64)",
        "return ops.masked_fill(x.astype(ms.float64), x > 2, 0.1)",
        "return ops.ones(2, ms.float64) * 0.1",
    ],
)
def test_fill_value_narrowed_quiet(body: str) -> None:
    assert all(code != "MS3046" for _, code in found(body))


@pytest.mark.parametrize(
    "body",
    [
        "parts = ops.split(x, 1, 1)\nreturn parts[n - 2]",
        "parts = ops.chunk(x, 3, 1)\nreturn parts[n - 2]",
        "parts = x.split(1, 1)\nreturn parts[n - 2]",
        "return ops.unbind(x, 1)[n - 2]",
    ],
)
def test_op_result_indexed_by_tensor_fails_strict(body: str) -> None:
    last = BODY_LINE + body.count("\n")
    assert (last, "MS220") in found(body, "STRICT")
    assert all(code != "MS220" for _, code in found("parts = ops.split(x, 1, 1)\nreturn parts[1]"))


def test_numpy_of_runtime_number_fails_strict() -> None:
    assert (BODY_LINE, "MS204") in found(
        "return Tensor(np.zeros((n.item(),), np.float32))", "STRICT"
    )
    assert (BODY_LINE, "MS204") in found("return Tensor(np.array([int(n), 2]))", "STRICT")
    quiet = found("return Tensor(np.zeros((x.shape[0] * 2,), np.float32))", "STRICT")
    assert all(code != "MS204" for _, code in quiet)


BOOL_NET = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x, b):\n        return {expr}\n\n\n"
    "def run():\n    b = Tensor(np.array([True, False]))\n"
    "    return Net()(Tensor(np.ones(2, np.float32)), b)\n"
)


@pytest.mark.parametrize(
    ("expr", "fails"), [("b + b", True), ("b - True", True), ("b - 1", False), ("b * b", False)]
)
def test_bool_tensor_input_add_sub(expr: str, fails: bool) -> None:
    source = BOOL_NET.format(expr=expr)
    codes = [(f.line, f.code) for f in check_source(source, "m.py", level="LAX")]
    assert ((8, "MS153") in codes) is fails
