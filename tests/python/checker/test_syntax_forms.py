"""Round 34 syntax forms (measured with MindSpore 2.10, corpus `round34/sy_*`): keys of
`{**d}` read as operands (MS1082), bytes compiled as a str (MS392, MS1026's `int in bytes`,
MS214 on bytes), tuple and `for` targets writing `self.<attr>` under STRICT (MS202, MS245) and
`f"{x!r}"` of a Tensor at LAX (MS382)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = "import numpy as np\nfrom mindspore import Tensor, nn\n\nTAG = b'xy'\n\n\n"


def net(body: str, init: str = "pass") -> str:
    lines = "".join(f"        {line}\n" for line in body.split("\n"))
    return (
        HEAD + "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        f"        {init}\n\n    def construct(self, x):\n{lines}"
    )


def codes(source: str, level: str = "LAX") -> set[str]:
    return {f.code for f in check_source(source, "m.py", level=level)}


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("d = {'a': x}\ne = {**d, 'k': x}\nreturn e['a'] + e['k']", True),
        ("d = {'a': x}\ne = {'k': x, **d}\nreturn e['a'] * 2", True),
        ("d = {'a': x}\ne = {**d}\ns = x\ns += e['a']\nreturn s", True),
        ("d = {'a': x}\ne = {**d, 'k': x}\nreturn e['k'] + 1", False),  # an added key
        ("d = {'a': 1.0}\ne = {**d, 'k': x}\nreturn e['a'] + e['k']", False),  # constants
        ("d = {'a': x}\ne = {k: v for k, v in d.items()}\nreturn e['a'] + 1", False),
    ],
)
def test_spread_key_read_as_operand(body: str, fires: bool) -> None:
    assert ("MS1082" in codes(net(body))) is fires


@pytest.mark.parametrize(
    ("body", "init", "fires"),
    [
        ("return x, b'ab'", "pass", True),
        ("return x, TAG", "pass", True),
        ("t = (b'a', 1)\nreturn x, t", "pass", True),
        # an `if` on `self.tag == 'v1'` (attribute on the left) is folded with the Python
        # value and agrees (d78a913e, measured); the IfExp diverges
        ("if self.tag == 'v1':\n    return x\nreturn x + 1", "self.tag = b'v1'", False),
        ("return x if self.tag == 'v1' else x + 1", "self.tag = b'v1'", True),
        ("if isinstance(self.tag, bytes):\n    return x\nreturn x + 1", "self.tag = b'v1'", True),
        ("return x, f'{self.tag}'", "self.tag = b'v1'", True),
        ("if self.tag == b'v1':\n    return x\nreturn x + 1", "self.tag = b'v1'", False),
        ("if b'a' in self.tag:\n    return x\nreturn x + 1", "self.tag = b'v1'", False),
        ("return x, 'ab'", "pass", False),
    ],
)
def test_bytes_diverge(body: str, init: str, fires: bool) -> None:
    assert ("MS392" in codes(net(body, init))) is fires


def test_int_in_bytes_fails() -> None:
    assert "MS1026" in codes(net("b = b'ab'\nif 97 in b:\n    return x\nreturn x + 1"))
    assert "MS1026" not in codes(net("b = b'ab'\nif b'a' in b:\n    return x\nreturn x + 1"))


def test_bytes_str_method_under_strict() -> None:
    assert "MS214" in codes(net("b = b'ab'\nreturn x, b.startswith(b'a')"), "STRICT")
    assert "MS214" not in codes(net("b = b'ab'\nreturn x, b.upper()"), "STRICT")


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        ("self.a, y = 1, x\nreturn y", True),
        ("(self.a, y), z = (1, x), x\nreturn y + z", True),
        ("self.a, *r = (1, 2, 3)\nreturn x", True),
        ("for self.a in range(2):\n    x = x + 1\nreturn x", True),
        ("a, y = 1, x\nreturn y + a", False),
    ],
)
def test_attribute_in_tuple_target_under_strict(body: str, fires: bool) -> None:
    assert ("MS202" in codes(net(body, "self.a = 0"), "STRICT")) is fires


def test_tensor_repr_in_fstring_at_lax_only() -> None:
    assert "MS382" in codes(net("s = f'{x!r}'\nreturn x, s"))
    assert "MS382" not in codes(net("s = f'{x!r}'\nreturn x, s"), "STRICT")  # MS309's
    assert "MS382" not in codes(net("s = f'{x}'\nreturn x, s"))
    assert "MS382" not in codes(net("s = f'{x!s}'\nreturn x, s"))
