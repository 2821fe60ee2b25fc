"""Operators and subscripts (MS150-MS154, MS220, MS117 on dict reads): the operands' kinds
decide, and an operand or container the source does not show is never reported.

The programs behind each verdict were compiled with MindSpore 2.10 (`tests/graphmode/cases/
generated/operators/`, `generated/subscripts/`, `cases/operators/`, `cases/rules/`); these fast
tests pin the inference on variations of them.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import Severity, check_source

HEAD = (
    "import mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\nOBJ = object()\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x, s):\n"
)


MINE = frozenset({"MS117", "MS150", "MS151", "MS152", "MS153", "MS154", "MS220"})


def errors(body: str, level: str = "STRICT") -> list[str]:
    """The errors of this module's rules (others, e.g. MS215 on `'%s' % x`, are left out)."""
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    found = check_source(source, "m.py", level=level)
    return [f.code for f in found if f.severity is Severity.ERROR and f.code in MINE]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("y = x.shape + 1\nreturn y", "MS150"),
        ("y = (1, 2) - (1,)\nreturn x", "MS150"),
        ("y = [x, x] + (x,)\nreturn y", "MS150"),
        ("y = x.shape // 2\nreturn x", "MS150"),
        ("y = (2, 1) * (1, 2)\nreturn x", "MS150"),
        ("y = 'a' + 1\nreturn x", "MS150"),
        ("y = x.shape + x.shape[0] * 2\nreturn y", "MS150"),
        ("b = None\nreturn x + b", "MS151"),
        ("return 'ab' * x.sum()", "MS151"),
        ("return x ** None", "MS151"),
        ("m = x > 0\nreturn m + m", "MS153"),
        ("return (x > 0) ** (x < 1)", "MS153"),
        ("y = x.astype(ms.float32)\nreturn y & y", "MS153"),
        ("v = (x, x + 1)\nreturn v[2]", "MS152"),
        ("v = [x, x + 1]\nreturn v[-3]", "MS152"),
        ("return (x, x)[1.0]", "MS152"),
        ("d = {'a': x}\nreturn d['b']", "MS152"),
        ("t = 'abc'[True]\nreturn x", "MS152"),
        ("t = 'ab'[2]\nreturn x", "MS152"),
        ("y = x.astype(ms.float32)\nreturn y[1.5]", "MS152"),
        ("y = x.astype(ms.int32)\nreturn y['a']", "MS152"),
        ("y = None[0]\nreturn x", "MS154"),
        ("y = x.astype(ms.int32)\nreturn y << 2", "MS153"),
        ("return (x > 0) >> (x > 0)", "MS153"),
        ("y = x.astype(ms.float32)\nreturn y ^ 3", "MS153"),
        ("f = True ^ True\nreturn x", "MS153"),
        ("return -(x > 0)", "MS153"),
        ("f = -True\nreturn x", "MS153"),
        ("y = -x.shape\nreturn x", "MS150"),
        ("y = ~2.5\nreturn x", "MS150"),
        ("y = -None\nreturn x", "MS150"),
        ("y = None + 3\nreturn x", "MS150"),
        ("return x < None", "MS151"),
        ("return 'ab' >= x * 2", "MS151"),
        ("return {'a': x}[x.sum()]", "MS117"),
        ("i = x.sum().astype(ms.int32)\nreturn (x, x + 1)[i]", "MS220"),
        ("i = x.sum().astype(ms.int32)\nreturn [x, x][i]", "MS220"),
        ("i = x.sum().astype(ms.int32)\nreturn x * (1, 2)[i]", "MS220"),
        ("i = x.sum().astype(ms.int32)\nreturn x * x.shape[i]", "MS220"),
    ],
)
def test_known_operands_are_reported(body: str, code: str) -> None:
    assert code in errors(body)


@pytest.mark.parametrize(
    "body",
    [
        "return x + s",  # `s` could be anything
        "y = s + 1\nreturn x",
        "y = x.shape + (1,)\nreturn y",
        "y = x.shape * 2\nreturn y",
        "y = [1] * 3 + [2]\nreturn x",
        "y = 'a' * 3 + 'b'\nreturn x",
        "y = None + None\nreturn x",  # measured: compiles
        "y = {'a': 1} | {'b': 2}\nreturn x",  # dicts: not checked
        "t = '%d items' % 3\nreturn x",  # formats
        "t = 'v %s' % x\nreturn x",  # formats (MS215's under STRICT, fine at LAX)
        "y = OBJ + 1\nreturn x",  # a plain object may define __add__
        "m = x > 0\nreturn m * m",
        "m = x > 0\nreturn m | m",
        "y = x.astype(ms.int32)\nreturn y & y",
        "return x + 1",
        "return x + (x > 0)",
        "v = (x, x + 1)\nreturn v[-2]",
        "v = [x, x]\nv.append(x)\nreturn v[2]",  # the list grows
        "d = {'a': x}\nd['b'] = x\nreturn d['b']",  # the dict gains a key
        "return (x, x)[True]",
        "return s[5]",
        "return x[0, 1]",
        "return x[None, ...]",
        "return (x, x)[ms.mutable(1)]",
        "return [1, 2][Tensor(1, ms.int32)]",  # all constants: folded
        "t = 'abc'[Tensor(1, ms.int32)]\nreturn x",
        "i = x.sum().astype(ms.int32)\nreturn (ops.relu, ops.tanh)[i](x)",  # a switch
        "i = x.sum().astype(ms.int32)\nreturn x[i]",
        "i = x.sum().astype(ms.int32)\nreturn s[i]",
        "return {'a': x}[Tensor(1)]",  # a constant Tensor key
        "n = None\nif s is not None:\n    n = s\nreturn x",
        "return x['logits']",  # a parameter taken for a Tensor may be a dict
        "return 'ab' * x",  # ... or a str
        "return x << 2",  # ... or an int
        "f = True & True\nreturn x",  # diverges (MS3xx territory), compiles
        "y = 2 << 3\nreturn x",
        "y = -x.shape[0]\nreturn x",
        "return ~(x > 0)",
        "return -x",
        "y = not x.shape\nreturn x",
        "return x == None",  # equality compiles
        "return x != 'a'",
        "return 0 < x.sum() < 100",
    ],
)
def test_unknown_or_valid_operands_are_not_reported(body: str) -> None:
    assert errors(body) == [] and errors(body, "LAX") == []


def test_tensor_index_on_a_sequence_fails_only_under_strict() -> None:
    body = "i = x.sum().astype(ms.int32)\nreturn (x, x + 1)[i]"
    assert errors(body, "LAX") == []
    assert errors(body, "STRICT") == ["MS220"]
