"""Which bindings of a local reach each read of it: a name rebound to another kind of value
(`x = x.shape`, `n = len(x)`, `y = [y]`) is judged by the value it holds where it is read,
through branches and loops.

A binding is the `ast.Name` node that stores it (an assignment's target, a loop's target, an
augmented assignment, `with ... as`), or the `ast.arg` of a parameter. Only names bound more
than once (a parameter counts) are followed; a read inside a comprehension, a lambda or a nested
function is not (it has no entry: callers fall back to what every binding says).
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Optional

from ...incremental.memo import NodeMemo
from ...index.module import FunctionNode
from .walk import _fields, of_type

State = dict[str, frozenset[int]]  # name -> ids of the bindings that may hold its value
Position = tuple[int, int]
NESTED = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


@dataclass(frozen=True)
class Reaching:
    # id of a read (`ast.Name` in Load context, or an augmented assignment's target, read
    # before it is stored) -> ids of the bindings that reach it
    reads: dict[int, frozenset[int]] = field(default_factory=dict)
    # id of a binding `name = value` (its only target) -> the value
    values: dict[int, ast.expr] = field(default_factory=dict)
    params: set[int] = field(default_factory=set)  # ids of the parameters' `ast.arg` nodes
    # ids of `for` targets that take Python ints: `for i in range(...)`
    counters: set[int] = field(default_factory=set)

    def of(self, read: ast.expr) -> Optional[frozenset[int]]:
        """The bindings that reach `read`; None when it is not followed (bound once, read in
        a nested scope) or no binding reaches it on the paths seen."""
        found = self.reads.get(id(read))
        return found if found else None


_MEMO: NodeMemo[Reaching] = NodeMemo()


def reaching(fn: FunctionNode) -> Reaching:
    """The reaching bindings of `fn`'s rebound locals (kept on the function's node)."""
    return _MEMO.get(fn, None, lambda: _Walker(fn).run())


_SKIP = (*NESTED, ast.stmt)


def _own(node: ast.AST) -> list[ast.AST]:
    """`node`'s sub-nodes outside nested scopes and comprehensions (and outside nested
    statement blocks: the walker visits those itself)."""
    out: list[ast.AST] = [node]
    stack = [node]
    while stack:
        item = stack.pop()
        for name in _fields(item.__class__):
            value = getattr(item, name, None)
            for child in value if value.__class__ is list else (value,):
                if isinstance(child, ast.AST) and not isinstance(child, _SKIP):
                    out.append(child)
                    if _fields(child.__class__):
                        stack.append(child)
    return out


def _merge(*states: Optional[State]) -> Optional[State]:
    live = [s for s in states if s is not None]
    if not live:
        return None
    merged: State = dict(live[0])
    for state in live[1:]:
        for name, defs in state.items():
            merged[name] = merged.get(name, frozenset()) | defs
    return merged


class _Walker:
    def __init__(self, fn: FunctionNode):
        self.fn = fn
        self.result = Reaching()
        self.tracked = _rebound(fn)
        self.loops: list[tuple[list[State], list[State]]] = []  # (breaks, continues)
        # The tracked names and the nested scopes by position (from the node index), so that
        # a statement is walked only when a nested scope may hide which names are its own.
        self._names: list[ast.Name] = []
        self._at: list[Position] = []
        self._nested: list[Position] = []

    def run(self) -> Reaching:
        if not self.tracked:
            return self.result
        fn, tracked = self.fn, self.tracked
        self._names = [n for n in of_type(fn, ast.Name) if n.id in tracked]
        self._at = [(n.lineno, n.col_offset) for n in self._names]
        nested: list[ast.AST] = of_type(fn, *NESTED)
        self._nested = sorted((n.lineno, n.col_offset) for n in nested if n is not fn)  # type: ignore[attr-defined]
        args = self.fn.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        state: State = {a.arg: frozenset({id(a)}) for a in every if a is not None}
        self.result.params.update(id(a) for a in every if a is not None)
        self._block(self.fn.body, state)
        return self.result

    def _block(self, body: list[ast.stmt], state: Optional[State]) -> Optional[State]:
        for stmt in body:
            if state is None:
                return None  # after return / raise / break / continue: not reached
            state = self._stmt(stmt, state)
        return state

    def _own_names(self, node: ast.AST) -> Optional[list[ast.Name]]:
        """The tracked names inside `node` when no nested scope or comprehension is: then all
        are `node`'s own (a node holds exactly what lies inside its span), in source order.
        None when one is (walk `node` to leave out what that scope binds and reads)."""
        start: Position = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end: Position = (node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        at = self._at
        low = bisect_left(at, start)
        high = bisect_left(at, end, low)
        if low == high:
            return []
        nested = self._nested
        inner = bisect_left(nested, start)
        if inner < len(nested) and nested[inner] < end:
            return None
        return self._names[low:high]

    def _simple(self, stmt: ast.stmt, state: State) -> State:
        """A statement without blocks: its reads, then its stores (a walrus), in one walk."""
        own = self._own_names(stmt)
        if own is not None and sum(isinstance(n.ctx, ast.Store) for n in own) <= 1:
            # the walk below finds these names (in another order, which only matters between
            # two stores)
            return self._simple_names(own, state)
        stores: list[ast.Name] = []
        for sub in _own(stmt):
            if isinstance(sub, ast.Name) and sub.id in self.tracked:
                if isinstance(sub.ctx, ast.Load):
                    self.result.reads[id(sub)] = state.get(sub.id, frozenset())
                elif isinstance(sub.ctx, ast.Store):
                    stores.append(sub)
        if not stores:
            return state
        state = dict(state)
        for sub in stores:
            state[sub.id] = frozenset({id(sub)})
        return state

    def _simple_names(self, own: list[ast.Name], state: State) -> State:
        stored: Optional[ast.Name] = None
        for sub in own:
            if isinstance(sub.ctx, ast.Load):
                self.result.reads[id(sub)] = state.get(sub.id, frozenset())
            elif isinstance(sub.ctx, ast.Store):
                stored = sub
        if stored is None:
            return state
        return {**state, stored.id: frozenset({id(stored)})}

    def _reads(self, node: Optional[ast.AST], state: State) -> None:
        if node is None:
            return
        own = self._own_names(node)
        if own is not None:
            for name in own:
                if isinstance(name.ctx, ast.Load):
                    self.result.reads[id(name)] = state.get(name.id, frozenset())
            return
        for sub in _own(node):
            if (
                isinstance(sub, ast.Name)
                and isinstance(sub.ctx, ast.Load)
                and sub.id in self.tracked
            ):
                self.result.reads[id(sub)] = state.get(sub.id, frozenset())

    def _stores(self, node: Optional[ast.AST], state: State, value: Optional[ast.expr]) -> State:
        if node is None:
            return state
        state = dict(state)
        for sub in _own(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                state[sub.id] = frozenset({id(sub)})
                if value is not None and sub is node:
                    self.result.values[id(sub)] = value
        return state

    def _stmt(self, stmt: ast.stmt, state: State) -> Optional[State]:
        if isinstance(stmt, ast.Assign):
            after = self._simple(stmt, state)  # `a[i] = v`, `a.b = v` read `a` too
            target = stmt.targets[0]
            if len(stmt.targets) == 1 and isinstance(target, ast.Name) and target.id in after:
                self.result.values[id(target)] = stmt.value
            return after
        if isinstance(stmt, ast.AugAssign):
            self._reads(stmt.value, state)
            self._reads(stmt.target, state)
            if isinstance(stmt.target, ast.Name) and stmt.target.id in self.tracked:
                self.result.reads[id(stmt.target)] = state.get(stmt.target.id, frozenset())
            return self._stores(stmt.target, state, None)
        if isinstance(stmt, ast.AnnAssign):
            self._reads(stmt.value, state)
            if stmt.value is None:
                return state
            return self._stores(stmt.target, state, stmt.value)
        if isinstance(stmt, ast.If):
            self._reads(stmt.test, state)
            return _merge(self._block(stmt.body, state), self._block(stmt.orelse, state))
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            self._reads(stmt.iter, state)
            if _counts(stmt):
                self.result.counters.add(id(stmt.target))
            return self._loop(stmt, state, lambda s: self._stores(stmt.target, s, None))
        if isinstance(stmt, ast.While):
            test = stmt.test

            def head(at: State) -> State:
                self._reads(test, at)  # the test is read before every pass
                return at

            return self._loop(stmt, state, head)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self._reads(item.context_expr, state)
                state = self._stores(item.optional_vars, state, None)
            return self._block(stmt.body, state)
        if isinstance(stmt, (ast.Return, ast.Raise)):
            self._reads(stmt, state)
            return None
        if isinstance(stmt, (ast.Break, ast.Continue)):
            if self.loops:
                self.loops[-1][0 if isinstance(stmt, ast.Break) else 1].append(state)
            return None
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            return self._try(stmt, state)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for deco in stmt.decorator_list:
                self._reads(deco, state)
            return {**state, stmt.name: frozenset({id(stmt)})}
        if isinstance(stmt, ast.Match):
            self._reads(stmt.subject, state)
            ends = [
                self._block(case.body, self._stores(case.pattern, state, None))
                for case in stmt.cases
            ]
            return _merge(state, *ends)
        return self._simple(stmt, state)  # Expr, Assert, Delete, Global, ...

    def _loop(
        self,
        stmt: ast.For | ast.AsyncFor | ast.While,
        entry: State,
        head: Callable[[State], State],
    ) -> Optional[State]:
        """Twice round the body: the second pass starts from what the first pass carried back,
        so a read sees the bindings of the previous iteration too."""
        start: State = entry
        end: Optional[State] = None
        breaks: list[State] = []
        for _ in range(2):
            self.loops.append(([], []))
            body_end = self._block(stmt.body, head(start))
            breaks, continues = self.loops.pop()
            end = _merge(body_end, *continues)
            start = _merge(entry, end) or entry
        after = head(start) if isinstance(stmt, ast.While) else start
        rest = self._block(stmt.orelse, after) if stmt.orelse else after
        return _merge(rest, *breaks)

    def _try(self, stmt: ast.stmt, state: State) -> Optional[State]:
        body_end = self._block(getattr(stmt, "body", []), state)
        # a handler may start anywhere in the body: from what held before or after it
        start = _merge(state, body_end) or state
        ends = [body_end and self._block(getattr(stmt, "orelse", []), body_end)]
        for handler in getattr(stmt, "handlers", []):
            begin = dict(start)
            if handler.name:
                begin[handler.name] = frozenset({id(handler)})
            ends.append(self._block(handler.body, begin))
        final = getattr(stmt, "finalbody", [])
        merged = _merge(*ends)
        if final:
            return self._block(final, merged or start) if merged is not None else None
        return merged


def _rebound(fn: FunctionNode) -> set[str]:
    """Names bound more than once in `fn` (a parameter counts as a binding; a store in a nested
    scope too, which only makes a name followed that need not be)."""
    counts: dict[str, int] = {}
    args = fn.args
    for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if a is not None:
            counts[a.arg] = 1
    for node in of_type(fn, ast.Name):
        if node.ctx.__class__ is ast.Store:
            counts[node.id] = counts.get(node.id, 0) + 1
    return {name for name, n in counts.items() if n >= 2}


def _counts(stmt: ast.For | ast.AsyncFor) -> bool:
    """`for i in range(...)`: the target takes Python ints (a local `range` aside)."""
    it = stmt.iter
    return (
        isinstance(stmt.target, ast.Name)
        and isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
    )
