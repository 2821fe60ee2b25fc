"""`l.pop(i)` at a variable position (MS1046), the `(list, item)` pair of `l.pop()` used inside
an expression (MS1047, MS356), a variable key tested with `in` against a dict (MS355), a dict
indexed by a `mutable()` parameter (MS189) and str methods of a str parameter (MS214).

The programs behind each verdict were compiled with MindSpore 2.10
(`tests/graphmode/cases/round30/sq_*`, `cases/rules/MS1046_*` ... `MS356_*`); these fast tests
pin the inference on variations of them.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import mindspore as ms\nfrom mindspore import Tensor, nn, ops, mutable\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.k = 1\n        self.table = {1: 2, 2: 3}\n\n    def construct(self, x, n):\n"
)


def codes(body: str, arg: str = "1", level: str = "LAX") -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    source += f"\n\ndef run(x):\n    return Net()(x, {arg})\n"
    return [f.code for f in check_source(source, "m.py", level=level)]


@pytest.mark.parametrize(
    ("body", "arg", "code"),
    [
        ("l = [x, x + 1]\ny = l.pop(int(x[0]))\nreturn y", "1", "MS1046"),
        ("l = [x, x + 1]\ny = l.pop(mutable(1))\nreturn y", "1", "MS1046"),
        ("l = [x, x + 1]\ny = l.pop(n)\nreturn y", "mutable(1)", "MS1046"),
        ("l = [x, x + 1]\nreturn l.pop().sum()", "1", "MS1047"),
        ("l = [x, x + 1]\nreturn ops.relu(l.pop())", "1", "MS1047"),
        ("l = [x, x + 1]\nreturn l.pop() + x", "1", "MS1047"),
        ("l = [x, x + 1]\nreturn ops.stack([l.pop(), x])", "1", "MS1047"),
        ("l = [1, 2]\nreturn l.pop()", "1", "MS356"),
        ("l = [x, x + 1]\nz = (l.pop(), 1)\nreturn z[0]", "1", "MS356"),
        ("return self.table.get(1) if int(x[0]) in self.table else x", "1", "MS355"),
        ("k = mutable(2)\nd = {1: x, 2: x}\nif k not in d:\n    return x\nreturn x", "1", "MS355"),
        ("d = {1: x, 2: x + 1}\nreturn d[n]", "mutable(1)", "MS189"),
    ],
)
def test_reported(body: str, arg: str, code: str) -> None:
    assert code in codes(body, arg)


@pytest.mark.parametrize(
    ("body", "arg"),
    [
        ("l = [x, x + 1]\ny = l.pop(n)\nreturn y", "1"),  # a plain int argument
        ("l = [x, x + 1]\ny = l.pop(x.shape[0] - 2)\nreturn y", "1"),
        ("l = [x, x + 1]\ny = l.pop(self.k)\nreturn y", "1"),
        ("l = [x, x + 1]\nl.insert(n, x)\nreturn l[0]", "mutable(1)"),
        ("l = [x, x + 1]\ny = l.pop()\nreturn y", "1"),
        ("l = [x, x + 1]\ny: Tensor = l.pop()\nreturn y", "1"),
        ("l = [x, x + 1]\ny = x\ny += l.pop()\nreturn y", "1"),
        ("l = [x, x + 1]\nl.pop()\nreturn ops.stack(l)", "1"),
        ("d = {'a': x, 'b': x}\nreturn d.pop('a') * 2", "1"),  # a dict's pop: MS333's
        ("d = {1: x, 2: x}\nif mutable(2) in d.keys():\n    return x\nreturn x", "1"),
        ("d = {3: x, 2: x}\nreturn x * (x.shape[0] in d)", "1"),
        ("if n in (1, 2):\n    return x\nreturn x", "mutable(2)"),
        ("d = {1: x, 2: x + 1}\nreturn d[n]", "1"),
        ("d = {1: x, 2: x + 1}\nif n in d:\n    return d[n]\nreturn x", "mutable(2)"),
    ],
)
def test_not_reported(body: str, arg: str) -> None:
    found = codes(body, arg)
    assert not {"MS1046", "MS1047", "MS356", "MS189"} & set(found), found
    if "MS355" in found:
        assert "n in d" in body  # the one guarded look-up: MS355 warns, MS189 stays quiet


def test_str_parameter_methods_under_strict() -> None:
    assert "MS214" in codes("return x, n.split('_')", "'a_b'", level="STRICT")
    assert "MS214" not in codes("return x, n.lower()", "'AB'", level="STRICT")
    assert "MS214" not in codes("return x, n.split('_')", "m", level="STRICT")


def test_pop_pair_in_jit_function_is_not_a_divergence() -> None:
    source = "import mindspore as ms\n\n\n@ms.jit\ndef f(x):\n    l = [1, 2]\n    return l.pop()\n"
    assert "MS356" not in [f.code for f in check_source(source, "m.py", level="LAX")]
