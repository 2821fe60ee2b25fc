"""`with` statements and statement forms of round 33 (measured on MindSpore 2.10): MS116 on a
Cell, jit_class inheritance, MS1062 (raise in a with block), MS252/MS360 through
`__enter__`/`__exit__`, MS1007 with container attributes, MS318 for chained assignment, MS310
on a local jit_class object and MS382 (f-string texts)."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import Finding, check_source


def codes(source: str, level: str = "LAX") -> list[tuple[int, str]]:
    found: list[Finding] = check_source(textwrap.dedent(source), "m.py", level=level)
    return [(f.line, f.code) for f in found]


HEAD = """
import numpy as np
import mindspore as ms
from mindspore import Tensor, jit_class, nn


@jit_class
class Ctx:
    def __init__(self):
        self.n = 0

    def __enter__(self):
        return self

    def __exit__(self, *args):
        return True


class Sub(Ctx):
    pass


class Scope(nn.Cell):
    def __enter__(self):
        return 1

    def __exit__(self, *args):
        return False

    def construct(self, x):
        return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scope = Scope()
        self.ctx = Ctx()
        self.l = [1, 2]
        self.names = ["a", "b"]
        self.mode = "train"

"""


def cell(body: str) -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), "    ")


def test_with_on_a_cell_fails_and_a_jit_class_subclass_compiles() -> None:
    for ctx in ("self.scope", "Scope()", "self"):
        found = codes(
            cell(f"def construct(self, x):\n    with {ctx}:\n        y = x + 1\n    return y\n")
        )
        assert [c for _, c in found] == ["MS116"], ctx
    for ctx in ("Sub()", "self.ctx", "Ctx()"):
        found = codes(
            cell(f"def construct(self, x):\n    with {ctx}:\n        y = x + 1\n    return y\n")
        )
        assert found == [], ctx


def test_raise_in_a_with_block() -> None:
    reads = cell(
        """
        def construct(self, x):
            with Ctx():
                raise ValueError("skip")
            return x
        """
    )
    assert [c for _, c in codes(reads)] == ["MS1062"]
    constant = cell(
        """
        def construct(self, x):
            with Ctx():
                raise ValueError("skip")
            return 1
        """
    )
    assert [c for _, c in codes(constant)] == ["MS1062"]
    for quiet in (
        # under an `if`, in a loop: not reported
        "with Ctx():\n    if x.shape[0] == 3:\n        raise ValueError('no')\n    y = x\nreturn y",
        "for i in range(2):\n    with Ctx():\n        raise ValueError('no')\nreturn x",
    ):
        source = cell("def construct(self, x):\n" + textwrap.indent(quiet, "    ") + "\n")
        assert codes(source) == [], quiet


def test_enter_writes_self() -> None:
    source = HEAD.replace(
        "        return self\n\n    def __exit__",
        "        self.n = 5\n        return self\n\n    def __exit__",
        1,
    )
    source += textwrap.indent(
        "def construct(self, x):\n    with Ctx() as c:\n        y = x * c.n\n    return y\n", "    "
    )
    assert [c for _, c in codes(source)] == ["MS360"]
    assert [c for _, c in codes(source, "STRICT")] == ["MS252"]


def test_is_with_container_attributes() -> None:
    assert [
        c
        for _, c in codes(
            cell(
                "def construct(self, x):\n    if 1 is self.l:\n        return x\n    return x + 1\n"
            )
        )
    ] == ["MS1007"]
    for left in ("x", "m"):
        source = cell(
            f"def construct(self, x, m=None):\n    if {left} is self.l:\n"
            "        return x\n    return x + 1\n"
        )
        assert codes(source) == [], left


def test_chained_assignment_of_a_list() -> None:
    bad = cell("def construct(self, x):\n    a = b = []\n    a.append(1)\n    return x * len(b)\n")
    assert [c for _, c in codes(bad)] == ["MS318"]
    ok = cell("def construct(self, x):\n    a = b = []\n    a.append(1)\n    return x * len(a)\n")
    assert codes(ok) == []


def test_local_jit_class_attribute_written_then_read() -> None:
    bad = cell("def construct(self, x):\n    c = Ctx()\n    c.n += 1\n    return x * c.n\n")
    assert [c for _, c in codes(bad)] == ["MS310"]
    never_set = cell("def construct(self, x):\n    c = Ctx()\n    c.k = 1\n    return x * c.k\n")
    assert "MS310" not in [c for _, c in codes(never_set)]


def test_fstring_texts() -> None:
    for field in ("{self.mode!r}", "{self.names}", "{('a', 1)}", "{(x.shape[0],)}"):
        source = cell(
            f'def construct(self, x):\n    if f"{field}" == "":\n'
            "        return x\n    return x + 1\n"
        )
        assert [c for _, c in codes(source)] == ["MS382"], field
    for field in ("{repr(self.mode)}", "{(1, 2)}", "{x.shape[0]!r}", "{str(self.names)}"):
        source = cell(
            f'def construct(self, x):\n    if f"{field}" == "":\n'
            "        return x\n    return x + 1\n"
        )
        assert codes(source) == [], field


def test_with_on_a_module_function_result() -> None:
    factory = "def make():\n    return Ctx()\n\n\nclass Net(nn.Cell):"
    source = HEAD.replace("class Net(nn.Cell):", factory, 1)
    body = "        with {}:\n            y = x + 1\n        return y\n"
    bad = source + "    def construct(self, x):\n" + body.format("make()")
    assert [c for _, c in codes(bad)] == ["MS1063"]
    for quiet in (
        "    def construct(self, x):\n        make = Ctx\n" + body.format("make()"),
        "    def construct(self, x):\n" + body.format("Ctx.make()"),
    ):
        assert "MS1063" not in [c for _, c in codes(source + quiet)], quiet


def test_next_of_a_scalar_generator() -> None:
    for gen in ("i * 2 for i in range(3)", "d for d in x.shape if d > 2", "i for i in (1, 4)"):
        source = cell(f"def construct(self, x):\n    n = next({gen})\n    return x * n\n")
        assert [c for _, c in codes(source)] == ["MS197"], gen
    tensors = cell("def construct(self, x):\n    y = next(x * i for i in range(3))\n    return y\n")
    assert [c for _, c in codes(tensors)] == ["MS337"]


def test_fstring_of_none_compared() -> None:
    for body in (
        "m = None\n    if f'a{m}' == 'aNone':\n        return x\n    return x + 1\n",
        "m = None\n    d = {f'{m}': 1}\n    return x * len(d)\n",
    ):
        source = cell("def construct(self, x):\n    " + body)
        assert [c for _, c in codes(source)] == ["MS1064"], body
    for body in (
        "m = None\n    s = f'{m}'\n    return x\n",
        "m = None\n    if str(m) == 'None':\n        return x\n    return x + 1\n",
        "m = 1\n    if f'{m}' == '1':\n        return x\n    return x + 1\n",
    ):
        source = cell("def construct(self, x):\n    " + body)
        assert codes(source) == [], body
