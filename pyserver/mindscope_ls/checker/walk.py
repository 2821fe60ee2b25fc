"""One pass over a module, shared by every rule: its nodes grouped by type, in source order.

`of_type(tree, ast.Call)` walks `tree` once (the first time any query reaches it) and then answers
for `tree` or any function or class inside it by bisecting the per-type lists on source position:
a scope's nodes are exactly those positioned inside its span, so no subtree is walked again.
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

T = TypeVar("T", bound=ast.AST)
Position = tuple[int, int]

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_SCOPE_TYPES = frozenset(SCOPES)
_SKIP = frozenset({"ctx", "type_comment", "kind"})
_LEAVES = frozenset({ast.Name, ast.Constant})
_FIELDS: dict[type, tuple[str, ...]] = {}
_START = attrgetter("lineno", "col_offset")


class _Index:
    """The nodes of one tree by type, each list sorted by position with its keys alongside."""

    def __init__(self, root: ast.AST):
        self.root = root
        groups: dict[type, list[ast.AST]] = {}
        for node in _all_nodes(root):
            groups.setdefault(node.__class__, []).append(node)
        self.nodes: dict[type, list[ast.AST]] = {}
        self.keys: dict[type, list[Position]] = {}
        for kind, nodes in groups.items():
            if hasattr(nodes[0], "lineno"):
                keys = list(map(_START, nodes))
                if any(a > b for a, b in zip(keys, keys[1:])):
                    order = sorted(range(len(nodes)), key=keys.__getitem__)
                    nodes = [nodes[i] for i in order]
                    keys = [keys[i] for i in order]
                self.keys[kind] = keys
            self.nodes[kind] = nodes

    def select(self, node: ast.AST, kind: type) -> list[ast.AST]:
        nodes = self.nodes.get(kind)
        if not nodes:
            return []
        keys = self.keys.get(kind)
        if node is self.root or keys is None:
            return nodes
        start = bisect_left(keys, _position(node))
        end = bisect_right(keys, _end(node))
        return nodes[start:end]


_INDEX: WeakKeyDictionary[ast.AST, _Index] = WeakKeyDictionary()


def _index_of(node: ast.AST) -> _Index:
    index = _INDEX.get(node)
    if index is None:
        index = _Index(node)
        _INDEX[node] = index
        for scope in index.nodes.get(ast.FunctionDef, []) + index.nodes.get(ast.ClassDef, []):
            _INDEX.setdefault(scope, index)
        for kind in (ast.AsyncFunctionDef, ast.Lambda):
            for scope in index.nodes.get(kind, []):
                _INDEX.setdefault(scope, index)
    return index


def of_type(node: ast.AST, *types: type[T]) -> list[T]:
    """Nodes of the given types under `node` (itself included): grouped by type in the order
    given, each group in source order."""
    index = _index_of(node)
    if len(types) == 1:
        return index.select(node, types[0])  # type: ignore[return-value]
    found: list[ast.AST] = []
    for kind in types:
        found.extend(index.select(node, kind))
    return found  # type: ignore[return-value]


def walk(node: ast.AST) -> list[ast.AST]:
    """Every node under `node` (itself included); for the rare callers that need all kinds."""
    return _all_nodes(node)


def _position(node: ast.AST) -> Position:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> Position:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _fields(kind: type) -> tuple[str, ...]:
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = tuple(f for f in kind._fields if f not in _SKIP)  # type: ignore[attr-defined]
        _FIELDS[kind] = fields
    return fields


def _all_nodes(root: ast.AST) -> list[ast.AST]:
    """Iterative walk (deep expressions do not hit the recursion limit); order is unspecified."""
    out: list[ast.AST] = [root]
    append: Callable[[Any], None] = out.append
    stack: list[ast.AST] = [root]
    push = stack.append
    pop = stack.pop
    leaves = _LEAVES
    while stack:
        item = pop()
        kind = item.__class__
        for name in _FIELDS.get(kind) or _fields(kind):
            value: Any = getattr(item, name, None)
            if value is None:
                continue
            if value.__class__ is list:
                child: Any
                for child in value:
                    if child.__class__ in leaves:
                        append(child)
                    elif isinstance(child, ast.AST):
                        append(child)
                        push(child)
            elif value.__class__ in leaves:
                append(value)
            elif isinstance(value, ast.AST):
                append(value)
                push(value)
    return out
