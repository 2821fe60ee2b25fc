"""Functions held as values in compiled code (MS1042, MS1043, MS353, MS354; MS121/MS171/MS207
widened). The verified programs are `tests/graphmode/cases/round30/ca_*` and
`cases/rules/MS1042_*`, `MS1043_*`, `MS353_*`, `MS354_*`; these pin the checker's edges."""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import functools\nimport numpy as np\nimport mindspore as ms\n"
    "from mindspore import Tensor, nn, ops\nfrom mindspore.ops import constexpr\n\n\n"
)


def codes(src: str, level: str = "LAX") -> set[str]:
    return {f.code for f in check_source(HEAD + textwrap.dedent(src), "m.py", level=level)}


def cell(init: str, construct: str) -> str:
    return (
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        + textwrap.indent(textwrap.dedent(init), " " * 8)
        + "\n    def construct(self, x):\n"
        + textwrap.indent(textwrap.dedent(construct), " " * 8)
        + "\n"
    )


@pytest.mark.parametrize(
    ("init", "construct", "fires"),
    [
        ("self.fs = {'a': lambda t: t * 2}", "return self.fs['a'](x)", True),
        ("self.fs = [lambda t: t * 2]", "for f in self.fs:\n    x = f(x)\nreturn x", True),
        ("self.f = None or (lambda t: t)", "return self.f(x)", True),
        ("self.f = {'a': lambda t: t, 'b': None}['a']", "return self.f(x)", True),
        ("setattr(self, 'f', lambda t: t * 2)", "return self.f(x)", True),
        # the lambda is the statement's value: compiled
        ("self.f = lambda t: t * 2", "return self.f(x)", False),
        ("self.f = (lambda t: t * 2)", "return self.f(x)", False),
        ("a = lambda t: t * 2\nself.fs = {'a': a}", "return self.fs['a'](x)", False),
        # inside a call, or never called from compiled code
        ("self.f = functools.partial(lambda t, s: t * s, s=2)", "return self.f(x)", False),
        ("self.fs = [lambda t: t * 2]\nself.n = len(self.fs)", "return x * self.n", False),
        ("self.o = sorted([3, 1], key=lambda v: -v)", "return x * self.o[0]", False),
    ],
)
def test_lambda_not_alone(init: str, construct: str, fires: bool) -> None:
    assert ("MS1042" in codes(cell(init, construct))) is fires


def test_lambda_constructor_argument_on_its_own_line_compiles() -> None:
    src = cell("pass", "return x")
    ctor = (
        "class Net(nn.Cell):\n    def __init__(self, fn):\n        super().__init__()\n"
        "        self.fn = fn\n\n    def construct(self, x):\n        return self.fn(x)\n\n\n"
    )
    same_line = ctor + "def run(x):\n    return Net(lambda t: t * 2)(x)\n"
    own_line = (
        ctor + "def run(x):\n    net = Net(\n        lambda t: t * 2\n    )\n    return net(x)\n"
    )
    assert "MS1042" in codes(same_line)
    assert "MS1042" not in codes(own_line)
    assert "MS1042" not in codes(src)


@pytest.mark.parametrize(
    ("construct", "fires"),
    [
        ("f = lambda t: t + 1\nreturn f(x) if callable(f) else x", True),
        ("def f(t):\n    return t\nreturn f(x) if callable(f) else x", True),
        ("f = ops.relu\nreturn f(x) if callable(f) else x", True),
        ("f = self.act\nreturn f(x) if callable(f) else x", True),
        ("return self.act(x) if callable(self.act) else x", False),
        ("n = 3\nreturn x if callable(n) else x * n", False),
        ("return x if callable(x) else x * 2", False),
    ],
)
def test_callable_of_local(construct: str, fires: bool) -> None:
    src = cell("self.act = nn.ReLU()", construct)
    assert ("MS1043" in codes(src)) is fires


DECO = "def tripled(fn):\n    def w(t):\n        return fn(t) * 3\n    return w\n\n\n"


@pytest.mark.parametrize(
    ("construct", "fires"),
    [
        ("@tripled\ndef g(t):\n    return t + 1\nreturn g(x)", True),
        ("@tripled\ndef g(t):\n    return t + 1\nreturn x", False),  # never called
        ("def g(t):\n    return t + 1\nh = tripled(g)\nreturn h(x)", False),
        ("@functools.lru_cache\ndef g(t):\n    return t + 1\nreturn g(x)", False),
    ],
)
def test_nested_decorator_ignored(construct: str, fires: bool) -> None:
    src = DECO + cell("pass", construct)
    assert ("MS353" in codes(src)) is fires


def test_nested_decorator_under_jit_is_left_alone() -> None:
    body = "    @tripled\n    def g(t):\n        return t + 1\n    return g(x)\n"
    src = DECO + "@ms.jit\ndef f(x):\n" + body
    assert "MS353" not in codes(src)


@pytest.mark.parametrize(
    ("construct", "fires"),
    [
        ("return twice(x)", True),
        ("return x + twice(x + 1)", True),
        ("return x * twice(x.shape[0])", False),
        ("return x + twice(self.w)", False),
    ],
)
def test_constexpr_of_tensor_input(construct: str, fires: bool) -> None:
    src = "@constexpr\ndef twice(v):\n    return v * 2\n\n\n" + cell(
        "self.w = Tensor(np.ones((2, 3), np.float32))", construct
    )
    assert ("MS354" in codes(src)) is fires


def test_kwargs_pop() -> None:
    helper = (
        "class Net(nn.Cell):\n    def helper(self, x, **kw):\n        s = kw.pop('s', 1)\n"
        "        return x * s\n\n    def construct(self, x):\n        return self.helper(x, s={})\n"
    )
    assert "MS121" in codes(helper.format("2"))
    assert "MS121" not in codes(helper.format("x"))  # a popped Tensor compiles at LAX
    assert "MS121" in codes(helper.format("x"), "STRICT")  # STRICT's dict has no pop


def test_partial_attribute_under_strict() -> None:
    src = cell("self.f = functools.partial(ops.mul, 2)", "return self.f(x)")
    assert "MS207" in codes(src, "STRICT")
    assert "MS207" not in codes(src, "LAX")
    local = cell("pass", "f = functools.partial(ops.mul, 2)\nreturn f(x)")
    assert "MS207" not in codes(local, "STRICT")


def test_int_base_keyword() -> None:
    assert "MS171" in codes(cell("pass", "return x * int('11', base=2)"))
    assert "MS171" not in codes(cell("pass", "return x * int('11', 2)"))
