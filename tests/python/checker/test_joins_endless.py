"""MS1053 / MS371: a `while True:` left only on a Tensor condition (MindSpore 2.10 unrolls
it until the values it carries repeat), and MS112 for a value carried into a Tensor `if`
inside a loop (`cases/rules/MS1053_*`, `MS371_*`, `round32/cf_*`)."""

from __future__ import annotations

import pytest

from mindscope_ls.checker import check_source

HEAD = "import mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n@ms.jit\ndef f(x):\n"


def codes(body: str) -> list[tuple[int, str]]:
    source = HEAD + "".join(f"    {line}\n" for line in body.splitlines())
    found = check_source(source, "m.py", level="LAX")
    return [(f.line, f.code) for f in found]


LOOP = "while True:\n    x = x * 2\n    {step}\n    if x.sum() > 10:\n        break\nreturn x"


@pytest.mark.parametrize(
    ("start", "step", "want"),
    [
        ("i = 0", "i += 1", [(8, "MS1053")]),
        ("i = 0.0", "i = i + 0.5", [(8, "MS1053")]),
        ("i = Tensor(0, ms.int32)", "i = i + 1", [(8, "MS1053")]),
        ("i = x.shape[0]", "i -= 1", [(8, "MS1053")]),
        ("out = []", "out.append(x)", [(8, "MS1053")]),
        ("out = ()", "out = out + (x,)", [(8, "MS1053")]),
        ("i = 0", "i = 1", []),  # reset, not stepped
        ("i = x.sum() * 0", "i = i + 1", []),  # a run-time value
        ("i = int(x.max())", "i -= 1", []),
        ("i = 0", "i = i + x.sum()", []),  # becomes a Tensor before the break
    ],
)
def test_endless_while_counter(start: str, step: str, want: list[tuple[int, str]]) -> None:
    assert codes(start + "\n" + LOOP.format(step=step)) == want


def test_a_python_exit_ends_the_unrolling() -> None:
    body = (
        "i = 0\nwhile True:\n    x = x * 2\n    i += 1\n    if i > 30:\n        break\n"
        "    if x.sum() > 10:\n        break\nreturn x"
    )
    assert codes(body) == []


def test_a_counter_stepped_under_the_tensor_if_is_joined() -> None:
    body = (
        "n = 0\nwhile True:\n    x = x + 1\n    if x.max() > 2:\n        n = n + 1\n"
        "    if x.sum() > 10:\n        break\nreturn x, n"
    )
    assert codes(body) == []


@pytest.mark.parametrize(
    ("ret", "want"),
    [("return acc", [(13, "MS371")]), ("return x, acc", [(13, "MS371")]), ("return x * acc", [])],
)
def test_number_joined_after_the_break(ret: str, want: list[tuple[int, str]]) -> None:
    body = (
        "acc = 0\nwhile True:\n    x = x + 1\n    if x.max() > 6:\n        break\n"
        f"    acc = acc + x.mean()\n{ret}"
    )
    assert codes(body) == want


@pytest.mark.parametrize(
    ("start", "update", "want"),
    [
        ("Tensor(1, ms.int32)", "acc * 1.5", [(10, "MS112")]),
        ("Tensor(1, ms.int32)", "acc / 2", [(10, "MS112")]),
        ("Tensor(1, ms.int32)", "acc * 2", []),  # stays int32
        ("Tensor(0, ms.float32)", "acc + x[i] * 0.5", []),
    ],
)
def test_carried_into_a_tensor_if(start: str, update: str, want: list[tuple[int, str]]) -> None:
    body = (
        f"acc = {start}\nfor i in range(3):\n    if x[i] > 0:\n        acc = {update}\nreturn acc"
    )
    assert [c for c in codes(body) if c[1] == "MS112"] == want


def strict_codes(body: str) -> list[tuple[int, str]]:
    source = HEAD + "".join(f"    {line}\n" for line in body.splitlines())
    found = check_source(source, "m.py", level="STRICT")
    return [(f.line, f.code) for f in found if f.code in ("MS112", "MS237")]


@pytest.mark.parametrize(
    ("loop", "tail", "want"),
    [
        ("for i in range(3):", "return acc", [(10, "MS112")]),
        ("for i in range(3):", "return x", [(10, "MS237")]),  # LAX compiles: unrolled
        ("while i < 3:", "return x", [(10, "MS112")]),  # a graph loop carries it on
    ],
)
def test_carried_and_unused(loop: str, tail: str, want: list[tuple[int, str]]) -> None:
    body = (
        f"acc = Tensor(1, ms.int32)\n{loop}\n    if x[i] > 0:\n        acc = acc * 1.5\n"
        f"    i = i + 1\n{tail}"
    )
    if loop.startswith("while"):
        body = "i = x.argmin()\n" + body.replace("    i = i + 1\n", "    i = i + 1\n", 1)
        want = [(line + 1, code) for line, code in want]
    else:
        body = body.replace("    i = i + 1\n", "")
    assert strict_codes(body) == want


def test_bool_mask_plus_float_in_a_tensor_if() -> None:
    body = (
        "mask = ops.zeros((3,), ms.bool_)\nfor i in range(3):\n    if x[i] > 0:\n"
        "        mask = mask + ops.ones((3,), ms.float32)\nreturn mask"
    )
    assert [c for c in codes(body) if c[1] == "MS112"] == [(10, "MS112")]
    same = body.replace("mask + ops.ones((3,), ms.float32)", "ops.logical_or(mask, x > i)")
    assert [c for c in codes(same) if c[1] == "MS112"] == []
