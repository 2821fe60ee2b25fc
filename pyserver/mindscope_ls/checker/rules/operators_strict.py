"""MS226: `==` / `!=` of a Tensor and a value graph mode has no overload for, under STRICT.

Each operator dispatches on its operands' types to the overloads MindSpore registers in
`ops/composite/multitype_ops/` (the facts' `operator_overloads`, read from those sources):
`equal` takes a Tensor with a Tensor, a number or None, but not with a str. A pair with no
overload goes to the Python fallback: LAX runs it (Python's `==` always answers), STRICT runs
the fallback only on constants, so a Tensor computed in the graph fails there. Measured on CPU.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers, shared_values
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, cacheable

NO_OVERLOAD_UNDER_STRICT = Rule(
    "MS226",
    "no-graph-overload-under-strict",
    Group.STRICT,
    title="`==` / `!=` of a Tensor and a value graph mode has no overload for, under STRICT",
    message=(
        "`{op}` between a Tensor and {other} has no graph overload, and the Python fallback "
        "that runs it needs constants under jit_syntax_level=STRICT; compare like with like "
        "(e.g. test the str outside compiled code)."
    ),
    why=(
        "Graph mode compiles an operator through the overloads MindSpore registers for its "
        "operands' types; `equal` / `not_equal` have none for a Tensor and a str. LAX hands "
        "the comparison to Python; STRICT runs that fallback only on constants, and the "
        "Tensor is computed in the graph."
    ),
    remedy=(
        "Compare the Tensor with a number or another Tensor, or decide with the str before "
        "calling the compiled code."
    ),
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ == __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_0__' to be nonconstant."
    ),
)

EQUALITIES = {ast.Eq: "==", ast.NotEq: "!="}
# The abstract kinds and the type names MindSpore's overloads register.
TYPE_NAMES = {"str": "String", "tuple": "Tuple", "list": "List", "None": "None", "scalar": "Number"}
DESCRIBED = {"str": "a str", "tuple": "a tuple", "list": "a list"}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    compares = [c for c in ctx.of(ast.Compare) if any(type(op) in EQUALITIES for op in c.ops)]
    if not compares:
        return
    values = shared_values.abstract(ctx, module=True)
    for node in compares:
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            symbol = EQUALITIES.get(type(op))
            if symbol is None:
                continue
            pair = operands[index : index + 2]
            other = _missing_overload(ctx, values, symbol, pair[0], pair[1])
            if other is not None:
                yield NO_OVERLOAD_UNDER_STRICT.finding(node, op=symbol, other=other)
                break


def _missing_overload(
    ctx: FunctionContext, values: Abstract, symbol: str, left: ast.expr, right: ast.expr
) -> Optional[str]:
    """What the Tensor is compared with when `symbol` has no overload for the pair, else None."""
    kinds = (_kind(values, left) or _list_attribute(ctx, left), _kind(values, right))
    if kinds[1] is None:
        kinds = (kinds[0], _list_attribute(ctx, right))
    if None in kinds or kinds.count("Tensor") != 1 or "Number" in kinds:
        return None
    tensor_side = left if kinds[0] == "Tensor" else right
    if ctx.types.is_constant_tensor(tensor_side):
        return None  # folded while compiling: the fallback has its constant
    if FACTS.overloaded(symbol, *(k for k in kinds if k is not None)) is not False:
        return None
    other = right if kinds[0] == "Tensor" else left
    value = values.of(other)
    if value is None:
        return DESCRIBED["list"] if _list_attribute(ctx, other) else None
    return DESCRIBED.get(value.kind, value.kind)


def _list_attribute(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """ "List" for `self.<name>` made a list of numbers in `__init__` that compiled code also
    changes (`self.vals.append(3)`), whose items the abstract values leave unknown (measured:
    `self.vals.append(3); x == self.vals` fails STRICT like the unchanged list does)."""
    held = receivers.self_attr(ctx, expr)
    if held is None or held.kind != "list" or not isinstance(held.node, ast.List):
        return None
    items = held.node.elts
    numbers = all(
        isinstance(e, ast.Constant) and type(e.value) in (int, float, bool) for e in items
    )
    return "List" if items and numbers else None


def _kind(values: Abstract, expr: ast.expr) -> Optional[str]:
    """The MindSpore type name of a Tensor (one whose dtype the source shows, so surely one: a
    call like `e.get("type")` the types take for a Tensor may be anything) or of a str, tuple,
    list, None, number; None for anything else."""
    value: Optional[Value] = values.of(expr)
    if value is None:
        return None
    if value.kind == "tensor":
        return "Tensor" if value.dtype is not None else None
    return TYPE_NAMES.get(value.kind)
