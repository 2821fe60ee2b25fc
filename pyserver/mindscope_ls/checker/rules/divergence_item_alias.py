"""MS344: a list or dict taken out of another list or dict, changed in place, the outer read.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: graph mode treats
lists and dicts as values, so an inner list read out of an outer one is a copy there:
`l = [[1], [2]]; y = l[0]; y.append(3); return l` gave [[1, 3], [2]] in PyNative and
[[1], [2]] in GRAPH_MODE; so did `y += [3]`, `y[0] = 5`, `d = {'a': [1]}; y = d['a'];
y.append(2)`, `for y in l: y.append(0)`, an outer tuple (`([1], [2])`) and a list put into
another (`l = [y, [x]]; y.append(x); len(l[0])`: 2 in PyNative, 1). `y.extend(...)` agrees
at LAX (only STRICT differs), so it is left out. Reading only `y`, copying (`list(l[0])`)
or rebinding (`y = y + [3]`) agree. (MS318 is the same copy through `b = a` and through calls.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .divergence_containers import _first_write
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import loads_after

INNER_CONTAINER_WRITE = Rule(
    "MS344",
    "inner-container-changed",
    Group.DIVERGES,
    title="A list or dict held in another, changed in place through its own name",
    message=(
        "`{write}` changes `{name}`, {how}, but graph mode copies lists and dicts: `{outer}`, "
        "read afterwards, keeps the old {kind} in GRAPH_MODE (PyNative sees the change); "
        "{back}."
    ),
    why=(
        "In graph mode a list or dict is a value, so one read out of (or put into) another "
        "list or dict is a copy; an in-place change through that name does not reach the "
        "outer one, as it does in Python."
    ),
    remedy="Write the changed inner list back into the outer one, or build the outer one last.",
    mindspore_says="(compiles; result differs from PyNative)",
)

_DISPLAYS = (ast.List, ast.Dict)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    seen: set[int] = set()
    for node in ctx.of(ast.Assign, ast.For):
        found = _shared(ctx, node)
        if found is None:
            continue
        name, outer, how, back = found
        after = node.target if isinstance(node, ast.For) else node
        write = _first_write(fn, name, after=after)
        if write is None or id(write) in seen or _extends(write):
            continue
        if isinstance(node, ast.For) and not _inside(write, node):
            continue
        read = loads_after(fn, outer, node if isinstance(node, ast.For) else write)
        if read is None or _written_back(ctx, outer) or _other_item(ctx, read, node, name):
            continue
        seen.add(id(write))
        yield INNER_CONTAINER_WRITE.finding(
            write,
            write=names.short(write),
            name=name,
            how=how,
            outer=outer,
            kind=_kind(ctx, outer),
            back=back,
        )


def _shared(ctx: FunctionContext, node: ast.AST) -> Optional[tuple[str, str, str, str]]:
    """(inner name, outer name, how they share, how to write back) for `y = l[k]`,
    `for y in l` and `l = [y, ...]` where the items are list or dict displays."""
    if isinstance(node, ast.For):
        if (
            isinstance(node.target, ast.Name)
            and isinstance(node.iter, ast.Name)
            and _outer_of_displays(ctx, node.iter.id)
        ):
            y, outer = node.target.id, node.iter.id
            return y, outer, f"an item of `{outer}`", f"write it back by index (`{outer}[i] = {y}`)"
        return None
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return None
    target, value = node.targets[0], node.value
    if not isinstance(target, ast.Name):
        return None
    if (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and not isinstance(value.slice, ast.Slice)
        and _outer_of_displays(ctx, value.value.id)
    ):
        outer, key = value.value.id, ast.unparse(value.slice)
        back = f"write it back (`{outer}[{key}] = {target.id}`)"
        return target.id, outer, f"read out of `{outer}`", back
    if isinstance(value, (ast.List, ast.Tuple)) and receivers.only_binding(ctx, target.id):
        for item in value.elts:
            if isinstance(item, ast.Name) and isinstance(
                receivers.only_binding(ctx, item.id), _DISPLAYS
            ):
                back = f"build `{target.id}` after changing `{item.id}`"
                return item.id, target.id, f"put into `{target.id}`", back
    return None


def _written_back(ctx: FunctionContext, outer: str) -> bool:
    """`outer[k] = ...` anywhere: the change may be written back (then both modes agree)."""
    assigns: list[ast.Assign | ast.AugAssign] = ctx.of(ast.Assign, ast.AugAssign)
    for assign in assigns:
        targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
        for t in targets:
            if (
                isinstance(t, ast.Subscript)
                and isinstance(t.value, ast.Name)
                and t.value.id == outer
            ):
                return True
    return False


def _other_item(ctx: FunctionContext, read: ast.Name, node: ast.AST, name: str) -> bool:
    """The outer container is read as `outer[k]` with a constant `k` that is not the item the
    inner name shares (`y = l[0]; y.append(3); l[1]` agrees in both modes)."""
    shared = _shared_key(node, name)
    if shared is None:
        return False
    for sub in ctx.of(ast.Subscript):
        if sub.value is read:
            return isinstance(sub.slice, ast.Constant) and sub.slice.value != shared
    return False


def _shared_key(node: ast.AST, name: str) -> Optional[object]:
    """The constant key of the item `name` shares: `k` of `y = l[k]`, the position of `y` in
    `l = [.., y, ..]`; None when it is not a constant (a loop shares every item)."""
    if isinstance(node, ast.Assign):
        value = node.value
        if isinstance(value, ast.Subscript):
            return value.slice.value if isinstance(value.slice, ast.Constant) else None
        if isinstance(value, (ast.List, ast.Tuple)):
            for i, item in enumerate(value.elts):
                if isinstance(item, ast.Name) and item.id == name:
                    return i
    return None


def _outer_of_displays(ctx: FunctionContext, name: str) -> bool:
    """`name` is bound once to a list, tuple or dict display whose items are all list/dict
    displays (measured: `l = ([1], [2])` too)."""
    bound = receivers.only_binding(ctx, name)
    if isinstance(bound, (ast.List, ast.Tuple)):
        items: list[Optional[ast.expr]] = list(bound.elts)
    elif isinstance(bound, ast.Dict):
        items = list(bound.values)
    else:
        return False
    return bool(items) and all(isinstance(item, _DISPLAYS) for item in items)


def _kind(ctx: FunctionContext, outer: str) -> str:
    return "dict" if isinstance(receivers.only_binding(ctx, outer), ast.Dict) else "list"


def _extends(write: ast.stmt) -> bool:
    """`y.extend(...)`: LAX keeps the change (measured), only STRICT copies."""
    value = getattr(write, "value", None)
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "extend"
    )


def _inside(node: ast.AST, loop: ast.For) -> bool:
    return any(node is sub for stmt in loop.body for sub in ast.walk(stmt))
