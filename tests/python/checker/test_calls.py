"""Attributes, calls, unpacking and loops over values that cannot take them (MS155-MS159,
MS223-MS225).

Each row is a variation of a program compiled with MindSpore 2.10 at LAX and STRICT (the
verified programs are `tests/graphmode/cases/calls/**`, `cases/rules/MS15x_*`, `MS22x_*` and the
generated `attributes/`, `calls/`, `unpacking/`, `iteration/` cases); these fast tests pin the
checker on them, and on the values it must leave alone because the source does not fix them.
"""

from __future__ import annotations

import ast
import textwrap
from typing import Optional

import pytest

from mindscope_ls.checker import Severity, check_source
from mindscope_ls.checker.rules.calls import _mismatch

HEAD = (
    "import mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "def add_bias(t, bias=1.0, *, scale=1):\n    return t * scale + bias\n\n\n"
    "def takes_any(*args, **kw):\n    return args[0]\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.n = 1\n\n"
    "    def construct(self, x, y):\n"
)


def first(body: str, level: str) -> Optional[str]:
    """The first error's code for `body` as the Cell's `construct`, or None."""
    found = check_source(HEAD + textwrap.indent(body, " " * 8) + "\n", "m.py", level=level)
    return next((f.code for f in found if f.severity is Severity.ERROR), None)


@pytest.mark.parametrize(
    ("body", "lax", "strict"),
    [
        # Tensor-only attributes on values that are not Tensors
        ("v = (x, x)\nreturn x, v.shape", "MS155", "MS155"),
        ("v = None\nreturn x, v.dtype", "MS155", "MS155"),
        ("v = 3\nreturn x, v.ndim", "MS155", "MS155"),
        ("v = x * 2\nreturn x, v.requires_grad", "MS155", "MS155"),
        ("return x, x.shape, x.dtype, x.ndim", None, None),
        ("return x, y.requires_grad", "MS155", "MS155"),  # what a Cell is called with
        ("v = self.n\nreturn x, v.requires_grad", None, None),  # self.n: not followed here
        ("print(x, end='')\nreturn x", "MS157", "MS157"),
        ("n = len(None)\nreturn x", "MS155", "MS155"),
        ("v = self.n\nreturn x, v.data", None, None),  # what self.n is, is not followed here
        # calling what is not callable
        ("f = None\nreturn f(x)", "MS156", "MS156"),
        ("s = 'abc'\nreturn s()", "MS156", "MS156"),
        ("return x(1)", "MS156", "MS156"),
        ("f = ops.relu\nreturn f(x)", None, None),
        # module functions called with the wrong arguments
        ("return add_bias()", "MS157", "MS157"),
        ("return add_bias(x, 1.0, 2.0)", "MS157", "MS157"),
        ("return add_bias(x, shift=1.0)", "MS157", "MS157"),
        ("return add_bias(x, scale=2)", None, None),
        ("return add_bias(*(x, 1.0))", None, None),
        ("return takes_any(x, y, z=1)", None, None),
        # unpacking
        ("a, b, c = (x, y)\nreturn a", "MS158", "MS158"),
        ("a, b = (x, y, x)\nreturn a", None, None),  # more items than names compile
        ("a, b = {'p': x, 'q': y}\nreturn a", "MS158", "MS158"),
        ("a, b = x.sum()\nreturn a", "MS158", "MS158"),
        ("a, b = x\nreturn a", None, None),  # the first axis is not in the source
        ("a, *rest = (x,)\nreturn a", None, None),
        # loops
        ("for v in None:\n    x = x + v\nreturn x", "MS159", "MS159"),
        ("for v in x.mean():\n    x = x + v\nreturn x", "MS159", "MS159"),
        ("for v in x.sum(axis=0):\n    x = x + v\nreturn x", None, None),
        ("for v in x:\n    x = x + v\nreturn x", None, None),
        # STRICT only
        ("return x, x.device", None, "MS223"),
        ("return x, x.__class__.__name__", None, "MS223"),
        ("n = len('abc')\nreturn x * n", None, "MS224"),
        ("n = 0\nfor c in 'ab':\n    n = n + 1\nreturn x * n", None, "MS224"),
        ("setattr(self, 'n', 2)\nreturn x", None, "MS225"),
        ("n = len((x, y))\nreturn x * n", None, None),
    ],
)
def test_calls_rules(body: str, lax: Optional[str], strict: Optional[str]) -> None:
    assert (first(body, "LAX"), first(body, "STRICT")) == (lax, strict)


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        ("f(1)", ""),
        ("f()", "is not given `a`"),
        ("f(1, 2, 3, 4)", "takes 2 positional arguments but is given 4"),
        ("f(1, c=2)", "has no parameter `c`"),
        ("g(1)", "is not given `k`"),
        ("g(1, k=2)", ""),
    ],
)
def test_mismatch(call: str, problem: str) -> None:
    defs = ast.parse("def f(a, b=1):\n    pass\ndef g(a, *, k):\n    pass\n").body
    params = {d.name: d.args for d in defs if isinstance(d, ast.FunctionDef)}
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    assert _mismatch(node, params[node.func.id]) == problem
