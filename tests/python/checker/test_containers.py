"""Containers in compiled code (round 33): MS1065, MS1066, MS267, MS268, MS1067, MS384, MS385, the
MS145 / MS206 / MS220 widenings.

Each row is a variation of a program compiled with MindSpore 2.10 at LAX and STRICT (the verified
programs are `tests/graphmode/cases/round33/ct_*` and `cases/rules/MS1065_*` ... `MS385_*`);
these fast tests pin the checker on them.
"""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import Severity, check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops, mutable\n"
    "\n\nclass Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.acts = (nn.ReLU(), nn.Tanh())\n        self.sizes = [1, 2, 3]\n"
    "        self.dense = [nn.Dense(3, 3), nn.Dense(3, 3)]\n\n"
    "    def construct(self, x, y):\n"
)


def codes(body: str, level: str) -> dict[str, Severity]:
    """The codes the checker reports for `body` as the Cell's `construct`."""
    found = check_source(HEAD + textwrap.indent(body, " " * 8) + "\n", "m.py", level=level)
    return {f.code: f.severity for f in found}


def error(body: str, level: str = "LAX") -> set[str]:
    return {c for c, s in codes(body, level).items() if s is Severity.ERROR}


def warning(body: str, level: str = "LAX") -> set[str]:
    return {c for c, s in codes(body, level).items() if s is Severity.WARNING}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("i = ops.argmax(x[0]) % 2\nreturn self.acts[i](x)", True),
        ("i = Tensor(1)\nreturn self.acts[i](x)", True),
        ("fs = (ops.relu, ops.tanh)\nreturn fs[Tensor(1)](x)", True),
        ("i = (ops.argmax(x[0]) % 2).astype(ms.int32)\nreturn self.acts[i](x)", False),
        ("i = ops.argmin(x[0])\nreturn self.acts[i](x)", False),
        ("i = Tensor(1, ms.int32)\nreturn self.acts[i](x)", False),
        ("return self.acts[mutable(1)](x)", False),
        ("vals = (x, x * 2)\nreturn vals[Tensor(1)]", False),
        ("return self.acts[y](x)", False),  # the index's dtype is unknown
    ],
)
def test_switch_index_dtype(body: str, expected: bool) -> None:
    assert ("MS1065" in error(body)) is expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("return (x.sum(),) < (x.mean(),)", True),
        ("return [x.max(), 0] >= [x.min(), 0]", True),
        ("return (1, x.sum()) < (1, x.mean())", True),
        ("a = (x.sum(), 1)\nb = (x.mean(), 2)\nreturn a < b", True),
        ("return (1, x.sum()) > (0, x.mean())", False),  # decided by the constants
        ("return (x.shape[0], x.shape[1]) < (3, 3)", False),
        ("return (x.shape[0], x.sum()) < (2, x.mean())", False),  # shape item: unknown
        ("return (x.sum(),) == (x.mean(),)", False),
    ],
)
def test_sequence_order_reaches_tensor(body: str, expected: bool) -> None:
    assert ("MS1066" in error(body)) is expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("return (x.sum(), 1) == (x.sum(), 1)", True),
        ("return (x.sum(), 1) != (6.0, 1)", True),
        ("return x.shape == (2, x.sum())", True),
        ("t = (x.sum(), None)\nreturn t == (x.sum(), None)", True),
        ("return (x.sum(), x.sum()) == (1.0, 2.0)", False),
        ("return (x.sum(),) == (6.0,)", False),
        ("return (x, x) == (x, x)", False),
        ("n = x.shape[0]\nreturn (n, 1) == (2, 1)", False),
        ("n = y.size(1)\nreturn x.shape != (2, n)", False),  # a number (real-code zoo)
        ("return (x.dim(), 1) == (2, 1)", False),
    ],
)
def test_mixed_sequence_equal_under_strict(body: str, expected: bool) -> None:
    assert ("MS267" in error(body, "STRICT")) is expected
    assert "MS267" not in error(body, "LAX")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("return (x.sum(), 1) in [(6.0, 1)]", True),
        ("return (x.sum(),) not in ((1.0,),)", True),
        ("return (1, 2) in [(x.sum(), 2)]", True),
        ("pair = (x.max(), x.min())\nseen = [(1.0, 1.0)]\nreturn pair in seen", True),
        ("n = x.shape[0]\nreturn (n, 3) in [(2, 3), (4, 4)]", False),
        ("return x.shape in [(2, 3), (4, 4)]", False),
        ("return x.sum() in [x.sum(), x.mean()]", False),
    ],
)
def test_tensor_sequence_membership_under_strict(body: str, expected: bool) -> None:
    assert ("MS268" in error(body, "STRICT")) is expected
    assert "MS268" not in error(body, "LAX")


@pytest.mark.parametrize(
    ("body", "fails", "diverges"),
    [
        ("l = [x, x + 1]\nm = l.copy()\nm.append(x)\nreturn m[0]", True, False),
        ("l = [x, 1]\nm = l.copy()\nm.append(2)\nreturn len(m)", True, False),
        ("l = [x]\nm = l.copy()\nfor i in range(2):\n    m.append(x)\nreturn x", True, False),
        ("l = [x, x + 1]\nm = l.copy()\nm.append(x)\nreturn ops.stack(m)", False, True),
        ("l = [x, x + 1]\nm = l.copy()\nv = m.pop()\nreturn v", False, True),
        ("l = [x, x + 1]\nm = l.copy()\nv = m[0]\nm.append(x)\nreturn v", False, False),
        ("l = [1, 2]\nm = l.copy()\nm.append(3)\nreturn x * m[2]", False, False),
        ("l = [x, x + 1]\nm = list(l)\nm.append(x)\nreturn m[2]", False, False),
        ("l = [x, x + 1]\nm = l.copy()\nm = [x]\nm.append(x)\nreturn m[1]", False, False),
    ],
)
def test_changed_list_copy(body: str, fails: bool, diverges: bool) -> None:
    assert ("MS1067" in error(body)) is fails
    assert ("MS384" in warning(body)) is diverges
    assert "MS1067" not in error(body, "STRICT")  # MS217 refuses `copy` itself there


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("m = [[0, 0]] * 2\nm[1][1] = 5\nreturn x * m[0][1]", True),
        ("m = [[]] * 2\nm[0].append(x)\nreturn len(m[1])", True),
        ("m = 2 * [[0] * 2]\nfor i in range(2):\n    m[i][i] = 1\nreturn x * m[0][1]", True),
        ("row = [0, 0]\nm = [row] * 2\nm[0][0] = 9\nreturn x * m[1][0]", True),
        ("m = [[0] * 2 for _ in range(2)]\nm[0][0] = 1\nreturn x * m[1][0]", False),
        ("m = [[0, 0]] * 2\nm[1][1] = 5\nreturn x * m[1][1]", False),
        ("m = [[0, 0]] * 2\nm[0] = [1, 1]\nreturn x * m[1][0]", False),
        ("m = [[0, 0]] * 1\nm[0][0] = 1\nreturn x * m[0][0]", False),
        ("m = [(0, 0)] * 2\nm[0] = (1, 1)\nreturn x * m[1][0]", False),
        ("m = [[0, 0]] * 2\nm[0][0] = 1\nm[1][0] = 2\nreturn x", False),  # nothing read after
    ],
)
def test_repeated_rows_changed(body: str, expected: bool) -> None:
    assert ("MS385" in warning(body)) is expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("for i in range(len(self.dense)):\n    x = self.dense[i](x)\nreturn x", True),
        ("outs = [d(x) for d in self.dense]\nreturn ops.stack(outs)", True),
        ("for d, a in zip(self.dense, self.acts):\n    x = a(d(x))\nreturn x", True),
        ("for i in range(len(self.acts)):\n    x = self.acts[i](x)\nreturn x", False),
        ("return self.dense[0](x)", False),
    ],
)
def test_plain_cell_lists_reached_by_index_zip_comprehension(body: str, expected: bool) -> None:
    assert ("MS145" in error(body)) is expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("d = {'b': x, 'a': x + 1}\nfor k in sorted(d):\n    x = d[k]\nreturn x", True),
        ("l = mutable([2, 1], True)\nreturn x * sorted(l)[0]", True),
        ("d = dict.fromkeys(['a', 'b'], x)\nreturn d['a']", True),
        ("d = dict.fromkeys(['a', 'b'], x.shape[0])\nreturn x * d['a']", False),
        ("d = {'b': 1, 'a': 2}\nreturn x * sorted(d)[0].__len__()", False),
        ("i = ops.argmax(x[0])\nreturn x * self.sizes[i]", True),
        ("return x * self.sizes[1]", False),
    ],
)
def test_strict_widenings(body: str, expected: bool) -> None:
    found = error(body, "STRICT")
    assert bool(found & {"MS206", "MS220"}) is expected
