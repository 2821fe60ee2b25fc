"""Objects, attributes and mutation in compiled code (round 35, `round35/ob_*` corpus cases):
MS1048 (a Parameter attribute rebound to itself reshaped), MS1097 (a list attribute appended
to, then read past its `__init__` length), MS393 (a list/dict attribute popped, cleared or
updated, then read), MS399 (`setattr(self, name, tensor)` then read, LAX), MS226 (STRICT: an
appended list attribute compared with a Tensor), MS203 (STRICT: `self.vals.sort()`), MS233
(STRICT: a dataclass attribute written then read), MS317 (a property's attribute or a plain
class attribute changed between calls; a new `phase` recompiles).

Each expectation mirrors a program measured with MindSpore 2.10 on CPU; the quiet ones
compiled and agreed with PyNative.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = """import numpy as np
import mindspore as ms
from dataclasses import dataclass
from mindspore import Parameter, Tensor, nn, ops


@dataclass
class Pt:
    a: int = 1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((3,), np.float32)), name="w")
        self.q = Parameter(Tensor(np.ones((2, 3), np.float32)), name="q")
        self.buf = []
        self.one = [1]
        self.vals = [1, 2, 3]
        self.d = {"a": 1, "b": 2}
        self.s = Tensor(1.0, ms.float32)
        self.k = 2

    def construct(self, x):
"""
RUN = """

def run():
    return Net()(Tensor(np.ones((2, 3), np.float32)))
"""
FIRST = HEAD.count("\n") + 1  # the body's first line


def findings(body: str, level: str = "LAX") -> list[tuple[str, int]]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines()) + RUN
    return sorted((f.code, f.range.line) for f in check_source(source, "m.py", level=level))


def codes(body: str, level: str = "LAX") -> set[str]:
    return {code for code, _ in findings(body, level)}


@pytest.mark.parametrize(
    "body",
    [
        "self.w = self.w.reshape((1, 3))\nreturn x * self.w",
        "self.w = self.w.expand_dims(0)\nreturn x * self.w",
        "self.w = self.w[None]\nreturn x * self.w",
        "self.w = self.w.sum()\nreturn x * self.w",
        "self.q = self.q.T\nreturn x",
        "self.q = self.q.flatten()\nreturn x",
        "self.q = self.q.reshape(-1)\nreturn x",
        "self.w = ops.expand_dims(self.w, 0)\nreturn x * self.w",
        "w = self.w.reshape((1, 3))\nself.w = w\nreturn x * w",
    ],
)
def test_parameter_rebound_to_itself_reshaped(body: str) -> None:
    assert "MS1048" in codes(body)


@pytest.mark.parametrize(
    "body",
    [
        "self.w = self.w * 2\nreturn x * self.w",
        "self.q = self.q.reshape((2, 3))\nreturn x * self.q",
        "self.w = self.w.astype(ms.float16)\nreturn x",
        "w = self.w.reshape((1, 3))\nreturn x * w",
        "self.q = self.q.reshape(2, -1)\nreturn x",
    ],
)
def test_parameter_same_shape_is_quiet(body: str) -> None:
    assert "MS1048" not in codes(body)


def test_list_attribute_read_past_init() -> None:
    assert ("MS1097", FIRST + 1) in findings("self.buf.append(x)\nreturn self.buf[0] * 2")
    assert ("MS1097", FIRST + 1) in findings("self.buf.append(x)\nreturn self.buf[-1]")
    assert ("MS1097", FIRST + 1) in findings("self.one.append(2)\nreturn x * self.one[1]")
    found = findings("self.buf.append(x)\nself.buf.append(x)\nreturn ops.stack(self.buf)")
    assert ("MS1097", FIRST + 2) in found


@pytest.mark.parametrize(
    "body",
    [
        "self.one.append(2)\nreturn x * self.one[0]",  # an index the list had
        "buf = []\nbuf.append(x)\nreturn ops.stack(buf)",  # a local list
        "self.buf.extend([x])\nreturn self.buf[0]",  # extend: LAX compiles
        "y = self.vals[2]\nself.vals.append(4)\nreturn x * y",  # read before the append
    ],
)
def test_list_attribute_reads_that_compile(body: str) -> None:
    assert "MS1097" not in codes(body)


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("v = self.vals.pop()\nreturn x * v * len(self.vals)", 0),
        ("self.vals.pop(0)\nreturn x * self.vals[0]", 0),
        ("self.vals.clear()\nreturn x * (len(self.vals) + 1)", 0),
        ("self.d.clear()\nreturn x * len(self.d)", 0),
        ("self.d.update({'a': 4})\nreturn x * self.d['a']", 0),
    ],
)
def test_container_attribute_changed_then_read(body: str, line: int) -> None:
    for level in ("LAX", "STRICT"):
        assert ("MS393", FIRST + line) in findings(body, level)


@pytest.mark.parametrize(
    "body",
    [
        "v = self.vals.pop()\nreturn x * v",
        "self.vals.clear()\nreturn x * 2",
        "self.d.update({'a': 4})\nreturn x * self.d['b']",
        "vals = list(self.vals)\nvals.pop()\nreturn x * len(vals)",
        "self.vals.reverse()\nreturn x * self.vals[0]",
    ],
)
def test_container_attribute_changes_that_agree(body: str) -> None:
    assert "MS393" not in codes(body)


def test_sort_of_list_attribute() -> None:
    body = "self.vals.sort()\nreturn x * self.vals[0]"
    assert {"MS203", "MS393"} <= codes(body)
    strict = findings(body, "STRICT")
    assert ("MS203", FIRST) in strict and "MS393" not in {c for c, _ in strict}


def test_setattr_tensor_then_read() -> None:
    body = "setattr(self, 's', x.sum())\nreturn x * self.s"
    assert ("MS399", FIRST) in findings(body)
    assert "MS399" not in codes(body, "STRICT")  # MS225 fails it there
    assert ("MS399", FIRST) in findings("setattr(self, 's', self.s * 3)\nreturn x * self.s")


@pytest.mark.parametrize(
    "body",
    [
        "self.s = x.sum()\nreturn x * self.s",
        "setattr(self, 'k', 4)\nreturn x * self.k",
        "setattr(self, 's', x.sum())\nreturn x * 2",
        "setattr(self, 's', x.sum())\nreturn x * self.k",
    ],
)
def test_setattr_that_agrees(body: str) -> None:
    assert "MS399" not in codes(body)


def test_appended_list_attribute_compared_with_tensor_under_strict() -> None:
    body = "self.vals.append(4)\nreturn x == self.vals"
    assert ("MS226", FIRST + 1) in findings(body, "STRICT")
    assert "MS226" not in codes("return x == Tensor(self.vals)", "STRICT")


def test_dataclass_attribute_reread_under_strict() -> None:
    assert ("MS233", FIRST + 2) in findings("p = Pt()\np.a = 4\nreturn x * p.a", "STRICT")
    assert "MS233" not in codes("p = Pt(a=4)\nreturn x * p.a", "STRICT")


STALE = """import numpy as np
from mindspore import Tensor, nn


class Cfg:
    k = 2


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self._on = True

    @property
    def on(self):
        return self._on

    def construct(self, x):
        if self.on:
            return x * Cfg.k
        return x


def run():
    net = Net()
    x = Tensor(np.ones((2, 3), np.float32))
    a = net(x)
    {write}
    return a, net(x)
"""


@pytest.mark.parametrize(
    ("write", "stale"),
    [
        ("net._on = False", True),  # read through the property
        ("Cfg.k = 5", True),  # a plain class's attribute read by its name
        ('net.phase = "predict"', False),  # recompiles
        ("net.set_train(False)", False),
    ],
)
def test_stale_values_between_calls(write: str, stale: bool) -> None:
    found = check_source(STALE.format(write=write), "m.py", level="LAX")
    assert ("MS317" in {f.code for f in found}) is stale


HELD = """import numpy as np
from mindspore import Tensor, nn


class Cfg:
    def __init__(self):
        self.k = 1
        self.m = 3


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cfg = Cfg()

    def scale(self, x):
        return x * self.cfg.{read}

    def construct(self, x):
{body}


def run():
    return Net()(Tensor(np.ones((2, 3), np.float32)))
"""


@pytest.mark.parametrize(
    ("read", "body", "stale"),
    [
        ("k", "self.cfg.k = 4\nreturn self.scale(x)", True),
        ("k", "y = self.scale(x)\nself.cfg.k = 4\nreturn y", False),  # read before the write
        ("m", "self.cfg.k = 4\nreturn self.scale(x)", False),  # another attribute
        ("k", "self.cfg.k = 4\nreturn x * self.cfg.k", False),  # same function: agrees (LAX)
    ],
)
def test_plain_object_attribute_read_by_a_helper(read: str, body: str, stale: bool) -> None:
    lines = "".join(f"        {line}\n" for line in body.splitlines()).rstrip("\n")
    source = HELD.format(read=read, body=lines)
    for level in ("LAX", "STRICT"):
        found = {f.code for f in check_source(source, "m.py", level=level)}
        assert ("MS310" in found) is stale
