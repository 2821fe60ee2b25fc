"""Parameter state written in compiled code (round 32, `sd_` corpus cases): MS1045 / MS1048
(a Parameter attribute rebound to a wider dtype or another shape), MS366 (index forms whose
write into a Parameter is lost), MS367 (an `if` on a Python attribute written after it).

Each expectation mirrors a program measured with MindSpore 2.10 on CPU
(`tests/graphmode/cases/round32/sd_*.pycase`); the quiet ones compiled or agreed with PyNative.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = """import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.ones((3,), np.float32)), name="p")
        self.q = Parameter(Tensor(np.ones((2, 3), np.float32)), name="q")
        self.step = Parameter(Tensor(0, ms.int32), name="step", requires_grad=False)
        self.first = True
        self.count = 0
        self.fc = None

    def construct(self, x):
"""
RUN = """

def run():
    net = Net()
    x = Tensor(np.ones((3,), np.float32))
    return net(x), net(x)
"""


def codes(body: str, level: str = "LAX") -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines()) + RUN
    return sorted({f.code for f in check_source(source, "m.py", level=level)})


@pytest.mark.parametrize(
    "write",
    [
        "self.p[0:2] = 0.0",
        "self.p[:] = x",
        "self.p[...] = x",
        "self.p[None] = x",
        "self.p[True] = x",
        "self.p[x > 1.5] = 0.0",
        "self.p[1:] += 1.0",
        "self.q[0, :] = 0.0",
        "self.q[-1, 1:] = 0.0",
    ],
)
def test_lost_parameter_writes(write: str) -> None:
    assert "MS366" in codes(f"{write}\nreturn x + 1")


@pytest.mark.parametrize(
    "write",
    [
        "self.p[0] = 5.0",
        "self.p[-1] = 5.0",
        "self.p[[0, 2]] = 4.0",
        "self.q[:, 0] = 0.0",
        "self.q[:, 1:] = 0.0",
        "self.q[0:1, 0] = 0.0",
        "self.q[1, ...] = 0.0",
        "self.q[0, 1] = 0.0",
        "y = self.p * 1\ny[0:2] = 0.0",
        "self.p[self.p > 0] *= 2.0",  # fails to run instead (MS1010)
    ],
)
def test_kept_parameter_writes(write: str) -> None:
    assert "MS366" not in codes(f"{write}\nreturn x + 1")


@pytest.mark.parametrize(
    ("write", "code"),
    [
        ("self.step = self.step + 0.5", "MS1045"),
        ("self.step = self.step / 2", "MS1045"),
        ("self.step = self.step.astype(ms.float32)", "MS1045"),
        ("self.step = self.step + Tensor(1)", "MS1045"),
        ("self.p = self.p + Tensor(np.ones(3))", "MS1045"),
        ("self.p = x.sum()", "MS1048"),
        ("self.p = ops.zeros((2, 2), ms.float32)", "MS1048"),
        ("self.q = self.q + x.sum()", None),
        ("self.step = self.step + 1", None),
        ("self.step = self.step // 2", None),
        ("self.step += 0.5", None),
        ("self.p = x.astype(ms.int32)", None),
        ("self.p = x > 1.5", None),
        ("self.p = x * 2", None),
        ("self.p = self.p.astype(ms.float16)", None),
    ],
)
def test_parameter_rebinding(write: str, code: str | None) -> None:
    found = [c for c in codes(f"{write}\nreturn x + 1") if c in ("MS1045", "MS1048")]
    assert found == ([code] if code else [])


@pytest.mark.parametrize(
    ("body", "warned"),
    [
        ("if self.first:\n    self.first = False\n    return x * 0\nreturn x", True),
        ("if not self.first:\n    return x\nself.first = False\nreturn x * 2", True),
        ("if self.count == 0:\n    x = x * 2\nself.count += 1\nreturn x", True),
        ("self.count += 1\nif self.count > 1:\n    return x * 2\nreturn x", False),
        ("if self.first:\n    return x * 0\nreturn x", False),  # never written
        ("k = 0.0 if self.first else 1.0\nself.first = False\nreturn x * k", False),
        ("if self.fc is None:\n    self.fc = nn.Dense(3, 2)\nreturn x", False),  # a Cell
    ],
)
def test_branch_on_written_attribute(body: str, warned: bool) -> None:
    assert ("MS367" in codes(body)) is warned
    assert "MS367" not in codes(body, level="STRICT")  # STRICT refuses the write (MS202)


OTHERS = """import numpy as np
from mindspore import Tensor, nn


class State:
    def __init__(self):
        self.first = True


STATE = State()


class Net(nn.Cell):
    warm = True

    def __init__(self):
        super().__init__()
        self.state = State()

    def construct(self, x):
{body}
"""


@pytest.mark.parametrize(
    ("body", "warned"),
    [
        ("if Net.warm:\n    Net.warm = False\n    return x * 0\nreturn x", True),
        ("if STATE.first:\n    STATE.first = False\n    return x * 0\nreturn x", True),
        ("if self.state.first:\n    self.state.first = False\nreturn x", True),
        ("Net.warm = False\nif Net.warm:\n    return x * 0\nreturn x", False),
        ("if STATE.first:\n    STATE.first = x.sum() > 0\nreturn x", False),  # not a constant
        ("if STATE.first:\n    return x * 0\nreturn x", False),
    ],
)
def test_branch_on_other_attributes(body: str, warned: bool) -> None:
    source = OTHERS.format(body="".join(f"        {line}\n" for line in body.splitlines()))
    for level in ("LAX", "STRICT"):
        found = {f.code for f in check_source(source, "m.py", level=level)}
        assert ("MS367" in found) is warned


def test_class_constant_written_through_self_under_strict() -> None:
    source = OTHERS.format(body="        self.warm = False\n        return x\n")
    strict = {f.code for f in check_source(source, "m.py", level="STRICT")}
    assert "MS202" in strict
