"""MS360 (and MS313 for held objects): Python objects whose state graph mode does not keep.

Measured with MindSpore 2.10 on CPU against PyNative (round31 `ob_lm_*`, `ob_oc_*`), in a
Cell's `construct`:

- MS360: a method that assigns `self.<attr>` (`a.bump()`, `a.set(5)`, in a loop too), called
  on an object of a plain class or `@jit_class` (a local `a = Acc()` or `self.a` set in
  `__init__`), then that attribute read (`a.n`, or through a method that reads it,
  `a.get()`): GRAPH_MODE read the value from before the call (x * 0 where PyNative gave
  x * 5) at LAX. The method's own return value is right (`k = a.bump()` compiled to the same
  result), and so is a read before the call. STRICT refuses the write instead (MS202/MS252).
- MS313: `self.c.n += 1` on a plain object the Cell holds, or `self.log.items.append(1)` on a
  list attribute of one (of a `@jit_class` object too), runs once, while compiling: after two
  calls the object held 1 (or one item) where PyNative's held 2, at LAX and STRICT. (A plain
  `self.c.n = 5` gives the same state either way; a `@jit_class` object's attribute is
  MS310's.)

`@ms.jit` functions are left alone: PyNative compiles them too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import divergence_python
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo
from .helpers.python_objects import opaque_class
from .helpers.receivers import only_binding, self_attr, self_attr_name
from .helpers.walk import of_type

METHOD_WRITE_UNSEEN = Rule(
    "MS360",
    "object-method-write-unseen",
    Group.DIVERGES,
    title="An attribute a method of the object set, read back in compiled code",
    message=(
        "`{read}` was set by the earlier `{call}`, but graph mode reads the value `{obj}` "
        "held before that call, unlike PyNative; use the method's return value or keep the "
        "value in a local."
    ),
    why=(
        "Graph mode runs a method of a Python object that assigns `self.<attr>` through its "
        "Python fallback, but goes on reading the object's attributes as it found them "
        "(GRAPH_MODE returned x * 0 where PyNative returned x * 5)."
    ),
    remedy=(
        "Return the new value from the method and use that (`n = a.bump()`), or keep the "
        "state in a local or a Parameter."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or "jit" in ctx.fn.reason:
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    yield from _held_state(ctx, calls)
    if ctx.level == SyntaxLevel.STRICT:
        return
    withs: list[ast.With] = ctx.of(ast.With)
    for node in withs:
        unseen = _with_write_unseen(ctx, node)
        if unseen is not None:
            yield unseen
            return
    own = _own_method_write_unseen(ctx, cls, calls)
    if own is not None:
        yield own
        return
    for call in calls:
        func = call.func
        if not isinstance(func, ast.Attribute) or not _maybe_object(ctx, func.value):
            continue
        info = _object_class(ctx, func.value)
        if info is None:
            continue
        found = info.find_method(func.attr)
        if found is None:
            continue
        written = _self_writes(found[1])
        if not written:
            continue
        end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
        read = _read_after(ctx, info, func.value, end, written)
        if read is not None:
            yield METHOD_WRITE_UNSEEN.finding(
                read,
                related=[ctx.related(call, "the call that sets it")],
                read=ast.unparse(read),
                call=ast.unparse(func) + "()",
                obj=ast.unparse(func.value),
            )
            return


def _own_method_write_unseen(
    ctx: FunctionContext, cls: ClassInfo, calls: list[ast.Call]
) -> Optional[RawFinding]:
    """`self.log(loss)` where the Cell's own method `log` (or a method it calls on `self`)
    assigns `self.last`, then `self.last` read after the call. Measured on 2.10 at LAX (round
    36, `tr_`): the read gives the value `__init__` set (0.0 where PyNative gave the loss; a
    counter `self.count += 1` in `tick()` read as 0, 0 where PyNative gave 1, 2; `if
    self.done:` after `mark()` took the `__init__` branch). Agreeing: the method's return
    value (`n = self.tick()`), a read before the call, an `ops.assign` to a Parameter, and the
    attribute read by the caller of the Cell afterwards. STRICT refuses the write (MS202).
    Attributes holding Parameters or Cells, and ones the function itself assigns, are left
    alone."""
    stores: list[ast.Assign | ast.AugAssign] = ctx.of(ast.Assign, ast.AugAssign)
    written_here = {
        name
        for node in stores
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if (name := self_attr_name(target)) is not None
    }
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and self_attr_name(func) is not None):
            continue
        if not (isinstance(func.value, ast.Name) and func.value.id == "self"):
            continue
        written = _own_writes(cls, func.attr, 0) - written_here
        written = {
            name
            for name in written
            if (held := cls.attr(name)) is not None and held.kind in ("object", "const_tensor")
        }
        if not written:
            continue
        end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
        read = _read_after(ctx, cls, func.value, end, written)
        if read is not None:
            return METHOD_WRITE_UNSEEN.finding(
                read,
                related=[ctx.related(call, "the call that sets it")],
                read=ast.unparse(read),
                call=ast.unparse(func) + "()",
                obj="self",
            )
    return None


def _own_writes(cls: ClassInfo, method: str, depth: int) -> set[str]:
    """What the Cell's method `method` assigns on `self`, with the methods it calls on
    `self` (two levels)."""
    found = cls.find_method(method)
    if found is None or method in ("construct", "__init__") or depth > 2:
        return set()
    written = _self_writes(found[1])
    for node in of_type(found[1], ast.Call):
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        ):
            written |= _own_writes(cls, func.attr, depth + 1)
    return written


def _with_write_unseen(ctx: FunctionContext, node: ast.With) -> Optional[RawFinding]:
    """`with a:` / `with self.a:` / `with Acc() as a:` (its `__enter__` returning `self`) where
    `__enter__` assigns `self.n`, then `a.n` read in the body or after; or `__exit__` assigns
    it, then `a.n` read after the block. Measured at LAX on 2.10 (`@jit_class` context
    managers): GRAPH_MODE read the value from before (x * 0 where PyNative gave x * 5), as for
    an explicit method call; `__enter__` returning a value computed from `self.n` compiles
    right. STRICT refuses the write (MS252)."""
    for item in node.items:
        expr = item.context_expr
        receiver: Optional[ast.expr] = None
        info: Optional[ClassInfo] = None
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            info = ctx.classes.resolve(ctx.fn.module.qualname(expr.func))
            if not opaque_class(info) or not isinstance(item.optional_vars, ast.Name):
                continue
            assert info is not None
            enter = info.find_method("__enter__")
            if enter is None or not _returns_self(enter[1]):
                continue
            receiver = item.optional_vars
        elif _maybe_object(ctx, expr):
            info = _object_class(ctx, expr)
            receiver = expr
        if info is None or receiver is None:
            continue
        for method, end in (
            ("__enter__", (expr.end_lineno or expr.lineno, expr.end_col_offset or 0)),
            ("__exit__", (node.end_lineno or node.lineno, node.end_col_offset or 0)),
        ):
            found = info.find_method(method)
            written = _self_writes(found[1]) if found is not None else set()
            read = _read_after(ctx, info, receiver, end, written) if written else None
            if read is not None:
                return METHOD_WRITE_UNSEEN.finding(
                    read,
                    related=[ctx.related(expr, f"the `with` whose `{method}` sets it")],
                    read=ast.unparse(read),
                    call=f"{ast.unparse(expr)}.{method}()",
                    obj=ast.unparse(receiver),
                )
    return None


def _returns_self(method: FunctionNode) -> bool:
    args = method.args.posonlyargs + method.args.args
    if not args:
        return False
    returns: list[ast.Return] = of_type(method, ast.Return)
    return any(isinstance(r.value, ast.Name) and r.value.id == args[0].arg for r in returns)


def _maybe_object(ctx: FunctionContext, receiver: ast.expr) -> bool:
    """The cheap test first: a local name, or `self.<attr>` that `__init__` sets to an
    object (not a Cell, a Tensor or a list)."""
    if isinstance(receiver, ast.Name):
        return receiver.id != "self"
    held = self_attr(ctx, receiver)
    return held is not None and held.kind == "object" and held.class_qualname is not None


def _object_class(ctx: FunctionContext, receiver: ast.expr) -> Optional[ClassInfo]:
    """The plain class or `@jit_class` of a local bound once to `Cls(...)` or of `self.<attr>`
    set to `Cls(...)` in `__init__`: workspace classes only, with no base outside it and no
    decorator but `@jit_class`."""
    info: Optional[ClassInfo] = None
    if isinstance(receiver, ast.Name):
        bound = only_binding(ctx, receiver.id)
        if isinstance(bound, ast.Call) and isinstance(bound.func, ast.Name):
            info = ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    else:
        name = self_attr_name(receiver)
        held = self_attr(ctx, receiver)
        cls = ctx.fn.cls
        if name is None or held is None or held.kind != "object" or cls is None:
            return None
        if cls.attr_varies(name) or held.class_qualname is None:
            return None
        info = ctx.classes.resolve(held.class_qualname)
    return info if opaque_class(info) else None


def _self_writes(method: FunctionNode) -> set[str]:
    """The attributes a method assigns on its first parameter (`self.n = v`, `self.n += 1`)."""
    args = method.args.posonlyargs + method.args.args
    if not args or method.decorator_list:
        return set()
    me = args[0].arg
    found: set[str] = set()
    nodes: list[ast.Assign | ast.AugAssign] = of_type(method, ast.Assign, ast.AugAssign)
    for node in nodes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == me
            ):
                found.add(target.attr)
    return found


def _self_reads(method: FunctionNode) -> set[str]:
    args = method.args.posonlyargs + method.args.args
    if not args:
        return set()
    me = args[0].arg
    return {
        a.attr
        for a in of_type(method, ast.Attribute)
        if isinstance(a.ctx, ast.Load) and isinstance(a.value, ast.Name) and a.value.id == me
    }


def _read_after(
    ctx: FunctionContext,
    info: ClassInfo,
    receiver: ast.expr,
    end: tuple[int, int],
    written: set[str],
) -> Optional[ast.expr]:
    """The first read of a written attribute on the same receiver after `end` (the call's):
    `a.n`, or a call `a.get()` of a method (without writes) that reads it."""
    text = ast.unparse(receiver)
    for node in ctx.of(ast.Attribute):
        if (node.lineno, node.col_offset) < end or not isinstance(node.ctx, ast.Load):
            continue
        if ast.unparse(node.value) != text:
            continue
        if node.attr in written:
            return node
        found = info.find_method(node.attr)
        if found is not None and not _self_writes(found[1]) and _self_reads(found[1]) & written:
            return node
    return None


def _held_state(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    """MS313: `self.obj.n += 1` / `self.obj.items.append(v)` on a plain object the Cell
    holds."""
    for node in ctx.of(ast.AugAssign):
        target = node.target
        if (
            isinstance(target, ast.Attribute)
            and _maybe_object(ctx, target.value)
            and _held_plain(ctx, target.value)
        ):
            yield divergence_python.COMPILE_TIME_ONCE.finding(
                node,
                what=f"`{ast.unparse(node)}` on the plain object `{ast.unparse(target.value)}`",
                effect="later calls of the compiled code neither change it again nor see it change",
            )
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr in _MUTATORS):
            continue
        holder = func.value
        if not isinstance(holder, ast.Attribute) or self_attr_name(holder.value) is None:
            continue  # measured alike for a plain object's list and a `@jit_class`'s
        if not _maybe_object(ctx, holder.value):
            continue
        info = _object_class(ctx, holder.value)
        held = info.attr(holder.attr) if info is not None else None
        if held is None or held.kind != "list" or not isinstance(held.node, ast.List):
            continue
        yield divergence_python.COMPILE_TIME_ONCE.finding(
            call,
            what=(
                f"`{ast.unparse(call)}` on a list of the plain object `{ast.unparse(holder.value)}`"
            ),
            effect="later calls of the compiled code neither change it again nor see it change",
        )


def _held_plain(ctx: FunctionContext, expr: ast.expr) -> bool:
    if self_attr_name(expr) is None:
        return False
    info = _object_class(ctx, expr)
    return info is not None and not info.is_jit_class
