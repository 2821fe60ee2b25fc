"""Silent divergence (round 33, helper `dv`): STRICT None outputs (MS263, MS264, MS378), a list
of lists made by `*` (MS379), `not`/`in` of Tensors returned (MS380), `print` formatting
(MS381), MS199 casting only the numbers before a str, MS320 on `sum` of a local list.

Each verdict was measured with MindSpore 2.10 on CPU (`tests/graphmode/cases/round33/dv_*`);
these fast tests pin the logic on variations.
"""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.aux = None\n        self.flag = True\n        self.scale = 2.0\n"
    "        self.k = 3\n\n"
    "    def construct(self, x):\n"
)
RUN = "\n\ndef run():\n    return Net()(Tensor(np.ones((2, 3), np.float32)))\n"


def codes(body: str, level: str = "LAX", run: str = RUN) -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines()) + run
    return [f.code for f in check_source(source, "m.py", level=level)]


@pytest.mark.parametrize(
    "body",
    [
        "return x, None",
        "return x, None, 3",
        "return [x, None]",
        "return x, (x, None)",
        "return x, self.aux",
        "mask = None\nreturn x * 2, mask",
        "return None, x",
        "out = (x, None)\nreturn out",
    ],
)
def test_strict_none_output_warns(body: str) -> None:
    assert "MS378" in codes(body, "STRICT")
    assert "MS378" not in codes(body, "LAX")


@pytest.mark.parametrize(
    "body",
    ["return None", "return 1, None", "return None, None", "return x, (1, None)", "return x, 1"],
)
def test_strict_none_output_kept_is_quiet(body: str) -> None:
    assert "MS378" not in codes(body, "STRICT")


def test_strict_none_output_unpacked_or_indexed_fails() -> None:
    unpack = "\n\ndef run():\n    a, b = Net()(Tensor(np.ones((2, 3), np.float32)))\n    return a\n"
    assert "MS264" in codes("return x, None", "STRICT", unpack)
    index = (
        "\n\ndef run():\n    out = Net()(Tensor(np.ones((2, 3), np.float32)))\n    return out[1]\n"
    )
    assert "MS263" in codes("return None, x", "STRICT", index)
    assert "MS263" not in codes("return x, None", "STRICT", index.replace("[1]", "[0]"))
    assert "MS378" not in codes("return x, None", "STRICT", index.replace("[1]", "[0]"))


@pytest.mark.parametrize(
    ("body", "warns"),
    [
        ("g = [[0]] * 2\ng[0][0] = 1\nreturn x, g", True),
        ("g = 2 * [[]]\ng[1].append(x)\nreturn len(g[0])", True),
        ("row = [0, 0]\ng = [row] * 2\ng[1][0] = 7\nreturn x, g", True),
        ("g = [{}] * 2\ng[0]['k'] = 1\nreturn len(g[1])", True),
        ("g = [[0] for _ in range(2)]\ng[0][0] = 1\nreturn x, g", False),
        ("g = [[0]] * 2\ng[0] = [5]\nreturn x, g", False),
        ("g = [0] * 2\ng[0] = 1\nreturn x, g", False),
        ("g = [[0]] * 2\ng[0][0] = 1\nreturn x", False),
        ("g = [[0]] * 2\nreturn x, g[1][0]", False),
    ],
)
def test_repeated_inner_list(body: str, warns: bool) -> None:
    # rows that are dicts are MS379's, rows that are lists MS385's (`list_rows.py`)
    found = codes(body)
    assert ("MS379" in found or "MS385" in found) is warns
    assert not ("MS379" in found and "MS385" in found)


@pytest.mark.parametrize(
    ("body", "warns"),
    [
        ("return not x.sum()", True),
        ("return x, not x.sum()", True),
        ("d = not x.sum()\nreturn d", True),
        ("y = x.sum()\nreturn y in (x.sum(), 1)", True),
        ("return not x.shape[0]", False),
        ("return bool(x.sum())", False),
        ("return x.sum() == 0", False),
        ("if not x.sum():\n    return x\nreturn x * 2", False),
        ("y = x * 2 if not x.sum() else x\nreturn y", False),
    ],
)
def test_tensor_not_returned(body: str, warns: bool) -> None:
    assert ("MS380" in codes(body)) is warns


@pytest.mark.parametrize(
    ("line", "warns"),
    [
        ("print(True)", True),
        ("print('on', self.flag)", True),
        ("print(self.training)", True),
        ("print(x.shape[0] > 1)", True),
        ("print(isinstance(x, Tensor))", True),
        ("print([1, 2])", True),
        ("print({'a': 1})", True),
        ("print((x, x))", True),
        ("print(((1, 2), 3))", True),
        ("print((1.5, 2.5))", True),
        ("print(('loss', 1))", True),
        ("print(2.0)", True),
        ("print('s', self.scale)", True),
        ("print(0.1 * 3)", True),
        ("print(0.5, 1e-05, 0.001)", False),
        ("print(3, self.k, -1)", False),
        ("print((1, 2, 3))", False),
        ("print('shape', x.shape)", False),
        ("print(x)", False),
        ("print(None, 'text')", False),
        ("print((1, 2.5, 's'))", False),  # MS199's
    ],
)
def test_print_format(line: str, warns: bool) -> None:
    assert ("MS381" in codes(f"{line}\nreturn x")) is warns


@pytest.mark.parametrize(
    ("line", "fails"),
    [
        ("print((1, 2.5, 's'))", True),
        ("print((1.5, 2, 's'))", True),
        ("print((1, True, 's'))", True),
        ("print((1, 2.5, None))", True),
        ("print((True,))", True),
        ("print((1, 's', 2.5))", False),
        ("print(('s', 1, 2.5))", False),
        ("print((1, 2.5, x))", False),
        ("print((True, 1, 's'))", False),
        ("print((3,))", False),
    ],
)
def test_print_numbers_before_str(line: str, fails: bool) -> None:
    assert ("MS199" in codes(f"{line}\nreturn x")) is fails


@pytest.mark.parametrize(
    ("body", "warns"),
    [
        ("v = [0.1, 0.2, 0.4]\nreturn x, sum(v) / len(v)", True),
        ("r = (0.1, 0.2)\nreturn x, sum(r)", True),
        ("return x, sum([0.1] * 10)", True),
        ("r = (0.5, 0.25)\nreturn x, sum(r)", False),
        ("return x, sum([1, 2] * 3)", False),
    ],
)
def test_float32_sums(body: str, warns: bool) -> None:
    assert ("MS320" in codes(body)) is warns


@pytest.mark.parametrize(
    ("body", "warns"),
    [
        # a nested def or a lambda changes a copy of the enclosing list / dict (measured, round 35)
        ("out = []\ndef add(v):\n    out.append(v)\nadd(x)\nreturn len(out)", True),
        ("out = []\nf = lambda v: out.append(v)\nf(x)\nreturn len(out)", True),
        ("d = {}\ndef put(k, v):\n    d[k] = v\nput('a', x)\nreturn len(d)", True),
        ("out = [x, x]\ndef put(v):\n    out[0] = v\nput(x * 3)\nreturn out[0]", True),
        (
            "out = []\ndef add(v):\n    out.append(v)\n"
            "for i in range(2):\n    add(x)\nreturn len(out)",
            True,
        ),
        ("a = [1, 2]\nb = a\nb[0] = 5\nreturn x + a[0]", True),  # an item write through an alias
        # agreeing look-alikes
        (
            "out = []\ndef add(v):\n    out.append(v)\n    return out\n"
            "res = add(x)\nreturn len(res)",
            False,
        ),
        (
            "out = [x]\ndef add(v):\n    out = [v]\n    out.append(v)\n"
            "    return len(out)\nreturn add(x)",
            False,
        ),
        ("out = []\ndef add(out, v):\n    out.append(v)\nadd([], x)\nreturn len(out)", False),
        ("d = {}\nd['a'] = x\nreturn d['a'] + 1", False),
        ("k = [3]\ndef g(v):\n    return v * k[0]\nreturn g(x)", False),
        ("out = []\ndef add(v):\n    out.append(v)\nadd(x)\nreturn x", False),  # never read again
    ],
)
def test_closure_changes_enclosing_container(body: str, warns: bool) -> None:
    assert ("MS318" in codes(body)) is warns
    assert ("MS318" in codes(body, level="STRICT")) is warns
