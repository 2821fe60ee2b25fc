"""MS1015: `<` / `<=` / `>` / `>=` of tuples or lists that reaches a str or tuple item.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: graph mode compares
sequences item by item with `tuple_lt` / `tuple_le` / `tuple_greater_than` / `list_lt`, whose
items must be numbers ("For op 'tuple_lt' input must be [int32, int64, float32, float64, bool],
but got a ..."), so `('a',) < ('b',)`, `('a', 'b') < ('a', 'c')`, `(1, 'a') > (1, 'b')`,
`('a', 1) <= ('a', 2)` and `['a'] < ['b']` fail at every level. A comparison decided before a
str pair is reached compiles (`(1, 'a') < (2, 'b')` is True in both modes), and so do `==` /
`!=` of such tuples, `'a' < 'b'` of two strs, `max('a', 'b')` and `min()` of tuples holding strs.
Nested sequences fail the same way once reached: `((1, 2),) < ((1, 3),)`,
`(1, (1, 2)) <= (1, (1, 3))`, `(x.shape, 1) < ((3, 3), 1)` ("but got (1, 2)"), while
`(0, (1, 2)) < (1, (1, 3))` (decided first) and `x.shape < (3, 3)` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

SEQUENCE_STR_ORDER = Rule(
    "MS1015",
    "sequence-str-order",
    Group.FAILS,
    title="Ordering comparison of tuples or lists that reaches a str or tuple item",
    message=(
        "`{text}` compares the items {pair} in order, and graph mode's sequence comparison "
        "takes numbers only; compare those items themselves (`a[i] < b[i]`) or compute it "
        "outside compiled code."
    ),
    why=(
        "Graph mode compares tuples and lists item by item with `tuple_lt` / `list_lt` and "
        "friends, which accept int, float and bool items; once the comparison reaches a str "
        "or a nested tuple (an equal prefix, then such items) compiling fails."
    ),
    remedy="Compare the str items directly, or encode them as numbers before comparing.",
    mindspore_says=(
        "TypeError: For op 'tuple_lt' input must be [int32, int64, float32, float64, bool], "
        "but got a ..."
    ),
)

_ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_UNKNOWN = object()


class _Nested:
    """A nested sequence item (`(1, 2)`, `x.shape`), which the comparison cannot take."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    compares: list[ast.Compare] = ctx.of(ast.Compare)
    for node in compares:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, _ORDER):
                pair = _str_pair(_items(ctx, left), _items(ctx, right))
                if pair is not None:
                    yield SEQUENCE_STR_ORDER.finding(node, text=ast.unparse(node), pair=pair)
                    break
            left = right


def _items(ctx: FunctionContext, expr: ast.expr) -> Optional[list[object]]:
    """The items of a written-out tuple or list (directly or through a local bound once to
    one): constants as values, anything else as unknown."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        expr = bound if bound is not None else expr
    if not isinstance(expr, (ast.Tuple, ast.List)):
        return None
    if any(isinstance(item, ast.Starred) for item in expr.elts):
        return None
    return [_item(item) for item in expr.elts]


def _item(item: ast.expr) -> object:
    if isinstance(item, ast.Constant):
        return item.value
    if isinstance(item, (ast.Tuple, ast.List)) or (
        isinstance(item, ast.Attribute) and item.attr == "shape"
    ):
        return _Nested(ast.unparse(item))
    return _UNKNOWN


def _str_pair(left: Optional[list[object]], right: Optional[list[object]]) -> Optional[str]:
    """The first pair of items (`'a'` and `'b'`) the comparison reaches holding a str or a
    nested sequence, walking equal constants; None once an unequal pair of numbers decides it
    or an item is unknown."""
    if left is None or right is None:
        return None
    for a, b in zip(left, right):
        if isinstance(a, (str, _Nested)) or isinstance(b, (str, _Nested)):
            if a is _UNKNOWN or b is _UNKNOWN:
                return None  # a variable beside a str: not measured
            return f"{a!r} and {b!r}"
        if a is _UNKNOWN or b is _UNKNOWN or a != b:
            return None
    return None
