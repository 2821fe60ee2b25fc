"""Small control-flow helpers: statement blocks, names bound in a block, uses after a node."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Optional

from .walk import of_type

Block = list[ast.stmt]
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def blocks_of(fn: ast.AST) -> Iterator[Block]:
    """Every statement list of a function (bodies of if/for/while/with/try), not nested defs."""
    stack: list[ast.AST] = [fn]
    while stack:
        node = stack.pop()
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block
                stack.extend(s for s in block if not isinstance(s, SCOPES))
        for handler in getattr(node, "handlers", []) or []:
            stack.append(handler)


def exits(block: Block) -> bool:
    """True when the block always leaves (return/raise/break/continue as its last statement)."""
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue))


def assigned_names(block: Block) -> dict[str, ast.AST]:
    """Plain names bound anywhere in `block` (not in nested scopes), with a binding node."""
    found: dict[str, ast.AST] = {}
    stack: list[ast.AST] = list(block)
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPES):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.setdefault(node.id, node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def bound_before(fn: ast.AST, name: str, node: ast.AST) -> bool:
    """True if `name` is a parameter or is bound (in source order) before `node` starts."""
    args = getattr(fn, "args", None)
    if isinstance(args, ast.arguments):
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if any(a is not None and a.arg == name for a in every):
            return True
    start = _position(node)
    for sub in of_type(fn, ast.Name):
        if sub.id == name and isinstance(sub.ctx, ast.Store) and _position(sub) < start:
            return True
    return any(name in g.names for g in of_type(fn, ast.Global)) or any(
        name in n.names for n in of_type(fn, ast.Nonlocal)
    )


def loads_after(fn: ast.AST, name: str, node: ast.AST) -> Optional[ast.Name]:
    """The first read of `name` after `node` ends, in the same function (None if never read)."""
    end = _end(node)
    best: Optional[ast.Name] = None
    names = of_type(fn, ast.Name)
    for sub in names:
        if (
            sub.id == name
            and isinstance(sub.ctx, ast.Load)
            and _position(sub) >= end
            and (best is None or _position(sub) < _position(best))
        ):
            best = sub
    if best is None:
        return None
    for sub in names:  # rebound before that read: the branch's binding is not what is read
        if (
            sub.id == name
            and isinstance(sub.ctx, ast.Store)
            and end <= _position(sub) < _position(best)
        ):
            return None
    return best


def definitely_assigned(block: Block, runtime: Callable[[ast.expr], bool]) -> set[str]:
    """Names bound on every path through `block`, where `runtime(test)` says a test is decided at
    run time (both branches compiled); other `if`s are trusted to bind what either branch binds."""
    found: set[str] = set()
    for stmt in block:
        if isinstance(stmt, ast.If) and runtime(stmt.test):
            if exits(stmt.body):
                found |= definitely_assigned(stmt.orelse, runtime)
            elif stmt.orelse and exits(stmt.orelse):
                found |= definitely_assigned(stmt.body, runtime)
            else:
                found |= definitely_assigned(stmt.body, runtime) & definitely_assigned(
                    stmt.orelse, runtime
                )
        else:
            found |= set(assigned_names([stmt]))
    return found
