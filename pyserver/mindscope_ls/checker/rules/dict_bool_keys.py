"""MS3006: a dict keyed by both `True` and `1` (or `False` and `0`): graph mode keeps two keys.

Measured with MindSpore 2.10 on CPU (round 36, `dc_`), LAX and STRICT alike, against PyNative:
Python's `True == 1` makes `{1: 10, True: 20}` one key holding 20; a dict display compiled in
graph mode keeps `1` and `True` apart, so `d[1]` gave 10 (PyNative 20) and `len(d)` 2
(PyNative 1); `{0: 10, False: 20}`, `{True: 10, 1: 20}` read at `True`, Tensor values, and
`d = {1: 10}; d[True] = 20` then `d[1]` alike. What agrees: the last-written spelling read
(`d[True]` of `{1: 10, True: 20}`), `{1: 10, 1.0: 20}` (one key), and a dict attribute built
in `__init__` (Python merged it already).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable

BOOL_INT_KEYS = Rule(
    "MS3006",
    "dict-bool-and-int-keys",
    Group.DIVERGES,
    title="A dict keyed by both `True` and `1` (or `False` and `0`) in compiled code",
    message=(
        "`{key}` and `{other}` are one key in Python (`True == 1`), but graph mode keeps them "
        "apart: `{name}` has two keys in GRAPH_MODE and a read of either may give the other's "
        "value; use one spelling for the key."
    ),
    why=(
        "Python hashes `True` as 1 and `False` as 0, so a dict merges them; graph mode's dict "
        "compares keys by their type too."
    ),
    remedy="Key the dict with ints only (`int(flag)`) or bools only.",
    mindspore_says="(compiles; result differs from PyNative)",
)


def _bool_int(expr: Optional[ast.expr]) -> Optional[tuple[int, bool]]:
    """(value, is a bool) of a constant bool or 0/1 int key."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and expr.value in (0, 1):
        return int(expr.value), isinstance(expr.value, bool)
    return None


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    displays: list[ast.Dict] = [
        d for d in ctx.of(ast.Dict) if any(_bool_int(k) is not None for k in d.keys)
    ]
    if not displays:
        return
    owners = _owners(ctx, displays)
    for display in displays:
        first: dict[int, tuple[bool, ast.expr]] = {}
        for key in display.keys:
            found = _bool_int(key)
            if found is None or key is None:
                continue
            value, is_bool = found
            earlier = first.get(value)
            if earlier is not None and earlier[0] != is_bool:
                if _only_read_at(ctx, owners.get(id(display)), found):
                    break  # the later spelling read: the value Python kept (measured)
                yield BOOL_INT_KEYS.finding(
                    key, key=ast.unparse(key), other=ast.unparse(earlier[1]), name="the dict"
                )
                break
            first.setdefault(value, (is_bool, key))
    yield from _stores(ctx, displays)


def _owners(ctx: FunctionContext, displays: list[ast.Dict]) -> dict[int, str]:
    """The local each display is bound to (`d = {...}`), by the display's id."""
    found: dict[int, str] = {}
    for assign in ctx.of(ast.Assign):
        if (
            len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
            and any(assign.value is d for d in displays)
        ):
            found[id(assign.value)] = assign.targets[0].id
    return found


def _only_read_at(ctx: FunctionContext, name: Optional[str], key: tuple[int, bool]) -> bool:
    """Every read of `name` is `name[k]` with `k` spelled as `key`."""
    if name is None:
        return False
    loads = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Load)]
    spelled = [
        s
        for s in ctx.of(ast.Subscript)
        if isinstance(s.value, ast.Name) and s.value.id == name and _bool_int(s.slice) == key
    ]
    return bool(loads) and len(loads) == len(spelled)


def _stores(ctx: FunctionContext, displays: list[ast.Dict]) -> Iterator[RawFinding]:
    """`d = {1: 10}` then `d[True] = 20`."""
    by_id = {id(d): d for d in displays}
    owners = {name: by_id[i] for i, name in _owners(ctx, displays).items()}
    for sub in ctx.of(ast.Subscript):
        if not (
            isinstance(sub.ctx, ast.Store)
            and isinstance(sub.value, ast.Name)
            and sub.value.id in owners
        ):
            continue
        found = _bool_int(sub.slice)
        if found is None:
            continue
        for key in owners[sub.value.id].keys:
            other = _bool_int(key)
            if (
                key is not None
                and other is not None
                and other[0] == found[0]
                and other[1] != found[1]
            ):
                yield BOOL_INT_KEYS.finding(
                    sub.slice,
                    key=ast.unparse(sub.slice),
                    other=ast.unparse(key),
                    name=sub.value.id,
                )
                break
