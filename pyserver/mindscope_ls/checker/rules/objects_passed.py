"""MS2035, MS3036, MS3037: an object's attribute changed where graph mode does not keep the change.

Measured with MindSpore 2.10 on CPU (round 37, `jc_`), against PyNative:
- MS2035 (STRICT): a `@jit_class` object changed in compiled code in ways MS210/MS251 do not
  see, each failing under STRICT with "Can not find kernel tensor for node :
  ValueNode<MsClassObject> MsClassObject: 'Cfg'" (LAX compiles):
  - given to a function or method of the module that assigns an attribute of its parameter
    (`bump(self.cfg)` with `def bump(c): c.k = c.k + 1`, `self.bump(c)` on a local object),
    whether the caller reads the attribute afterwards or not (MindSpore names the call);
  - a loop variable over a list or tuple attribute of `@jit_class` objects assigned
    (`for c in self.cs: c.k = 5`, naming the write);
  - a list attribute of a `@jit_class` object created in compiled code appended to
    (`c = Cfg(); c.vals.append(4)`, naming the call), read afterwards or not.
- MS3036 (every level, a warning): the caller reads back an attribute that such a function
  assigned on the object it was given (`bump(self.cfg); x * self.cfg.k`): the graph reads the
  value the object had before the call (LAX, for plain objects and `@jit_class` objects;
  STRICT, for plain objects: a `@jit_class` fails there, MS2035).
- MS3037 (a warning): a list attribute of an object changed in compiled code: an item written
  (`self.cfg.vals[0] = 7`, plain or `@jit_class`, LAX and STRICT: the write is not kept on a
  held object, and a read after it, also of a local object's list, sees the old item); at LAX
  a `@jit_class` object made in compiled code grown by `c.vals.append(4)`, then `len(c.vals)`
  or `c.vals[-1]` read (the old list; a plain object's list agrees there).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo
from .jit_class_strict import _created_here

JIT_CLASS_CHANGED_UNDER_STRICT = Rule(
    "MS2035",
    "jit-class-object-changed-under-strict",
    Group.STRICT,
    title="A `@jit_class` object changed by a callee, a loop or a list method (STRICT)",
    message=(
        "{what}: under STRICT a `@jit_class` object is a constant of the graph and cannot be "
        "changed; keep the value in a Parameter or a local, or use the default LAX level."
    ),
    why=(
        "Graph mode builds a `@jit_class` instance as a constant of the graph; STRICT has no "
        "way to store into it, whether the write is in the compiled function, in a function "
        "it calls, or on a list the object holds (LAX does it through its Python fallback)."
    ),
    remedy="Return the new value from the helper and keep it in a local or a Parameter.",
    mindspore_says=(
        "RuntimeError: Can not find kernel tensor for node : ValueNode<MsClassObject> "
        "MsClassObject: 'Cfg', output index: 0"
    ),
)

CALLEE_WRITE_UNSEEN = Rule(
    "MS3036",
    "callee-object-write-unseen",
    Group.DIVERGES,
    title="An attribute a called function sets on an object, read back by the caller",
    message=(
        "`{call}` sets `{param}.{attr}` on `{obj}`, but the compiled caller goes on reading "
        "the value `{obj}.{attr}` had before the call (PyNative reads the new one); return "
        "the new value from `{callee}` instead."
    ),
    why=(
        "Graph mode resolves an object's Python attributes while compiling: a write in the "
        "called function reaches the Python object, not the caller's graph."
    ),
    remedy="Return the value from the helper and use the returned value.",
    mindspore_says="(compiles; result differs from PyNative)",
)

OBJECT_LIST_CHANGE_UNSEEN = Rule(
    "MS3037",
    "object-list-attribute-change-unseen",
    Group.DIVERGES,
    title="A list attribute of an object changed in compiled code, the change not seen",
    message=(
        "`{change}` changes the list `{target}` of {owner}, but graph mode reads it as the "
        "constant it compiled with: {effect} (PyNative sees the change); build a new list in "
        "a local instead."
    ),
    why=(
        "Graph mode takes an object's list attribute as a compile-time constant: an item "
        "written into it is neither seen by later reads nor kept on the Python object, and a "
        "`@jit_class` object's list grown by `append` is read at its old length."
    ),
    remedy="Copy the list into a local (`vals = list(obj.vals)`), change and use the copy.",
    mindspore_says="(compiles; result differs from PyNative)",
)

_LIST_GROWERS = ("append", "extend", "insert")


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    strict = ctx.level == SyntaxLevel.STRICT
    for call in calls:
        found = _callee_write(ctx, call)
        if found is None:
            continue
        arg, param, attrs, callee = found
        info = _object_class(ctx, arg)
        jit = info is not None and info.is_jit_class and not info.is_cell
        if strict and jit:
            yield JIT_CLASS_CHANGED_UNDER_STRICT.finding(
                call,
                what=f"`{ast.unparse(call)}` assigns `{param}.{attrs[0]}` of `{ast.unparse(arg)}`,"
                f" a `{info.name if info else ''}`",
            )
            continue
        if info is None:
            continue
        read = _read_after(ctx, call, arg, attrs)
        if read is not None:
            yield CALLEE_WRITE_UNSEEN.finding(
                call,
                call=ast.unparse(call),
                param=param,
                attr=read,
                obj=ast.unparse(arg),
                callee=callee,
            )
    if strict:
        yield from _loop_writes(ctx)
        yield from _list_growth(ctx, calls)
    yield from _list_item_writes(ctx)
    if not strict:
        yield from _list_growth_read(ctx, calls)


def _list_item_writes(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`self.cfg.vals[i] = v` / `c.vals[i] += v`: an item of a list attribute of a workspace
    object (measured, plain and `@jit_class` alike, LAX and STRICT: the write is not kept on a
    held object, nor seen by a read of a local one's list after it)."""
    writes: list[ast.Assign | ast.AugAssign] = ctx.of(ast.Assign, ast.AugAssign)
    for node in writes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)):
                continue
            holder = target.value
            info = _object_class(ctx, holder.value)
            if info is None:
                continue
            held = info.attr(holder.attr)
            if held is None or held.kind != "list":
                continue
            local = isinstance(holder.value, ast.Name)
            if local and not _read_after(ctx, target, holder.value, [holder.attr]):
                continue  # a local object's list nobody reads again: nothing differs
            yield OBJECT_LIST_CHANGE_UNSEEN.finding(
                target,
                change=ast.unparse(target),
                target=ast.unparse(holder),
                owner=f"`{ast.unparse(holder.value)}`, a `{info.name}`",
                effect="reads after it see the old item"
                + ("" if local else ", and the object keeps it"),
            )
            break


def _list_growth_read(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    """LAX: `c.vals.append(v)` on a `@jit_class` object made in compiled code, then `c.vals`
    read (measured: `len(c.vals)` and `c.vals[-1]` see the old list; a plain object's list
    is grown by the fallback and agrees; STRICT fails, MS2035)."""
    for call, target, obj, info in _grown_lists(ctx, calls):
        if not _read_after(ctx, call, obj, [target.attr]):
            continue
        yield OBJECT_LIST_CHANGE_UNSEEN.finding(
            call,
            change=ast.unparse(call),
            target=ast.unparse(target),
            owner=f"`{obj.id}`, a `{info.name}` (`@jit_class`) created here",
            effect="reads after it see the list it had before",
        )


def _callee_write(
    ctx: FunctionContext, call: ast.Call
) -> Optional[tuple[ast.expr, str, list[str], str]]:
    """(the argument, the parameter, the attributes assigned, the callee's name) when `call`
    calls a function of the module (by name) or a method of the compiled class (`self.m`)
    whose body assigns an attribute of the parameter an object is passed to."""
    func = call.func
    module = ctx.fn.module
    target: Optional[ast.FunctionDef | ast.AsyncFunctionDef] = None
    skip = 0
    if isinstance(func, ast.Name) and func.id in module.functions:
        node = module.functions[func.id]
        target = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    elif (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
        and ctx.fn.cls is not None
    ):
        method = ctx.fn.cls.find_method(func.attr)
        if method is not None and isinstance(method[1], (ast.FunctionDef, ast.AsyncFunctionDef)):
            target, skip = method[1], 1
            if target.decorator_list:
                return None
    if target is None or call.keywords:
        return None
    params = [a.arg for a in [*target.args.posonlyargs, *target.args.args]][skip:]
    for index, arg in enumerate(call.args):
        if index >= len(params) or isinstance(arg, ast.Starred):
            break
        if _object_class(ctx, arg) is None:
            continue
        attrs = _assigned(target, params[index])
        if attrs:
            return arg, params[index], attrs, target.name
    return None


def _assigned(fn: ast.AST, param: str) -> list[str]:
    """Attributes `param.<attr>` assigned in `fn` (`=`, `+=`), `param` never rebound there."""
    found: list[str] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == param and isinstance(node.ctx, ast.Store):
            return []
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if (
                    isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id == param
                    and t.attr not in found
                ):
                    found.append(t.attr)
    return found


def _object_class(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The workspace class (not a Cell) of `self.<attr>` assigned `Cls(...)` in `__init__`, or
    of a local bound once to `Cls(...)`."""
    info: Optional[ClassInfo] = None
    if isinstance(expr, ast.Name):
        if expr.id == "self":
            return None
        bound = receivers.only_binding(ctx, expr.id)
        if isinstance(bound, ast.Call):
            info = ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    elif receivers.self_attr_name(expr) is not None:
        info = receivers.workspace_class(ctx, expr)
    if info is None or info.is_cell:
        return None
    return info


def _read_after(
    ctx: FunctionContext, call: ast.expr, arg: ast.expr, attrs: list[str]
) -> Optional[str]:
    """The first of `attrs` read as `<arg>.<attr>` after the call, in the compiled function."""
    text = ast.unparse(arg)
    end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
    attributes: list[ast.Attribute] = ctx.of(ast.Attribute)
    for node in attributes:
        if (
            isinstance(node.ctx, ast.Load)
            and node.attr in attrs
            and (node.lineno, node.col_offset) >= end
            and ast.unparse(node.value) == text
        ):
            return node.attr
    return None


def _loop_writes(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.For] = ctx.of(ast.For)
    for loop in loops:
        if not isinstance(loop.target, ast.Name):
            continue
        info = _held_jit_items(ctx, loop.iter)
        if info is None:
            continue
        name = loop.target.id
        for stmt in loop.body:
            for node in ast.walk(stmt):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == name
                ):
                    yield JIT_CLASS_CHANGED_UNDER_STRICT.finding(
                        node,
                        what=f"`{ast.unparse(node)}` assigns an attribute of `{name}`, a "
                        f"`{info.name}` of `{ast.unparse(loop.iter)}`",
                    )
                    break
            else:
                continue
            break


def _held_jit_items(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The `@jit_class` of every item of `self.<attr>`, a list or tuple display of `Cls(...)`
    calls assigned in `__init__`."""
    held = receivers.self_attr(ctx, expr)
    if held is None or not isinstance(held.node, (ast.List, ast.Tuple)) or not held.node.elts:
        return None
    found: Optional[ClassInfo] = None
    for item in held.node.elts:
        if not isinstance(item, ast.Call):
            return None
        info = ctx.classes.resolve(ctx.fn.module.qualname(item.func))
        if info is None or not info.is_jit_class or info.is_cell:
            return None
        found = found or info
    return found


def _list_growth(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    for call, _, obj, info in _grown_lists(ctx, calls):
        yield JIT_CLASS_CHANGED_UNDER_STRICT.finding(
            obj,
            what=f"`{ast.unparse(call)}` grows a list attribute of `{obj.id}`, a `{info.name}` "
            "created in compiled code",
        )


def _grown_lists(
    ctx: FunctionContext, calls: list[ast.Call]
) -> Iterator[tuple[ast.Call, ast.Attribute, ast.Name, ClassInfo]]:
    """(the call, `obj.<list>`, `obj`, its class) for each `obj.<list>.append(...)` (or another
    grower) on a `@jit_class` object created in compiled code, `<list>` a list attribute."""
    for call in calls:
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr in _LIST_GROWERS
            and isinstance(func.value, ast.Attribute)
            and isinstance(func.value.value, ast.Name)
        ):
            continue
        obj = func.value.value
        info = _created_here(ctx, obj.id)
        if info is None:
            continue
        held = info.attr(func.value.attr)
        if held is not None and held.kind == "list":
            yield call, func.value, obj, info
