"""Statements under an `if` on a Cell's Python attribute (`if self.training:`, `if not
self.use_recompute:`), which graph mode folds at compile time: only the branch the attribute's
value picks is compiled (measured on MindSpore 2.10: `if self.training: self.fc.recompute()`
compiles while the Cell evaluates and fails once `set_train()` was called; the same with
`self.flag = False` / `True` set in `__init__`).

`guards(ctx)` maps each statement under such tests to what it needs: [(attribute, truth)];
`attribute_value(ctx, name)` says what the attribute holds when compiled, None when unknown.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from .base import FunctionContext
from .names import self_attribute

Guard = tuple[str, bool]  # (attribute, the truth the branch needs)
# What sets a Cell training outside its class: `net.set_train()` / `set_train(True)`, a
# WithGradCell (calls it), `Model(...).train(...)`.
TRAINED = re.compile(
    r"\.set_train\(\s*(True|mode\s*=\s*True)?\s*\)|WithGradCell|\.train\(|\.training\s*=\s*True"
)


def _test(test: ast.expr) -> Optional[Guard]:
    """(attr, True) for `self.attr`, (attr, False) for `not self.attr`."""
    truth = True
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, truth = test.operand, not truth
    name = self_attribute(test)
    return (name, truth) if name is not None else None


def _and_tests(test: ast.expr) -> tuple[Guard, ...]:
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And)):
        return ()
    found = (_test(v) for v in test.values)
    return tuple(g for g in found if g is not None)


def _ends(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise))


def _visit(
    block: list[ast.stmt], held: tuple[Guard, ...], out: dict[int, tuple[Guard, ...]]
) -> None:
    for stmt in block:
        if held:
            out[id(stmt)] = held
        if isinstance(stmt, ast.If):
            guard = _test(stmt.test)
            if guard is None:
                # `if self.training and self.use_rc:`: the body needs each attribute test
                both = _and_tests(stmt.test)
                _visit(stmt.body, (*held, *both), out)
                _visit(stmt.orelse, held, out)
                continue
            name, truth = guard
            _visit(stmt.body, (*held, (name, truth)), out)
            _visit(stmt.orelse, (*held, (name, not truth)), out)
            if _ends(stmt.body) and not stmt.orelse:
                held = (*held, (name, not truth))  # `if not self.training: return ...`
        elif isinstance(stmt, (ast.For, ast.While, ast.With)):
            _visit(stmt.body, held, out)
            if not isinstance(stmt, ast.With):
                _visit(stmt.orelse, held, out)


def guards(ctx: FunctionContext) -> dict[int, tuple[Guard, ...]]:
    """Statement id -> the attribute tests it is compiled under (statements under none are
    left out). Only methods: `self` is the Cell."""
    if ctx.fn.cls is None or not isinstance(ctx.fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    out: dict[int, tuple[Guard, ...]] = {}
    _visit(ctx.fn.node.body, (), out)
    return out


def statement_of(ctx: FunctionContext, node: ast.AST) -> Optional[ast.stmt]:
    """The innermost statement of the function holding `node` (by source position)."""
    best: Optional[ast.stmt] = None
    line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
    for stmt in ctx.statements():
        start = (stmt.lineno, stmt.col_offset)
        end = (stmt.end_lineno or 0, stmt.end_col_offset or 0)
        if start <= (line, col) < end and (best is None or start >= (best.lineno, best.col_offset)):
            best = stmt
    return best


def attribute_value(ctx: FunctionContext, name: str) -> Optional[bool]:
    """The truth `self.<name>` has when compiled: `training` is False unless the module sets
    the Cell training; another attribute every assignment of the class (and of the module's
    code) gives the same constant. None when unknown."""
    source = ctx.fn.module.source
    if name == "training":
        return TRAINED.search(source) is not None
    cls = ctx.fn.cls
    if cls is None:
        return None
    values: set[bool] = set()
    count = 0
    for info in cls.lineage():
        for node in ast.walk(info.node):
            if not isinstance(node, (ast.Assign, ast.AnnAssign)):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(self_attribute(t) == name for t in targets):
                continue
            count += 1
            if not isinstance(node.value, ast.Constant):
                return None
            values.add(bool(node.value.value))
    # any other write (`net.flag = True`, `setattr`, `self.flag += 1`) leaves it unknown
    writes = len(re.findall(r"\." + re.escape(name) + r"\s*(=[^=]|[-+*/|&]=)", source))
    if len(values) != 1 or writes != count or "setattr" in source:
        return None
    return values.pop()


def taken(ctx: FunctionContext, held: tuple[Guard, ...]) -> bool:
    """Whether a statement under these tests is compiled (an unknown attribute may be)."""
    for name, truth in held:
        value = attribute_value(ctx, name)
        if value is not None and value != truth:
            return False
    return True
