"""A NumPy array on the left of a Tensor operator (MS297 under STRICT, MS1106 for `@`).

The verified programs are `tests/graphmode/cases/round35/np_*` and `cases/rules/MS297_*`,
`MS1106_*`; these pin the edges, look-alikes that compile included."""

from __future__ import annotations

import textwrap

import pytest

from mindscope_ls.checker import check_source

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n"
INIT = (
    "    def __init__(self):\n        super().__init__()\n"
    "        self.a = np.array([2.0, 2.0, 2.0], np.float32)\n\n"
)


def findings(body: str, level: str = "STRICT", init: str = "") -> list[tuple[str, int]]:
    src = (
        HEAD
        + "\nclass Net(nn.Cell):\n"
        + init
        + "    def construct(self, x):\n"
        + textwrap.indent(textwrap.dedent(body), " " * 8)
    )
    return [(f.code, f.line) for f in check_source(src, "m.py", level=level)]


LINE = 8  # the first line of the body


@pytest.mark.parametrize(
    "body",
    [
        "return np.array([1.0, 2.0, 3.0], np.float32) + x",
        "return np.array([1.0, 1.0, 1.0], np.float32) - x",
        "return np.ones(3) * x",
        "return np.array(2.0, np.float32) * x",
        "return np.array([2.0, 2.0, 2.0], np.float32) ** x",
        "return np.array([2.0, 2.0, 2.0], np.float32) > x",
        "return np.array([1.0, 2.0, 3.0], np.float32) == x",
        "return np.array([1.0, 2.0, 3.0], np.float32) + x[0]",
    ],
)
def test_array_left_operand_fails_strict(body: str) -> None:
    assert findings(body) == [("MS297", LINE)]


def test_local_and_attribute_arrays() -> None:
    assert findings("a = np.full(3, 2.0, np.float32)\nreturn a / x") == [("MS297", LINE + 1)]
    assert findings("return self.a * x", init=INIT) == [("MS297", LINE + 4)]


def test_augmented_array_fails_strict() -> None:
    assert findings("a = np.zeros(3, np.float32)\na += x\nreturn a") == [("MS297", LINE + 1)]
    # a rebound name, or a parameter, is not followed
    assert findings("a = np.zeros(3, np.float32)\na = x\na += x\nreturn a") == []


def test_matmul_fails_every_level() -> None:
    body = "return np.ones((3, 3), np.float32) @ x"
    assert findings(body, "LAX") == [("MS1106", LINE)]
    assert findings(body) == [("MS1106", LINE)]


@pytest.mark.parametrize(
    "body",
    [
        "return x * Tensor(np.ones(3, np.float32))",
        "a = np.ones(3, np.float32)\nreturn Tensor(a) * x",
        "return np.float32(2.0) * x",
        "return np.sum([1.0, 2.0]) * x",
        "a = np.ones(3) * np.ones(3)\nreturn x + Tensor(a, ms.float32)",
        "return x * len(np.ones(3))",
        "return x * (np.array(x.shape) * 2)[0]",
        "return x * np.array([1.0, 2.0]).sum()",
        "a = np.ones(3)\na = x\nreturn a * x",
        "a = x\na += np.ones(3, np.float32)\nreturn a",
    ],
)
def test_look_alikes_stay_clean(body: str) -> None:
    assert findings(body) == []
    assert findings(body, "LAX") == []


def test_attribute_wrapped_stays_clean() -> None:
    assert findings("return x * Tensor(self.a)", init=INIT) == []


JSON_HEAD = "import json\nimport re\n"


@pytest.mark.parametrize(
    "body",
    [
        "s = json.dumps({'a': 1})\nreturn x, s",
        "s = json.dumps([1])\nreturn x",
        "return x * json.loads('3')",
    ],
)
def test_json_call_fails_strict(body: str) -> None:
    src = JSON_HEAD + HEAD + "\nclass Net(nn.Cell):\n    def construct(self, x):\n"
    src += textwrap.indent(body, " " * 8)
    got = [(f.code, f.line, f.severity.name) for f in check_source(src, "m.py", level="STRICT")]
    assert [(c, line) for c, line, _ in got] == [("MS298", 10)]


def test_json_outside_compiled_code_stays_clean() -> None:
    src = (
        JSON_HEAD
        + HEAD
        + "CFG = json.loads('{\"a\": 2}')\n\n\nclass Net(nn.Cell):\n"
        + "    def __init__(self):\n        super().__init__()\n"
        + "        self.v = json.loads('[1, 2]')[1]\n\n"
        + "    def construct(self, x):\n        s = re.sub('a', 'b', 'aa')\n"
        + "        return x * CFG['a'] * self.v, s, str([1, 2])\n"
    )
    assert check_source(src, "m.py", level="STRICT") == []
