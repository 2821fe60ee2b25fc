"""Round 35, loops and the values they carry: MS397 (a `for` over a list its own body changes:
graph mode iterates the items the list had when the loop started) and MS1094 (a Tensor `while`
nesting a carried value in a tuple or list of itself: call-depth limit), MS1095 (a Python number a
loop carries, made another type under a Tensor `if`). Measured with
MindSpore 2.10 (`cases/round35/lp_*`, `cases/rules/MS397_*`, `cases/rules/MS1094_*`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import mindspore as ms\nfrom mindspore import nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x):\n"
)


def codes(body: str, level: str = "LAX") -> list[tuple[int, str]]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    found = check_source(source, "m.py", level=level)
    return [(f.line, f.code) for f in found if f.code in ("MS397", "MS1094", "MS1095")]


LOOP = "vals = [1, 2]\nfor v in vals:\n    if v < 2:\n        {write}\n    x = x + v\nreturn x"


@pytest.mark.parametrize(
    "write", ["vals.append(5)", "vals.extend([3, 4])", "vals += [3]", "vals.pop()", "vals.clear()"]
)
def test_a_list_changed_while_iterated(write: str) -> None:
    assert codes(LOOP.format(write=write)) == [(10, "MS397")]
    assert codes(LOOP.format(write=write), "STRICT") == [(10, "MS397")]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        # enumerate, a comprehension, list(...), a list of Tensors
        (
            "vals = [i for i in range(2)]\nfor i, v in enumerate(vals):\n"
            "    if i == 0:\n        vals.append(7)\nreturn x",
            [(10, "MS397")],
        ),
        (
            "outs = list((x,))\nfor t in outs:\n    if len(outs) < 3:\n"
            "        outs.append(t * 2)\nreturn x",
            [(10, "MS397")],
        ),
        (
            "vals = [1, 2]\nfor v in vals:\n    a = vals.pop()\n    x = x + a\nreturn x",
            [(9, "MS397")],
        ),
        # look-alikes that agree
        ("vals = [1, 2]\nfor v in vals[:]:\n    vals.append(v)\nreturn x", []),  # a copy
        ("vals = [1, 2]\nfor v in list(vals):\n    vals.append(v)\nreturn x", []),
        ("vals = [1, 2]\nfor v in vals:\n    vals = vals + [3]\nreturn x", []),  # rebinding
        ("vals = [1, 2]\nout = []\nfor v in vals:\n    out.append(v)\nreturn x", []),
        (
            "vals = [1, 2]\nfor v in vals:\n    if v == 1:\n        vals.append(3)\n"
            "        break\nreturn x",
            [],
        ),  # the loop ends with the change
        (
            "vals = [1, 2]\ni = 0\nwhile i < len(vals):\n    if vals[i] == 1:\n"
            "        vals.append(3)\n    i += 1\nreturn x",
            [],
        ),  # a worklist: graph mode re-reads len()
        ("vals = (1, 2)\nfor v in vals:\n    x = x + v\nreturn x", []),
        ("for v in self.vals:\n    self.vals.append(v)\nreturn x", []),  # MS302's
        ("vals = [1, 2]\nfor v in vals:\n    vals.remove(v)\nreturn x", []),  # MS306's
    ],
)
def test_list_changes_in_loops(body: str, want: list[tuple[int, str]]) -> None:
    assert codes(body) == want


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("y = x\nwhile x.sum() < 20:\n    y = (y, x)\n    x = x * 2\nreturn x", [(8, "MS1094")]),
        ("y = x\nwhile x.sum() < 20:\n    y = (x, y)\n    x = x * 2\nreturn x", [(8, "MS1094")]),
        ("y = [x]\nwhile x.sum() < 20:\n    y = [y, x]\n    x = x * 2\nreturn x", [(8, "MS1094")]),
        (
            "y = x\nwhile x.sum() < 20:\n    y = tuple([y, x])\n    x = x * 2\nreturn x",
            [(8, "MS1094")],
        ),
        (
            "y = None\nwhile x.sum() < 20:\n    if x.max() > 0:\n        y = (y,)\n"
            "    x = x * 2\nreturn x",
            [(8, "MS1094")],
        ),
        (
            "y = x\nwhile True:\n    y = (y, x)\n    x = x * 2\n    if x.sum() > 20:\n"
            "        break\nreturn x",
            [(8, "MS1094")],
        ),
        # look-alikes that compile
        ("y = x\nfor i in range(3):\n    y = (y, x)\nreturn x", []),  # unrolled 3 times
        ("y = x\ni = 0\nwhile i < 3:\n    y = (y, x)\n    i += 1\nreturn x", []),
        ("y = (x, x)\nwhile x.sum() < 20:\n    y = (y[1], x)\n    x = x * 2\nreturn x", []),
        ("t = (x,)\nwhile x.sum() < 20:\n    t = t + (x,)\n    x = x * 2\nreturn x", []),
        (
            "a, b = x, x\nwhile a.sum() < 20:\n    a, b = b, a * 2\nreturn a",
            [],
        ),
        # read after the loop: MS112 reports the join, not this rule
        ("y = x\nwhile x.sum() < 20:\n    y = (y, x)\n    x = x * 2\nreturn y", []),
    ],
)
def test_a_tensor_while_nesting_its_value(body: str, want: list[tuple[int, str]]) -> None:
    assert codes(body) == want


SCALE = (
    "s = {start}\nfor i in range(3):\n    if {test}:\n        {update}\n    x = x * 2\nreturn {ret}"
)


@pytest.mark.parametrize(
    ("start", "test", "update", "ret", "want"),
    [
        ("0", "x.sum() > 10", "s = 0.5", "x * s", [(10, "MS1095")]),
        ("0", "x.sum() > 10", "s += 0.5", "x + s", [(10, "MS1095")]),
        ("1", "x.max() > 2", "s = s * 0.5", "x * s", [(10, "MS1095")]),
        ("1", "x.max() > 2", "s = s / 2", "x * s", [(10, "MS1095")]),
        ("0.5", "x.sum() > 10", "s = 1", "x * s", [(10, "MS1095")]),
        ("False", "x.sum() > 10", "s = 1", "x * s", [(10, "MS1095")]),
        ("-1", "x.sum() > 10", "s = 2.5", "x + s", [(10, "MS1095")]),
        # look-alikes that compile
        ("0", "x.sum() > 10", "s = 0.5", "x", []),  # never read again
        ("0", "x.sum() > 10", "s = 2", "x * s", []),  # an int stays an int
        ("0.0", "x.sum() > 10", "s = s + 0.5", "x * s", []),  # a float start
        ("0", "i > 1", "s = 0.5", "x * s", []),  # a Python condition
        ("0", "x.sum() > 10", "s = 0.5", "s", []),  # `return s`: MS112's
        ("0", "x.sum() > 10", "s = 0.5", "x, s", []),  # MS112's too
        ("0", "x.sum() > 10", "s = 0.5", "s + 1", []),
    ],
)
def test_a_loop_number_retyped_under_a_tensor_if(
    start: str, test: str, update: str, ret: str, want: list[tuple[int, str]]
) -> None:
    body = SCALE.format(start=start, test=test, update=update, ret=ret)
    assert codes(body) == [(9, code) for _, code in want]  # the Tensor `if`
    assert codes(body, "STRICT") == [(8, code) for _, code in want]  # the loop


@pytest.mark.parametrize(
    "body",
    [
        # both paths bind a float
        "s = 0\nfor i in range(3):\n    if x.sum() > 10:\n        s = 0.5\n    else:\n"
        "        s = 1.5\nreturn x * s",
        # bound afresh on each pass: one pass's join
        "for i in range(3):\n    s = 0\n    if x.sum() > 10:\n        s = 0.5\n    x = x + s\n"
        "return x",
        # the pass that retypes it leaves the loop
        "s = 0\nfor i in range(3):\n    if x.sum() > 10:\n        s = 0.5\n        break\n"
        "    x = x * 2\nreturn x * s",
        # no loop
        "s = 0\nif x.sum() > 10:\n    s = 0.5\nreturn x * s",
    ],
)
def test_number_joins_that_compile(body: str) -> None:
    assert codes(body) == []
