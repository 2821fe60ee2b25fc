"""The scopes of a file that run as Python (the module body, functions outside compiled code):
their loops, the calls inside each loop, and every place a name is bound.

What a scope holds is syntax only (nodes, no positions), so it is kept between checks: a
function's scope while its node lives, the module's as the parts of its top-level statements
(the module node itself is new in every check, its statements mostly are not).
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import partial
from typing import Optional, Union

from ...incremental.memo import NodeMemo
from ...index.module import FunctionNode
from .walk import of_type

LoopNode = Union[ast.For, ast.AsyncFor, ast.While]
ScopeNode = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]


@dataclass(frozen=True)
class Binding:
    """One place a name is bound: `value` for `n = value`, or the `for` whose target binds it."""

    node: ast.AST  # the Assign / AugAssign / AnnAssign / For / def / parameter binding it
    loops: tuple[LoopNode, ...]  # the loops of the scope the binding runs in, outermost first
    value: Optional[ast.expr] = None  # the whole value, for `n = value` and `n += value`
    index: Optional[int] = None  # position in a tuple target, for `a, b = ...` and `for a, b in`


@dataclass
class Call:
    node: ast.Call
    loops: tuple[LoopNode, ...]


@dataclass
class Scope:
    """The module body or one function outside compiled code."""

    node: ScopeNode
    cls: Optional[ast.ClassDef]  # the class of a method
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    defs: list[tuple[FunctionNode, tuple[LoopNode, ...]]] = field(default_factory=list)


Position = tuple[int, int]


def collect(scope: Scope) -> None:
    """Fills `scope` with its bindings, nested functions and calls (each with its loops)."""
    walker = _Collector(scope)
    walker.statements(scope.node.body, ())
    walker.place_calls(scope.node)


def function_scope(node: FunctionNode, cls: Optional[ast.ClassDef]) -> Scope:
    """The scope of a function (its parameters bound), kept while its node lives. Shared
    between checks: callers must not change it."""
    return _FUNCTIONS.get(node, cls, lambda: _function_scope(node, cls))


def module_scope(module: ast.Module) -> Scope:
    """The scope of a module body, joined from its statements' parts (kept per statement)."""
    scope = Scope(module, None)
    bindings = scope.bindings
    for stmt in module.body:
        part = _PARTS.get(stmt, None, partial(_part, stmt))
        for name, found in part.bindings.items():
            if name in bindings:
                bindings[name] = bindings[name] + found
            else:
                bindings[name] = found  # shared, never appended to (see above)
        scope.calls.extend(part.calls)
        scope.defs.extend(part.defs)
    return scope


def _function_scope(node: FunctionNode, cls: Optional[ast.ClassDef]) -> Scope:
    scope = Scope(node, cls)
    args = node.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None:
            scope.bindings.setdefault(arg.arg, []).append(Binding(arg, ()))
    collect(scope)
    return scope


def _part(stmt: ast.stmt) -> Scope:
    """What one top-level statement adds to its module's scope: walked as the module's body
    is, its calls found in it alone (a call lies in one statement)."""
    part = Scope(stmt, None)  # type: ignore[arg-type]  # a piece of the module's scope
    walker = _Collector(part)
    walker.statement(stmt, ())
    walker.place_calls(stmt)
    return part


_FUNCTIONS: NodeMemo[Scope] = NodeMemo()
_PARTS: NodeMemo[Scope] = NodeMemo()


def _start(node: ast.AST) -> Position:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> Position:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


class _Collector:
    """Walks a scope's statements (not nested functions or classes), noting the loops around
    each binding; calls are then placed in loops by position, without walking expressions."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.loops: list[tuple[LoopNode, list[tuple[Position, Position]]]] = []  # body spans
        self.nested: list[tuple[Position, Position]] = []  # functions and classes inside

    def place_calls(self, within: ast.AST) -> None:
        """Notes the calls under `within` that are this scope's own, with their loops."""
        nested = sorted(self.nested)
        starts = [span[0] for span in nested]
        for call in of_type(within, ast.Call):
            at = _start(call)
            index = bisect_right(starts, at) - 1
            if index >= 0 and at <= nested[index][1]:
                continue  # a nested function's or class's own call
            loops = tuple(
                loop for loop, spans in self.loops if any(lo <= at <= hi for lo, hi in spans)
            )
            self.scope.calls.append(Call(call, loops))

    def statements(self, body: list[ast.stmt], loops: tuple[LoopNode, ...]) -> None:
        for stmt in body:
            self.statement(stmt, loops)

    def statement(self, stmt: ast.stmt, loops: tuple[LoopNode, ...]) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._bind(stmt.name, Binding(stmt, loops))
            self.nested.append((_start(stmt), _end(stmt)))  # decorators start before `def`
            if not isinstance(stmt, ast.ClassDef):
                self.scope.defs.append((stmt, loops))
            return
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            self._loop(stmt, loops)
            return
        self._bindings_of(stmt, loops)
        for _, value in ast.iter_fields(stmt):
            if not isinstance(value, list):
                continue
            for item in value:
                if isinstance(item, ast.stmt):
                    self.statement(item, loops)
                elif isinstance(item, (ast.ExceptHandler, ast.match_case)):
                    self.statements(item.body, loops)

    def _loop(self, stmt: LoopNode, loops: tuple[LoopNode, ...]) -> None:
        inside = (*loops, stmt)
        spans = [(_start(stmt.body[0]), _end(stmt.body[-1]))]
        if isinstance(stmt, ast.While):
            spans.append((_start(stmt.test), _end(stmt.test)))  # evaluated on every iteration
        else:
            self._target(stmt.target, stmt, inside)  # `iter` is evaluated once: not inside
        self.loops.append((stmt, spans))
        self.statements(stmt.body, inside)
        self.statements(stmt.orelse, loops)

    def _bindings_of(self, stmt: ast.stmt, loops: tuple[LoopNode, ...]) -> None:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self._assign(target, stmt, stmt.value, loops)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self._assign(stmt.target, stmt, stmt.value, loops)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            self._bind(stmt.target.id, Binding(stmt, loops, stmt.value))
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                name = alias.asname or alias.name.split(".")[0]
                self._bind(name, Binding(stmt, loops))
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    self._target(item.optional_vars, stmt, loops)

    def _assign(
        self, target: ast.expr, stmt: ast.stmt, value: ast.expr, loops: tuple[LoopNode, ...]
    ) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, Binding(stmt, loops, value))
        elif isinstance(target, (ast.Tuple, ast.List)):
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Name):
                    self._bind(element.id, Binding(stmt, loops, value, index))
                else:
                    self._target(element, stmt, loops)

    def _target(self, target: ast.expr, node: ast.AST, loops: tuple[LoopNode, ...]) -> None:
        """Names bound by a `for` or `with` target: no value to reason about, only the node."""
        if isinstance(target, ast.Name):
            self._bind(target.id, Binding(node, loops))
        elif isinstance(target, (ast.Tuple, ast.List)):
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Name):
                    self._bind(element.id, Binding(node, loops, index=index))
                elif isinstance(element, ast.Starred) and isinstance(element.value, ast.Name):
                    self._bind(element.value.id, Binding(node, loops))
                else:  # `for (a, b), c in ...`: bound, at no position the rules reason about
                    for name in ast.walk(element):
                        if isinstance(name, ast.Name):
                            self._bind(name.id, Binding(node, loops, index=-1))

    def _bind(self, name: str, binding: Binding) -> None:
        self.scope.bindings.setdefault(name, []).append(binding)
