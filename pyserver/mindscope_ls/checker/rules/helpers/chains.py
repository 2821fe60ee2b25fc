"""Classes whose chain of base classes or attribute classes is longer than the checker follows.

`ClassTable` stops resolving past `MAX_DEPTH` levels (a 500-deep chain would otherwise exhaust
Python's stack); this says where it stopped, so findings missing past that depth are reported
instead of silently absent. The walk is iterative: it must not hit the limit it reports.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ...index.module import ModuleInfo
from ...index.workspace import Workspace
from ...model import Range, RawFinding
from ..about_checker import PART_NOT_CHECKED
from .classes import _LOCAL, CHAIN_CUT, MAX_DEPTH, _local

_Class = tuple[ModuleInfo, ast.ClassDef]


def too_deep(ws: Workspace, module: ModuleInfo, limit: int = MAX_DEPTH) -> Iterator[RawFinding]:
    """An MS001 finding on each class of `module` that starts a chain deeper than `limit`
    (not on every class along it: only those no other deep class of the module leads to).
    Measured only when `ClassTable` cut a chain at this version (discovery builds every class
    of the workspace): otherwise no chain is that deep, and a check pays nothing."""
    cut = ws.cache.get(CHAIN_CUT)
    if cut is None or cut[0] != ws.version:
        return
    depths: dict[int, int] = {}
    edges: dict[int, list[_Class]] = {}
    deep = [
        node
        for node in module.classes.values()
        if _depth(ws, (module, node), depths, edges) > limit
    ]
    if not deep:
        return
    reached = {id(child[1]) for node in deep for child in edges[id(node)]}
    for node in deep:
        if id(node) in reached:
            continue
        yield PART_NOT_CHECKED.finding(
            Range(node.lineno, node.col_offset, node.lineno, node.col_offset + 5 + len(node.name)),
            detail=f"`{node.name}` starts a chain of {depths[id(node)]} base or attribute "
            f"classes; the checker follows {limit}: classes past that depth are treated as "
            "unknown, so "
            "findings in them or that depend on them may be missing.",
        )


def _dependencies(ws: Workspace, cls: _Class) -> list[_Class]:
    module, node = cls
    local = _LOCAL.get(node, module.env, lambda: _local(module, node))
    wanted = [q for q, is_cell in local.bases if not is_cell]
    wanted += [q for _, attr, q, _ in local.attrs if attr is None]
    found = (ws.resolve_class(q) for q in wanted if q)
    return [c for c in found if c is not None]


def _depth(
    ws: Workspace, start: _Class, depths: dict[int, int], edges: dict[int, list[_Class]]
) -> int:
    """The number of classes on the longest chain from `start` (cycles cut), depth first with
    an explicit stack."""
    if id(start[1]) in depths:
        return depths[id(start[1])]
    on_path = {id(start[1])}
    edges[id(start[1])] = _dependencies(ws, start)
    stack: list[tuple[_Class, Iterator[_Class]]] = [(start, iter(edges[id(start[1])]))]
    while stack:
        cls, pending = stack[-1]
        child = next(pending, None)
        if child is None:
            stack.pop()
            on_path.discard(id(cls[1]))
            below = (depths.get(id(c[1]), 0) for c in edges[id(cls[1])])
            depths[id(cls[1])] = 1 + max(below, default=0)
            continue
        key = id(child[1])
        if key in depths or key in on_path:
            continue
        on_path.add(key)
        edges[key] = _dependencies(ws, child)
        stack.append((child, iter(edges[key])))
    return depths[id(start[1])]
