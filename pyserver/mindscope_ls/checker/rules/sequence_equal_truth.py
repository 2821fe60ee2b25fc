"""MS1090 / MS285: `==` / `!=` of tuples, lists or dicts whose items are compared as Tensors.

Measured with MindSpore 2.10 on CPU (round 34, `le_`), `x` of 3 elements, each ran in
PyNative, where Python's sequence and dict equality skips items that are the same object:

MS1090: at LAX, `[x, 1] == [x, 1]`, `(x, 2) != (x, 2)`, `(1, x) == (1, x)`, `a == a` for
`a = [x, 1]`, `((x, 1), 2) == ((x, 1), 2)`, `[x, self.k] == [x, 1]`, and `{"a": x} ==
{"a": x}` fail: a side mixing Tensor and other items (or any dict) goes to the Python
fallback, which compares the Tensors themselves and takes the truth of a 3-element result
("The tensor should have only one element"; MindSpore names no line). Compile at LAX: a
0-d Tensor item (`[x.sum(), 1]`), sides of Tensors only (`(x, x) == (x, x)`, `[y] == [y]`),
lists of lengths that differ, a pair of unequal numbers before the Tensor (`[1, x] == [2, x]`).
Tuples are walked pair by pair whatever their lengths (round 36): `(x, 1) == (x,)`, `(x,) ==
(x, 1)`, `((x, 1), 2) == ((x, 1),)`, `[(x, 1), 2] == [(x,), 2]` fail; `[x, 1] == [x]`,
`([x, 1], 2) == ([x], 2)` and `((x, 1), 2) == ([x, 1], 2)` (a tuple against a list) compile.
Under STRICT the tuple and list forms are MS267's.

MS285: under STRICT, `==` / `!=` of dicts holding a Tensor value fails whatever its size
("When handling script '__input_key_0__ == __input_key_1__ in graph mode', the inputs should
be constant"); `{"a": x.sum()} == {"a": x.sum()}` compiles at LAX.

MS292: under STRICT, the same `==` / `!=` with an item that is a tuple or list holding a Tensor
(see `_nested_under_strict`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from math import prod
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract, shapes
from .sequence_tensor_compare import display_of, mixed_sides, written_items

TENSOR_ITEMS_COMPARED = Rule(
    "MS1090",
    "sequence-equal-tensor-truth",
    Group.FAILS,
    title="`==` / `!=` of tuples, lists or dicts that compares a Tensor of several elements",
    message=(
        "`{text}` compares the {kind}s item by item in graph mode's Python fallback, which "
        "takes the truth of `{item} == ...`, a Tensor of {size} elements (PyNative skipped "
        "it: the same object on both sides); compare the other items, or the Tensors with "
        "`ops.equal(...).all()`."
    ),
    why=(
        "A tuple or list mixing Tensors with other items, or a dict, is compared in the Python "
        "fallback; Python's equality then asks the truth of the Tensors' elementwise `==`, "
        "which a Tensor of more than one element does not have."
    ),
    remedy=(
        "Compare the non-Tensor items alone, or the Tensors with `ops.equal(a, b).all()`, or "
        "keep the Tensors out of the compared sequences."
    ),
    mindspore_says="ValueError: The tensor should have only one element, but got 3 elements.",
)

DICT_EQUAL_UNDER_STRICT = Rule(
    "MS285",
    "tensor-dict-equal-under-strict",
    Group.STRICT,
    title="`==` / `!=` of dicts holding a Tensor, under STRICT",
    message=(
        "`{text}` compares dicts holding the Tensor `{item}`; under jit_syntax_level=STRICT "
        "dict equality runs only on constants: compare the values themselves."
    ),
    why=(
        "Graph mode has no dict equality of its own: it hands `==` of dicts to the Python "
        "fallback, which jit_syntax_level=STRICT runs only on constant inputs."
    ),
    remedy="Compare the values one by one (`d1['a'] == d2['a']`), or use the default LAX level.",
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ == __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_0__' to be nonconstant."
    ),
)

NESTED_EQUAL_UNDER_STRICT = Rule(
    "MS292",
    "nested-sequence-equal-under-strict",
    Group.STRICT,
    title="`==` / `!=` of tuples or lists with an item that is a tuple or list holding a Tensor, "
    "under STRICT",
    message=(
        "`{text}` compares {kind}s whose item `{item}` is itself a sequence holding the Tensor "
        "`{tensor}`; under jit_syntax_level=STRICT the {kind} equality refuses nested "
        "sequences of Tensors: compare the inner items one by one, or use the default LAX level."
    ),
    why=(
        "Graph mode compiles `==` / `!=` of tuples and lists to `tuple_equal` / `list_equal`, "
        "which under STRICT take flat sequences of Tensors or sequences of Python values; an "
        "item that is a tuple or list holding a Tensor (even `((x,), (x,))`) is refused."
    ),
    remedy=(
        "Compare the inner sequences item by item (`a[0][0] == b[0][0]`), flatten them, or use "
        "the default LAX level."
    ),
    mindspore_says=(
        "TypeError: In JIT strict mode, the primitive 'tuple_equal' does not support the "
        "following argument types"
    ),
)

_EQUAL = (ast.Eq, ast.NotEq)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    compares: list[ast.Compare] = [
        c for c in ctx.of(ast.Compare) if any(isinstance(op, _EQUAL) for op in c.ops)
    ]
    for node in compares:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, _EQUAL):
                finding = _compared(ctx, node, left, right)
                if finding is not None:
                    yield finding
                    break
            left = right


def _compared(
    ctx: FunctionContext, node: ast.Compare, left: ast.expr, right: ast.expr
) -> Optional[RawFinding]:
    text = ast.unparse(node)
    pairs = _dict_pairs(ctx, left, right)
    if pairs is not None:
        if ctx.level == SyntaxLevel.STRICT:
            tensor = next((v for pair in pairs for v in pair if ctx.types.is_tensor(v)), None)
            if tensor is None:
                return None
            return DICT_EQUAL_UNDER_STRICT.finding(node, text=text, item=ast.unparse(tensor))
        kind = "dict"
    else:
        a, b = written_items(ctx, left), written_items(ctx, right)
        if a is None or b is None:
            return None
        if ctx.level == SyntaxLevel.STRICT:  # item types decide, whatever the lengths
            return _nested_under_strict(ctx, node, left, right, a + b)
        kind = _kind(ctx, left)
        if not _walked(kind, _kind(ctx, right), a, b):
            return None
        if mixed_sides(ctx, abstract(ctx), left, right) is None and not _nested_tensor(ctx, a + b):
            return None  # Tensors only: graph mode's own tuple equality
        pairs = list(zip(a, b))
    reached = _reached(ctx, pairs)
    if reached is None:
        return None
    item, size = reached
    return TENSOR_ITEMS_COMPARED.finding(
        node, text=text, kind=kind, item=ast.unparse(item), size=size
    )


def _nested_under_strict(
    ctx: FunctionContext, node: ast.Compare, left: ast.expr, right: ast.expr, items: list[ast.expr]
) -> Optional[RawFinding]:
    """MS292: an item of either side is a written-out tuple or list holding a Tensor at any
    depth. Measured under STRICT: `((x, 1), 2)`, `((x, x), 2)`, `((x,), (x,))`, `((x.sum(),
    1),) == ((6.0, 1),)`, `[[x, 1], 2]`, `!=` and sides of other lengths fail; `(x.shape, 2)
    == ((3,), 2)` and flat sides of Tensors compile (a flat side mixing kinds is MS267's)."""
    if mixed_sides(ctx, abstract(ctx), left, right) is not None:
        return None
    for item in items:
        tensor = _tensor_inside(ctx, item)
        if tensor is not None:
            kind = _kind(ctx, left)
            return NESTED_EQUAL_UNDER_STRICT.finding(
                node,
                text=ast.unparse(node),
                kind=kind,
                item=ast.unparse(item),
                tensor=ast.unparse(tensor),
            )
    return None


def _tensor_inside(ctx: FunctionContext, item: ast.expr, depth: int = 0) -> Optional[ast.expr]:
    """A Tensor in the written-out tuple or list `item`, at any depth."""
    inner = written_items(ctx, item) if depth < 8 else None
    for elt in inner or ():
        if ctx.types.is_tensor(elt):
            return elt
        found = _tensor_inside(ctx, elt, depth + 1)
        if found is not None:
            return found
    return None


def _reached(
    ctx: FunctionContext, pairs: list[tuple[ast.expr, ast.expr]]
) -> Optional[tuple[ast.expr, int]]:
    """The first Tensor of several elements Python's equality reaches walking the pairs in
    order: past equal constants and one-element Tensors; None once unequal constants decide
    it or an item is not known."""
    for a, b in pairs:
        if isinstance(a, ast.Constant) and isinstance(b, ast.Constant):
            if a.value != b.value:
                return None
            continue
        inner = (written_items(ctx, a), written_items(ctx, b))
        if inner[0] is not None and inner[1] is not None:  # `((x, 1), 2)`: item by item
            if not _walked(_kind(ctx, a), _kind(ctx, b), inner[0], inner[1]):
                return None
            found = _reached(ctx, list(zip(inner[0], inner[1])))
            if found is not None:
                return found
            continue  # (only equal items would let the walk go on; unknown stops it there)
        tensors = [e for e in (a, b) if ctx.types.is_tensor(e)]
        if not tensors:
            return None
        sizes = [_size(ctx, e) for e in tensors]
        if any(s is None for s in sizes):
            return None
        big = next(((e, s) for e, s in zip(tensors, sizes) if s is not None and s > 1), None)
        if big is not None:
            return big
    return None


def _kind(ctx: FunctionContext, expr: ast.expr) -> str:
    return "tuple" if isinstance(display_of(ctx, expr), ast.Tuple) else "list"


def _walked(kind: str, other: str, a: list[ast.expr], b: list[ast.expr]) -> bool:
    """Whether the fallback compares the items of these two sequences pair by pair: tuples
    whatever their lengths (it zips them), lists only of one length; a tuple against a list is
    unequal at once."""
    return kind == other and (kind == "tuple" or len(a) == len(b))


def _nested_tensor(ctx: FunctionContext, items: list[ast.expr]) -> bool:
    """An item is itself a written-out tuple or list holding a Tensor (`((x, 1), 2)`: measured
    to go to the fallback like a mixed side)."""
    return any(_tensor_inside(ctx, item) is not None for item in items)


def _size(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    shape = shapes(ctx).of(expr)
    if shape is None or not all(isinstance(d, int) for d in shape):
        return None
    return prod(d for d in shape if isinstance(d, int))


def _dict_pairs(
    ctx: FunctionContext, left: ast.expr, right: ast.expr
) -> Optional[list[tuple[ast.expr, ast.expr]]]:
    """The values of two dict displays (directly or bound once) with the same str keys, paired
    in the left one's order."""
    a, b = _dict_display(ctx, left), _dict_display(ctx, right)
    if a is None or b is None or set(a) != set(b):
        return None
    return [(a[k], b[k]) for k in a]


def _dict_display(ctx: FunctionContext, expr: ast.expr) -> Optional[dict[str, ast.expr]]:
    expr = display_of(ctx, expr)
    if not isinstance(expr, ast.Dict):
        return None
    found: dict[str, ast.expr] = {}
    for key, value in zip(expr.keys, expr.values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        found[key.value] = value
    return found
