"""MS251-MS252: STRICT writes to a `@jit_class` object that MS210 (`self.<obj>.<attr> = v`)
does not see.

Measured with MindSpore 2.10 on CPU, against LAX and PyNative (both run these):
- MS251: a `@jit_class` instance created in compiled code (`s = Stats()`) whose attribute the
  same code assigns (`s.scale = 3.0`) fails under STRICT ("Can not find kernel tensor for node :
  ValueNode<MsClassObject> MsClassObject: 'Stats'", naming the write, for a Python value:
  `3.0`, `s.scale + 1.0`, `x.shape[0]`; "Illegal type in the graph: AbstractClass(MsClassObject:
  'Stats')", naming the creation, for a Tensor: reported there). Creating it and reading
  its attributes or calling its read-only methods compiles. An attribute the class never sets
  is MS194's (it fails at every level, at the read).
- MS252: a method of a `@jit_class` that compiled code calls (`self.stats.bump()` on an object
  the Cell holds, on a local or a module-level instance, or `self.stats(x)`: `__call__`)
  assigning `self.<attr>` fails under STRICT ("In JIT
  strict mode, if need to modify a member attribute of a class with self.scale, the member
  attribute must be of the Parameter type", naming the write and the call; reported at the
  call, in the compiled function); so does `with obj:` when `__enter__` or `__exit__` assigns
  one (reported at the `with`'s object). `__init__` run by
  `Stats()` in compiled code sets its attributes fine; a method only reading them compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import globals as module_globals
from .helpers import names, receivers
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo
from .helpers.reached_methods import reached_methods

LOCAL_JIT_CLASS_WRITE_UNDER_STRICT = Rule(
    "MS251",
    "local-jit-class-write-under-strict",
    Group.STRICT,
    title="Assigning an attribute of a `@jit_class` object created in compiled code (STRICT)",
    message=(
        "`{target}` assigns an attribute of `{obj}`, a `{cls}` (`@jit_class`) created in compiled "
        "code: under STRICT such an object is a constant of the graph and cannot be assigned; "
        "keep the value in a local, or create the object with it (`{cls}(...)`)."
    ),
    why=(
        "Graph mode builds a `@jit_class` instance at compile time as a constant; STRICT has no "
        "way to store into it (LAX does it through its Python fallback)."
    ),
    remedy=(
        "Pass the value to the constructor, keep it in a local variable, or use the default "
        "LAX level."
    ),
    mindspore_says=(
        "RuntimeError: Can not find kernel tensor for node : ValueNode<MsClassObject> "
        "MsClassObject: 'Stats', output index: 0"
    ),
)

JIT_CLASS_METHOD_WRITE_UNDER_STRICT = Rule(
    "MS252",
    "jit-class-method-write-under-strict",
    Group.STRICT,
    title="A `@jit_class` method called from compiled code assigns `self.<attr>` (STRICT)",
    message=(
        "This call runs `{cls}.{method}` in compiled code, which assigns `self.{name}`, not a "
        "Parameter: STRICT cannot modify a `@jit_class` object's "
        "attributes; return the new value instead (and keep state in a Parameter of the Cell)."
    ),
    why=(
        "Under STRICT compiled code may only write Parameter attributes; a `@jit_class` object "
        "is a constant of the graph, so a method storing into `self` is refused."
    ),
    remedy=(
        "Make the method return the new value and keep the state in a Parameter of the Cell "
        "(`ops.assign`), or use the default LAX level."
    ),
    mindspore_says=(
        "TypeError: In JIT strict mode, if need to modify a member attribute of a class with "
        "self.scale, the member attribute must be of the Parameter type. But got '2.0' with type "
        "'float'."
    ),
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level != SyntaxLevel.STRICT:
        return
    writes: list[ast.Assign | ast.AugAssign | ast.AnnAssign] = ctx.of(
        ast.Assign, ast.AugAssign, ast.AnnAssign
    )
    yield from _method_writes(ctx)
    yield from _with_writes(ctx)
    reported: set[str] = set()
    for node in writes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
                continue
            obj = target.value.id
            if obj == "self" or obj in reported:
                continue
            info = _created_here(ctx, obj)
            if info is None or not any(target.attr in i.attrs for i in info.lineage()):
                continue  # an attribute the class never sets is MS194's (fails at the read)
            reported.add(obj)
            # A Tensor stored fails at the creation ("Illegal type in the graph"), a Python
            # value at the write ("Can not find kernel tensor"): each where MindSpore names it.
            where: ast.AST = target
            if isinstance(node, ast.Assign) and ctx.types.is_tensor(node.value):
                where = receivers.only_binding(ctx, obj) or target
            yield LOCAL_JIT_CLASS_WRITE_UNDER_STRICT.finding(
                where, target=ast.unparse(target), obj=obj, cls=info.name
            )


def _created_here(ctx: FunctionContext, name: str) -> Optional[ClassInfo]:
    """The `@jit_class` of `name` when the function's only binding of it is `name = Cls(...)`."""
    bound = receivers.only_binding(ctx, name)
    if not isinstance(bound, ast.Call):
        return None
    info = ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    if info is None or not info.is_jit_class or info.is_cell:
        return None
    return info


def _method_writes(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Calls `obj.m(...)` (or `obj(...)`: `__call__`) of a `@jit_class` object of this module
    whose method (or a method it calls on `self`) assigns a non-Parameter `self.<attr>`:
    reported at the call, which is what compiled code runs (MindSpore names both the call and
    the write)."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        found = _jit_object(ctx, func)
        method = "__call__"
        if found is None and isinstance(func, ast.Attribute) and not func.attr.startswith("__"):
            found, method = _jit_object(ctx, func.value), func.attr
        if found is None or found.module is not ctx.fn.module:
            continue
        finding = _method_write(found, method, call)
        if finding is not None:
            yield finding


def _with_writes(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`with obj:` / `with Ctx():` on a `@jit_class` object of this module whose `__enter__` or
    `__exit__` assigns a non-Parameter `self.<attr>`: graph mode calls both, and STRICT refuses
    the write as for an explicit method call (measured on 2.10, `with self.ctx:`, `with c:` of a
    local and `with Ctx() as c:`: "In JIT strict mode, if need to modify a member attribute of
    a class with self.n, ...", naming the write and the `with`; LAX compiles). Reported at the
    `with`'s object."""
    withs: list[ast.With] = ctx.of(ast.With)
    for node in withs:
        for item in node.items:
            expr = item.context_expr
            found = _jit_object(ctx, expr)
            if found is None and isinstance(expr, ast.Call):
                found = ctx.classes.resolve(ctx.fn.module.qualname(expr.func))
                if found is not None and (not found.is_jit_class or found.is_cell):
                    found = None
            if found is None or found.module is not ctx.fn.module:
                continue
            for method in ("__enter__", "__exit__"):
                finding = _method_write(found, method, expr)
                if finding is not None:
                    yield finding
                    break


def _jit_object(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The `@jit_class` of a local bound once to `Cls(...)`, of a module-level instance, or of
    a `self.<attr>` holding one."""
    info: Optional[ClassInfo] = None
    if isinstance(expr, ast.Name):
        if expr.id == "self":
            return None
        info = _created_here(ctx, expr.id) or module_globals.workspace_instance(ctx, expr)
    elif isinstance(expr, ast.Attribute) and receivers.kind_of(ctx, expr) == receivers.JIT_CLASS:
        info = receivers.workspace_class(ctx, expr)
    if info is None or not info.is_jit_class or info.is_cell:
        return None
    return info


def _method_write(found: ClassInfo, method: str, node: ast.AST) -> Optional[RawFinding]:
    """The finding at `node` when `found`'s own `method` writes an attribute of `self`."""
    if found.own_method(method) is None:
        return None
    write = _self_write(found, method)
    if write is None:
        return None
    _, name, where = write
    return JIT_CLASS_METHOD_WRITE_UNDER_STRICT.finding(
        node, cls=found.name, method=where, name=name
    )


def _self_write(info: ClassInfo, root: str) -> Optional[tuple[ast.expr, str, str]]:
    for fn in reached_methods(info.node, (root,)):
        if fn.decorator_list:
            continue
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    name = names.self_attribute(target)
                    if name is not None and not _parameter(info, name):
                        return target, name, fn.name
    return None


def _parameter(cls: ClassInfo, name: str) -> bool:
    for info in cls.lineage():
        attr = info.attrs.get(name)
        if attr is not None:
            return attr.class_qualname in names.PARAMETER
    return False
