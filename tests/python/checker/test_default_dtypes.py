"""The dtype a Tensor built at a call site gets when the source writes none (measured with
MindSpore 2.10: `Tensor([1.0, 2.0])` float32, `Tensor(np.ones(s))` float64, ...)."""

from __future__ import annotations

import ast
from typing import Optional

import pytest

from mindscope_ls.checker.rules.helpers.module_values import tensor_dtype


def dtype_of(text: str, **bound: str) -> Optional[str]:
    names = {k: ast.parse(v, mode="eval").body for k, v in bound.items()}
    return tensor_dtype(ast.parse(text, mode="eval").body, names.get)


@pytest.mark.parametrize(
    ("text", "dtype"),
    [
        ("Tensor([1.0, 2.0])", "float32"),
        ("Tensor((1, 2.5))", "float32"),
        ("Tensor([[1, 2], [3, -4]])", "int64"),
        ("Tensor(3)", "int64"),
        ("Tensor(1.0)", "float32"),
        ("Tensor([True, False])", "bool_"),
        ("Tensor(np.ones((3, 4)))", "float64"),
        ("Tensor(np.random.randn(2, 3))", "float64"),
        ("Tensor(np.random.randint(0, 5, (2,)))", "int64"),
        ("Tensor(np.arange(4))", "int64"),
        ("Tensor(np.arange(4.0))", "float64"),
        ("Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))", "float32"),
        ("Tensor(np.array([1.0, 2]))", "float64"),
        ("Tensor(np.full((2,), 3))", "int64"),
        ("Tensor(np.zeros((2,), np.int32).reshape(1, 2).T)", "int32"),
        ("Tensor(np.ones((2, 3)), ms.float16)", "float16"),
        ("ops.ones((2, 3))", "float32"),
        ("ops.zeros((2, 3), ms.int32)", "int32"),
    ],
)
def test_written_and_default_dtypes(text: str, dtype: str) -> None:
    assert dtype_of(text) == dtype


@pytest.mark.parametrize(
    "text",
    [
        "Tensor(data)",  # a name nobody binds
        "Tensor([1, True])",  # bools mixed with numbers: not measured
        "Tensor(np.ones_like(a))",
        "Tensor(np.arange(n))",
        "Tensor(np.full((2,), v))",
        "Tensor(x.asnumpy())",
        "Tensor(np.ones((2, 3)), dtype=None)",
        "ops.ones((2, 3), dtype=None)",
        "ops.full((2, 3), 1)",
    ],
)
def test_unknown_dtypes(text: str) -> None:
    assert dtype_of(text) is None


def test_a_name_bound_in_the_caller_is_followed() -> None:
    assert dtype_of("Tensor(data)", data="np.ones((2, 3))") == "float64"
    assert dtype_of("Tensor(data)", data="np.ones((2, 3), np.float32)") == "float32"
    assert dtype_of("Tensor(data)", data="load()") is None
