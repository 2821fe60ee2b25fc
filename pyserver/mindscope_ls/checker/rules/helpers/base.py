"""What a rule sees: one compiled function with its types, level and module."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from ...model import Range, RawFinding, Related
from ...rule import node_range
from .classes import ClassTable
from .discovery import CompiledFunction
from .types import TensorTypes
from .walk import T, inside, of_type, walk

R = TypeVar("R", bound=Callable[..., Iterator[RawFinding]])
CACHEABLE: set[Callable[..., Iterator[RawFinding]]] = set()


def cacheable(rule: R) -> R:
    """Marks a function rule whose findings depend only on what its context holds for its
    function: the function's nodes (and the lines they span), its types, level and class, its
    module's names, and classes looked up through `ctx.classes`. The engine then keeps its
    findings between checks while those are unchanged (reading other lines of the file is
    noticed, and ties the findings to the whole text). A rule that reads more, e.g. other
    functions' nodes or the module's tree, must stay unmarked: it then runs in every check."""
    CACHEABLE.add(rule)
    return rule


@dataclass
class FunctionContext:
    fn: CompiledFunction
    types: TensorTypes
    level: str
    classes: ClassTable
    lines: list[str]
    # What several rules derive from the function (its abstract values, `shared_values.py`),
    # built once per context by the first rule that asks: one context serves all the rules of
    # one function in one check, so nothing here outlives the check.
    shared: dict[str, object] = field(default_factory=dict, repr=False)
    # `of(T)`'s answers: each rule of the function asks for the same few node types, and this
    # one lookup is cheaper than the shared index's (a third of a cold check's calls are these).
    _found: dict[type, list[ast.AST]] = field(default_factory=dict, repr=False)

    @property
    def path(self) -> str:
        return self.fn.module.path

    def nodes(self) -> Iterator[ast.AST]:
        """Every node of the compiled function, nested functions and lambdas included."""
        return iter(walk(self.fn.node))

    def of(self, *types: type[T]) -> list[T]:
        """The nodes of the compiled function of the given types, in source order (grouped by
        type when several). The same list for each call with one type: do not change it."""
        if len(types) == 1:
            found = self._found.get(types[0])
            if found is None:
                found = self._found[types[0]] = of_type(self.fn.node, types[0])
            return found  # type: ignore[return-value]
        return of_type(self.fn.node, *types)

    def statements(self) -> Iterator[ast.stmt]:
        for node in self.nodes():
            if isinstance(node, ast.stmt):
                yield node

    def related(self, node: ast.AST, message: str) -> Related:
        return Related(self.path, node_range(node), message)


def within(outer: ast.AST, nodes: list[T]) -> list[T]:
    """The `nodes` that lie inside `outer` (by source position)."""
    return [n for n in nodes if inside(outer, n)]


def keyword_range(node: ast.stmt, keyword: str) -> Range:
    """The range of a statement's leading keyword (`try`, `del`, ...) rather than its whole body."""
    return Range(node.lineno, node.col_offset, node.lineno, node.col_offset + len(keyword))
