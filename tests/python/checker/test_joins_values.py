"""Joins after a Tensor condition judged by abstract kind and dtype (rules MS112 / MS205).

Each pair below was compiled with MindSpore 2.10 (the `tests/graphmode/cases/joins/` corpus holds
the verified programs); these fast tests pin the inference on variations of them.
"""

from __future__ import annotations

from typing import Optional

import pytest

from mindscope_ls.checker import Severity, check_source

HEAD = (
    "import mindspore as ms\nfrom mindspore import Tensor, nn, ops\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x):\n"
)


def errors(body: str, level: str) -> list[str]:
    source = HEAD + "".join(f"        {line}\n" for line in body.splitlines())
    found = check_source(source, "m.py", level=level)
    return [f.code for f in found if f.severity is Severity.ERROR]


def returns(then: str, other: str) -> str:
    return f"if x.sum() > 0:\n    return {then}\nreturn {other}"


@pytest.mark.parametrize(
    ("then", "other", "lax", "strict"),
    [
        ("x", "'neg'", "MS112", "MS112"),
        ("x", "[x, x]", "MS112", "MS112"),
        ("x", "{'a': x}", "MS112", "MS112"),
        ("x", "True", "MS112", "MS112"),
        ("x", "None", None, "MS205"),
        ("None", "1", None, "MS205"),
        ("1", "2.0", "MS112", "MS112"),
        ("1", "2", None, None),
        ("'a'", "'b'", None, None),
        ("x.astype(ms.int32)", "x.astype(ms.float32)", "MS112", "MS112"),
        ("x.astype(ms.float16)", "(x + 1).astype(ms.float16)", None, None),
        ("x.argmax(axis=1)", "x.argmin(axis=1)", "MS112", "MS112"),  # int64 vs int32
        ("ops.argmax(x, 1)", "x.astype(ms.float32).max(axis=1)", "MS112", "MS112"),
        ("x > 1", "x < 0", None, None),
        ("x > 1", "x.astype(ms.float32)", "MS112", "MS112"),
        ("ops.cast(x, ms.int32)", "ops.ones((2, 3), ms.int32)", None, None),
        ("x.astype(ms.int32) + 1", "x.astype(ms.float32)", "MS112", "MS112"),
        ("x.astype(ms.int32) * 1.5", "x.astype(ms.float32)", None, None),
        ("(x.astype(ms.int32), x)", "(x.astype(ms.float32), x)", "MS112", "MS112"),
        ("(x, x)", "(x,)", None, None),
        ("[x, x]", "[x]", None, None),
        ("{'a': x}", "{'b': x}", None, None),
        ("ops.topk(x, 2)", "ops.topk(x * 2, 2)", None, None),
        ("ops.topk(x, 2)", "x", "MS112", "MS112"),
    ],
)
def test_return_join(then: str, other: str, lax: Optional[str], strict: Optional[str]) -> None:
    body = returns(then, other)
    assert errors(body, "LAX") == ([lax] if lax else [])
    assert errors(body, "STRICT") == ([strict] if strict else [])


def test_unknown_dtype_is_not_reported() -> None:
    # x's dtype comes from the caller: float32 at run time here, but the source does not say
    assert errors(returns("x * 2", "x.astype(ms.int32)"), "LAX") == []


def test_a_local_bound_once_carries_its_dtype() -> None:
    body = "y = x.astype(ms.int32)\nif x.sum() > 0:\n    return y\nreturn x.astype(ms.float32)"
    assert errors(body, "LAX") == ["MS112"]


def test_a_local_bound_twice_differently_is_unknown() -> None:
    body = (
        "y = x.astype(ms.int32)\ny = x.astype(ms.float32)\n"
        "if x.sum() > 0:\n    return y\nreturn x.astype(ms.float32)"
    )
    assert errors(body, "LAX") == []


def test_constant_condition_is_not_a_join() -> None:
    body = "flag = 1\nif flag > 0:\n    return x.astype(ms.int32)\nreturn x.astype(ms.float32)"
    assert errors(body, "STRICT") == []


@pytest.mark.parametrize(
    ("expr", "code"),
    [
        ("(x.sum() > 0) and x.astype(ms.float32)", "MS112"),
        ("(x.sum() > 0) or 2", "MS112"),
        ("(x.sum() > 0) or 'neg'", "MS112"),
        ("(x.sum() > 0) and (x.sum() < 10)", None),
    ],
)
def test_and_or_join(expr: str, code: Optional[str]) -> None:
    assert errors(f"return {expr}", "LAX") == ([code] if code else [])


def test_and_or_in_a_branch_test_is_a_join_too() -> None:
    # Measured on 2.10 (LAX and STRICT, training on or off): a test `t and flag` is compiled
    # as `flag if t else t` and fails to join ("Type Join Failed: dtype1 = Bool, dtype2 =
    # Any"); with the Python operand first, or `&`, it compiles.
    body = "if (x.sum() > 0) and self.training:\n    x = x * 2\nreturn x"
    assert errors(body, "LAX") == ["MS112"]
    for test in ("self.training and (x.sum() > 0)", "(x.sum() > 0) & self.training"):
        assert errors(f"if {test}:\n    x = x * 2\nreturn x", "LAX") == []


@pytest.mark.parametrize(
    ("inside", "code"),
    [("'big'", "MS112"), ("1.0", "MS112"), ("x * 0", None)],
)
def test_return_inside_a_tensor_while(inside: str, code: Optional[str]) -> None:
    loop = "while x.sum() < 100:\n    x = x * 2\n    if x.sum() > 50:\n"
    body = f"{loop}        return {inside}\nreturn x"
    assert errors(body, "LAX") == ([code] if code else [])


def test_while_changing_a_carried_dtype() -> None:
    body = (
        "y = x.astype(ms.int32)\nwhile y.sum() < 100:\n    y = y.astype(ms.float32) * 2\nreturn y"
    )
    assert errors(body, "LAX") == ["MS112"]
    same = "y = x.astype(ms.float32)\nwhile y.sum() < 100:\n    y = y * 2\nreturn y"
    assert errors(same, "LAX") == []
