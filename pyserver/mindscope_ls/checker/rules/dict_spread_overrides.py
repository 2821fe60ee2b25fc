"""MS3005: `{**a, **b}` where `b` repeats a key: graph mode keeps the first value.

Measured with MindSpore 2.10 on CPU (round 36, `dc_`), LAX and STRICT alike, against PyNative:
in a dict display, a `**b` of a local dict of constants whose key is already in the display
(from an earlier `**a`, or written out before it: `{"b": 5, **b}`) does not replace that key's
value in GRAPH_MODE: `a = {"a": 1, "b": 5}; b = {"b": 2}; c = {**a, **b}` then `c["b"]` gave 5
(PyNative 2), and `return {**a, **b}` / `len(c)` differed too. What agrees: a key written out
after the unpacking (`{**a, "b": 2}`), a later `**{"b": 2}` written out in place,
`dict(a, b=2)`, and duplicate written-out keys (`{"a": 1, "a": 2}`). Dicts holding Tensors are
MS324's. `a = dict(a=1, b=5)` unpacked the same way diverges alike; so do int keys and a third
unpacking.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable
from .helpers.receivers import only_binding

SPREAD_OVERRIDE_KEPT = Rule(
    "MS3005",
    "dict-spread-override-kept",
    Group.DIVERGES,
    title="`**d` in a dict display repeating a key written before it: graph mode keeps the first",
    message=(
        "`**{name}` repeats the key {key!r} that this dict display already has: PyNative takes "
        "`{name}`'s value, graph mode keeps the first one, so the dict differs in GRAPH_MODE; "
        "copy the dict built so far and `update` it with `{name}`, or write the key out after "
        "the unpacking."
    ),
    why=(
        "Graph mode builds a dict display with `**d` of a local dict of constants by adding "
        "`d`'s keys it has not seen yet; a key already in the display keeps its earlier value, "
        "where Python's later one wins."
    ),
    remedy=(
        "Copy the first dict and update it (`c = dict(**a); c.update(b)`), or write the "
        "overriding keys out after the unpacking (`{**a, 'b': 2}`)."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

Key = object  # a constant key


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for display in ctx.of(ast.Dict):
        if None not in display.keys:
            continue
        yield from _display(ctx, display)


def _display(ctx: FunctionContext, display: ast.Dict) -> Iterator[RawFinding]:
    seen: set[Key] = set()
    for key, value in zip(display.keys, display.values):
        if key is not None:
            if isinstance(key, ast.Constant):
                seen.add(key.value)
            continue
        keys = _constant_dict(ctx, value) if isinstance(value, ast.Name) else None
        if keys is None:
            if isinstance(value, ast.Dict):
                seen.update(k.value for k in value.keys if isinstance(k, ast.Constant))
            continue
        assert isinstance(value, ast.Name)
        repeated = [k for k in keys if k in seen]
        if repeated:
            yield SPREAD_OVERRIDE_KEPT.finding(value, name=value.id, key=repeated[0])
        seen.update(keys)


def _constant_dict(ctx: FunctionContext, name: ast.Name) -> Optional[list[Key]]:
    """The keys of a local bound once to a dict display of constant keys and values (no
    Tensor: MS324 has those)."""
    bound = only_binding(ctx, name.id)
    if (
        isinstance(bound, ast.Call)
        and isinstance(bound.func, ast.Name)
        and bound.func.id == "dict"
        and not bound.args
        and all(k.arg is not None and _constant_value(k.value) for k in bound.keywords)
    ):
        return [k.arg for k in bound.keywords]  # `dict(a=1, b=5)` (measured: the same)
    if not isinstance(bound, ast.Dict):
        return None
    keys: list[Key] = []
    for k, v in zip(bound.keys, bound.values):
        if not isinstance(k, ast.Constant) or not _constant_value(v):
            return None
        keys.append(k.value)
    return keys


def _constant_value(value: ast.expr) -> bool:
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant):
        return True
    if isinstance(value, ast.Tuple):
        return all(_constant_value(e) for e in value.elts)
    return False
