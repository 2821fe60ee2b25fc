"""Which abstract values MindSpore 2.10 cannot join after a Tensor condition, at each level.

Measured with GRAPH_MODE on CPU (`docs/checker-accuracy.md`): a Tensor joins neither a Python
scalar, str, tuple, list nor dict, nor a Tensor of another dtype; an int, a float and a bool
join no other of them; None joins a Tensor or a scalar at LAX (its Python fallback) but not
under STRICT. Lists of different
lengths and dicts of different keys do join. topk's result joins only another topk's; a list
of scalars joins a Tensor at LAX. Unknown values never clash.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from .abstract import Abstract, Value

NUMBERS = frozenset({"int", "float"})
# Python scalars of different types do not join (measured: Int64 / Float32, and round 31 a
# bool with either: "Type Join Failed: dtype1 = Bool, dtype2 = Int64").
SCALARS = frozenset({"int", "float", "bool"})
NOT_WITH_TENSOR = frozenset({"scalar", "str", "tuple", "list", "dict", "cell", "function"})
# Multi-output ops whose result joins only the same op's result (measured: topk).
JOINS_ONLY_ITSELF = frozenset({"topk"})


@dataclass(frozen=True)
class Clash:
    strict_only: bool  # fails under STRICT only (MS205, MS218), else at every level (MS112)
    left: str
    right: str
    scalar_list: bool = False  # a Tensor vs a list of scalars (MS218), not None (MS205)


def clash(values: Abstract, a: Optional[ast.expr], b: Optional[ast.expr]) -> Optional[Clash]:
    """How two values joined after a Tensor condition fail to join, or None if they may join."""
    cls = values.types.cls
    return join_clash(values.of(a), values.of(b), in_cell=cls is not None and cls.is_cell)


def join_clash(a: Optional[Value], b: Optional[Value], in_cell: bool = False) -> Optional[Clash]:
    """`in_cell`: the join is in a method of a Cell (its construct or one it calls)."""
    if a is None or b is None:
        return None
    if JOINS_ONLY_ITSELF & {a.op, b.op}:
        # topk's (values, indices) joins another topk's, and nothing else: not a Tensor, not a
        # tuple of Tensors written out, not the unpacked pair.
        return None if a.op == b.op else Clash(False, a.describe(), b.describe())
    kinds = {a.kind, b.kind}
    if a.kind == b.kind == "tensor":
        if a.dtype and b.dtype and a.dtype != b.dtype:
            return Clash(False, a.describe(), b.describe())
        return None
    if a.kind == b.kind == "scalar":
        if a.dtype != b.dtype and {a.dtype, b.dtype} <= SCALARS:
            return Clash(False, a.describe(), b.describe())
        return None
    if a.kind == b.kind == "tuple":
        return _elements(a, b)
    if kinds == {"tuple", "list"} and _holds_tensor(a) and _holds_tensor(b):
        # Measured: `(x, x)` joins no `[x, x]`; tuples and lists of scalars do join.
        return Clash(False, a.describe(), b.describe())
    if "tensor" in kinds and kinds & NOT_WITH_TENSOR:
        other = b if a.kind == "tensor" else a
        if other.kind == "list" and _all_scalars(other):
            # A list of scalars joins a Tensor at LAX; under STRICT it fails in a Cell's
            # methods (and in helpers they call, not followed here) but compiles in an @ms.jit
            # function.
            if not in_cell:
                return None
            return Clash(True, a.describe(), b.describe(), scalar_list=True)
        return Clash(False, a.describe(), b.describe())
    if "None" in kinds and kinds & {"tensor", "scalar"}:
        return Clash(True, a.describe(), b.describe())
    return None


def _elements(a: Value, b: Value) -> Optional[Clash]:
    if a.items is None or b.items is None or len(a.items) != len(b.items):
        return None
    for x, y in zip(a.items, b.items):
        inner = join_clash(x, y)
        if inner is not None:
            return Clash(
                inner.strict_only, f"tuple holding a {inner.left}", f"tuple holding a {inner.right}"
            )
    return None


def _holds_tensor(value: Value) -> bool:
    return value.items is not None and any(
        v is not None and v.kind == "tensor" for v in value.items
    )


def _all_scalars(value: Value) -> bool:
    return value.items is not None and all(
        v is not None and v.kind == "scalar" for v in value.items
    )
