"""MS1003: a nested function reads a name its enclosing compiled function binds only after it.
MS365: a nested function reads a name its enclosing function rebinds after it, then is called.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them, Python's
closures reading the enclosing function's names when called): graph mode resolves a nested
`def`'s free names when it parses the `def`, so a name the enclosing function binds only below
it is not found ("NameError: The name 'h' is not defined, or not supported in graph mode"),
even when the nested function is never called. Measured failing: `def g(v): return h(v) + 1`
before a sibling `def h`, `def g(v): return k * v` before `k = 3`, and a function nested in `g`
reading `h`. Compiles: the sibling defined first. Names the module also binds (a global of
that name might be found instead), nested defs inside loops, and enclosing functions that
declare the name `global`/`nonlocal` are left alone.

MS365 (no error, other values; LAX and STRICT alike): for the same reason a nested function
keeps the value its free name had where the `def` (or `f = lambda ...`) stands. `k = 2; def
f(v): return v * k; k = 5; return f(x)` gave `x * 2` in graph mode and `x * 5` in PyNative;
likewise `k += 3`, a rebinding in a loop or in either kind of `if` before the call, a Tensor
rebound (`b = b * 2`), the function's own parameter rebound (`x = x + 1`), an item write
`ks[0] = 5` to a list the function reads, a lambda, and a function nested in the nested one.
Agree: the name rebound before the `def`, calls only before the rebinding, the rebound value
read only by the enclosing function, and an `@jit` function (PyNative compiles it too).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import local_names
from .decorated_helpers import compiled_by_jit
from .helpers.base import FunctionContext
from .helpers.walk import walk

NAME_BOUND_AFTER_NESTED_DEF = Rule(
    "MS1003",
    "nested-def-reads-later-name",
    Group.FAILS,
    title="A nested function reads a name the enclosing function binds only after it",
    message=(
        "`{name}` is bound in `{outer}` only after the nested `def {inner}` that reads it: graph "
        "mode resolves the nested function's names where it is defined and fails at every "
        "level (the name is not defined); define `{name}` before `def {inner}`."
    ),
    why=(
        "Graph mode resolves a nested function's free names when it parses the `def`, not when "
        "the function is called as Python does; a name bound further down is not found."
    ),
    remedy="Move the definition or assignment of the name above the nested `def` that uses it.",
    mindspore_says="NameError: The name 'h' is not defined, or not supported in graph mode.",
)

REBOUND_AFTER_NESTED_DEF = Rule(
    "MS365",
    "nested-def-reads-rebound-name",
    Group.DIVERGES,
    title="A nested function reads a name the enclosing function changes after defining it",
    message=(
        "`{inner}` reads `{name}`, which `{outer}` changes on line {line} after defining "
        "`{inner}`: graph mode gives the nested function the value `{name}` had where it was "
        "defined, PyNative the value at this call; pass `{name}` to `{inner}` as an argument."
    ),
    why=(
        "Graph mode resolves a nested function's free names where it parses the `def` (or "
        "the `lambda`), so a later assignment to the name in the enclosing function is not "
        "seen by the nested function; Python's closure reads the name when it is called. "
        "`k = 2; def f(v): return v * k; k = 5; f(x)` gave `x * 2` in graph mode and `x * 5` "
        "in PyNative."
    ),
    remedy=(
        "Pass the value as an argument (`def f(v, k)`), or define the function after the change."
    ),
    mindspore_says="(no error: the nested function used the value from before the change)",
)

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_CLOSED = (*_SCOPES, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_Position = tuple[int, int]


def _scope_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of one scope: nested scopes' own names, not their bodies; comprehensions
    (their own scope) left out."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _CLOSED):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _first_bindings(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, _Position]:
    found: dict[str, _Position] = {}

    def bind(name: str, at: _Position) -> None:
        if name not in found or at < found[name]:
            found[name] = at

    for arg in ast.walk(fn.args):
        if isinstance(arg, ast.arg):
            bind(arg.arg, (0, 0))
    for node in _scope_nodes(fn.body):
        at = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bind(node.id, at)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name, at)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0], at)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bind(name, (0, 0))  # declared: leave it alone
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            bind(node.target.id, at)
    return found


def _nested_defs(body: list[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Nested defs of the scope outside loops and `try` (where the order of runs is unclear)."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield stmt
        elif isinstance(stmt, ast.If):
            yield from _nested_defs(stmt.body)
            yield from _nested_defs(stmt.orelse)
        elif isinstance(stmt, ast.With):
            yield from _nested_defs(stmt.body)


def _module_names(tree: Optional[ast.Module]) -> set[str]:
    names: set[str] = set()
    if tree is None:
        return names
    for node in _scope_nodes(tree.body):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    inner_defs = list(_nested_defs(fn.body))
    if not inner_defs:
        return
    bound = _first_bindings(fn)
    module: Optional[set[str]] = None
    for inner in inner_defs:
        own = local_names(inner)
        start = (inner.lineno, inner.col_offset)
        seen: set[str] = set()
        for node in walk(inner):
            if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
                continue
            name = node.id
            if name in seen or name in own or name not in bound or bound[name] <= start:
                continue
            if _bound_inside(inner, name):
                continue
            if module is None:
                module = _module_names(ctx.fn.module.tree)
            if name in module or hasattr(builtins, name):
                continue
            seen.add(name)
            yield NAME_BOUND_AFTER_NESTED_DEF.finding(
                node, name=name, outer=fn.name, inner=inner.name
            )


def _bound_inside(inner: ast.AST, name: str) -> bool:
    """`name` bound by a function or comprehension nested in `inner` (its own scope there)."""
    for node in walk(inner):
        if node is inner:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and name in {
            a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)
        }:
            return True
        if isinstance(node, ast.comprehension) and any(
            isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.target)
        ):
            return True
    return False


# ---- MS365


def check_rebound(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    inners = list(_nested_functions(fn.body))
    if not inners or compiled_by_jit(ctx):
        return
    scope = list(_scope_nodes(fn.body))
    changes: dict[str, list[_Position]] = {}
    declared: set[str] = set()
    calls: dict[str, list[ast.Call]] = {}
    bound_names: dict[str, int] = {}
    statement: Optional[ast.stmt] = None
    for node in scope:
        if isinstance(node, ast.stmt):
            statement = node
        # a change takes effect when its statement ends: `h = step(h)` calls `step` first
        at = (
            (statement.end_lineno or 0, statement.end_col_offset or 0)
            if statement is not None
            else (0, 0)
        )
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            changes.setdefault(node.id, []).append(at)
            bound_names[node.id] = bound_names.get(node.id, 0) + 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound_names[node.name] = bound_names.get(node.name, 0) + 1
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name):  # `ks[0] = 5`
                changes.setdefault(node.value.id, []).append(at)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.setdefault(node.func.id, []).append(node)
    params = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    for name, inner, body in inners:
        if bound_names.get(name, 0) != 1 or name in declared or name not in calls:
            continue
        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own = local_names(inner)
        elif isinstance(inner, ast.Lambda):
            own = _lambda_args(inner)
        else:
            continue
        start = (body.lineno, body.col_offset)
        end = (body.end_lineno or 0, body.end_col_offset or 0)
        found = _first_stale(inner, own, start, end, changes, params, declared, calls[name])
        if found is not None:
            read, line, call = found
            yield REBOUND_AFTER_NESTED_DEF.finding(
                call, inner=name, name=read, outer=fn.name, line=line
            )


def _first_stale(
    inner: ast.AST,
    own: set[str],
    start: _Position,
    end: _Position,
    changes: dict[str, list[_Position]],
    params: set[str],
    declared: set[str],
    calls: list[ast.Call],
) -> Optional[tuple[str, int, ast.Call]]:
    """(name, line of its change, the call) for the first free name of `inner` bound before it
    and changed after it, with a call of `inner` after the change."""
    seen: set[str] = set()
    for node in walk(inner):
        if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
            continue
        read = node.id
        if read in seen or read in own or read in declared or read not in changes:
            continue
        seen.add(read)
        if _bound_inside(inner, read):
            continue
        before = read in params or any(at < start for at in changes[read])
        after = [at for at in changes[read] if at > end]
        if not before or not after:
            continue
        first = min(after)
        for call in calls:
            if (call.lineno, call.col_offset) > first:
                return read, first[0], call
    return None


def _lambda_args(node: ast.Lambda) -> set[str]:
    return {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}


def _nested_functions(
    body: list[ast.stmt],
) -> Iterator[tuple[str, ast.AST, ast.stmt]]:
    """(name, function, its statement) of the nested `def`s and `name = lambda ...` of a scope
    outside loops and `try`."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield stmt.name, stmt, stmt
        elif (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Lambda)
        ):
            yield stmt.targets[0].id, stmt.value, stmt
        elif isinstance(stmt, ast.If):
            yield from _nested_functions(stmt.body)
            yield from _nested_functions(stmt.orelse)
        elif isinstance(stmt, ast.With):
            yield from _nested_functions(stmt.body)
