"""Functions as values, closures and scopes (round 37, `gl_`): `eval` of a string naming the
function's names (MS1165), `locals()`/`vars()`/`globals()` in compiled code (MS1166, MS3055),
functions compared by `is`/`in` or used as dict keys (MS1167), dunder attributes of a nested
def (MS1168), `print` of a function (MS3056), and MS317 through sub-Cells and function
attributes. Each behaviour was compiled with MindSpore 2.10
(`tests/graphmode/cases/round37/gl_*`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n"
    "\nSCALE = 3\n\n\ndef helper(t):\n    return t\n"
    "\n\nclass Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.act = ops.relu\n\n    def construct(self, x):\n"
)
FIRST = 18  # the line of the body's first statement
CODES = ("MS1165", "MS1166", "MS1167", "MS1168", "MS1169", "MS3055", "MS3056")


def found(body: str, level: str = "LAX") -> list[tuple[int, str]]:
    lines = "".join(f"        {line}\n" for line in body.splitlines())
    return sorted(
        (f.line - FIRST + 1, f.code)
        for f in check_source(HEAD + lines, "m.py", level=level)
        if f.code in CODES
    )


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ('k = 2\nreturn x * eval("k + 1")', [(2, "MS1165")]),
        ('return eval("x * 2")', [(1, "MS1165")]),
        ('return x * eval("SCALE")', [(1, "MS1165")]),
        ('return x * eval("np.float32(2.0)")', [(1, "MS1165")]),
        ("def f(t):\n    m = 3\n    return t * eval('m')\nreturn f(x)", [(3, "MS1165")]),
    ],
)
def test_eval_of_a_name_fails(body: str, want: list[tuple[int, str]]) -> None:
    assert found(body) == want
    assert found(body, "STRICT") == want


@pytest.mark.parametrize(
    "body",
    [
        'return x * eval("1 + 2")',
        'return x * eval("max(2, 3)")',
        'return x * eval("self.k")',
        'k = 2\nreturn x * eval("k + 1", {"k": k})',
        's = "1 + 1"\nreturn x * eval(s)',
        'return x * eval("sum([i for i in range(4)])")',
        'return x * eval("(lambda a: a * 2)(3)")',
    ],
)
def test_eval_without_names_is_clean(body: str) -> None:
    assert found(body) == []


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ('y = x + 1\nreturn locals()["y"]', [(2, "MS1166")]),
        ('y = x + 1\nreturn vars()["y"]', [(2, "MS1166")]),
        ('return x * globals()["SCALE"]', [(1, "MS1166")]),
        ('y = x + 1\nd = locals()\nreturn d["y"]', [(3, "MS1166")]),
        ('y = x + 1\nreturn locals().get("y", x)', [(2, "MS3055")]),
        ('y = x + 1\nif "y" in locals():\n    return y\nreturn x', [(2, "MS3055")]),
        ("return x * len(locals())", [(1, "MS3055")]),
        ('return x * globals().get("SCALE", 1)', [(1, "MS3055")]),
    ],
)
def test_scope_dicts(body: str, want: list[tuple[int, str]]) -> None:
    assert found(body) == want


@pytest.mark.parametrize(
    "body",
    [
        'if "MISSING" not in globals():\n    return x\nreturn x + 1',
        'return x * globals().get("NOPE", 2)',
        'if "__builtins__" in globals():\n    return x\nreturn x + 1',
        'return x * globals()["globals"](), x',
        "d = locals()\nreturn x",
    ],
)
def test_scope_dict_look_alikes_are_clean(body: str) -> None:
    assert [f for f in found(body) if f[1] != "MS3055" or "MISSING" in body] == []


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("if self.act is ops.relu:\n    return x\nreturn x + 1", [(1, "MS1167")]),
        ("if self.act is not helper:\n    return x\nreturn x + 1", [(1, "MS1167")]),
        ("def g(t):\n    return t\nf = g\nif f is g:\n    return x\nreturn x", [(4, "MS1167")]),
        ("f = lambda t: t\ng = f\nif g is f:\n    return x\nreturn x", [(3, "MS1167")]),
        ("if self.act in (ops.relu, ops.tanh):\n    return x\nreturn x", [(1, "MS1167")]),
        ("d = {ops.relu: 1}\nreturn x * d[ops.relu]", [(1, "MS1167")]),
        ("print(ops.relu)\nreturn x", [(1, "MS3056")]),
        ("print(helper)\nreturn x", [(1, "MS3056")]),
        ("def g(t):\n    return t\nif g.__name__ == 'g':\n    return x\nreturn x", [(3, "MS1168")]),
        ("def g(t):\n    return t\ns = str(g)\nreturn x", [(3, "MS1168")]),
    ],
)
def test_function_values(body: str, want: list[tuple[int, str]]) -> None:
    assert found(body) == want


@pytest.mark.parametrize(
    "body",
    [
        "if self.act == ops.relu:\n    return x\nreturn x + 1",
        "if self.act is None:\n    return x\nreturn self.act(x)",
        "if self.act is ops.ReLU:\n    return x\nreturn x",
        "d = {'relu': ops.relu}\nreturn d['relu'](x)",
        "if 'relu' in ('relu', 'tanh'):\n    return x\nreturn x",
        "print('relu')\nreturn x",
        "if helper.__name__ == 'helper':\n    return x\nreturn x",
        "f = lambda t: t\nif f.__name__ == '<lambda>':\n    return x\nreturn x",
    ],
)
def test_function_look_alikes_are_clean(body: str) -> None:
    assert found(body) == []


STALE = """import numpy as np
from mindspore import Tensor, nn, ops

SCALE = 3


class Sub(nn.Cell):
    def construct(self, a):
        return a * SCALE


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.act = ops.relu

    def construct(self, x):
        return self.act(self.sub(x))


def setg(v):
    global SCALE
    SCALE = v


def run():
    x = Tensor(np.ones(3, np.float32))
    net = Net()
    a = net(x)
    {change}
    return a, net(x)
"""


@pytest.mark.parametrize(
    ("change", "stale"),
    [("setg(5)", True), ("net.act = ops.tanh", True), ("net = Net()", False)],
)
def test_stale_through_sub_cells_and_function_attributes(change: str, stale: bool) -> None:
    source = STALE.replace("{change}", change)
    lines = [f.line for f in check_source(source, "m.py") if f.code == "MS317"]
    assert lines == ([31] if stale else [])


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("f = self.helper\nif f is self.helper:\n    return x\nreturn x", [(2, "MS1167")]),
        ('globals()["K"] = 5\nreturn x', [(1, "MS3055")]),
        ('print(f"{ops.relu}")\nreturn x', [(1, "MS3056")]),
        ("a = x\nreturn two(**locals())", [(2, "MS1166")]),
        ("a = x\nreturn kw(**locals())", [(2, "MS3055")]),
        ("def f():\n    return 'k' in locals()\nk = 2\nreturn x", []),
    ],
)
def test_function_values_widened(body: str, want: list[tuple[int, str]]) -> None:
    source = HEAD.replace(
        "    def construct",
        "    def helper(self, t):\n        return t\n\n    def construct",
    ) + "".join(f"        {line}\n" for line in body.splitlines())
    source += "\n\ndef two(a, b):\n    return a\n\n\ndef kw(**k):\n    return 1\n"
    got = sorted(
        (f.line - FIRST - 2, f.code) for f in check_source(source, "m.py") if f.code in CODES
    )
    assert got == want


def test_is_of_a_parameter_given_a_function_is_clean() -> None:
    source = HEAD + "        return apply(ops.relu, x)\n\n\ndef apply(fn, t):\n"
    source += "    if fn is ops.relu:\n        return fn(t)\n    return t\n"
    assert [f.code for f in check_source(source, "m.py") if f.code in CODES] == []


def test_str_of_a_module_function_fails_only_strict() -> None:
    source = HEAD + "        s = str(helper)\n        return x\n"
    strict = [(f.line, f.code) for f in check_source(source, "m.py", level="STRICT")]
    assert strict == [(FIRST, "MS2055")]
    lax = [f for f in check_source(source, "m.py", level="LAX") if f.severity.name == "ERROR"]
    assert lax == []


LOOP = """import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        for i in range(3):
            def f(t):
                return t + i
        {after}
"""


@pytest.mark.parametrize(("after", "want"), [("return f(x)", [(10, "MS165")]), ("return x", [])])
def test_def_in_a_loop_body_read_after_it(after: str, want: list[tuple[int, str]]) -> None:
    source = LOOP.replace("{after}", after)
    assert [(f.line, f.code) for f in check_source(source, "m.py") if f.code == "MS165"] == want


FOLDED = """import numpy as np
from mindspore import Tensor, nn


def f(a):
    return a * 2


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = {flag}

    def construct(self, x):
        if self.flag:
            return f(x, x)
        return f(x)
"""


@pytest.mark.parametrize(("flag", "want"), [("False", []), ("True", [16])])
def test_wrong_arity_in_a_folded_branch(flag: str, want: list[int]) -> None:
    source = FOLDED.replace("{flag}", flag)
    assert [f.line for f in check_source(source, "m.py") if f.code == "MS157"] == want


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("return tuple(map(lambda a, b: a + b, (x, x, x), (x, x)))", [(1, "MS1169")]),
        ("ys = list(map(lambda a, b: a * b, [x, x], [1]))\nreturn ys[0]", [(1, "MS1169")]),
        ("a = (x, x)\nb = (1,)\nreturn tuple(map(lambda t, k: t * k, a, b))", [(3, "MS1169")]),
        ("return tuple(map(lambda a, b: a + b, (x, x), (x, x)))", []),
        (
            "import functools\np = functools.partial(helper, 2)\nreturn x * p.args[0]",
            [(3, "MS1168")],
        ),
        ("import functools\np = functools.partial(helper, 2)\nreturn p(x)", []),
        (
            "f = lambda t: t\nif type(f).__name__ == 'function':\n    return x\nreturn x",
            [(2, "MS1168")],
        ),
        ("if type(helper).__name__ == 'function':\n    return x\nreturn x", []),
    ],
)
def test_map_lengths_partials_and_types(body: str, want: list[tuple[int, str]]) -> None:
    assert found(body) == want


@pytest.mark.parametrize(
    ("body", "want"),
    [("s = str(ops.relu)\nreturn x", [(1, "MS2055")]), ("s = repr(helper)\nreturn x", [])],
)
def test_function_text_under_strict(body: str, want: list[tuple[int, str]]) -> None:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    got = [(f.line - FIRST + 1, f.code) for f in check_source(source, "m.py", level="STRICT")]
    assert got == want
