"""MS324: `{**d}` of a dict holding Tensors computed in the graph.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike, against PyNative: graph mode
rebuilds `{**d}` (and `{**d, "c": v}`, `{"c": v, **d}`) from a dict `d` holding a Tensor
computed in the graph as a dict with one entry, keyed by the tuple of `d`'s keys, whose value
is the tuple of `d`'s values (`return {**d}` gave `{(('a', 'b'),): ((x, y),)}`). Reading a key
of the result then gives that tuple, not the value: `e["a"]` returned `((x, 2x),)` where
PyNative returned `x`, and an operator on it fails instead ("For Operator[Add], input's type
'Tuple[Tuple[Tensor[Float32]]]' does not match", "TupleGetItem evaluator index should be in
range[-1, 1), but got 1"). What keeps the values: `d` holding constants only
(`{"a": 1, "b": 2}`), a written-out dict unpacked in place (`{**{"a": x, "b": y}}`), a dict
comprehension (`{k: v for k, v in d.items()}`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.elements import Elements

DICT_OF_TENSORS_UNPACKED = Rule(
    "MS324",
    "dict-of-tensors-unpacked",
    Group.DIVERGES,
    title="`{**d}` of a dict holding Tensors computed in the graph",
    message=(
        "`{{**{name}}}` unpacks `{name}`, which holds Tensors computed in the graph: graph mode "
        "rebuilds it as one entry keyed by the tuple of its keys, so a key read from the result "
        "gives a tuple of all of `{name}`'s values (PyNative: the value), and computes something "
        "else or fails where a Tensor is expected; copy it with "
        "`{{k: v for k, v in {name}.items()}}` (then add keys to the copy)."
    ),
    why=(
        "Graph mode builds `{**d}` of a dict whose values are not constants as a single entry "
        "(the tuple of keys mapped to the tuple of values); a dict comprehension over "
        "`d.items()` copies the entries one by one."
    ),
    remedy=(
        "Copy the dict with a comprehension (`e = {k: v for k, v in d.items()}`, then "
        "`e['c'] = v`), or write the entries out (`{'a': d['a'], 'b': d['b']}`)."
    ),
    mindspore_says=(
        "(compiles; `e['a']` is a tuple of every value, where PyNative gives the value; an "
        "operator on it fails: TypeError: For Operator[Add], input's type "
        "'Tuple[Tuple[Tensor[Float32]]]' does not match expected type 'Tensor')"
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    displays: list[ast.Dict] = ctx.of(ast.Dict)
    values: Optional[Elements] = None
    for display in displays:
        for key, value in zip(display.keys, display.values):
            if key is not None or not isinstance(value, ast.Name):
                continue
            bound = receivers.only_binding(ctx, value.id)
            if not isinstance(bound, ast.Dict) or any(k is None for k in bound.keys):
                continue
            if values is None:
                values = Elements(ctx.types, ctx.fn.node, ctx.lines)
            if any(ctx.types.is_tensor(v) and values.variable(v) for v in bound.values):
                yield DICT_OF_TENSORS_UNPACKED.finding(display, name=value.id)
                break


DICT_OF_TENSORS_UNPACKED_OPERAND = Rule(
    "MS1082",
    "dict-of-tensors-unpacked-operand",
    Group.FAILS,
    title="A key of `{**d}` (`d` holding Tensors computed in the graph) read as an operand",
    message=(
        "`{read}` reads `{key}` of a dict built from `**{name}`, which holds Tensors computed "
        "in the graph: graph mode gives the tuple of all of `{name}`'s values there, and the "
        "operator fails on that tuple; copy the dict with `{{k: v for k, v in {name}.items()}}` "
        "(then add keys to the copy)."
    ),
    why=(
        "Graph mode builds `{{**d, ...}}` of a dict whose values are computed in the graph with "
        "`d`'s entries as one (the tuple of its keys mapped to the tuple of its values): "
        "reading one of `d`'s keys from the result gives that tuple, and an arithmetic operator "
        "on it has no Tensor to work on."
    ),
    remedy=(
        "Copy the dict with a comprehension (`e = {k: v for k, v in d.items()}`, then "
        "`e['c'] = v`), or write the entries out (`{'a': d['a'], 'c': v}`)."
    ),
    mindspore_says=(
        "TypeError: For Operator[Add], other's type 'Tuple[Tuple[Tensor[Float32]]]' does not "
        "match expected type 'Tensor'."
    ),
)


def check_read(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1082: `e = {**d, "k": v}` (or `{"k": v, **d}`, `{**d, **f}`) with `d` a local
    written-out dict holding a Tensor computed in the graph, then `e["a"]` for one of `d`'s own
    keys as an operand of an arithmetic operator (`e["a"] + e["k"]`, `e["a"] * 2`,
    `s += e["a"]`): failed at LAX and STRICT on 2.10 ("For Operator[Add], input's type
    'Tuple[Tuple[Tensor[Float32]]]' does not match expected type 'Tensor'", naming no line).
    What compiled: reading an added key (`e["k"] + 1`), `len(e)`, `e["a"]` returned (MS324's
    divergence), `d` of constants only."""
    operators: list[ast.BinOp] = ctx.of(ast.BinOp)
    augs: list[ast.AugAssign] = ctx.of(ast.AugAssign)
    if not operators and not augs:
        return
    broken = _broken_keys(ctx)
    if not broken:
        return
    operands = [o for b in operators for o in (b.left, b.right)] + [a.value for a in augs]
    for operand in operands:
        if not (
            isinstance(operand, ast.Subscript)
            and isinstance(operand.value, ast.Name)
            and isinstance(operand.slice, ast.Constant)
        ):
            continue
        spread = broken.get(operand.value.id)
        if spread is not None and operand.slice.value in spread[1]:
            yield DICT_OF_TENSORS_UNPACKED_OPERAND.finding(
                operand,
                read=ast.unparse(operand),
                key=repr(operand.slice.value),
                name=spread[0],
            )


def _broken_keys(ctx: FunctionContext) -> dict[str, tuple[str, set[object]]]:
    """`e -> (d, d's keys)` for each local `e` bound once to a dict display spreading a local
    dict `d` of constant keys that holds a Tensor computed in the graph."""
    found: dict[str, tuple[str, set[object]]] = {}
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    values: Optional[Elements] = None
    for a in assigns:
        display = a.value
        if not (
            isinstance(display, ast.Dict)
            and len(a.targets) == 1
            and isinstance(a.targets[0], ast.Name)
            and None in display.keys
        ):
            continue
        target = a.targets[0].id
        if receivers.only_binding(ctx, target) is not display:
            continue
        for key, value in zip(display.keys, display.values):
            if key is not None or not isinstance(value, ast.Name):
                continue
            bound = receivers.only_binding(ctx, value.id)
            if not isinstance(bound, ast.Dict) or not all(
                isinstance(k, ast.Constant) for k in bound.keys
            ):
                continue
            if values is None:
                values = Elements(ctx.types, ctx.fn.node, ctx.lines)
            if any(ctx.types.is_tensor(v) and values.variable(v) for v in bound.values):
                keys: set[object] = {k.value for k in bound.keys if isinstance(k, ast.Constant)}
                found[target] = (value.id, keys)
                break
    return found
