"""Shapes and values that must be compile-time constants (round 36, `sh_`): an int a Tensor
condition chooses (MS3010) or a Tensor `while` carries (MS3011) used as a shape, a list grown
over `range()` of a run-time count (MS1120), `x.cumsum(n)` under STRICT (MS236) and
`tensor_split`'s axis (MS1011). Each behaviour was compiled with MindSpore 2.10
(`tests/graphmode/cases/round36/sh_*`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn, ops, mutable\n"
    "\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
)
FIRST = 8  # the line of the body's first statement


def found(body: str, level: str = "LAX") -> list[tuple[int, str]]:
    lines = "".join(f"        {line}\n" for line in body.splitlines())
    return sorted(
        (f.line - FIRST + 1, f.code)
        for f in check_source(HEAD + lines, "m.py", level=level)
        if f.code.startswith(("MS30", "MS112", "MS236", "MS1011"))
    )


BRANCH = "if x.sum() > 0:\n    n = x.shape[0] - 1\nelse:\n    n = 3\n"
IFEXP = "n = 1 if x.sum() > 0 else 2\n"
WHILE = "n = 1\nwhile x.sum() > n * 40:\n    n = n + 1\n"


@pytest.mark.parametrize(
    "use",
    [
        "return ops.zeros((n, 2))",
        "return ops.ones(n)",
        "return x.reshape(n, -1)",
        "return x.reshape((n, -1))",
        "return ops.reshape(x, (n, -1))",
        "return x.view(n, -1)",
        "return x.tile((n, 1))",
        "return ops.broadcast_to(x[0], (n, 4))",
        "return x[:n]",
        "return x[n:]",
        "return x[:, :n]",
        "return x.sum(axis=n - 1)",
        "return x.reshape(3, 1, 4).squeeze(n - 1)",
    ],
)
def test_chosen_or_carried_int_as_a_shape_warns(use: str) -> None:
    assert found(BRANCH + use) == [(5, "MS3010")]
    assert found(IFEXP + use) == [(2, "MS3010")]
    assert found(WHILE + use) == [(4, "MS3011")]


@pytest.mark.parametrize(
    "use",
    [
        "return ops.full((n, 2), 1.0)",
        "return ops.arange(n)",
        "return ops.topk(x, n)[0]",
        "return ops.expand_dims(x, n - 1)",
        "return x[n]",
        "return x * n",
    ],
)
def test_uses_that_take_the_chosen_value_are_clean(use: str) -> None:
    for source in (BRANCH, IFEXP, WHILE):
        assert found(source + use) == []


def test_an_if_binding_only_int_literals_is_clean_but_a_tuple_or_an_ifexp_is_not() -> None:
    assert found("if x.sum() > 0:\n    n = 1\nelse:\n    n = 2\nreturn ops.zeros((n, 2))") == []
    assert found("n = 4\nif x.sum() > 0:\n    n = 1\nreturn x[:n]") == []
    tuples = "if x.sum() > 0:\n    s = (1, 2)\nelse:\n    s = (2, 2)\nreturn ops.zeros(s)"
    assert found(tuples) == [(5, "MS3010")]
    assert found("n = 2 if x.sum() > 0 else 1\nreturn x[:n]") == [(2, "MS3010")]


def test_the_last_path_is_named() -> None:
    source = HEAD + (
        "        n = x.shape[1]\n        if x.sum() > 0:\n            n = 1\n"
        "        return ops.zeros((n, 2))\n"
    )
    (finding,) = [f for f in check_source(source, "m.py") if f.code == "MS3010"]
    assert "`x.shape[1]`" in finding.message


def test_a_python_condition_or_a_python_while_is_clean() -> None:
    assert found("if x.shape[0] > 2:\n    n = 1\nelse:\n    n = x.shape[1]\nreturn x[:n]") == []
    assert found("n = 1\nwhile n < 3:\n    n = n + 1\nreturn x[:n]") == []
    assert (
        found("n = 2\nacc = x.sum() * 0\nwhile acc < 10:\n    acc = acc + x[:n].sum()\nreturn acc")
        == []
    )


def test_a_carried_int_read_inside_the_tensor_while_warns() -> None:
    body = (
        "i = 1\nacc = x.sum() * 0\nwhile acc < 30:\n    acc = acc + x[:i].sum()\n"
        "    i = i + 1\nreturn acc"
    )
    assert found(body) == [(4, "MS3011")]


RANGE = "n = int(x.sum()) // 22\nacc = []\nfor i in range(n):\n    acc.append(x[i])\n"


@pytest.mark.parametrize(
    "read",
    [
        "return acc[0]",
        "return acc[-1]",
        "return ops.stack(acc)",
        "return ops.cat(acc)",
        "return ops.addn(acc)",
        "return sum(acc)",
        "return tuple(acc)",
    ],
)
def test_list_grown_over_a_runtime_range_fails(read: str) -> None:
    for level in ("LAX", "STRICT"):
        assert (5, "MS1120") in found(RANGE + read, level)


@pytest.mark.parametrize(
    "read",
    ["return len(acc)", "return acc", "s = x[0] * 0\nfor a in acc:\n    s = s + a\nreturn s"],
)
def test_list_grown_over_a_runtime_range_read_item_by_item_is_clean(read: str) -> None:
    assert not [c for _, c in found(RANGE + read) if c == "MS1120"]


@pytest.mark.parametrize("count", ["x.sum().astype(ms.int64).item() // 22", "mutable(3)"])
def test_runtime_counts(count: str) -> None:
    body = f"n = {count}\nacc = []\nfor i in range(n):\n    acc.append(x[i])\nreturn acc[0]"
    assert (5, "MS1120") in found(body)


def test_static_counts_and_a_started_list_read_within_it_are_clean() -> None:
    static = (
        "n = x.shape[0]\nacc = []\nfor i in range(n):\n    acc.append(x[i])\nreturn ops.stack(acc)"
    )
    assert found(static) == []
    started = "n = int(x.sum()) // 22\nacc = [x[0]]\nfor i in range(n):\n    acc.append(x[i])\n"
    assert found(started + "return acc[0]") == []
    assert found(started + "return acc[1]") == [(5, "MS1120")]


def test_cumsum_method_axis_fails_under_strict_only() -> None:
    body = "a = int(x.sum()) // 66\nreturn x.cumsum(a)"
    assert found(body, "STRICT") == [(2, "MS236")]
    assert found("a = int(x.sum()) // 66\nreturn ops.cumsum(x, a)", "STRICT") == []


def test_tensor_split_runtime_axis_fails() -> None:
    assert found("a = int(x.sum()) // 66\nreturn ops.tensor_split(x, 2, a)[0]") == [(2, "MS1011")]
    assert found("return x.tensor_split(2, x.ndim - 1)[0]") == []
