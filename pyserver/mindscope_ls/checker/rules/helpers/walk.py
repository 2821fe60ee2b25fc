"""One pass over each top-level statement, shared by every rule: nodes by type, in source order.

`of_type(stmt, ast.Call)` walks a top-level statement once (the first time any query reaches it)
and then answers for it or any function or class inside it by bisecting the per-type lists on
source position: a scope's nodes are exactly those positioned inside its span, so no subtree is
walked again. A module is answered by joining its statements' answers, so after an edit only the
statements the block parser re-parsed (new node objects) are walked again: the index is kept on
the node and a reused statement keeps its index (also when it moved: see `_Index`).
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from operator import attrgetter
from typing import Any, TypeVar, Union

T = TypeVar("T", bound=ast.AST)
Position = tuple[int, int]

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_SCOPE_TYPES = frozenset(SCOPES)
# Fields that never hold nodes (names, flags, the Load/Store context), so the walk skips them.
_SCALARS = frozenset(
    {"ctx", "type_comment", "kind", "id", "attr", "name", "arg", "asname", "module", "level"}
    | {"conversion", "is_async", "simple", "kwd_attrs", "rest", "tag"}
)
_SCALARS_OF: dict[type, frozenset[str]] = {
    ast.Global: frozenset({"names"}),
    ast.Nonlocal: frozenset({"names"}),
    ast.Constant: frozenset({"value"}),
    ast.MatchSingleton: frozenset({"value"}),
}
_FIELDS: dict[type, tuple[str, ...]] = {}
_START = attrgetter("lineno", "col_offset")
_UNSORTED = object()


class _Index:
    """The nodes of one tree by type; each type's list is sorted by position (with its keys
    alongside) the first time that type is asked for: many types never are.

    The block parser re-numbers the lines of a block that moved, in place: the keys are kept
    relative to the root's line (every node of a block moves with it), so they stay valid."""

    def __init__(self, root: ast.AST):
        self.root = root
        self.nodes = _grouped(root)
        self.keys: dict[type, object] = {}
        # Each scope asked about, by id (the scopes are in `nodes`, so alive): its nodes by
        # type, as answered. A function's rules ask for the same few types again and again.
        self.found: dict[int, dict[type, list[ast.AST]]] = {}
        # ... and its span, relative to the root's line as the keys are
        self.spans: dict[int, tuple[Position, Position]] = {}

    def select(self, node: ast.AST, types: tuple[type, ...]) -> list[ast.AST]:
        """`select_one` of each type, joined; types the tree lacks (most, in most queries)
        skipped."""
        found: list[ast.AST] = []
        present = self.nodes
        answers = self.found.get(id(node)) or {}  # what `select_one` keeps, read as `of_type` does
        for kind in types:
            if kind in present:
                kept = answers.get(kind)
                found.extend(kept if kept is not None else self.select_one(node, kind))
        return found

    def select_one(self, node: ast.AST, kind: type) -> list[ast.AST]:
        nodes = self.nodes.get(kind)
        if not nodes:
            return []
        keys = self.keys.get(kind, _UNSORTED)
        if keys is _UNSORTED:
            keys = None
            if hasattr(nodes[0], "lineno"):
                base = getattr(self.root, "lineno", 0)
                nodes.sort(key=_START)  # stable: ties keep the walk's order
                keys = [(line - base, col) for line, col in map(_START, nodes)]
            self.keys[kind] = keys
        if node is self.root or keys is None:
            return nodes
        answers = self.found.get(id(node))
        if answers is None:
            # The span first: a check stopped part-way (in `_end`) must not leave `found` set
            # without it, or the next query of this scope fails (KeyError in `spans`).
            base = getattr(self.root, "lineno", 0)
            line, col = _position(node)
            end_line, end_col = _end(node)
            self.spans[id(node)] = ((line - base, col), (end_line - base, end_col))
            answers = self.found[id(node)] = {}
        found = answers.get(kind)
        if found is None:
            positions: list[Position] = keys  # type: ignore[assignment]
            start, end = self.spans[id(node)]
            found = nodes[bisect_left(positions, start) : bisect_right(positions, end)]
            answers[kind] = found
        return found


class _ModuleIndex:
    """A module's nodes: its top-level statements' indexes joined in order (statements do not
    overlap, so each joined list is still in source order)."""

    def __init__(self, root: ast.Module):
        self.root = root
        self.parts = [(stmt, _tree_index(stmt)) for stmt in root.body]
        self._joined: dict[type, list[ast.AST]] = {}
        self.found: dict[int, dict[type, list[ast.AST]]] = {}  # none: `of_type` asks `_Index`'s

    def select(self, node: ast.AST, types: tuple[type, ...]) -> list[ast.AST]:
        found: list[ast.AST] = []
        for kind in types:
            found.extend(self.select_one(node, kind))
        return found

    def select_one(self, node: ast.AST, kind: type) -> list[ast.AST]:
        joined = self._joined.get(kind)
        if joined is None:
            joined = [self.root] if kind is ast.Module else []
            for stmt, index in self.parts:
                if kind in index.nodes:
                    joined.extend(index.select_one(stmt, kind))
            self._joined[kind] = joined
        return joined


# The attribute of a node that holds its index (and each scope's under it). Not a weak-keyed
# table: an index holds its root and scopes, so a table entry kept its own key alive and no
# indexed tree was ever freed. On the node, tree and index are one cycle the collector frees.
_ATTR = "_mindscope_walk"


def _new_index(node: ast.AST) -> Union[_Index, _ModuleIndex]:
    if isinstance(node, ast.Module) and not node.type_ignores:
        index = node.__dict__[_ATTR] = _ModuleIndex(node)
        return index
    return _tree_index(node)


def _tree_index(node: ast.AST) -> _Index:
    attrs = node.__dict__
    index = attrs.get(_ATTR)
    if isinstance(index, _Index):
        return index
    index = attrs[_ATTR] = _Index(node)
    for scope in index.nodes.get(ast.FunctionDef, []) + index.nodes.get(ast.ClassDef, []):
        scope.__dict__.setdefault(_ATTR, index)
    for kind in (ast.AsyncFunctionDef, ast.Lambda):
        for scope in index.nodes.get(kind, []):
            scope.__dict__.setdefault(_ATTR, index)
    return index


def of_type(node: ast.AST, *types: type[T]) -> list[T]:
    """Nodes of the given types under `node` (itself included): grouped by type in the order
    given, each group in source order. The same list each time for one type (do not change
    it); a new one for several."""
    index: Union[_Index, _ModuleIndex, None] = node.__dict__.get(_ATTR)
    if index is None:
        index = _new_index(node)
    if len(types) == 1:
        # A scope's answer is kept after the first query: most queries repeat one (a
        # function's rules ask for the same few types), so they skip `select_one`'s steps.
        answers = index.found.get(id(node))
        if answers is not None:
            found = answers.get(types[0])
            if found is not None:
                return found  # type: ignore[return-value]
        return index.select_one(node, types[0])  # type: ignore[return-value]
    return index.select(node, types)  # type: ignore[return-value]


def inside(outer: ast.AST, node: ast.AST) -> bool:
    """`node` lies inside `outer` by source position (`outer` itself included)."""
    start, end = _position(outer), _end(outer)
    return start <= _position(node) and _end(node) <= end


def walk(node: ast.AST) -> list[ast.AST]:
    """Every node under `node` (itself included); for the rare callers that need all kinds."""
    return _all_nodes(node)


def _position(node: ast.AST) -> Position:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> Position:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _fields(kind: type) -> tuple[str, ...]:
    """The fields of `kind` that may hold nodes; () for leaves (names, constants, operators)."""
    fields = _FIELDS.get(kind)
    if fields is None:
        skip = _SCALARS | _SCALARS_OF.get(kind, frozenset())
        fields = tuple(f for f in getattr(kind, "_fields", ()) if f not in skip)
        _FIELDS[kind] = fields
    return fields


def _grouped(root: ast.AST) -> dict[type, list[ast.AST]]:
    """Every node under `root` (itself included) by type. Iterative, so deep expressions do not
    hit the recursion limit; each list is in the walk's order, not in source order."""
    groups: dict[type, list[ast.AST]] = {root.__class__: [root]}
    get = groups.get
    known = _FIELDS.get
    stack: list[ast.AST] = [root] if _fields(root.__class__) else []
    push = stack.append
    pop = stack.pop
    node = ast.AST
    while stack:
        item = pop()
        for name in _FIELDS[item.__class__]:
            value: Any = getattr(item, name, None)
            children: Any = value if value.__class__ is list else (value,)
            for child in children:
                kind = child.__class__
                group = get(kind)
                if group is None:
                    if not isinstance(child, node):
                        continue
                    group = groups[kind] = []
                group.append(child)
                fields = known(kind)
                if fields is None:
                    fields = _fields(kind)
                if fields:
                    push(child)
    return groups


def _all_nodes(root: ast.AST) -> list[ast.AST]:
    """Every node under `root` (itself included), each node's children after it, in the order
    `_grouped` meets them; for the rare callers that want every kind."""
    out: list[ast.AST] = [root]
    stack: list[ast.AST] = [root]
    while stack:
        for child in _children(stack.pop()):
            out.append(child)
            if _fields(child.__class__):
                stack.append(child)
    return out


def _children(node: ast.AST) -> list[ast.AST]:
    """The nodes directly under `node`, in field order."""
    found: list[ast.AST] = []
    for name in _fields(node.__class__):
        value = getattr(node, name, None)
        values = value if isinstance(value, list) else [value]
        found.extend(child for child in values if isinstance(child, ast.AST))
    return found


def own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of `scope`, not descending into the functions, lambdas and classes in it
    (their own nodes), but yielding those nested scopes themselves."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))
