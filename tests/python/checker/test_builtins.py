"""Builtins and comprehensions on values the graph cannot handle (MS122-MS129, MS206).

Each row below is a variation of a program compiled with MindSpore 2.10 at LAX and STRICT (the
verified programs are `tests/graphmode/cases/builtins/**`, `cases/rules/MS12x_*` and the
generated `builtins/` + `comprehensions/` cases); these fast tests pin the checker on them.
"""

from __future__ import annotations

import textwrap
from typing import Optional

import pytest

from mindscope_ls.checker import Severity, Workspace, check_source
from mindscope_ls.checker.rules.builtins import SUPPORT, needs_constant_under_strict

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.loss = nn.MSELoss()\n        self.scales = (3, 1, 2)\n\n"
    "    def construct(self, x):\n"
)


def first(body: str, level: str) -> Optional[str]:
    """The first error's code for `body` as the Cell's `construct`, or None."""
    found = check_source(HEAD + textwrap.indent(body, " " * 8) + "\n", "m.py", level=level)
    return next((f.code for f in found if f.severity is Severity.ERROR), None)


@pytest.mark.parametrize(
    ("body", "lax", "strict"),
    [
        # max/min: every Tensor among the values must have one element, at every level
        ("y = max([x, x + 1])", "MS125", "MS125"),
        ("y = min(x, ops.relu(x))", "MS125", "MS125"),
        ("y = max(x, 0)", "MS125", "MS125"),
        ("y = max([x.sum(), x.mean()])", None, None),
        ("y = max(self.loss(x, x), self.loss(x, -x))", None, None),
        ("y = max(x)", None, None),  # a 1-D Tensor compiles: its rank is not in the source
        # one Tensor: graph mode iterates its first axis (the shape written out, or passed)
        ("t = ops.ones((2, 3), ms.float32)\ny = max(t)", "MS125", "MS125"),
        ("t = ops.ones((3,), ms.float32)\ny = max(t)", None, None),
        ("t = ops.ones((2, 1), ms.float32)\ny = min(t)", None, None),
        # a folded constant (`ops.zeros` of a written shape): STRICT folds the call too, and
        # fails alike on several elements (measured)
        ("y = any(ops.zeros((2, 2), ms.float32))", "MS126", "MS126"),
        ("y = sorted(ops.zeros((1, 4), ms.float32))", None, None),
        ("y = sorted(ops.zeros((2, 4), ms.float32))", "MS126", "MS126"),
        ("t = ops.ones((3,))\ny = sorted((t, t), key=lambda v: v.shape[0])", None, None),
        ("t = ops.ones((1,), ms.float32)\ny = any(v.sum() > 0 for v in (t, t))", None, None),
        ("t = ops.eye(2, 2)\ny = sorted((t, t), key=lambda v: v.shape[0])", None, "MS206"),
        ("y = max(x.shape)", None, None),
        ("y = max(x.shape[0], 2)", None, None),
        # a Tensor with a number: the Python fallback, which STRICT runs on constants only
        ("y = max(x.sum(), 2)", None, "MS206"),
        ("y = min(0.5, x.mean())", None, "MS206"),
        ("y = max(x.sum(), x.mean())", None, None),
        # dict(...) is folded by STRICT: constants only (keyword values too)
        ("d = dict(a=1, b=x)", None, "MS206"),
        ("d = dict(zip(('a', 'b'), (x, x)))", None, "MS206"),
        ("d = dict(a=1, b=2)", None, None),
        ("d = dict(zip(('a', 'b'), (1, 2)))", None, None),
        # any/all/sorted: LAX takes each Tensor's truth in Python; STRICT needs constants
        ("y = any([x, x + 1])", "MS126", "MS206"),
        ("xs = (x, x - 1)\ny = all([t > 0 for t in xs])", "MS126", "MS206"),
        ("y = sorted((x, x * 2))", "MS126", "MS206"),
        ("y = any([x.sum() > 0, x.mean() > 0])", None, "MS206"),
        ("y = any(x)", None, "MS206"),
        ("y = sorted(self.scales)", None, None),
        ("y = any((3, 1, 2))", None, None),
        # reversed, id, hash, `in` on a Tensor: constants only under STRICT
        ("y = tuple(reversed((x, x + 1)))", None, "MS206"),
        ("y = tuple(reversed(self.scales))", None, None),
        ("y = id(x)", None, "MS206"),
        ("y = hash(3)", None, None),
        ("y = 3 in x", None, "MS206"),
        ("y = x in (3, 1, 2)", None, None),
        ("y = x in (x, x + 1)", None, None),
        ("y = str([x, x * 2])", None, "MS206"),
        ("y = str(self.scales)", None, None),
        ("y = str(ms.mutable((1, 2)))", None, "MS206"),
        ("t = ms.mutable((1, 2))\ny = sorted(t)", None, None),
        ("y = str(x)", None, "MS204"),  # a direct Tensor is MS204's
        # STRICT refuses the name of a graph value anywhere in the call's text
        ("y = sorted(x.shape)", None, "MS206"),
        ("y = all([d > 1 for d in x.shape])", None, "MS206"),
        ("y = hash(x.shape)", None, "MS206"),
        ("n = x.shape[0]\ny = sorted((n, 1))", None, None),
        ("y = str(x.shape)", None, None),
        # range needs ints, map lists/tuples, filter constants
        ("y = [i for i in range(x.sum())]", "MS123", "MS123"),
        ("y = [i for i in range(x.shape[0])]", None, None),
        ("y = [i for i in range(int(x.sum()))]", None, None),
        ("y = tuple(map(ops.relu, x))", "MS124", "MS124"),
        ("y = tuple(map(ops.relu, (x, x)))", None, None),
        ("y = tuple(filter(lambda v: v > 0, (x.sum(), x.mean())))", "MS127", "MS127"),
        ("y = tuple(filter(lambda v: v > 1, (3, 1, 2)))", None, None),
        ("y = tuple(filter(lambda v: v > 1, ms.mutable((3, 1, 2))))", "MS127", None),
        ("t = ms.mutable((3, 1, 2))\ny = tuple(filter(lambda v: v > 1, t))", "MS127", None),
        # int/float/bool: one element
        ("n = int(x)", "MS129", "MS129"),
        ("n = float(x * 2)", "MS129", "MS129"),
        ("n = bool(x)", "MS129", "MS129"),
        ("n = int(x.sum())", None, None),
        ("n = float(self.loss(x, x))", None, None),
        ("n = int(x.shape[0])", None, None),
        # comprehensions: one `for`; an `if` on a Tensor
        ("y = [i + j for i in range(2) for j in range(2)]", "MS122", "MS122"),
        ("y = {i: j for i in range(2) for j in range(2)}", "MS122", "MS122"),
        ("y = sum(i * j for i in range(2) for j in range(2))", "MS122", "MS122"),
        ("y = [t for t in (x, -x) if t.sum() > 0]", "MS128", None),
        ("y = {str(i): x for i in range(2) if x.sum() > i}", "MS128", "MS128"),
        ("y = [t for t in (x, -x) if x.shape[0] > 1]", None, None),
        ("y = [row * 2 for row in x]", None, None),
    ],
)
def test_builtin_findings(body: str, lax: Optional[str], strict: Optional[str]) -> None:
    assert first(body, "LAX") == lax
    assert first(body, "STRICT") == strict


def test_a_tensor_input_iterates_the_rows_every_call_passes() -> None:
    def code(shape: str) -> str:
        return (
            "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn\n\n\n"
            "class Net(nn.Cell):\n    def construct(self, x):\n        return max(x)\n\n\n"
            f"def run():\n    return Net()(Tensor(np.ones({shape}, np.float32)))\n"
        )

    def codes(source: str) -> list[str]:
        return [f.code for f in check_source(source, "m.py") if f.severity is Severity.ERROR]

    assert codes(code("(2, 3)")) == ["MS125"]
    assert codes(code("(3,)")) == []


def test_numpy_reductions_of_a_tensor_fail_at_lax_and_stay_ms204_under_strict() -> None:
    assert first("y = np.sum(x)", "LAX") == "MS137"
    assert first("y = np.mean(x * 2)", "LAX") == "MS137"
    assert first("y = np.argmax(x)", "LAX") is None
    assert first("y = np.sum((1, 2))", "LAX") is None
    assert first("y = np.sum(x)", "STRICT") == "MS204"


def test_a_comprehension_over_names_bound_several_times_is_judged_without_recursing() -> None:
    # mindone's `tuple(v for v in [hidden_states, ...] if v is not None)` crashed the builtins
    # rules (RecursionError, MS001) and hid their findings for the whole function.
    body = (
        "y = x * 2\n        for i in range(3):\n            y = y + int(i / 2)\n"
        "        z = tuple(v for v in [y, x] if v is not None)\n"
    )
    source = HEAD + "        " + body + "        return max(x, x + 1)\n"
    codes = [f.code for f in check_source(source, "m.py")]
    assert "MS001" not in codes
    assert "MS125" in codes


def test_a_local_or_import_named_like_a_builtin_is_not_the_builtin() -> None:
    assert first("max = ops.maximum\ny = max(x, x + 1)", "LAX") is None
    source = "from mindspore.ops import max\n" + HEAD + "        return max(x, x + 1)\n"
    assert not [f for f in check_source(source, "m.py") if f.code == "MS125"]


def test_the_support_table_follows_the_facts() -> None:
    assert {"max", "min", "any", "all", "sorted", "filter", "range", "map"} <= set(SUPPORT)
    # no graph translation: STRICT folds them at compile time
    for name in ("any", "all", "sorted", "reversed", "id", "hash", "type"):
        assert needs_constant_under_strict(name), name
    # translated by the graph compiler: any value
    for name in ("len", "max", "min", "sum", "isinstance", "print", "zip", "enumerate"):
        assert not needs_constant_under_strict(name), name


CALLED = """\
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x, y):
        return max(x, y)


def run():
    x = Tensor(%s, ms.float32)
    return Net()(x, Tensor(2.0, ms.float32))
"""


def test_inputs_are_what_the_module_passes_and_a_cached_answer_follows_the_call_site() -> None:
    # max() of one-element Tensors compiles (measured); of a (2, 3) one it fails.
    workspace = Workspace()
    for value, want in [("1.0", []), ("np.ones((2, 3))", ["MS125"]), ("[1.0]", [])]:
        again = check_source(CALLED % value, "m.py", level="LAX", workspace=workspace)
        fresh = check_source(CALLED % value, "m.py", level="LAX", workspace=Workspace())
        assert [f.code for f in again] == want and again == fresh, value


def test_the_ints_a_shape_primitive_returns_are_not_tensors() -> None:
    # mindocr's `bs, seq_len = self.shape(x)` with `self.shape = ops.Shape()` (compiles).
    inherited = (
        "import mindspore as ms\nfrom mindspore import nn, ops\n\n\n"
        "class Base(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.shape = ops.Shape()\n\n\n"
        "class Net(Base):\n    def construct(self, x):\n        bs, n = self.shape(x)\n"
        "        for i in range(bs):\n            x = x * n\n        return x\n"
    )
    inline = inherited.replace("self.shape(x)", "ops.Shape()(x)")
    tensor = inherited.replace("ops.Shape()", "ops.ReduceSum()")
    for source in (inherited, inline):
        assert not [f for f in check_source(source, "m.py") if f.code == "MS123"]
    assert [f.code for f in check_source(tensor, "m.py") if f.code == "MS123"] == ["MS123"]
