"""Forbidden APIs (MS130), writes to objects (MS131-MS134, MS210-MS211) and what a graph
returns (MS135, MS212), judged by the receiver's kind.

Each `_bad` variant here mirrors a program compiled with MindSpore 2.10
(`tests/graphmode/cases/{rules,mutation,returns}/`); the `_ok` ones pin what must stay quiet:
a same-named method of a plain object, the user's own method, a property, a helper returning a
function to its caller, an `@jit` function returning an object.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import Severity, check_source
from mindscope_ls.checker.facts import FACTS

HEAD = """import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


def helper(a):
    return a


class Plain:
    def __init__(self):
        self.value = 1

    def set_data(self, v):
        return v

    def get_parameters(self):
        return 2


@ms.jit_class
class Config:
    def __init__(self):
        self.scale = 2


OBJ = Plain()
ACT = nn.ReLU()


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")
        self.act = nn.ReLU()
        self.layers = nn.CellList([nn.ReLU()])
        self.plain = Plain()
        self.cfg = Config()
        self.cache = {"a": 1}
        self.sizes = [1, 2]

    @property
    def double(self):
        return 2

    def trainable_params(self, recurse=True):
        return 1

    def construct(self, x):
"""


def errors(body: str, level: str = "LAX") -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    found = check_source(source, "m.py", level=level)
    return [f.code for f in found if f.severity is Severity.ERROR]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("self.w.set_data(x)\nreturn x", "MS130"),
        ("ps = self.get_parameters()\nreturn x", "MS130"),
        ("self.act.register_forward_hook(helper)\nreturn x", "MS130"),
        ("ms.set_context(mode=ms.GRAPH_MODE)\nreturn x", "MS130"),
        ("m = ms.get_context('mode')\nreturn x", "MS130"),
        ("self.layers[0].flag = 2\nreturn x", "MS131"),
        ("self.act.flag = 2\nreturn x", "MS132"),
        ("self.w.requires_grad = False\nreturn x", "MS133"),
        ("self.w = None\nreturn x", "MS134"),
        ("return x, helper", "MS135"),
        ("return lambda a: a", "MS135"),
        ("return self.act", "MS135"),
        ("return ACT", "MS135"),
        ("return self.construct", "MS135"),
        ("def inner(v):\n    return v\nreturn inner", "MS135"),
    ],
)
def test_fails_at_every_level(body: str, code: str) -> None:
    assert code in errors(body, "LAX")
    assert code in errors(body, "STRICT")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("self.cfg.scale = 3\nreturn x", "MS210"),
        ("self.cache['a'] = 2\nreturn x", "MS211"),
        ("self.sizes[0] = 3\nreturn x", "MS211"),
        ("return Plain()", "MS212"),
        ("return self.cfg", "MS212"),
        ("return OBJ", "MS212"),
        ("return np.zeros(3)", "MS212"),
        ("return slice(1, 2)", "MS212"),
    ],
)
def test_fails_only_under_strict(body: str, code: str) -> None:
    assert errors(body, "LAX") == []
    assert code in errors(body, "STRICT")


@pytest.mark.parametrize(
    "body",
    [
        "v = self.plain.set_data(2)\nreturn x * v",  # a plain object's own method
        "v = OBJ.get_parameters()\nreturn x * v",
        "n = self.trainable_params()\nreturn x * n",  # the Cell's own override
        "ops.assign(self.w, x * 2)\nreturn x",
        "self.w = x * 2\nreturn x",
        "self.w = x.astype(ms.float16)\nreturn x",  # another dtype compiles
        "return x * self.double",  # a property, not a method
        "f = helper\nreturn f(x)",
        "return x, np.float32(1)",  # a NumPy scalar, not an array
    ],
)
def test_quiet(body: str) -> None:
    assert errors(body, "LAX") == []
    assert errors(body, "STRICT") == []


def test_a_helper_may_return_a_function_and_jit_may_return_an_object() -> None:
    source = (
        "import mindspore as ms\n\n\nclass Plain:\n    pass\n\n\ndef double(a):\n    return a\n\n\n"
        "def choose(x):\n    return double\n\n\n@ms.jit\ndef apply(x):\n    f = choose(x)\n"
        "    return f(x), Plain()\n"
    )
    for level in ("LAX", "STRICT"):
        assert [f.code for f in check_source(source, "m.py", level=level)] == []


def test_with_on_a_module_level_plain_instance() -> None:
    assert "MS116" in errors("with OBJ:\n    y = x\nreturn y")


def test_facts_follow_public_names_to_forbidden_apis() -> None:
    assert FACTS.forbidden_function("mindspore.set_context") == "mindspore.context.set_context"
    assert FACTS.forbidden_function("mindspore.common.initializer.Normal") is not None
    assert FACTS.forbidden_function("mindspore.ops.add") is None
    assert FACTS.forbidden_function("mindspore.set_seed") is None


def test_a_forbidden_method_of_a_module_level_cell() -> None:
    assert "MS130" in errors("ACT.register_forward_hook(helper)\nreturn ACT(x)")
    assert "MS130" not in errors("OBJ.get_parameters()\nreturn x")  # a plain class's own


def test_returning_the_type_of_a_constant_fails_under_strict() -> None:
    assert "MS212" in errors("return x, type(1.0)", "STRICT")
    assert "MS212" in errors("k = type((1, 2))\nreturn x, k", "STRICT")
    assert "MS212" not in errors("return x, type(1.0)")
    assert "MS212" not in errors("k = type(x)\nreturn x, k", "STRICT")  # MS204's
