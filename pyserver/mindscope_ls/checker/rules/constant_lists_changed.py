"""MS1019: LAX: a list of constants changed in place, then an item used where graph mode needs a
constant (a dict key, an index, a permutation, a count, a str comparison).

Measured with MindSpore 2.10 on CPU (PyNative runs them all, STRICT compiles them all): at LAX,
`ks.reverse()`, `ks.insert(0, "c")`, `ks.extend(["c"])`, `ks.pop()` / `ks.pop(0)` on a local
list of constants (`ks = ["a", "b"]`, `idx = [0, 1, 2]`, `ks = list(d.keys())`) make the list a
run-time value: its items stop being constants (also `ks = self.names` / `list(self.names)` of a
Cell attribute set to such a list). Then `d[k]` over `for k in ks`, `d[ks[0]]`,
`d.get(ks[0])`, `self.scale[ks[0]]`, `d[ks.pop()]` fail ("dict_getitem evaluator key only supports
string, number, type, none, constant tensor and tuple, but got ValueAny"), `ts[idx[0]]` of a
tuple or list ("For 'TupleGetItem', input[1] should be Scalar"), `x.transpose(tuple(perm))`
("The pointer[permute_vnode] is null"), `range(ns[0])` and `ks[0] == "b"` fail too. What
compiles: `append` (and `clear`; `sort` is ignored, MS306), and copies that are not in place:
`ks = ks[::-1]`, `ks = list(reversed(ks))`, `ks = ["c"] + ks`. `len(ks)` and `x.reshape(dims)`
after `dims.reverse()` compiled in a function of their own, but crashed the compiler (signal 11)
in one also reading other lists, so they are left alone rather than promised.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import calls_shared
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

CHANGED_CONSTANT_LIST = Rule(
    "MS1019",
    "constant-list-changed-in-place-lax",
    Group.FAILS,
    title="LAX: an item of a list of constants changed in place, used as a key or an index",
    message=(
        "`{use}` needs a constant, but `{name}.{method}()` changed `{name}` in place, which "
        "makes its items run-time values at LAX (fails to compile); build a new list instead "
        "(`{name} = {name}[::-1]`, `{name} = [...] + {name}`)."
    ),
    why=(
        "At LAX graph mode runs `reverse`/`insert`/`extend`/`pop` on a list as graph "
        "operations, so the list it leaves is known only at run time; a dict key, a tuple "
        "index, a permutation or a `range` count must be known while compiling."
    ),
    remedy=(
        "Make a new list rather than changing it (`ks = ks[::-1]`, `ks = list(reversed(ks))`, "
        "`ks = ks[:-1]`), or set the order before compiled code runs."
    ),
    mindspore_says=(
        "RuntimeError: dict_getitem evaluator key only supports string, number, type, none, "
        "constant tensor and tuple, but got ValueAny"
    ),
)

# In-place methods that make the list a run-time value (measured); `append`, `clear` do not.
CHANGING = frozenset({"reverse", "insert", "extend", "pop"})
# Calls whose argument graph mode needs as a constant: the permutation of a transpose.
PERMUTING = frozenset({"transpose", "permute"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return
    changes: dict[str, ast.Call] = {}  # list name -> its first in-place change
    for call in ctx.of(ast.Call):
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in CHANGING
            and isinstance(func.value, ast.Name)
            and func.value.id not in changes
            and _constant_list(ctx, func.value.id)
        ):
            changes[func.value.id] = call
    if not changes:
        return
    items = _item_names(ctx, changes)
    uses = [u for u in (_use(ctx, node, changes, items) for node in _candidates(ctx)) if u]
    reported: set[str] = set()
    for node, name in sorted(uses, key=lambda u: _position(u[0])):
        if name in reported:
            continue  # the compile stops at the first
        reported.add(name)
        change = changes[name]
        assert isinstance(change.func, ast.Attribute)
        yield CHANGED_CONSTANT_LIST.finding(
            node,
            related=[ctx.related(change, "changed in place here")],
            use=ast.unparse(node),
            name=name,
            method=change.func.attr,
        )


def _constant_list(ctx: FunctionContext, name: str) -> bool:
    """`name` is bound once, to a list of str/int constants: written out, the Cell's attribute
    holding one (`self.names`), `list()` of either, or `list(d.keys())` (all measured)."""
    value = receivers.only_binding(ctx, name)
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "list"
        and len(value.args) == 1
        and not value.keywords
        and calls_shared.builtin(ctx, "list")
    ):
        value = value.args[0]
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "keys"
            and not value.args
        ):
            return True
    held = receivers.self_attr(ctx, value) if value is not None else None
    if held is not None and isinstance(held.node, ast.List):
        value = held.node
    return (
        isinstance(value, ast.List)
        and bool(value.elts)
        and all(isinstance(e, ast.Constant) and type(e.value) in (str, int) for e in value.elts)
    )


def _position(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def _after(node: ast.AST, change: ast.Call) -> bool:
    return _position(node) >= (change.lineno, change.col_offset)


def _item_names(ctx: FunctionContext, changes: dict[str, ast.Call]) -> dict[str, str]:
    """Local names holding an item of a changed list: `for k in ks` after the change, `k =
    ks.pop()`, `k = ks[0]`; name -> the list."""
    found: dict[str, str] = {}
    loops: list[ast.For] = ctx.of(ast.For)
    for loop in loops:
        source = loop.iter
        if (
            isinstance(source, ast.Name)
            and source.id in changes
            and isinstance(loop.target, ast.Name)
            and _after(loop, changes[source.id])
        ):
            found[loop.target.id] = source.id
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        target = assign.targets[0]
        if len(assign.targets) != 1 or not isinstance(target, ast.Name):
            continue
        name = _list_item(assign.value, changes)
        if name is not None and receivers.only_binding(ctx, target.id) is assign.value:
            found[target.id] = name
    return found


def _list_item(expr: ast.expr, changes: dict[str, ast.Call]) -> Optional[str]:
    """The changed list `expr` reads an item of (`ks[0]`, `ks.pop()`), read after the change."""
    if isinstance(expr, ast.Subscript) and not isinstance(expr.slice, ast.Slice):
        holder = expr.value
    elif (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "pop"
    ):
        holder = expr.func.value
    else:
        return None
    if isinstance(holder, ast.Name) and holder.id in changes and _after(expr, changes[holder.id]):
        return holder.id
    return None


def _item(expr: ast.expr, changes: dict[str, ast.Call], items: dict[str, str]) -> Optional[str]:
    if isinstance(expr, ast.Name):
        return items.get(expr.id)
    return _list_item(expr, changes)


def _candidates(ctx: FunctionContext) -> list[ast.AST]:
    return [*ctx.of(ast.Subscript), *ctx.of(ast.Call), *ctx.of(ast.Compare)]


def _use(
    ctx: FunctionContext, node: ast.AST, changes: dict[str, ast.Call], items: dict[str, str]
) -> Optional[tuple[ast.AST, str]]:
    """(node, the changed list) when `node` needs one of its items (or the list) constant."""
    if isinstance(node, ast.Subscript):
        if isinstance(node.ctx, ast.Load) and not isinstance(node.slice, ast.Slice):
            name = _item(node.slice, changes, items)
            if name is not None and _container(ctx, node.value):
                return node, name
        return None
    if isinstance(node, ast.Compare):
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            right = node.comparators[0]
            name = _item(node.left, changes, items)
            if (
                name is not None
                and isinstance(right, ast.Constant)
                and isinstance(right.value, str)
            ):
                return node, name
        return None
    assert isinstance(node, ast.Call)
    func = node.func
    if not node.args:
        return None
    if isinstance(func, ast.Attribute) and func.attr == "get" and _container(ctx, func.value):
        name = _item(node.args[0], changes, items)
        return (node, name) if name is not None else None
    if isinstance(func, ast.Name) and func.id == "range" and calls_shared.builtin(ctx, "range"):
        name = next((n for n in (_item(a, changes, items) for a in node.args) if n), None)
        return (node, name) if name is not None else None
    if isinstance(func, ast.Attribute) and func.attr in PERMUTING:
        for arg in node.args:
            if (
                isinstance(arg, ast.Call)
                and isinstance(arg.func, ast.Name)
                and arg.func.id == "tuple"
            ):
                arg = arg.args[0] if len(arg.args) == 1 else arg
            if isinstance(arg, ast.Name) and arg.id in changes and _after(node, changes[arg.id]):
                return node, arg.id
    return None


def _container(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A dict, tuple or list (a local one or the Cell's attribute), not a Tensor."""
    if ctx.types.is_tensor(expr):
        return False
    held = receivers.kind_of(ctx, expr)
    if held in (receivers.DICT, receivers.LIST):
        return True
    value = abstract(ctx).of(expr)
    return value is not None and value.kind in ("dict", "tuple", "list")
