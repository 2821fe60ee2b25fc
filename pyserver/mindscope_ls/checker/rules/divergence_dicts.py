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
