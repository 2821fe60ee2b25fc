"""Tensors made or read in compiled code (round 32: MS1055, MS1056, MS248, MS373; MS1013,
MS129, MS160, MS189 widened). The verified programs are `tests/graphmode/cases/round32/tc_*`
and `cases/rules/MS1055_*`, `MS1056_*`, `MS248_*`, `MS373_*`; these pin the edges."""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\n"
    "import mindspore.numpy as mnp\nfrom mindspore import Tensor, nn, ops\n\n"
)


def codes(src: str, level: str = "LAX") -> set[str]:
    return {f.code for f in check_source(HEAD + src, "m.py", level=level)}


def net(body: str, arg: str = "Tensor(np.ones((2, 3), np.float32))") -> str:
    return (
        "class Net(nn.Cell):\n    def construct(self, x):\n"
        + textwrap.indent(textwrap.dedent(body), " " * 8)
        + f"\n\n\ndef run():\n    return Net()({arg})\n"
    )


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("return ops.tuple_to_array((1, 2.5))", True),
        ("return ops.tuple_to_array((1, True))", True),
        ("return ops.tuple_to_array([1, 2])", True),
        ("l = [1, 2]\nreturn ops.tuple_to_array(l)", True),
        ("return ops.tuple_to_array((x.shape[0], 2.5))", True),
        ("return ops.tuple_to_array((len(x), 1.5))", True),
        ("return ops.tuple_to_array([i for i in range(3)])", True),
        ("return ops.tuple_to_array((1, 2, 3))", False),
        ("return ops.tuple_to_array((1.0, 2.5))", False),
        ("return ops.tuple_to_array((True, False))", False),
        ("return ops.tuple_to_array(x.shape)", False),
        ("l = [1, 2]\nreturn ops.tuple_to_array(tuple(l))", False),
        ("return ops.tuple_to_array((x.sum().item(), 1.0))", False),
        ("return ops.tuple_to_array(tuple(i for i in range(3)))", False),
    ],
)
def test_tuple_to_array(body: str, fires: bool) -> None:
    assert ("MS1055" in codes(net(body))) is fires


@pytest.mark.parametrize(
    ("body", "code", "fires"),
    [
        ("return mnp.arange(int(x))", "MS1056", True),
        ("return mnp.arange(x.item())", "MS1056", True),
        ("return mnp.arange(x)", "MS1056", True),
        ("return mnp.arange(0, 6, x.item())", "MS1056", True),
        ("return mnp.linspace(0, 1, x.item())", "MS1056", True),
        ("return mnp.arange(x.shape[0])", "MS1056", False),
        ("return mnp.arange(len(x))", "MS1056", False),
        ("return mnp.linspace(x.min(), x.max(), 4)", "MS1056", False),
        ("return ops.arange(x.item())", "MS1056", False),
        ("return mnp.zeros(int(x))", "MS248", True),
        ("return mnp.ones((x.item(), 2))", "MS248", True),
        ("return mnp.eye(x.item())", "MS248", True),
        ("return mnp.zeros((x.shape[0], 2))", "MS248", False),
        ("return mnp.full((2, 2), x.item())", "MS248", False),
        ("return ops.zeros((x.item(), 2))", "MS248", False),
    ],
)
def test_mnp_sizes(body: str, code: str, fires: bool) -> None:
    src = net(body, "Tensor(np.array(3, np.int64))")
    assert (code in codes(src, "STRICT")) is fires


def test_mnp_shape_is_strict_only() -> None:
    src = net("return mnp.zeros(int(x))", "Tensor(np.array(3, np.int64))")
    lax = [f for f in check_source(HEAD + src, "m.py", level="LAX") if f.code == "MS248"]
    assert all(f.severity != "error" for f in lax)


@pytest.mark.parametrize(
    ("body", "pre", "fires"),
    [
        ("return Tensor(np.float64(1.5))", "", True),
        ("return Tensor(np.sqrt(2.0))", "", True),
        ("return ms.tensor(np.float16(1.5))", "", True),
        ("t = Tensor(np.float64(0.5))\nreturn x, t", "", True),
        ("a = np.array([1.0, 2.0])\nreturn Tensor(a.sum())", "", True),
        ("return Tensor(np.mean([1.0, 2.0]))", "", True),
        ("return Tensor(SCALE)", "SCALE = np.float64(0.5)\n", True),
        ("return Tensor(np.float64(1.5), ms.float64)", "", False),
        ("return Tensor(np.float32(1.5))", "", False),
        ("return Tensor(np.int64(3))", "", False),
        ("return Tensor(np.pi)", "", False),
        ("return x * Tensor(np.sqrt(2.0))", "", False),
        ("return ops.scalar_to_tensor(np.float64(2.5))", "", False),
        ("a = np.array([1, 2])\nreturn Tensor(a.sum())", "", False),
        ("return Tensor(float(np.float64(1.5)))", "", False),
    ],
)
def test_numpy_float_scalar(body: str, pre: str, fires: bool) -> None:
    assert ("MS373" in codes(pre + net(body))) is fires


def test_numpy_float_scalar_not_in_jit() -> None:
    src = "@ms.jit\ndef f(x):\n    return Tensor(np.float64(0.5))\n\n\n"
    src += "def run():\n    return f(1)\n"
    assert "MS373" not in codes(src)


@pytest.mark.parametrize(
    ("body", "dtype", "fires"),
    [
        ("return x.item() * 2", "int8", True),
        ("return x.item() + 1", "uint8", True),
        ("return x.item() * 2", "float16", True),
        ("n = x.item()\nreturn n - 1", "int16", True),
        ("return -x.item()", "int8", True),
        ("if x.item() > 2:\n    return x\nreturn x + 1", "int8", True),
        ("return ops.ones((2,)) * x.item()", "int8", True),
        ("return x.item() + 1", "int32", False),
        ("return x.item() / 2", "int16", False),
        ("if x.item() > 2:\n    return x\nreturn x + 1", "int16", False),
        ("return ops.ones((2,)) * x.item()", "int16", False),
        ("return int(x) * 2", "int8", False),
        ("return x.sum().item() * 2", "int8", False),
        ("return x.item() + 1", "bool_", False),
    ],
)
def test_narrow_item_arithmetic(body: str, dtype: str, fires: bool) -> None:
    src = net(body, f"Tensor(np.array(3, np.{dtype}))")
    assert ("MS1013" in codes(src)) is fires


IF_X = "if x:\n    return x\nreturn x + 1"


@pytest.mark.parametrize(
    ("body", "arg", "code", "fires"),
    [
        ("return int(x) + 1", "Tensor(np.array([[3]], np.int64))", "MS129", True),
        ("return float(x)", "Tensor(np.array([[[1.5]]], np.float32))", "MS129", True),
        ("return int(x) + 1", "Tensor(np.array([3], np.int64))", "MS129", False),
        ("return int(x.squeeze()) + 1", "Tensor(np.array([[3]], np.int64))", "MS129", False),
        ("return float(x.sum())", "Tensor(np.array([[1.5]], np.float32))", "MS129", False),
        (IF_X, "Tensor(np.array([[1.5]], np.float32))", "MS160", True),
        (IF_X, "Tensor(np.array([1.5], np.float32))", "MS160", False),
    ],
)
def test_one_element_of_two_axes(body: str, arg: str, code: str, fires: bool) -> None:
    assert (code in codes(net(body, arg))) is fires


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("d = {3: x}\nk = int(x.item())\nreturn d[k]", True),
        ("d = {3: x}\nreturn d[x.item() + 1]", True),
        ("d = {3: x}\nreturn d.get(int(x.item()), x)", True),
        ("d = (x, x, x)\nreturn d[int(x.item())]", False),
        ("d = {3: x}\nreturn d[int(x.shape[0])]", False),
    ],
)
def test_dict_key_from_item(body: str, fires: bool) -> None:
    src = net(body, "Tensor(np.array(1, np.int64))")
    assert ("MS189" in codes(src)) is fires


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("return f'v={x.item()}'", True),
        ("print(f'n={int(x)}')\nreturn x", True),
        ("v = float(x)\nprint(f'v={v}')\nreturn x", True),
        ("print(f'n={x.shape[0]}')\nreturn x", False),
        ("print(f'{x.dtype}')\nreturn x", False),
    ],
)
def test_strict_fstring_of_item(body: str, fires: bool) -> None:
    src = net(body, "Tensor(np.array(2.5, np.float32))")
    assert ("MS309" in codes(src, "STRICT")) is fires
    assert "MS309" not in codes(src, "LAX")


@pytest.mark.parametrize(
    ("body", "arg", "code", "fires"),
    [
        ("return Tensor(x)", "mutable(3)", "MS230", True),
        ("return Tensor([x, 1])", "mutable(3)", "MS230", True),
        ("return Tensor(x)", "3", "MS230", False),
        ("return mnp.arange(x)", "mutable(3)", "MS1056", True),
        ("return mnp.arange(x)", "3", "MS1056", False),
    ],
)
def test_mutable_inputs(body: str, arg: str, code: str, fires: bool) -> None:
    src = "from mindspore import mutable\n" + net(body, arg)
    assert (code in codes(src, "STRICT")) is fires


def test_tensor_of_mutable_in_jit_compiles() -> None:
    src = "from mindspore import mutable\n\n\n@ms.jit\ndef f(n):\n    return Tensor(n) + 1\n\n\n"
    src += "def run():\n    return f(mutable(3))\n"
    assert "MS230" not in codes(src, "STRICT")


@pytest.mark.parametrize(
    ("body", "dtype", "fires"),
    [
        ("return x.item() ** 2", "int8", True),
        ("return x.item() ** 2", "int16", True),
        ("return x.item() ** 2", "int32", False),
        ("s = 0\nfor i in range(x.item()):\n    s = s + i\nreturn s", "int16", True),
        ("s = 0\nfor i in range(x.item()):\n    s = s + i\nreturn s", "uint8", True),
        ("s = 0\nfor i in range(x.item()):\n    s = s + i\nreturn s", "int32", False),
        ("s = 0\nfor i in range(int(x)):\n    s = s + i\nreturn s", "int8", False),
    ],
)
def test_narrow_item_power_and_range(body: str, dtype: str, fires: bool) -> None:
    src = net(body, f"Tensor(np.array(3, np.{dtype}))")
    assert ("MS1013" in codes(src)) is fires


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("return max(x.tolist())", True),
        ("return min(x.tolist())", True),
        ("return ops.ones(x.tolist())", True),
        ("return ops.zeros(tuple(x.tolist()))", True),
        ("y = ops.ones((1,))\nreturn ops.tile(y, tuple(x.tolist()))", True),
        ("return sum(x.tolist())", False),
        ("return ops.full(tuple(x.tolist()), 1.0)", False),
        ("y = ops.ones((6,))\nreturn y.reshape(x.tolist())", False),
        ("l = x.tolist()\nreturn ops.zeros((l[0], l[1]))", False),
        ("a, b = x.tolist()\nreturn max(a, b)", False),
    ],
)
def test_tolist_taken_whole(body: str, fires: bool) -> None:
    src = net(body, "Tensor(np.array([2, 3], np.int64))")
    assert ("MS188" in codes(src)) is fires
    assert "MS188" not in codes(src, "STRICT")
