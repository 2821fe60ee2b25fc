"""NumPy, `mindspore.numpy` and closures in compiled code (MS1049, MS1050, MS260, MS364, MS365;
MS204/MS207/MS230/MS240 widened). The verified programs are `tests/graphmode/cases/round31/jf_*`
and `cases/rules/MS1049_*`, `MS1050_*`, `MS260_*`, `MS364_*`, `MS365_*`; these pin the edges."""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import functools\nimport numpy as np\nimport mindspore as ms\n"
    "import mindspore.numpy as mnp\nfrom mindspore import Tensor, nn, ops\n\n"
)


def codes(src: str, level: str = "LAX", pre: str = "") -> set[str]:
    return {
        f.code
        for f in check_source(HEAD + textwrap.dedent(pre) + "\n\n" + src, "m.py", level=level)
    }


def construct(body: str) -> str:
    return "class Net(nn.Cell):\n    def construct(self, x):\n" + textwrap.indent(
        textwrap.dedent(body), " " * 8
    )


@pytest.mark.parametrize(
    ("body", "pre", "fires"),
    [
        ("return x * np.float32(2).item()", "", True),
        ("return x * np.int64(3).item()", "", True),
        ("return x * np.sum(np.ones(3)).item()", "", True),
        ("return x * np.ones((2, 2))[0, 1].item()", "", True),
        ("return x * T[1].item()", "T = np.array([1.0, 2.0])", True),
        ("return x * EPS.astype(np.float16)", "EPS = np.float32(2.0)", True),
        ("e = np.float32(2.0)\nreturn x * e.dtype.itemsize", "", True),
        # the ndarray's own methods, and Tensors' `.item()`, compile
        ("return x * np.array([2.0]).item()", "", False),
        ("return x * np.ones(3).max()", "", False),
        ("return x * np.ones((2, 2))[0].sum()", "", False),
        ("return x * x[0, 1].item()", "", False),
        ("return x * T.item()", "T = np.array([1.0, 2.0])", False),
        # a module name rebound, or a local shadowing it: not followed
        ("EPS = x.sum()\nreturn x * EPS.item()", "EPS = np.float32(2.0)", False),
    ],
)
def test_numpy_scalar_attribute(body: str, pre: str, fires: bool) -> None:
    assert ("MS1049" in codes(construct(body), pre=pre)) is fires


@pytest.mark.parametrize(
    ("body", "pre", "fires"),
    [
        ("for i in range(np.int32(2)):\n    x = x + 1\nreturn x", "", True),
        ("for i in range(0, N):\n    x = x + 1\nreturn x", "N = np.uint32(2)", True),
        ("return x.reshape(S[0], 2)", "S = np.array([3, 2], np.int32)", True),
        ("return x.reshape(S[0], 2)", "S = np.array([3, 2]).astype(np.int32)", True),
        ("return ops.tile(x, (np.int32(2), 1))", "", True),
        ("return x.sum(axis=np.int32(1))", "", True),
        # int64, int16, uint8 scalars are converted; `int()` of an int32 too
        ("for i in range(np.int64(2)):\n    x = x + 1\nreturn x", "", False),
        ("return x.reshape(np.int16(3), 2)", "", False),
        ("return x.reshape(S[0], 2)", "S = np.array([3, 2])", False),
        ("return x.reshape(int(np.int32(3)), 2)", "", False),
        ("return ops.cast(x, np.int32)", "", False),
        ("return x * np.int32(2)", "", False),  # LAX: the fallback runs it
    ],
)
def test_numpy_int32_argument(body: str, pre: str, fires: bool) -> None:
    assert ("MS1050" in codes(construct(body), pre=pre)) is fires


def test_numpy_int32_under_strict() -> None:
    assert "MS260" in codes(construct("return x * np.int32(2)"), "STRICT")
    assert "MS260" in codes(construct("return (x, x * 2)[np.int32(1)]"), "STRICT")
    assert "MS260" not in codes(construct("return x * np.int64(2)"), "STRICT")
    assert "MS260" not in codes(construct("return 3 * np.int32(2) * x.shape[0]"), "STRICT")


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("return mnp.array([x[0, 0], x[1, 1]])", True),
        ("return mnp.asarray((x.sum(), 1.0))", True),
        ("return mnp.add([x[0, 0], x[1, 1]], 1.0)", True),
        ("v = [x[0, 0], x[1, 1]]\nreturn mnp.array(v)", True),
        ("v = []\nfor i in range(2):\n    v.append(x[i].sum())\nreturn mnp.array(v)", True),
        ("c = Tensor(np.ones(2), ms.float32)\nreturn mnp.array([c[0], c[1]])", True),
        # numbers, shape items, a Tensor argument and sequences-of-arrays functions compile
        ("return x * mnp.array([x.shape[1], 1, 1])", False),
        ("return x + mnp.array([1.0, 2.0, 3.0])", False),
        ("return mnp.array(x)", False),
        ("return mnp.stack([x[0, 0], x[1, 1]])", False),
        ("return mnp.concatenate([x, x])", False),
        ("return mnp.full((2, 3), x[1, 1])", False),
    ],
)
def test_mnp_list_of_tensors(body: str, fires: bool) -> None:
    assert ("MS364" in codes(construct(body))) is fires


def test_mnp_list_of_tensors_in_jit_function_is_left_alone() -> None:
    src = "@ms.jit\ndef f(x):\n    return mnp.array([x[0, 0], x[1, 1]])\n"
    assert "MS364" not in codes(src)


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("k = 2\ndef f(v):\n    return v * k\nk = 5\nreturn f(x)", True),
        ("k = 2\nf = lambda v: v * k\nk += 3\nreturn f(x)", True),
        ("ks = [2]\ndef f(v):\n    return v * ks[0]\nks[0] = 5\nreturn f(x)", True),
        ("def f(v):\n    return v * x\nx = x + 1\nreturn f(x)", True),
        (
            "k = 1\ndef f(v):\n    return v * k\ny = x\nfor i in range(3):\n"
            "    k = k + 1\n    y = y + f(x)\nreturn y",
            True,
        ),
        # the change before the def, calls before the change, the call inside the change
        ("k = 2\nk = 5\ndef f(v):\n    return v * k\nreturn f(x)", False),
        ("k = 2\ndef f(v):\n    return v * k\ny = f(x)\nk = 5\nreturn y * k", False),
        ("h = x\ndef f(v):\n    return v + h\nh = f(h)\nreturn h", False),
        ("h = x\ndef f(v):\n    return v * h\nh += f(x)\nreturn h", False),
        # the name is the nested function's own
        ("k = 2\ndef f(v, k=3):\n    return v * k\nk = 5\nreturn f(x)", False),
    ],
)
def test_nested_function_reads_rebound_name(body: str, fires: bool) -> None:
    assert ("MS365" in codes(construct(body))) is fires


def test_nested_function_rebound_in_jit_function_is_left_alone() -> None:
    src = (
        "@ms.jit\ndef g(x):\n    k = 2\n    def f(v):\n        return v * k\n"
        "    k = 5\n    return f(x)\n"
    )
    assert "MS365" not in codes(src)


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("if x.sum() > 0:\n    y = [1.0, 2.0]\nelse:\n    y = [0.0, 0.0]\nreturn Tensor(y)", True),
        ("y = np.ones(2)\nif x.sum() > 9:\n    y = np.zeros(2)\nreturn Tensor.from_numpy(y)", True),
        ("y = (1.0, 2.0) if x.sum() > 0 else (0.0, 0.0)\nreturn Tensor(y)", True),
        # the same list on both paths, a constant condition, numbers, no Tensor built
        ("if x.sum() > 0:\n    y = [1.0, 2.0]\nelse:\n    y = [1.0, 2.0]\nreturn Tensor(y)", False),
        (
            "if x.shape[0] > 1:\n    y = [1.0, 2.0]\nelse:\n    y = [0.0, 0.0]\nreturn Tensor(y)",
            False,
        ),
        ("if x.sum() > 0:\n    s = 2.0\nelse:\n    s = 3.0\nreturn x * Tensor(s)", False),
        (
            "if x.sum() > 0:\n    y = [1.0, 2.0]\nelse:\n    y = [0.0, 0.0]\nreturn x * len(y)",
            False,
        ),
    ],
)
def test_tensor_of_branch_joined_list_under_strict(body: str, fires: bool) -> None:
    assert ("MS230" in codes(construct(body), "STRICT")) is fires


def test_module_partial_called_with_tensor_under_strict() -> None:
    pre = "DOUBLE = functools.partial(ops.mul, 2)"
    assert "MS207" in codes(construct("return DOUBLE(x)"), "STRICT", pre=pre)
    assert "MS207" not in codes(construct("return DOUBLE(3)"), "STRICT", pre=pre)
    local = construct("f = functools.partial(ops.mul, 2)\nreturn f(x)")
    assert "MS207" not in codes(local, "STRICT")


def test_numpy_of_list_holding_tensors_under_strict() -> None:
    assert "MS204" in codes(construct("return Tensor(np.array([x[0, 0], x[1, 1]]))"), "STRICT")
    assert "MS204" not in codes(construct("return x * Tensor(np.array([x.shape[0], 2]))"), "STRICT")


def test_numpy_of_parameter_names_is_not_trusted_under_strict() -> None:
    # mindcv's EdgeNeXt: `construct(self, B, H, W)` is given ints by its callers
    src = (
        "class Pos(nn.Cell):\n    def construct(self, B, H, W):\n"
        "        return Tensor(np.zeros((B, H, W)))\n"
    )
    assert "MS204" not in codes(src, "STRICT")
