"""Calls, attributes, unpacking and loops as MindSpore 2.10 resolves them (MS155, MS157, MS158,
MS165, MS166, MS229).

Each row is a variation of a program compiled with MindSpore 2.10 at LAX and STRICT (the
verified ones are `tests/graphmode/cases/{calls,attributes,unpacking,iteration}/` and
`cases/rules/MS165_*`, `MS166_*`, `MS229_*`); the `None` rows are what the source does not fix,
where the checker must stay quiet.
"""

from __future__ import annotations

import ast
import textwrap
from typing import Optional

import pytest

from mindscope_ls.checker import Severity, check_source
from mindscope_ls.checker.rules.calls import _mismatch
from mindscope_ls.checker.rules.unpacking import _returned_count

HEAD = """import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


def pair(t):
    return t, t * 2


def either(t, flag):
    if flag:
        return t, t
    return t


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def construct(self, x, bias=0.0):
        return x * self.scale + bias


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.act = nn.ReLU()
        self.w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")

    def helper(self, x, y):
        return x + y

    def construct(self, x):
"""
RUN = "\n\ndef run():\n    return Net()(Tensor(np.ones((2, 3), np.float32)))\n"


def first(body: str, level: str) -> Optional[str]:
    """The first error's code for `body` as the Cell's `construct`, or None."""
    source = HEAD + textwrap.indent(body, " " * 8) + "\n" + RUN
    found = check_source(source, "m.py", level=level)
    return next((f.code for f in found if f.severity is Severity.ERROR), None)


@pytest.mark.parametrize(
    ("body", "lax", "strict"),
    [
        # a name only a loop binds, read after it
        ("for i in range(3):\n    x = x + 1\nreturn x * i", "MS165", "MS165"),
        ("for row in x:\n    y = row * 2\nreturn y", "MS165", "MS165"),
        ("n = 0\nwhile n < 3:\n    y = x + n\n    n += 1\nreturn y", "MS165", "MS165"),
        ("i = 0\nfor i in range(3):\n    x = x + 1\nreturn x * i", None, None),
        ("for i in range(3):\n    x = x + i\nreturn x", None, None),
        ("for i in range(3):\n    x = x + i\ni = 2\nreturn x * i", None, None),
        ("for i in range(3):\n    x = x + i\nf = lambda i: i\nreturn f(x)", None, None),
        ("if x.sum() > 0:\n    for i in range(3):\n        x = x + i\nreturn x", None, None),
        # `*` of a Tensor input; a tuple-giving op is fine
        ("return pair(*x)", "MS166", "MS166"),
        ("return ops.add(*ops.unstack(x))", None, None),
        ("return pair(*x.shape)", None, None),
        # arity of methods, sub-Cells, nested defs, lambdas
        ("return self.helper(x)", "MS157", "MS157"),
        ("return self.helper(x, x)", None, None),
        ("return self.block(x, 1.0, 2.0)", "MS157", "MS157"),
        ("return self.block(x, shift=1.0)", "MS157", "MS157"),
        ("return self.block(x, bias=1.0)", None, None),
        ("return self.act(x, x)", None, None),  # an nn Cell's signature is not in the source
        ("def mix(a, b):\n    return a + b\nreturn mix(x)", "MS157", "MS157"),
        ("f = lambda a, b: a * b\nreturn f(x)", "MS157", "MS157"),
        ("f = lambda a, b=2: a * b\nreturn f(x)", None, None),
        # unpacking counts the source fixes
        ("a, b, c = pair(x)\nreturn a", "MS158", "MS158"),
        ("a, b = pair(x)\nreturn a", None, None),
        ("a, b, c = either(x, True)\nreturn a", None, None),  # the returns disagree
        ("a, b, c = ops.topk(x, 2)\nreturn a", "MS158", "MS158"),
        ("a, b, c = x.shape\nreturn x * a", "MS158", "MS158"),
        ("a, b = x.shape\nreturn x * a", None, None),
        ("a, b, c = x\nreturn a", "MS158", "MS158"),  # x is (2, 3): two rows
        ("a, = x\nreturn a", None, None),  # fewer names than rows compile
        # attributes of Parameters and Cells
        ("return x + self.w, self.w.name", "MS155", "MS155"),
        ("w = self.w\nreturn x + w, w.requires_grad", "MS155", "MS155"),
        ("return x + self.w, self.w.shape, self.w.dtype", None, None),
        ("return x, self.act.ndim", "MS155", "MS155"),
        ("return x, self.act.shape", None, None),  # many nn Cells set `shape`
        ("return x, self.block.shape", "MS155", "MS155"),  # Block never sets it
        ("return x, self.block.scale, self.block.training", None, None),
        # unbound Tensor methods under STRICT
        ("y = x * 2\nreturn Tensor.sum(y)", None, "MS229"),
        ("y = x * 2\nreturn y.sum()", None, None),
        ("return Tensor.sum(Tensor(1.0))", None, None),  # a constant folds
    ],
)
def test_semantics(body: str, lax: Optional[str], strict: Optional[str]) -> None:
    assert (first(body, "LAX"), first(body, "STRICT")) == (lax, strict)


def test_loop_name_is_reported_where_mindspore_points() -> None:
    """At the `for` for its target, at a direct binding in the body, at the read otherwise."""
    body = "for i in range(3):\n    if i > 0:\n        y = x + i\n    else:\n        y = x\n"
    body += "return y"
    source = HEAD + textwrap.indent(body, " " * 8) + "\n" + RUN
    (found,) = [f for f in check_source(source, "m.py") if f.code == "MS165"]
    assert source.splitlines()[found.line - 1].strip() == "return y"


@pytest.mark.parametrize(
    ("call", "skip", "problem"),
    [
        ("m(x)", 1, "is not given `y`"),
        ("m(x, y)", 1, ""),
        ("m(x, y, z)", 1, "takes 2 positional arguments but is given 3"),
        ("m(x, b=1)", 1, "has no parameter `b`"),
    ],
)
def test_mismatch_past_self(call: str, skip: int, problem: str) -> None:
    (method,) = ast.parse("def m(self, x, y):\n    pass\n").body
    node = ast.parse(call, mode="eval").body
    assert isinstance(method, ast.FunctionDef) and isinstance(node, ast.Call)
    assert _mismatch(node, method.args, skip=skip) == problem


@pytest.mark.parametrize(
    ("source", "count"),
    [
        ("def f(x):\n    return x, x\n", 2),
        ("def f(x):\n    if x:\n        return x, x, x\n    return (1, 2, 3)\n", 3),
        ("def f(x):\n    if x:\n        return x, x\n    return x\n", None),
        ("def f(x):\n    return (*x, 1)\n", None),
        ("def f(x):\n    def g():\n        return 1\n    return x, g\n", None),
    ],
)
def test_returned_count(source: str, count: Optional[int]) -> None:
    (fn,) = ast.parse(source).body
    assert isinstance(fn, ast.FunctionDef)
    assert _returned_count(fn) == count
