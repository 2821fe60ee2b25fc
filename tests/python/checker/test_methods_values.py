"""Methods on values (MS138-MS139, MS214-MS217) and the alias / sort divergences (MS303,
MS305, MS306): the receiver's kind decides, and an unknown receiver is never reported.

The programs behind each verdict were compiled with MindSpore 2.10 (`tests/graphmode/cases/
methods/`, `cases/rules/`); these fast tests pin the inference on variations of them.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source
from mindscope_ls.checker.rules.methods import STRICT_METHODS

HEAD = (
    "import copy\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.name = 'layer'\n\n    def construct(self, x, s):\n"
)


def codes(body: str, level: str = "STRICT") -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    return [f.code for f in check_source(source, "m.py", level=level)]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("y = [x, x * 2].index(x)\nreturn y", "MS138"),
        ("y = (1, 2).count(x)\nreturn y", "MS138"),
        ("v = (x, x)\nv[0] = x\nreturn v", "MS139"),
        ("n = x.shape\nn[0] = 1\nreturn x", "MS139"),
        ("t = self.name.find('a')\nreturn x", "MS214"),
        ("t = ','.join(('a', 'b'))\nreturn x", "MS214"),
        ("t = 'v {}'.format(x * 2)\nreturn x", "MS215"),
        ("t = 'v %d' % x.shape[0]\nreturn x", "MS215"),
        ("y = copy.deepcopy((x, x))\nreturn y", "MS216"),
        ("d = {'a': 1}\ne = d.copy()\nreturn x", "MS217"),
    ],
)
def test_known_receivers_are_reported(body: str, code: str) -> None:
    assert code in codes(body)


@pytest.mark.parametrize(
    "body",
    [
        "y = s.index(x)\nreturn y",  # unknown receiver
        "y = (1, 2, 3).index(2)\nreturn x",  # scalars
        "y = x.shape.index(3)\nreturn x",
        "t = s.find('a')\nreturn x",  # `s` could be anything
        "t = self.name.upper()\nreturn x",  # in the graph's str table
        "t = '{} {}'.format(x.shape, x.dtype)\nreturn x",  # constants at compile time
        "t = 'v %d' % 3\nreturn x",
        "y = copy.deepcopy([1, 2])\nreturn x",
        "v = [1, 2]\nv[0] = 3\nreturn x",  # a list, not a tuple
        "d = {'a': 1}\ne = d.items()\nreturn x",
    ],
)
def test_unknown_or_supported_is_not_reported(body: str) -> None:
    mine = {"MS138", "MS139", "MS214", "MS215", "MS216", "MS217"}
    assert not mine & set(codes(body))


def test_a_search_of_one_element_tensors_compiles() -> None:
    """`[x, x + 1].index(x)` of a 0-d input every call passes compiles (measured: cases/docs/
    list/doc_list_index_tensor_ok); of a (2, 3) input it fails."""

    def source(shape: str) -> str:
        return (
            "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn\n\n\n"
            "class Net(nn.Cell):\n    def construct(self, x):\n"
            "        a = [x, x + 1]\n        return a.index(x)\n\n\n"
            f"def run():\n    return Net()(Tensor(np.ones({shape}, np.float32)))\n"
        )

    found = [f.code for f in check_source(source("()"), "m.py", level="LAX")]
    assert "MS138" not in found
    assert "MS138" in [f.code for f in check_source(source("(2, 3)"), "m.py", level="LAX")]


def test_strict_only_rules_are_information_at_lax() -> None:
    source = HEAD + "        t = self.name.find('a')\n        return x\n"
    (finding,) = check_source(source, "m.py", level="LAX")
    assert finding.code == "MS214" and finding.severity.name == "INFORMATION"


def test_the_method_table_builds_on_the_facts() -> None:
    assert {"append", "pop", "count", "index"} <= STRICT_METHODS["list"]
    assert {"get", "update", "items"} <= STRICT_METHODS["dict"]
    assert STRICT_METHODS["str"] == {"format", "upper", "lower"}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("y = x\ny.add_(1)\nreturn x", "MS303"),
        ("y = x\ny[0] = 7.0\nreturn x", "MS305"),
        ("v = [3, 1, 2]\nv.sort(key=lambda a: -a)\nreturn x, v", "MS306"),
        ("v = [3, 1, 2]\nv.sort()\nreturn x, v", "MS306"),
        ("v = [3, 1, 2]\nv.remove(1)\nreturn x, v", "MS306"),
    ],
)
def test_divergences_are_warned(body: str, code: str) -> None:
    assert code in codes(body, "LAX")


@pytest.mark.parametrize(
    "body",
    [
        "y = x\ny.add_(1)\nreturn y",  # the original is not read afterwards
        "y = x * 1\ny[0] = 7.0\nreturn x + y",  # not an alias
        "v = sorted([3, 1, 2], key=lambda a: -a)\nreturn x, v",
    ],
)
def test_no_divergence_no_warning(body: str) -> None:
    assert not {"MS303", "MS305", "MS306"} & set(codes(body, "LAX"))


def test_a_str_attribute_through_a_local_is_a_str() -> None:
    assert "MS214" in codes("n = self.name\ny = n.strip()\nreturn x")
    assert "MS214" not in codes("n = self.name\nn = s\ny = n.strip()\nreturn x")


@pytest.mark.parametrize(
    ("body", "lax"),
    [
        ("d = {'a': 1, 'b': 2}\ny = d.pop('a')\nreturn x * y", True),
        ("d = {'a': 1}\ny = d.pop('c', 5)\nreturn x * y", True),
        ("d = dict(a=2)\ny = d.pop('a')\nreturn x * y", True),
        ("d = {'a': x, 'b': x}\ny = d.pop('a')\nreturn y", False),  # a Tensor compiles
        ("d = {'a': x}\ny = d.pop('c', x)\nreturn y", False),
        ("d = {'a': s}\ny = d.pop('a')\nreturn y", False),  # unknown value
    ],
)
def test_dict_pop_fails_at_lax_only_on_a_number(body: str, lax: bool) -> None:
    assert ("MS121" in codes(body, "LAX")) is lax
    assert "MS121" in codes(body, "STRICT")  # a Cell's dict has no pop under STRICT
