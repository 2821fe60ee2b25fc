"""Round 36's dictionaries in depth (`dc_`): a key a callee sets read by the caller (MS1115), a
dict of Tensors given None or indexed at None (MS1116), `**b` repeating a key (MS3005), `True`
and `1` as two keys (MS3006), and the widened MS180, MS147, MS318 and MS1038. Each shape was
compiled with MindSpore 2.10 (`tests/graphmode/cases/round36/dc_*`)."""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import Severity, check_source

HEAD = (
    "import numpy as np\nfrom mindspore import Tensor, nn, ops\n"
    "from collections import defaultdict\n\n\n"
)


def findings(body: str, level: str = "LAX") -> list[tuple[int, str, str]]:
    source = HEAD + textwrap.dedent(body)
    return [
        (f.line, f.code, "error" if f.severity is Severity.ERROR else "other")
        for f in check_source(source, "m.py", level=level)
    ]


def codes(body: str, level: str = "LAX") -> set[str]:
    return {code for _, code, _ in findings(body, level)}


def net(construct: str, extra: str = "", init: str = "") -> str:
    init_block = (
        "    def __init__(self):\n        super().__init__()\n"
        + textwrap.indent(textwrap.dedent(init), "        ")
        if init
        else ""
    )
    return (
        textwrap.dedent(extra)
        + "class Net(nn.Cell):\n"
        + init_block
        + "    def construct(self, x):\n"
        + textwrap.indent(textwrap.dedent(construct), "        ")
    )


PUT = """
def put(d, v):
    d["b"] = v
"""


@pytest.mark.parametrize("level", ["LAX", "STRICT"])
def test_key_set_by_helper_read_by_caller(level: str) -> None:
    body = net('d = {"a": x}\nput(d, x * 2)\nreturn d["b"]\n', PUT)
    found = findings(body, level)
    assert (13, "MS1115", "error") in found  # the read


@pytest.mark.parametrize(
    "construct",
    [
        'd = {"a": x}\nput(d, x * 2)\nreturn d["a"]\n',  # a key the dict had
        'd = {"a": x, "b": x}\nput(d, x * 2)\nreturn d["b"]\n',  # the key was there
        'd = {"a": x}\ne = put2(d, x)\nreturn e["b"]\n',  # the returned dict
        'd = {"a": x}\nput(d, x * 2)\nif "b" in d:\n    return d["b"]\nreturn x\n',  # folded
    ],
)
def test_key_set_by_helper_look_alikes(construct: str) -> None:
    extra = PUT + '\ndef put2(d, v):\n    d["b"] = v\n    return d\n'
    assert "MS1115" not in codes(net(construct, extra))


def test_key_given_by_caller_and_nested_def_and_sub_cell() -> None:
    extra = "def put(d, k, v):\n    d[k] = v\n"
    assert "MS1115" in codes(net('d = {"a": x}\nput(d, "b", x)\nreturn d["b"]\n', extra))
    nested = 'd = {"a": x}\ndef put(v):\n    d["b"] = v\nput(x)\nreturn d["b"]\n'
    assert "MS1115" in codes(net(nested))
    sub = (
        "class Sub(nn.Cell):\n    def construct(self, d):\n"
        "        d['b'] = d['a']\n        return x\n"
    )
    body = net('d = {"a": x}\nself.sub(d)\nreturn d["b"]\n', sub, "self.sub = Sub()\n")
    assert "MS1115" in codes(body)


@pytest.mark.parametrize(
    ("construct", "line", "lax", "strict"),
    [
        ('d = {"a": x}\nd["b"] = None\nreturn d["a"]\n', 9, True, True),
        ('d = {"a": x}\nd["b"] = "s"\nreturn d["a"]\n', 9, True, True),
        ('d = {"a": x}\nm = None\nd["a"] = m\nreturn x, d["a"] is None\n', 10, True, True),
        ('d = {"a": x}\nd["a"] = None\nreturn x\n', 9, False, True),  # LAX drops the store
        ('d = {None: x, "a": x}\nreturn d[None]\n', 9, True, True),
    ],
)
def test_tensor_dict_none_item(construct: str, line: int, lax: bool, strict: bool) -> None:
    body = net(construct)
    assert ((line, "MS1116", "error") in findings(body, "LAX")) is lax
    assert ((line, "MS1116", "error") in findings(body, "STRICT")) is strict


@pytest.mark.parametrize(
    "construct",
    [
        'd = {"a": 1}\nd["a"] = None\nreturn x, d["a"] is None\n',  # numbers only
        'd = {"a": x, "m": None}\nd["a"] = x * 2\nreturn d["a"]\n',  # None in the display
        'd = {"a": x}\nd.update({"a": None})\nreturn x\n',
        'd = {}\nd["m"] = None\nd["a"] = x\nreturn d["a"]\n',  # still empty
        'd = {"a": x}\nd["b"] = (1, 2)\nreturn d["a"]\n',
        "d = {None: x}\nreturn d.get(None)\n",
        'd = {None: 1, "a": 2}\nreturn x * d[None]\n',
    ],
)
def test_tensor_dict_none_item_look_alikes(construct: str) -> None:
    assert "MS1116" not in codes(net(construct), "STRICT")


def test_spread_repeating_a_key() -> None:
    body = net('a = {"a": 1, "b": 5}\nb = {"b": 2}\nc = {**a, **b}\nreturn x + c["b"]\n')
    assert (10, "MS3005", "other") in findings(body)
    body = net('b = {"b": 2}\nc = {"b": 5, **b}\nreturn x + c["b"]\n')
    assert "MS3005" in codes(body)
    for agreeing in (
        'a = {"a": 1, "b": 5}\nc = {**a, "b": 2}\nreturn x + c["b"]\n',
        'c = {**{"a": 1, "b": 5}, **{"b": 2}}\nreturn x + c["b"]\n',
        'a = {"a": 1}\nb = {"b": 2}\nc = {**a, **b}\nreturn x + c["b"]\n',
    ):
        assert "MS3005" not in codes(net(agreeing)), agreeing


def test_bool_and_int_keys() -> None:
    assert (8, "MS3006", "other") in findings(net("d = {1: 10, True: 20}\nreturn x + d[1]\n"))
    assert "MS3006" in codes(net("d = {1: 10}\nd[True] = 20\nreturn x + d[1]\n"))
    assert "MS3006" not in codes(net("d = {1: 10, True: 20}\nreturn x + d[True]\n"))
    assert "MS3006" not in codes(net("d = {1: 10, 1.0: 20}\nreturn x + d[1]\n"))


@pytest.mark.parametrize(
    ("argument", "fails"),
    [
        ('[("b", x)]', True),
        ("zip(('b',), (x,))", True),
        ("e.items()", True),
        ("e", False),
        ('{"b": x}', False),
    ],
)
def test_update_with_pairs(argument: str, fails: bool) -> None:
    body = net(f'd = {{"a": x}}\ne = {{"b": x}}\nd.update({argument})\nreturn d["b"]\n')
    assert ("MS180" in codes(body)) is fails


def test_defaultdict_with_initial_contents_is_clean() -> None:
    body = net('return x * self.dd["a"]\n', init='self.dd = defaultdict(int, {"a": 2})\n')
    assert "MS147" not in codes(body)
    body = net('return x * self.dd["a"]\n', init="self.dd = defaultdict(int)\n")
    assert "MS147" in codes(body)


def test_attribute_alias_changed_then_attribute_read() -> None:
    init = 'self.cfg = {"a": 2}\n'
    body = net('d = self.cfg\nd["a"] = 5\nreturn x * self.cfg["a"]\n', init=init)
    assert (12, "MS318", "other") in findings(body)
    body = net('d = self.cfg\nd["a"] = 5\nreturn x * d["a"]\n', init=init)
    assert "MS318" not in codes(body)


def test_dict_cleared_on_one_side_of_a_tensor_if() -> None:
    body = net('d = {"a": x, "b": x}\nif x.sum() > 3:\n    d.clear()\nreturn x * len(d)\n')
    assert (11, "MS1038", "error") in findings(body)
    body = net('d = {"a": 1, "b": 2}\nif x.sum() > 3:\n    d.clear()\nreturn x * len(d)\n')
    assert "MS1038" not in codes(body)  # numbers: LAX compiles
    body = net('d = {"a": x}\nif x.sum() > 3:\n    d.clear()\nreturn x\n')
    assert "MS1038" not in codes(body)


def test_collection_only_methods_of_a_local() -> None:
    head = "from collections import OrderedDict, Counter\n"
    body = net(
        'd = OrderedDict([("a", 1), ("b", 2)])\nd.move_to_end("a")\nreturn x * d["a"]\n', head
    )
    assert "MS1117" in codes(body) and "MS1117" in codes(body, "STRICT")
    body = net('c = Counter(["a", "b", "a"])\nreturn x * c.most_common(1)[0][1]\n', head)
    assert "MS1117" in codes(body)
    body = net('d = OrderedDict([("a", 1)])\nk, v = d.popitem(last=False)\nreturn x * v\n', head)
    assert "MS1117" in codes(body)
    # an attribute `__init__` built keeps its methods (measured: compiles)
    attr = net('self.od.move_to_end("a")\nreturn x\n', head, 'self.od = OrderedDict([("a", 1)])\n')
    assert "MS1117" not in codes(attr)


def test_attribute_key_set_by_another_method() -> None:
    init = 'self.cache = {"a": 1}\n'
    fill = "    def fill(self, v):\n        self.cache['b'] = v\n"
    body = net("self.fill(x)\nreturn self.cache['b']\n", init=init)
    body = body.replace("    def construct", fill + "    def construct")
    assert "MS1115" in codes(body)
    same = net("self.cache['b'] = x\nreturn self.cache['b']\n", init=init)
    assert "MS1115" not in codes(same)


def test_item_of_a_tensor_display_updated_in_place() -> None:
    assert (9, "MS303", "other") in findings(net('d = {"a": x}\nd["a"] += 1\nreturn x\n'))
    assert "MS303" in codes(net("l = [x, x]\nl[0] += 1\nreturn l[1]\n"))
    for agreeing in (
        'd = {"a": x}\nd["a"] += 1\nreturn d["a"]\n',
        'd = {"a": x}\nd["a"] = d["a"] + 1\nreturn x\n',
        'd = {"a": x, "b": x * 10}\nfor k in ("a", "b"):\n    d[k] += 1\nreturn d["a"]\n',
        'd = {"a": 1, "b": 1}\nd["a"] += 1\nreturn x * d["b"]\n',
    ):
        assert "MS303" not in codes(net(agreeing)), agreeing
