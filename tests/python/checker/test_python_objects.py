"""Python objects in compiled code (round31): `super()` resolution, Enum members and classes,
namedtuples, classmethods through other classes, object operators and method writes."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import check_source

HEAD = "import enum\nfrom collections import namedtuple\nfrom mindspore import nn\n"


def codes(source: str, level: str = "LAX") -> list[str]:
    found = check_source(HEAD + textwrap.dedent(source), "m.py", level=level)
    return sorted(f.code for f in found)


CHAIN = """
class A(nn.Cell):
    def construct(self, x):
        return x + 1
class B(A):
    def construct(self, x):
        return {call}.construct(x) * 2
class Net(B):
    {body}
net = {made}()
"""


def test_bare_super_in_a_base_recurses_for_a_created_subclass() -> None:
    inherit = CHAIN.format(call="super()", body="pass", made="Net")
    assert codes(inherit) == ["MS1041"]
    override = CHAIN.format(
        call="super()",
        body="def construct(self, x):\n        return super().construct(x)",
        made="Net",
    )
    assert codes(override) == ["MS1041"]


def test_super_look_alikes_stay_quiet() -> None:
    named = CHAIN.format(call="super(B, self)", body="pass", made="Net")
    assert codes(named) == []
    only_base = CHAIN.format(call="super()", body="pass", made="B")  # Net is never created
    assert codes(only_base) == []
    no_super = CHAIN.format(
        call="super()", body="def construct(self, x):\n        return x * 5", made="Net"
    )
    assert codes(no_super) == []


def test_cooperative_mixin_recurses_and_other_method_diverges() -> None:
    mixin = """
    class Base(nn.Cell):
        def f(self, x):
            return x * 2
    class AddOne:
        def f(self, x):
            return super().f(x) + 1
    class Net(AddOne, Base):
        def construct(self, x):
            return self.f(x)
    net = Net()
    """
    assert codes(mixin) == ["MS1041"]
    other = """
    class A(nn.Cell):
        def g(self, x):
            return x + 1
    class B(A):
        def g(self, x):
            return x * 10
        def f(self, x):
            return super().g(x)
    class Net(B):
        def construct(self, x):
            return self.f(x)
    net = Net()
    """
    assert codes(other) == ["MS361"]


ENUM = """
class Mode(enum.Enum):
    TRAIN = 1
    EVAL = 2
class K(enum.IntEnum):
    A = 1
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mode = Mode.TRAIN
        self.k = K.A
    def construct(self, x):
        {line}
        return x
"""


def test_enum_members_in_identity_and_keys() -> None:
    assert codes(ENUM.format(line="y = 1 if self.mode is Mode.TRAIN else 2")) == ["MS1007"]
    assert codes(ENUM.format(line="d = {Mode.TRAIN: 2.0}")) == ["MS1044"]
    assert codes(ENUM.format(line="d = {Mode: 2.0}")) == ["MS1044"]
    assert codes(ENUM.format(line="y = [m.value for m in Mode]")) == ["MS159"]
    # an IntEnum member is an int; an Enum class is a type; `.value` is a number
    assert codes(ENUM.format(line="y = 1 if self.k is K.A else 2")) == []
    assert codes(ENUM.format(line="y = 1 if type(self.mode) is Mode else 2")) == []
    assert codes(ENUM.format(line="d = {Mode.TRAIN.value: 2.0}")) == []
    assert codes(ENUM.format(line="d = {(Mode.TRAIN, 1): 2.0}")) == []
    assert codes(ENUM.format(line="y = len(Mode)")) == []


NAMED = """
Cfg = namedtuple('Cfg', ['scale', 'bias'])
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cfg = Cfg(2.0, 1)
    def construct(self, x):
        {line}
        return x
"""


def test_namedtuple_attributes() -> None:
    assert codes(NAMED.format(line="c = self.cfg._replace(bias=3)")) == ["MS155"]
    assert codes(NAMED.format(line="d = self.cfg._asdict()")) == ["MS155"]
    assert codes(NAMED.format(line="y = self.cfg.scale + self.cfg.count(1)")) == []
    assert codes(NAMED.format(line="c = Cfg._make([1.0, 2])")) == []
    # built from a graph value, the fallback makes a real namedtuple at LAX
    assert "MS155" not in codes(NAMED.format(line="c = Cfg(x, 1)\n        y = c._replace(bias=2)"))


OBJ = """
class Acc:
    k = 2
    def __init__(self):
        self.n = 0
    def set(self, v):
        self.n = v
    def __add__(self, o):
        return o + self.n
    @classmethod
    def make(cls):
        return cls()
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Acc()
    def construct(self, x):
        {line}
        return x
"""


def test_objects_the_cell_holds() -> None:
    assert codes(OBJ.format(line="u = Acc.make()")) == ["MS176"]
    assert codes(OBJ.format(line="u = self.a.make()")) == ["MS176"]
    assert codes(OBJ.format(line="y = self.a + x"), "STRICT") == ["MS256"]
    assert codes(OBJ.format(line="y = self.a + 1"), "STRICT") == []
    assert codes(OBJ.format(line="a = Acc()\n        a.set(5)\n        y = x * a.n")) == [
        "MS202",
        "MS360",
    ]
    assert codes(OBJ.format(line="a = Acc()\n        y = a.n\n        a.set(5)")) == ["MS202"]
    assert codes(OBJ.format(line="y = 1 if self.a is self.a else 2")) == ["MS1007"]
    assert codes(OBJ.format(line="y = 1 if self.a is not None else 2")) == []
