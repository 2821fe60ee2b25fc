"""The Tensor dtypes a compiled helper's parameters receive from its callers: a Cell method
called only as `self.name(...)` from its class's methods, or a function defined inside a
compiled function and called there by name. MindSpore compiles the helper with the arguments
its call passes (measured on 2.10: `def h(self, x)` whose Tensor `while` returns
`x.astype(ms.int32)` or `x` fails to join with construct's float32 `x` exactly as the same
loop written in construct does; so does a nested `def pick(t)`).

Written-out facts only, as for entry points (`module_values.argument_dtypes`): a caller's own
parameter not rebound there (followed to that caller's callers), a name the caller binds once,
a Tensor built with a written dtype, or a cast (`.astype(dt)`, `ops.cast(v, dt)`) of one of those.
A helper used other than by those calls (passed on, called on another object, overridden or
inherited by another class of the module) gets nothing.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from functools import partial
from typing import Optional

from ...incremental.memo import NodeMemo
from ...index.module import FunctionNode, ModuleInfo
from . import names
from .module_values import (
    MAX_DEPTH,
    argument_dtypes,
    call_lines,
    dtype_of,
    entry_point_of,
    note_read,
    ordered_parameters,
    parameters,
    passed_expression,
    table,
    tensor_dtype,
)
from .walk import of_type

Lines = Optional[list[str]]
Sites = Optional[list[tuple[ast.Call, FunctionNode]]]  # each call and the function it is in
CASTS = frozenset({"astype", "to"})

# Per class: method name -> its `self.name(...)` calls in the class's own methods (None: the
# class reads `self.name` other than to call it). Kept on the class's node.
_SELF_CALLS: NodeMemo[dict[str, Sites]] = NodeMemo()
# Per module: how many times each attribute name is read, and which functions each function
# defines inside it (id of the nested def -> its enclosing function). Kept on the tree.
_ATTRIBUTES: NodeMemo[Counter[str]] = NodeMemo()
_PARENTS: NodeMemo[dict[int, FunctionNode]] = NodeMemo()
# Per module: the classes held as one sub-Cell attribute of another class (`_held_attributes`).
_HELD: NodeMemo[dict[str, tuple[ast.ClassDef, str]]] = NodeMemo()


def helper_dtypes(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode, lines: Lines
) -> dict[str, str]:
    """Parameter name -> the dtype of the Tensor every call of helper `fn` passes (a method of
    `cls`, or a function nested in a compiled function), where all calls agree."""
    return _agreed(_site_dtypes(module, cls, fn, lines, 0))


def helper_signatures(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode, lines: Lines
) -> list[dict[str, str]]:
    """The known parameter dtypes of each call of helper `fn`, each distinct one once: every
    call is compiled with its own arguments, so each must compile."""
    found: list[dict[str, str]] = []
    for site in _site_dtypes(module, cls, fn, lines, 0):
        known = {p: d for p, d in site.items() if d is not None}
        if known and known not in found:
            found.append(known)
    return found


def helper_values(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode, lines: Lines
) -> dict[str, list[Optional[ast.expr]]]:
    """Parameter name -> what each call of helper `fn` writes out for it (None where a call
    leaves it to its default or hides it in `*args`); {} when other uses may pass others."""
    sites, params, _ = _calls(module, cls, fn)
    passed: dict[str, list[Optional[ast.expr]]] = {p: [] for p in params} if sites else {}
    for call, caller in sites or ():
        _read_function(lines, caller)
        for index, param in enumerate(params):
            passed[param].append(passed_expression(call, index, param))
    return passed


SiteDtypes = list[dict[str, Optional[str]]]  # per call: parameter -> the dtype it passes


def _agreed(sites: SiteDtypes) -> dict[str, str]:
    agreed: dict[str, str] = {}
    for param in sites[0] if sites else ():
        seen = {site[param] for site in sites}
        dtype = seen.pop() if len(seen) == 1 else None
        if dtype is not None:
            agreed[param] = dtype
    return agreed


def helper_calls(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode, lines: Lines
) -> list[tuple[ast.Call, FunctionNode]]:
    """Every call of helper `fn` with the function it is in, when those calls are its only
    uses (a method called as `self.name(...)`, a nested function called by name); else []."""
    sites = _calls(module, cls, fn)[0] or []
    for _, caller in sites:
        _read_function(lines, caller)
    return sites


def helper_sites(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode, lines: Lines
) -> tuple[list[tuple[ast.Call, FunctionNode]], list[str], Optional[ast.ClassDef]]:
    """`helper_calls`, with the parameters a call passes by position and the class whose
    methods the callers are (the holder's, for a sub-Cell's `construct`)."""
    sites, params, owner = _calls(module, cls, fn)
    for _, caller in sites or ():
        _read_function(lines, caller)
    return sites or [], params, owner


def _calls(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode
) -> tuple[Sites, list[str], Optional[ast.ClassDef]]:
    """The helper's calls, its parameters a call passes by position, and the class whose
    methods the callers are."""
    if module.tree is None:
        return None, [], cls
    parent = _parents(module).get(id(fn))
    if parent is not None:
        owner = _class_of(module, parent)
        return _nested_calls(parent, fn), ordered_parameters(fn, skip_self=False), owner
    if cls is not None and _method(cls, fn):
        return _method_calls(module, cls, fn), ordered_parameters(fn, skip_self=True), cls
    if cls is not None and fn.name == "construct" and fn in cls.body:
        held = _held_calls(module, cls)
        if held is not None:
            return held[0], ordered_parameters(fn, skip_self=True), held[1]
    return None, [], cls


def held_only(module: ModuleInfo, cls: ast.ClassDef) -> bool:
    """Every instance of `cls` in the module is a sub-Cell another class of it holds and only
    calls (`self.block = Block()` in `__init__`, `self.block(x)`): `_held_calls` sees its calls."""
    return _held_calls(module, cls) is not None


def _held_calls(
    module: ModuleInfo, cls: ast.ClassDef
) -> Optional[tuple[list[tuple[ast.Call, FunctionNode]], ast.ClassDef]]:
    """The calls of a sub-Cell's `construct` through the one class holding it, when every
    mention of the class in the module is `self.<attr> = Cls(...)` in that class, whose
    attribute is only ever called (measured on 2.10: a sub-Cell is compiled with what its
    holder's call passes: an int32/float32 join inside it fails as in an entry point)."""
    tree = module.tree
    if tree is None:
        return None
    held = _HELD.get(tree, None, partial(_held_attributes, tree)).get(cls.name)
    if held is None or held[0] is cls:
        return None
    holder, attr = held
    sites: list[tuple[ast.Call, FunctionNode]] = []
    for method in holder.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            calls: list[ast.Call] = of_type(method, ast.Call)
            sites.extend((c, method) for c in calls if names.self_attribute(c.func) == attr)
    uses = sum(1 for a in of_type(holder, ast.Attribute) if names.self_attribute(a) == attr)
    if not sites or uses != len(sites) + 1:
        return None  # `self.<attr>` used other than by the calls and the one assignment
    return sites, holder


def _held_attributes(tree: ast.Module) -> dict[str, tuple[ast.ClassDef, str]]:
    """Class name -> (the class holding it, the attribute), for the names the module mentions
    once, in a `self.<attr> = Name(...)` of a class body."""
    mentions = Counter(n.id for n in of_type(tree, ast.Name))
    found: dict[str, tuple[ast.ClassDef, str]] = {}
    for holder in of_type(tree, ast.ClassDef):
        for assign in of_type(holder, ast.Assign):
            value = assign.value
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and mentions[value.func.id] == 1
                and len(assign.targets) == 1
            ):
                attr = names.self_attribute(assign.targets[0])
                if attr is not None:
                    found[value.func.id] = (holder, attr)
    return found


def _site_dtypes(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode, lines: Lines, depth: int
) -> SiteDtypes:
    if depth > MAX_DEPTH:
        return []
    sites, params, cls = _calls(module, cls, fn)
    found: SiteDtypes = []
    for call, caller in sites or ():
        _read_function(lines, caller)
        passed = {p: passed_expression(call, i, p) for i, p in enumerate(params)}
        found.append(
            {
                p: _dtype_in(module, cls, caller, e, lines, depth) if e is not None else None
                for p, e in passed.items()
            }
        )
    return found


def _method(cls: ast.ClassDef, fn: FunctionNode) -> bool:
    """A plain method of the class (not construct, a static or a class method)."""
    return (
        fn in cls.body
        and fn.name != "construct"
        and not any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
            for d in fn.decorator_list
        )
    )


def _method_calls(module: ModuleInfo, cls: ast.ClassDef, fn: FunctionNode) -> Sites:
    sites = _SELF_CALLS.get(cls, None, partial(_self_calls, cls)).get(fn.name)
    tree = module.tree
    if not sites or tree is None:
        return None
    # `other.name` read anywhere else in the module (another object's call, a subclass's
    # `self.name(...)`), or a class built on this one: other callers may pass other dtypes.
    if _ATTRIBUTES.get(tree, None, partial(_attributes, tree))[fn.name] != len(sites):
        return None
    if any(
        isinstance(b, ast.Name) and b.id == cls.name
        for c in of_type(tree, ast.ClassDef)
        for b in c.bases
    ):
        return None
    return sites


def _class_of(module: ModuleInfo, fn: FunctionNode) -> Optional[ast.ClassDef]:
    """The class of the module (or a test function's Net) that has `fn` as a method."""
    found = table(module)
    classes = found.classes.values() if found is not None else ()
    return next((c for c in classes if fn in c.body), None)


def _self_calls(cls: ast.ClassDef) -> dict[str, Sites]:
    found: dict[str, Sites] = {}
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        called: set[int] = set()
        for call in of_type(method, ast.Call):
            name = names.self_attribute(call.func)
            if name is not None:
                called.add(id(call.func))
                sites = found.setdefault(name, [])
                if sites is not None:
                    sites.append((call, method))
        for attr in of_type(method, ast.Attribute):
            name = names.self_attribute(attr)
            if name is not None and id(attr) not in called:
                found[name] = None  # stored, passed on or read: not only called
    return found


def _attributes(tree: ast.Module) -> Counter[str]:
    return Counter(a.attr for a in of_type(tree, ast.Attribute))


def _parents(module: ModuleInfo) -> dict[int, FunctionNode]:
    tree = module.tree
    assert tree is not None
    return _PARENTS.get(tree, None, partial(_nested_defs, tree))


def _nested_defs(tree: ast.Module) -> dict[int, FunctionNode]:
    """Each function defined in another function's body (not in a class defined there)."""
    found: dict[int, FunctionNode] = {}
    for outer in _defs(tree):
        if len(_defs(outer)) > 1:
            for inner in _direct_defs(outer.body):
                found[id(inner)] = outer
    return found


def _direct_defs(body: list[ast.stmt]) -> Iterator[FunctionNode]:
    """The defs among the statements (in their blocks too), not looking into defs or classes."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield stmt
        elif not isinstance(stmt, ast.ClassDef):
            for field in ("body", "orelse", "finalbody"):
                yield from _direct_defs(getattr(stmt, field, None) or [])
            for handler in getattr(stmt, "handlers", None) or ():
                yield from _direct_defs(handler.body)
            for case in getattr(stmt, "cases", None) or ():
                yield from _direct_defs(case.body)


def _nested_calls(parent: FunctionNode, fn: FunctionNode) -> Sites:
    """`fn(...)` calls in its enclosing function, when the name is bound once there (by the
    `def`) and only ever called."""
    if sum(1 for d in _defs(parent) if d.name == fn.name) != 1:
        return None
    sites: list[tuple[ast.Call, FunctionNode]] = []
    called: set[int] = set()
    for call in of_type(parent, ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == fn.name:
            called.add(id(call.func))
            sites.append((call, _caller_of(parent, fn, call)))
    for name in of_type(parent, ast.Name):
        if name.id == fn.name and id(name) not in called:
            return None  # rebound, passed on or stored
    return sites


def _caller_of(parent: FunctionNode, fn: FunctionNode, call: ast.Call) -> FunctionNode:
    """The innermost function around the call: the enclosing one, or a def nested in it."""
    inner = parent
    for d in _defs(parent):
        if d is not parent and _inside(call, d) and _inside(d, inner):
            inner = d
    return inner


def _defs(node: ast.AST) -> list[FunctionNode]:
    found: list[FunctionNode] = of_type(node, ast.FunctionDef, ast.AsyncFunctionDef)
    return found


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    start = (outer.lineno, outer.col_offset)  # type: ignore[attr-defined]
    end = (outer.end_lineno, outer.end_col_offset)  # type: ignore[attr-defined]
    return start <= (node.lineno, node.col_offset) <= end  # type: ignore[attr-defined]


def _dtype_in(
    module: ModuleInfo,
    cls: Optional[ast.ClassDef],
    caller: FunctionNode,
    expr: ast.expr,
    lines: Lines,
    depth: int,
) -> Optional[str]:
    """The dtype of the Tensor `expr` gives in `caller`, where the code writes it out."""
    if depth > MAX_DEPTH:
        return None
    resolve = partial(_bound_once, caller)
    if isinstance(expr, ast.Name):
        bound = resolve(expr.id)
        if bound is not None:
            return _dtype_in(module, cls, caller, bound, lines, depth + 1)
        if expr.id in parameters(caller) and not store_count(caller, expr.id):
            return _parameter_dtype(module, cls, caller, expr.id, lines, depth)
        return None
    if isinstance(expr, ast.Call):
        cast = _cast(expr)
        if cast is not None:
            value, dtype = cast
            if _dtype_in(module, cls, caller, value, lines, depth + 1) is not None:
                return dtype
            return None
    return tensor_dtype(expr, resolve)


def _cast(call: ast.Call) -> Optional[tuple[ast.expr, Optional[str]]]:
    """`v.astype(dt)` / `v.to(dt)` / `ops.cast(v, dt)` -> (v, dt's name)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or call.keywords:
        return None
    if func.attr in CASTS and len(call.args) == 1:
        return func.value, dtype_of(call.args[0])
    module = func.value.id if isinstance(func.value, ast.Name) else None
    if func.attr == "cast" and len(call.args) == 2 and module in ("ops", "F", "P"):
        return call.args[0], dtype_of(call.args[1])
    return None


def _parameter_dtype(
    module: ModuleInfo,
    cls: Optional[ast.ClassDef],
    caller: FunctionNode,
    name: str,
    lines: Lines,
    depth: int,
) -> Optional[str]:
    """The dtype the caller's own parameter receives: from the module's calls of an entry
    point (construct, a module-level function), else from the caller's own callers."""
    entry = _entry(module, cls, caller)
    if entry is not None:
        for line in call_lines(module, entry[0]):
            note_read(lines, line)
        return argument_dtypes(module, entry[0], entry[1]).get(name)
    return _agreed(_site_dtypes(module, cls, caller, lines, depth + 1)).get(name)


def _entry(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode
) -> Optional[tuple[str, list[str]]]:
    if cls is not None and entry_point_of(module, cls, fn) is not None:
        return cls.name, ordered_parameters(fn, skip_self=True)
    if entry_point_of(module, None, fn) is not None:
        return fn.name, ordered_parameters(fn, skip_self=False)
    return None


def _bound_once(fn: FunctionNode, name: str) -> Optional[ast.expr]:
    """The value of `name = value`, the only binding of `name` in the function."""
    if store_count(fn, name) != 1:
        return None
    for assign in of_type(fn, ast.Assign):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        if isinstance(target, ast.Name) and target.id == name:
            return assign.value
    return None


def store_count(fn: FunctionNode, name: str) -> int:
    """How many times `fn` binds `name` (assigns, `for` targets, `del`)."""
    return sum(1 for n in of_type(fn, ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load))


def _read_function(lines: Lines, fn: FunctionNode) -> None:
    """Ties the helper's cached findings to its caller's text."""
    for line in range(fn.lineno, (fn.end_lineno or fn.lineno) + 1):
        note_read(lines, line)
