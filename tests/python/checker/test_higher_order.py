"""Higher-order Python in compiled code (round 34, `cases/round34/hf_*`): recursive lambdas
(MS1074), functions stored on `self` (MS1075), cache wrappers under STRICT (MS272), and the
widenings of MS135, MS170, MS176 and MS206; these pin the checker's edges."""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import functools\nimport numpy as np\nimport mindspore as ms\n"
    "from mindspore import Tensor, nn, ops\n\n\n"
)


def codes(src: str, level: str = "LAX") -> set[str]:
    found = check_source(HEAD + textwrap.dedent(src), "m.py", level=level)
    return {f.code for f in found if f.severity.name == "ERROR"}


def construct(body: str, extra: str = "", pre: str = "") -> str:
    return (
        textwrap.dedent(pre)
        + "\nclass Net(nn.Cell):\n"
        + textwrap.indent(textwrap.dedent(extra), "    ")
        + "\n    def construct(self, x):\n"
        + textwrap.indent(textwrap.dedent(body), " " * 8)
        + "\n"
    )


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("f = lambda n: 1 if n <= 1 else n * f(n - 1)\nreturn x * f(3)", True),
        ("f = lambda n: 1 if n <= 1 else n * f(n - 1)\nreturn x", True),
        ("g = lambda n: n * n\nf = lambda n: g(n) + 1\nreturn x * f(3)", False),
        ("f = lambda t: t * 2\nf = lambda t, g=f: g(t) + 1\nreturn f(x)", False),
        ("f = lambda f: f(1)\nreturn x * f(abs)", False),
    ],
)
def test_recursive_lambda(body: str, fires: bool) -> None:
    assert ("MS1074" in codes(construct(body))) is fires


@pytest.mark.parametrize(
    ("body", "extra", "fires"),
    [
        ("self.fn = ops.relu\nreturn self.fn(x)", "", True),
        ("self.fn = lambda t: t\nreturn self.fn(x)", "", True),
        ("self.fn = self.act\nreturn self.fn(x)", "def act(self, t):\n    return t\n", True),
        ("self.fn = ops.relu\nreturn x", "", False),
        ("self.k = 2\nreturn x * self.k", "", False),
        ("fn = ops.relu\nreturn fn(x)", "", False),
    ],
)
def test_function_stored_on_self(body: str, extra: str, fires: bool) -> None:
    src = construct(body, extra)
    assert ("MS1075" in codes(src)) is fires
    assert "MS1075" not in codes(src, "STRICT")  # STRICT fails on the store: MS245 / MS202


CACHED = "@functools.lru_cache(maxsize=None)\ndef helper(t):\n    return t * 2\n"


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("return helper(x)", True),
        ("return helper(x * 2)", True),
        ("return x * helper(x.shape[0])", False),
        ("return x * helper('ab')", False),
    ],
)
def test_cached_function_under_strict(body: str, fires: bool) -> None:
    src = construct(body, pre=CACHED)
    assert ("MS272" in codes(src, "STRICT")) is fires
    assert "MS272" not in codes(src, "LAX")


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("return x, ops.relu", True),
        ("return [x, ops.functional.relu]", True),
        ("return x, len", True),
        ("f = ops.relu\nreturn x, f", True),
        ("out = (x, lambda t: t)\nreturn out", True),
        ("return x, ops.Add()", True),
        ("return x, ms.float32", False),
        ("return x, ops.relu(x)", False),
        ("out = (x, x + 1)\nreturn out", False),
    ],
)
def test_return_function(body: str, fires: bool) -> None:
    assert ("MS135" in codes(construct(body))) is fires


CM = "@classmethod\ndef cm(cls, t):\n    return t\n@staticmethod\ndef sm(t):\n    return t\n"


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("f = self.cm\nreturn f(x)", True),
        ("return getattr(self, 'cm')(x)", True),
        ("f = Net.cm\nreturn f(x)", True),
        ("f = self.sm\nreturn f(x)", False),
        ("f = self.cm\nreturn x", False),
        ("return getattr(self, 'sm')(x)", False),
    ],
)
def test_classmethod_through_alias(body: str, fires: bool) -> None:
    assert ("MS176" in codes(construct(body, CM))) is fires


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        (
            "fs = []\nfor k in (1, 2):\n    def g(y, k=k):\n        return y * k\n"
            "    fs.append(g)\nreturn fs[1](x)",
            True,
        ),
        (
            "fs = []\nfor k in (1, 2):\n    def g(y, k=k):\n        return y * k\n"
            "    fs.append(g)\nout = x\nfor f in fs:\n    out = out + f(x)\nreturn out",
            True,
        ),
        (
            "out = x\nfor k in (1, 2):\n    def g(y, k=k):\n        return y * k\n"
            "    out = out + g(x)\nreturn out",
            True,
        ),
        (
            "fs = []\nfor k in (1, 2):\n    def g(y, k=k):\n        return y * k\n"
            "    fs.append(g)\nreturn fs[1](x, 5)",
            False,
        ),
        ("def g(y, k=2):\n    return y * k\nreturn g(x)", False),
    ],
)
def test_default_of_loop_variable(body: str, fires: bool) -> None:
    assert ("MS170" in codes(construct(body))) is fires


def test_function_returned_by_a_call_is_not_its_factory() -> None:
    """`twice(f)(x)` calls what `twice` returns: `x` is not `twice`'s `f` (false MS156)."""
    pre = "def twice(f):\n    return lambda t: f(f(t))\n"
    assert not codes(construct("return twice(lambda t: t + 1)(x)", pre=pre))


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        (
            "a = ops.ones((3,), ms.float32)\ns = sorted((a, a), key=lambda t: t.shape[0])\n"
            "return s[0]",
            False,
        ),
        ("a = ops.ones_like(x)\ns = sorted((a, a), key=lambda t: t.shape[0])\nreturn s[0]", False),
        (
            "a = ops.eye(2, 2, ms.float32)\ns = sorted((a, a), key=lambda t: t.shape[0])\n"
            "return s[0]",
            True,
        ),
        (
            "a = ops.ones((3,), ms.float32) + 1\ns = sorted((a, a), key=lambda t: t.shape[0])\n"
            "return s[0]",
            True,
        ),
        ("s = sorted((x, x), key=lambda t: t.shape[0])\nreturn s[0]", True),
        ("a = ops.ones((1,), ms.float32)\nreturn any(t.sum() > 0 for t in (a, a))", False),
        ("return any(t.sum() > 0 for t in (x, x))", True),
    ],
)
def test_folded_constants_under_strict(body: str, fires: bool) -> None:
    assert ("MS206" in codes(construct(body), "STRICT")) is fires


COUNTED = (
    "def counted(fn):\n    calls = 0\n{wraps}    def wrapper(*args):\n        nonlocal calls\n"
    "        calls += 1\n        return fn(*args)\n    return wrapper\n\n"
    "@counted\ndef helper(t):\n    return t * 2\n"
)


@pytest.mark.parametrize(
    ("wraps", "body", "fires"),
    [
        ("", "return helper(x)", True),
        ("    @functools.wraps(fn)\n", "return helper(x)", False),
        ("", "return x", False),
    ],
)
def test_nonlocal_in_a_decorators_wrapper(wraps: str, body: str, fires: bool) -> None:
    src = construct(body, pre=COUNTED.format(wraps=wraps))
    assert ("MS104" in codes(src)) is fires


LOOP = "out = x\nfor k in (1.0, 2.0):\n{inner}\nreturn out"


@pytest.mark.parametrize(
    ("inner", "code"),
    [
        ("    f = lambda t: t * k\n    out = out + f(x)", "MS388"),
        ("    out = out + (lambda t: t * k)(x)", "MS388"),
        ("    s = sorted((3, 1), key=lambda v: -v)\n    out = out + s[0]", "MS388"),
        ("    if k > 1.5:\n        f = lambda t: t * k\n        out = out + f(x)", "MS1077"),
        ("    def f(t):\n        return t * k\n    out = out + f(x)", None),
        ("    out = out + x * k", None),
    ],
)
def test_lambda_in_for_body(inner: str, code: str | None) -> None:
    found = {
        f.code
        for f in check_source(HEAD + construct(LOOP.format(inner=inner)), "m.py", level="LAX")
    }
    assert found & {"MS388", "MS1077"} == ({code} if code else set())


HELPER = (
    "def acc(self, x):\n    out = x\n    for k in (1.0, 2.0):\n"
    "        f = lambda t: t * 2\n        out = out + f(x)\n    return out\n"
)


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("return self.acc(x) * 1.0", True),
        ("y = self.acc(x)\nreturn y + 1", True),
        ("return self.acc(x)", False),
    ],
)
def test_helper_with_lambda_in_for_body(body: str, fires: bool) -> None:
    assert ("MS1076" in codes(construct(body, HELPER))) is fires


@pytest.mark.parametrize(
    ("partial", "fires"),
    [
        ("functools.partial(ops.mul, y=s)", True),
        ("functools.partial(ops.mul, s)", False),
        ("functools.partial(ops.mul, y=2.0)", False),
    ],
)
def test_partial_keyword_of_loop_variable(partial: str, fires: bool) -> None:
    body = f"out = x\nfor s in (1.0, 2.0):\n    f = {partial}\n    out = out + f(x)\nreturn out"
    found = check_source(HEAD + construct(body), "m.py", level="LAX")
    assert ("MS389" in {f.code for f in found}) is fires
