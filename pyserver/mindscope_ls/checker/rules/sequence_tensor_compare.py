"""MS1066 / MS267 / MS268: tuples or lists holding Tensors compared as sequences.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (each ran in PyNative,
where a 0-d Tensor item compares through its truth value):

MS1066: graph mode orders tuples and lists item by item with `tuple_lt` / `tuple_le` /
`list_lt` / ..., whose items must be Python numbers: once the comparison reaches a Tensor item
it fails at every level ("For primitive 'tuple_lt', the input element must be scalar, but got
AbstractTensor(shape: (), ...)"; `>=` says `tupel_equal`). Measured to fail: `(x.sum(),) <
(x.mean(),)`, `[x.sum()] < [x.mean()]`, `(x.sum(), 1) <= (3, 1)`, `(1, x.sum()) < (1,
x.mean())` (an equal constant prefix, then Tensors), `[x.max(), 0] >= [x.min(), 0]`, names
bound to such tuples, Tensor parameters `(a,) < (b,)`, under an `if`. Compiles: a comparison
decided by unequal constants first (`(1, x.sum()) > (0, x.mean())`), `x.shape < (3, 3)`,
`(x.shape[0], x.shape[1]) < (3, 3)`, `(mutable(1), 2) < (2, 2)`.

MS267: under STRICT, `==` / `!=` of two tuples or lists where one side mixes a Tensor item
with a non-Tensor item (a number, None, a str, a shape) fails: "In JIT strict mode, the
primitive 'tuple_equal' does not support the following argument types" (`list_equal` for
lists). Measured to fail: `(x.sum(), 1) == (x.sum(), 1)`, `(x.sum(), 1) == (6, 1)`,
`(x.sum(), 1) != (x.mean(), 1)`, `(x.sum(), x.mean()) == (1.0, x.mean())`, `x.shape == (2,
x.sum())`, `(x.sum(), None) == ...`, a name bound to such a tuple, a Tensor parameter `(a, 1)
== (a, 1)`, a list grown by `append(1)`. Compiles under STRICT: sides of Tensors only
(`(x, x) == (x, x)`, `(x.sum(), x.sum()) == (1.0, 2.0)` -- each side all Tensors or all
numbers), `(x.sum(),) == (6.0,)`, tuples of numbers; LAX compiles all of these (a `@ms.jit`
function is judged at LAX).

MS268: under STRICT, `in` / `not in` of a written-out tuple or list among written-out tuples or
lists, when an item on either side is a Tensor, goes to the Python fallback and fails ("When
handling script '__input_key_0__ in __input_key_1__ in graph mode', the inputs should be
constant"); with shape ints only it compiles. LAX compiles them all.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

TENSOR_SEQUENCE_ORDER = Rule(
    "MS1066",
    "tensor-sequence-order",
    Group.FAILS,
    title="Ordering comparison of tuples or lists that reaches a Tensor item",
    message=(
        "`{text}` compares the sequences item by item and reaches the Tensor item `{item}`, "
        "but graph mode's tuple and list comparison takes Python numbers only (fails at every "
        "level); compare the items themselves (`a[0] < b[0]`) or stack them into Tensors."
    ),
    why=(
        "Graph mode compiles `<` / `<=` / `>` / `>=` of tuples and lists to `tuple_lt` / "
        "`list_lt` and friends, which take int, float and bool items; a Tensor item reached "
        "after an equal constant prefix fails to compile."
    ),
    remedy=(
        "Compare the Tensor items directly (`a[0] < b[0]`), or convert them to Python numbers "
        "outside compiled code."
    ),
    mindspore_says=(
        "TypeError: For primitive 'tuple_lt', the input element must be scalar, but got "
        "AbstractTensor(shape: (), ...)"
    ),
)

MIXED_SEQUENCE_EQUAL_UNDER_STRICT = Rule(
    "MS267",
    "mixed-sequence-equal-under-strict",
    Group.STRICT,
    title="`==` / `!=` of tuples or lists mixing Tensor and non-Tensor items, under STRICT",
    message=(
        "`{text}` compares {kind}s whose items mix the Tensor `{tensor}` with the non-Tensor "
        "`{other}`; under jit_syntax_level=STRICT the {kind} equality takes items of one kind "
        "only: compare the items one by one, or use the default LAX level."
    ),
    why=(
        "Graph mode compiles `==` / `!=` of tuples and lists to `tuple_equal` / `list_equal`, "
        "which under STRICT accept sequences of Tensors or sequences of Python values, not a "
        "mix of both."
    ),
    remedy=(
        "Compare the items one by one (`a[0] == b[0] and a[1] == b[1]`), keep the numbers out "
        "of the tuple, or use the default LAX level."
    ),
    mindspore_says=(
        "TypeError: In JIT strict mode, the primitive 'tuple_equal' does not support the "
        "following argument types."
    ),
)

SEQUENCE_IN_SEQUENCES_UNDER_STRICT = Rule(
    "MS268",
    "tensor-sequence-membership-under-strict",
    Group.STRICT,
    title="A tuple or list holding a Tensor tested with `in` against tuples, under STRICT",
    message=(
        "`{text}` looks a {kind} up among {kind}s with the Tensor item `{item}`; STRICT runs "
        "such an `in` only on constants: compare the items one by one (`a[0] == b[0][0] and "
        "...`), or use the default LAX level."
    ),
    why=(
        "Graph mode hands `in` between sequences of sequences to its Python fallback, which "
        "jit_syntax_level=STRICT runs only on constant inputs; a Tensor item is not one."
    ),
    remedy="Compare the items one by one, keep Tensors out of the tuples, or use LAX.",
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ in __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable ... to be nonconstant."
    ),
)

_ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_MEMBERSHIP = (ast.In, ast.NotIn)
_EQUAL = (ast.Eq, ast.NotEq)
_SEQUENCES = ("tuple", "list")
_NON_TENSOR = frozenset({"scalar", "str", "None", "tuple"})
_TENSOR = object()
_UNKNOWN = object()


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    compares: list[ast.Compare] = [
        c
        for c in ctx.of(ast.Compare)
        if any(isinstance(op, (*_ORDER, *_EQUAL, *_MEMBERSHIP)) for op in c.ops)
    ]
    if not compares:
        return
    values: Optional[Abstract] = None
    for node in compares:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, _ORDER):
                item = _reached_tensor(ctx, written_items(ctx, left), written_items(ctx, right))
                if item is not None:
                    text = ast.unparse(node)
                    yield TENSOR_SEQUENCE_ORDER.finding(node, text=text, item=item)
                    break
            elif isinstance(op, _MEMBERSHIP):
                member = _member_tensor(ctx, left, right)
                if member is not None:
                    kind, item = member
                    yield SEQUENCE_IN_SEQUENCES_UNDER_STRICT.finding(
                        node, text=ast.unparse(node), kind=kind, item=item
                    )
                    break
            elif isinstance(op, _EQUAL) and (
                written_items(ctx, left) is not None or written_items(ctx, right) is not None
            ):
                values = values or abstract(ctx)
                found = mixed_sides(ctx, values, left, right)
                if found is not None:
                    kind, tensor, other = found
                    yield MIXED_SEQUENCE_EQUAL_UNDER_STRICT.finding(
                        node, text=ast.unparse(node), kind=kind, tensor=tensor, other=other
                    )
                    break
            left = right


def written_items(ctx: FunctionContext, expr: ast.expr) -> Optional[list[ast.expr]]:
    """The items of a written-out tuple or list, directly or through a local bound once."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        expr = bound if bound is not None else expr
    if not isinstance(expr, (ast.Tuple, ast.List)):
        return None
    if any(isinstance(item, ast.Starred) for item in expr.elts):
        return None
    return list(expr.elts)


def _order_item(ctx: FunctionContext, item: ast.expr) -> object:
    if isinstance(item, ast.Constant) and type(item.value) in (int, float, bool):
        return item.value
    if ctx.types.is_tensor(item) and not _number_method(ctx, item):
        return _TENSOR
    return _UNKNOWN


_NUMBER_METHODS = names.NON_TENSOR_ATTRS | names.NON_TENSOR_METHODS


def _number_method(ctx: FunctionContext, item: ast.expr) -> bool:
    """`t.size(1)` / `t.dim()` (directly or through a local bound once): a method that gives
    a Python number in graph mode, which the light Tensor inference may take for a Tensor
    (measured in the real-code zoo: `src_len = key_states.size(1)`)."""
    if isinstance(item, ast.Name):
        bound = receivers.only_binding(ctx, item.id)
        item = bound if bound is not None else item
    return (
        isinstance(item, ast.Call)
        and isinstance(item.func, ast.Attribute)
        and item.func.attr in _NUMBER_METHODS
    )


def _reached_tensor(
    ctx: FunctionContext, left: Optional[list[ast.expr]], right: Optional[list[ast.expr]]
) -> Optional[str]:
    """The first Tensor item the ordering reaches, walking pairs of equal number constants;
    None once a pair of unequal constants decides it or an item is unknown."""
    if left is None or right is None:
        return None
    for a, b in zip(left, right):
        va, vb = _order_item(ctx, a), _order_item(ctx, b)
        if va is _TENSOR or vb is _TENSOR:
            return ast.unparse(a if va is _TENSOR else b)
        if va is _UNKNOWN or vb is _UNKNOWN or va != vb:
            return None
    return None


def _sequence(values: Abstract, expr: ast.expr) -> Optional[Value]:
    value = values.of(expr)
    return value if value is not None and value.kind in _SEQUENCES else None


def mixed_sides(
    ctx: FunctionContext, values: Abstract, left: ast.expr, right: ast.expr
) -> Optional[tuple[str, str, str]]:
    """(kind, a Tensor item, a non-Tensor item) of a side of `left == right` that mixes them,
    when both sides are tuples or lists."""
    a, b = _sequence(values, left), _sequence(values, right)
    if a is None or b is None:
        return None
    for side, value in ((left, a), (right, b)):
        elts = written_items(ctx, side)
        if elts is None or value.items is None or len(elts) != len(value.items):
            continue
        tensor = other = None
        for elt, item in zip(elts, value.items):
            if item is None:
                continue
            if item.kind == "tensor" and _number_method(ctx, elt):
                continue
            if item.kind == "tensor" and tensor is None:
                tensor = elt
            elif item.kind in _NON_TENSOR and other is None:
                other = elt
        if tensor is not None and other is not None:
            return value.kind, ast.unparse(tensor), ast.unparse(other)
    return None


def _member_tensor(
    ctx: FunctionContext, left: ast.expr, right: ast.expr
) -> Optional[tuple[str, str]]:
    """(kind, a Tensor item) of `left in right`, `left` a written-out tuple or list and
    `right` one of such displays, when an item of either holds a Tensor (measured under
    STRICT, round 33: `(x.sum(), 1) in [(6.0, 1)]`, `(x.sum(),) not in ((1.0,),)`, `(1, 2) in
    [(x.sum(), 2)]`, `[x.sum()] in [[6.0]]`, names bound to them, fail; `(n, 3) in [(2, 3)]`
    with `n = x.shape[0]` and `x.shape in [(2, 3)]` compile)."""
    items = written_items(ctx, left)
    options = written_items(ctx, right)
    if items is None or not options:
        return None
    nested = [written_items(ctx, o) for o in options]
    if any(n is None for n in nested):
        return None
    kind = "tuple" if isinstance(display_of(ctx, left), ast.Tuple) else "list"
    for item in [*items, *(e for n in nested for e in n or ())]:
        if ctx.types.is_tensor(item) and not _number_method(ctx, item):
            return kind, ast.unparse(item)
    return None


def display_of(ctx: FunctionContext, expr: ast.expr) -> ast.expr:
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound if bound is not None else expr
    return expr
