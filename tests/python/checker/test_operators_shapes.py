"""Rules on static shapes (MS160 truth, MS161 `@`, MS152 on Tensor and shape indices), MS163
str item writes and MS226 equality without an overload: what the source fixes is judged, an
input no call in the module shows is never reported.

The verdicts were compiled with MindSpore 2.10 (`tests/graphmode/cases/operators/`,
`cases/subscripts/`, `cases/rules/`); these fast tests pin the inference on variations.
"""

from __future__ import annotations

import ast

import pytest

from mindscope_ls.checker import Severity, check_source
from mindscope_ls.checker.rules.helpers.shapes import broadcast, index_problem, indexed, matmul

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x):\n"
)
CALL = "\n\nNet()(Tensor(np.ones((2, 3), np.float32)))\n"
MINE = frozenset({"MS152", "MS160", "MS161", "MS163", "MS226"})


def errors(body: str, level: str = "LAX", call: str = CALL) -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines()) + call
    found = check_source(source, "m.py", level=level)
    return [f.code for f in found if f.severity is Severity.ERROR and f.code in MINE]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("if x:\n    return x\nreturn -x", "MS160"),
        ("if x > 0:\n    return x\nreturn -x", "MS160"),
        ("y = x * 2 + 1\nwhile y:\n    break\nreturn y", "MS160"),
        ("return not x[0]", "MS160"),
        ("return x and 1", "MS160"),
        ("return 1 if x < 0 else 2", "MS160"),
        ("return 0 < x < 1", "MS160"),
        ("assert x.astype(ms.int32)\nreturn x", "MS160"),
        ("return x @ 2", "MS161"),
        ("return (1.0, 2.0, 3.0) @ x", "MS161"),
        ("w = Tensor(np.ones((2, 2), np.float32))\nreturn x @ w", "MS161"),
        ("return x[2]", "MS152"),
        ("return x[:, -4]", "MS152"),
        ("return x[None, 0, 1, 2]", "MS152"),
        ("return x.shape[2]", "MS152"),
        ("y = x + 1\ny[0, 3] = 1.0\nreturn y", "MS152"),
        ("v = [x, x]\nv[2] = x\nreturn v", "MS152"),
        ("s = 'ab'\ns[0] = 'c'\nreturn x", "MS163"),
    ],
)
def test_reported(body: str, code: str) -> None:
    assert errors(body) == [code]


@pytest.mark.parametrize(
    "body",
    [
        "if x.sum() > 0:\n    return x\nreturn -x",
        "if x[0, 0]:\n    return x\nreturn -x",
        "if x[0, 0:1]:\n    return x\nreturn -x",
        "return (x > 0).any() and x.sum() > 1",
        "return x.sum() < 1 < 2",
        "x = x.sum()\nif x:\n    return x\nreturn -x",  # rebound: the input's shape no longer holds
        "return x @ x.T",
        "v = x[0]\nreturn v @ v",
        "return x[-2]",
        "return x[0, 1, ...]",
        "return x[True]",
        "return x.shape[-2]",
        "y = x + 1\ny[1, 2] = 1.0\nreturn y",
        "v = [x, x]\nv.append(x)\nv[2] = x\nreturn v",
        "s = 'ab'\ns = 'c' + s[1:]\nreturn x",
    ],
)
def test_not_reported(body: str) -> None:
    assert errors(body) == []


UNKNOWN = ["if x:\n    return x\nreturn -x", "return x[5]", "return x.shape[4]", "return 0 < x < 1"]


@pytest.mark.parametrize("body", UNKNOWN)
def test_unknown_shapes_say_nothing(body: str) -> None:
    assert errors(body, call="") == []
    two_shapes = CALL + "Net()(Tensor(np.ones((4, 5, 6), np.float32)))\n"
    assert "MS160" not in errors(body, call=two_shapes)


def test_equality_without_overload_fails_under_strict_only() -> None:
    assert errors("return x == 'ab'", level="STRICT") == ["MS226"]
    assert errors("return x != (1.0, 2.0, 3.0)", level="STRICT") == ["MS226"]
    assert errors("return x == 'ab'", level="LAX") == []
    assert errors("return x == None", level="STRICT") == []
    assert errors("return x == 1.0", level="STRICT") == []
    assert errors("return x == 'ab'", level="STRICT", call="") == []  # x may be a str


def test_a_none_local_under_its_none_test_is_not_reported() -> None:
    source = HEAD + "        b = None\n        return x + b if b is not None else x\n" + CALL
    assert not [f for f in check_source(source, "m.py", level="LAX") if f.code == "MS151"]
    source = HEAD + "        b = None\n        return x + b\n" + CALL
    assert [f.code for f in check_source(source, "m.py", level="LAX")] == ["MS151"]


def test_shape_arithmetic() -> None:
    assert broadcast((2, 3), (3,)) == (2, 3) and broadcast((2, 1), (1, 4)) == (2, 4)
    assert broadcast((2, 3), (2,)) is None
    assert matmul((2, 3), (3, 4)) == (2, 4) and matmul((3,), (3,)) == ()
    assert matmul((5, 2, 3), (3,)) == (5, 2) and matmul((2, 3), (2, 3)) is None

    def index(text: str) -> ast.expr:
        node = ast.parse(f"x[{text}]", mode="eval").body
        assert isinstance(node, ast.Subscript)
        return node.slice

    assert indexed((2, 3, 4), index("None, 0, ..., 1:3")) == (1, 3, 2)
    assert indexed((2, 3), index("::2, -1")) == (1,)
    problem = index_problem((2, 3), index("..., 3"))
    assert problem == "index 3 is out of range for dimension 1 of size 3"
    assert index_problem((2, 3), index("0, 0, 0")) is not None
    assert index_problem((2, 3), index("i")) is None


@pytest.mark.parametrize(
    ("call", "shape"),
    [
        ("x.sum()", ()),
        ("x.sum(keepdims=True)", (1, 1, 1)),
        ("x.sum(1)", (2, 4)),
        ("x.mean(axis=-1, keep_dims=True)", (2, 3, 1)),
        ("x.max(axis=(0, 1))", (4,)),
        ("x.sum(axis=None, keepdims=True)", (1, 1, 1)),
        ("x.sum(0, True)", None),  # positional keepdims: not read
        ("x.sum(axis=3)", None),  # no such axis
        ("x.sum(dtype=ms.int32)", None),
    ],
)
def test_reductions_drop_or_keep_their_axes(call: str, shape: object) -> None:
    from mindscope_ls.checker.rules.helpers.shapes import reduced

    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    assert reduced((2, 3, 4), node) == shape


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        ("return x.sum(keepdims=True).item()", ["MS1068"]),
        ("return x[0:1, 0:1].item()", ["MS1068"]),
        ("return x.sum(axis=0).item()", []),  # (3,): several elements, a PyNative error too
        ("return x.sum().item()", []),
        ("return x.max(1).item()", []),  # `max(1)` may give values and indices: not read
        ("return float(x.sum(axis=1, keepdims=True)[0:1])", ["MS129"]),
    ],
)
def test_item_and_scalars_of_two_axes(body: str, codes: list[str]) -> None:
    source = HEAD + f"        {body}\n" + CALL
    found = check_source(source, "m.py", level="LAX")
    assert [f.code for f in found if f.code in ("MS1068", "MS129")] == codes
