"""Type introspection and decorated members in compiled code (round 32: MS1051, MS234, MS369;
MS204 and MS208 widened). The verified programs are `tests/graphmode/cases/round32/tp_*` and
`cases/rules/MS1051_*`, `MS234_*`, `MS369_*`; these pin the checker's edges."""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import functools\nimport numpy as np\nimport mindspore as ms\n"
    "from mindspore import Tensor, nn, ops, Parameter\n\n\n"
    "def helper(a):\n    return a\n\n\n"
)


def codes(src: str, level: str = "LAX") -> set[str]:
    return {f.code for f in check_source(HEAD + textwrap.dedent(src), "m.py", level=level)}


def cell(construct: str, init: str = "pass", extra: str = "", pre: str = "") -> str:
    return (
        textwrap.dedent(pre)
        + "\nclass Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        + textwrap.indent(textwrap.dedent(init), " " * 8)
        + "\n"
        + textwrap.indent(textwrap.dedent(extra), " " * 4)
        + "\n    def construct(self, x):\n"
        + textwrap.indent(textwrap.dedent(construct), " " * 8)
        + "\n"
    )


def deco(params: str, call: str, wraps: bool = False) -> str:
    marker = "    @functools.wraps(fn)\n" if wraps else ""
    return (
        f"def deco(fn):\n{marker}    def wrapper({params}):\n        return fn({call})\n"
        "    return wrapper\n"
    )


METHOD = "@deco\ndef head(self, a):\n    return a * 2\n"


@pytest.mark.parametrize(
    ("pre", "fires"),
    [
        (deco("*args", "*args"), True),
        (deco("*args, **kwargs", "*args, **kwargs"), True),
        (deco("obj, *args", "obj, *args"), True),
        (deco("self_, *args", "self_, *args"), True),
        # the first parameter is `self`, or graph mode unwraps the wrapper
        (deco("self, *args", "self, *args"), False),
        (deco("self, a", "self, a"), False),
        (deco("*args", "*args", wraps=True), False),
    ],
)
def test_method_wrapper_without_self(pre: str, fires: bool) -> None:
    src = cell("return self.head(x)", extra=METHOD, pre=pre)
    assert ("MS1051" in codes(src)) is fires


def test_method_wrapper_left_alone_on_static_and_module_functions() -> None:
    pre = deco("*args", "*args")
    static = "@staticmethod\n@deco\ndef head(a):\n    return a * 2\n"
    assert "MS1051" not in codes(cell("return self.head(x)", extra=static, pre=pre))
    module = pre + "\n@deco\ndef twice(a):\n    return a * 2\n"
    assert "MS1051" not in codes(cell("return twice(x)", pre=module))
    # the instance passed explicitly through the class
    assert "MS1051" not in codes(cell("return Net.head(self, x)", extra=METHOD, pre=pre))


@pytest.mark.parametrize(
    ("init", "construct", "extra", "fires"),
    [
        ("self.act = ops.relu", "n = self.act.__name__\nreturn x * len(n)", "", True),
        ("pass", "if ops.relu.__name__ == 'relu':\n    return x\nreturn x", "", True),
        ("pass", "n = helper.__name__\nprint(n)\nreturn x", "", True),
        (
            "pass",
            "if self.m.__qualname__ == 'Net.m':\n    return x\nreturn x",
            "def m(self):\n    return 1\n",
            True,
        ),
        ("pass", "f = lambda a: a\nif f.__name__ == 'f':\n    return x\nreturn x", "", True),
        # an `if` test of a module function that reads no local: folded by the parser
        ("pass", "if helper.__name__ == 'helper':\n    return x\nreturn x", "", False),
        ("pass", "if helper.__name__ == 'h' and x.shape[0] > 1:\n    return x\nreturn x", "", True),
        # the value is never used: dropped
        ("pass", "d = helper.__doc__\nreturn x", "", False),
        # classes and names taken in __init__
        ("self.n = helper.__name__", "if self.n == 'helper':\n    return x\nreturn x", "", False),
        ("pass", "if type(self).__name__ == 'Net':\n    return x\nreturn x", "", False),
        ("self.d = nn.ReLU()", "n = self.d.__class__.__name__\nprint(n)\nreturn x", "", False),
    ],
)
def test_function_attribute_under_strict(
    init: str, construct: str, extra: str, fires: bool
) -> None:
    src = cell(construct, init=init, extra=extra)
    assert ("MS234" in codes(src, "STRICT")) is fires


@pytest.mark.parametrize(
    ("construct", "fires"),
    [
        ("if type(x.shape) is tuple:\n    return x\nreturn x", True),
        ("if type(x.shape[0] + 1) is int:\n    return x\nreturn x", True),
        ("if type(len(x)) is int:\n    return x\nreturn x", True),
        ("if type(self.w.dtype) is int:\n    return x\nreturn x", True),
        # a constant local, a Tensor set in __init__, isinstance
        ("s = x.shape[0]\nif type(s) is int:\n    return x\nreturn x", False),
        ("if type(self.t.shape) is tuple:\n    return x\nreturn x", False),
        ("if isinstance(x.shape, tuple):\n    return x\nreturn x", False),
    ],
)
def test_type_of_expression_reading_a_tensor(construct: str, fires: bool) -> None:
    init = (
        "self.w = Parameter(Tensor(np.ones((3,)), ms.float32), name='w')\n"
        "self.t = Tensor(np.ones((3,)), ms.float32)"
    )
    assert ("MS204" in codes(cell(construct, init=init), "STRICT")) is fires


PROP = """
@property
def scale(self):
    return self._s

@scale.setter
def scale(self, v):
    self._s = v
"""


@pytest.mark.parametrize(
    ("construct", "lax", "strict"),
    [
        ("self.scale = 3.0\nreturn x * self._s", {"MS369"}, {"MS208"}),
        ("self.scale += 1.0\nreturn x * self.scale", {"MS369"}, {"MS208"}),
        ("self.scale = 3.0\nreturn self.use(x)", {"MS369"}, {"MS208"}),
        # nothing reads it afterwards, or the value is the one __init__ set
        ("self.scale = 3.0\nreturn x", set(), {"MS208"}),
        ("y = x * self._s\nself.scale = 3.0\nreturn y", set(), {"MS208"}),
        ("self.scale = 2.0\nreturn x * self._s", set(), {"MS208"}),
    ],
)
def test_property_setter(construct: str, lax: set[str], strict: set[str]) -> None:
    use = "\ndef use(self, a):\n    return a * self._s\n"
    src = cell(construct, init="self._s = 2.0", extra=PROP + use)
    assert codes(src) & {"MS369"} == lax
    assert codes(src, "STRICT") & {"MS208", "MS369"} == strict


def test_property_setter_over_a_tensor_attribute_fails_under_strict() -> None:
    init = "self._s = Tensor(np.zeros((3,)), ms.float32)"
    src = cell("self.scale = x\nreturn self._s", init=init, extra=PROP)
    assert "MS208" in codes(src, "STRICT")


@pytest.mark.parametrize(
    ("init", "construct", "fires"),
    [
        (
            "self.op = ops.Add()",
            "if self.op.name == 'Add':\n    return self.op(x, x)\nreturn x",
            True,
        ),
        ("self.op = ops.MatMul(transpose_b=True)", "t = self.op.transpose_b\nreturn x * t", True),
        ("pass", "op = ops.Mul()\nif op.name == 'Mul':\n    return op(x, 2.0)\nreturn x", True),
        # calling it, its type, a Cell, the name taken in __init__
        ("self.op = ops.ReLU()", "return self.op(x)", False),
        ("self.op = ops.ReLU()", "n = type(self.op).__name__\nprint(n)\nreturn x", False),
        ("self.op = nn.ReLU()", "n = self.op.cls_name\nprint(n)\nreturn x", False),
        ("self.op = ops.Add()\nself.n = self.op.name", "print(self.n)\nreturn x", False),
        ("self.g = ops.GradOperation()", "n = self.g.get_all\nprint(n)\nreturn x", False),
    ],
)
def test_primitive_attribute(init: str, construct: str, fires: bool) -> None:
    src = cell(construct, init=init)
    assert ("MS1052" in codes(src)) is fires
    assert ("MS1052" in codes(src, "STRICT")) is fires


@pytest.mark.parametrize(
    ("construct", "fires"),
    [
        ("d = helper.__defaults__\nreturn x * d[0]", True),
        ("n = helper.__code__.co_argcount\nreturn x * n", True),
        ("n = self.construct.__name__\nprint(n)\nreturn x", True),
        ("n = self.d.construct.__qualname__\nprint(n)\nreturn x", True),
        ("d = self.__dict__\nprint(d)\nreturn x", False),
    ],
)
def test_function_attribute_widened(construct: str, fires: bool) -> None:
    src = cell(construct, init="self.d = nn.Dense(3, 3)")
    assert ("MS234" in codes(src, "STRICT")) is fires


@pytest.mark.parametrize(
    ("init", "construct", "fires"),
    [
        ("self.op = ops.Add()", "if hasattr(self.op, 'name'):\n    return x\nreturn x", True),
        (
            "self.op = ops.Softmax(axis=-1)",
            "a = getattr(self.op, 'axis', None)\nprint(a)\nreturn x",
            True,
        ),
        # an attribute PyNative lacks too, a positional argument, a Cell, the 2-argument getattr
        ("self.op = ops.Add()", "if hasattr(self.op, 'foo'):\n    return x\nreturn x", False),
        (
            "self.op = ops.Softmax(-1)",
            "if hasattr(self.op, 'axis'):\n    return x\nreturn x",
            False,
        ),
        (
            "self.op = nn.Dense(3, 3)",
            "if hasattr(self.op, 'weight'):\n    return x\nreturn x",
            False,
        ),
        ("self.op = ops.Add()", "n = getattr(self.op, 'name')\nprint(n)\nreturn x", False),
    ],
)
def test_primitive_attribute_probe(init: str, construct: str, fires: bool) -> None:
    assert ("MS370" in codes(cell(construct, init=init))) is fires


def test_primitive_attribute_in_property_getter_compiles() -> None:
    extra = "@property\ndef tb(self):\n    return self.op.transpose_b\n"
    src = cell(
        "if self.tb:\n    return x\nreturn x",
        init="self.op = ops.MatMul(transpose_b=True)",
        extra=extra,
    )
    assert "MS1052" not in codes(src)
    assert "MS1052" in codes(
        cell(
            "t = getattr(self.op, 'transpose_b')\nreturn x * t",
            init="self.op = ops.MatMul(transpose_b=True)",
        )
    )


def test_function_attribute_through_alias_and_loop() -> None:
    extra = "def m(self, a):\n    return a\n"
    alias = "fn = self.m\nn = fn.__name__\nprint(n)\nreturn x"
    assert "MS234" in codes(cell(alias, extra=extra), "STRICT")
    loop = (
        "for fn in (ops.relu, ops.sigmoid):\n    if fn.__name__ == 'relu':\n"
        "        x = fn(x)\nreturn x"
    )
    assert "MS234" in codes(cell(loop), "STRICT")
    # a loop over something else stays quiet
    other = "for fn in self.fs:\n    if fn.__name__ == 'relu':\n        x = fn(x)\nreturn x"
    assert "MS234" not in codes(cell(other, init="self.fs = [nn.ReLU()]"), "STRICT")


def test_method_wrapper_lambda() -> None:
    pre = "def deco(fn):\n    return lambda *args: fn(*args)\n"
    assert "MS1051" in codes(cell("return self.head(x)", extra=METHOD, pre=pre))
    pre = "def deco(fn):\n    return lambda self, *args: fn(self, *args)\n"
    assert "MS1051" not in codes(cell("return self.head(x)", extra=METHOD, pre=pre))


def test_primitive_attribute_of_a_user_primitive() -> None:
    pre = (
        "from mindspore.ops import PrimitiveWithInfer\n\n"
        "class MyOp(PrimitiveWithInfer):\n    def __init__(self):\n        self.k = 2\n\n"
        "class Plain:\n    def __init__(self):\n        self.k = 2\n"
    )
    src = cell("if self.op.k == 2:\n    return x\nreturn x", init="self.op = MyOp()", pre=pre)
    assert "MS1052" in codes(src)
    src = cell("if self.op.k == 2:\n    return x\nreturn x", init="self.op = Plain()", pre=pre)
    assert "MS1052" not in codes(src)
