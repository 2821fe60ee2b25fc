"""MS101-MS111, MS118: statements and expressions the graph compiler has no translation for."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Optional

from ..fixes.closures import lambda_default_fix, nonlocal_fix
from ..fixes.edits import make_fix, owns_lines, replace_node, segment
from ..fixes.loops import loop_else_fix
from ..model import Fix, Range, RawFinding
from .helpers.base import FunctionContext, cacheable, keyword_range, within

MATCH = getattr(ast, "Match", None)


CHECKED: tuple[type, ...] = tuple(
    t
    for t in (
        getattr(ast, "Try", None),
        getattr(ast, "TryStar", None),
        MATCH,
        ast.Delete,
        ast.Yield,
        ast.YieldFrom,
        ast.Nonlocal,
        ast.NamedExpr,
        ast.Import,
        ast.ImportFrom,
        ast.ClassDef,
        ast.AsyncFunctionDef,
        ast.AsyncFor,
        ast.AsyncWith,
        ast.Await,
        ast.For,
        ast.While,
        ast.Set,
        ast.SetComp,
        ast.ListComp,
        ast.GeneratorExp,
        ast.DictComp,
        ast.Constant,
    )
    if t is not None
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    nodes: list[ast.AST] = ctx.of(*CHECKED)
    for node in nodes:
        yield from _check_node(ctx, node)


@dataclass(frozen=True)
class _Unsupported:
    """A node kind graph mode has no translation for: reported whole, or only its leading
    `keyword` (`try`, `class`, ...), with a quick fix when `fix` finds a safe one."""

    code: str
    message: str  # `{name}` stands for the node's name
    keyword: Optional[str] = None
    fix: Optional[Callable[[FunctionContext, Any], Optional[Fix]]] = None

    def finding(self, ctx: FunctionContext, node: ast.AST) -> RawFinding:
        message = self.message.replace("{name}", getattr(node, "name", ""))
        rng = (
            keyword_range(node, self.keyword)
            if isinstance(node, ast.stmt) and self.keyword
            else None
        )
        fix = self.fix(ctx, node) if self.fix is not None else None
        return ctx.finding(self.code, message, node, rng=rng, fix=fix)


def _del_fix(ctx: FunctionContext, node: ast.Delete) -> Optional[Fix]:
    """Remove `del name` (only plain names: deleting a binding does not change a result)."""
    if not all(isinstance(t, ast.Name) for t in node.targets) or not owns_lines(ctx.lines, node):
        return None
    return make_fix("Remove the `del` statement", replace_node(node, "pass"))


_TRY = _Unsupported(
    "MS101",
    "`try` is not supported in graph mode; check the condition "
    "explicitly or move this code out of compiled code.",
    "try",
)
_YIELD = _Unsupported(
    "MS103", "`yield` is not supported in graph mode; return a tuple of the values instead."
)
_IMPORT = _Unsupported(
    "MS107", "`import` is not supported inside compiled code; move it to the top of the module."
)
_ASYNC = "`async`/`await` is not supported in graph mode; use plain synchronous code."
_UNSUPPORTED: dict[Optional[type], _Unsupported] = {
    getattr(ast, "Try", None): _TRY,
    getattr(ast, "TryStar", None): _TRY,
    ast.Delete: _Unsupported(
        "MS102", "`del` is not supported in graph mode; remove the statement.", "del", _del_fix
    ),
    ast.Yield: _YIELD,
    ast.YieldFrom: _YIELD,
    ast.Nonlocal: _Unsupported(
        "MS104",
        "`nonlocal` is not supported in graph mode; return the new "
        "value from the inner function instead.",
        fix=nonlocal_fix,
    ),
    MATCH: _Unsupported(
        "MS105", "`match` is not supported in graph mode; rewrite it as `if`/`elif`.", "match"
    ),
    ast.NamedExpr: _Unsupported(
        "MS106",
        "The walrus operator `:=` is not supported in graph mode; "
        "assign the value in its own statement first.",
    ),
    ast.Import: _IMPORT,
    ast.ImportFrom: _IMPORT,
    ast.ClassDef: _Unsupported(
        "MS108",
        "Defining class `{name}` inside compiled code is not supported; define it at module level.",
        "class",
    ),
    ast.AsyncFunctionDef: _Unsupported("MS109", _ASYNC, "async"),
    ast.AsyncFor: _Unsupported("MS109", _ASYNC, "async"),
    ast.AsyncWith: _Unsupported("MS109", _ASYNC, "async"),
    ast.Await: _Unsupported("MS109", _ASYNC),
}
_UNSUPPORTED.pop(None, None)


def _check_node(ctx: FunctionContext, node: ast.AST) -> Iterator[RawFinding]:
    unsupported = _UNSUPPORTED.get(type(node))
    if unsupported is not None:
        yield unsupported.finding(ctx, node)
    elif isinstance(node, (ast.For, ast.While)) and node.orelse:
        yield from _loop_else(ctx, node)
    elif isinstance(node, (ast.Set, ast.SetComp)):
        kind = "set literal" if isinstance(node, ast.Set) else "set comprehension"
        fix = _set_fix(ctx, node) if isinstance(node, ast.Set) else None
        yield ctx.finding(
            "MS111",
            f"A {kind} is not supported in graph mode; use a tuple of the distinct values instead.",
            node,
            fix=fix,
        )
    elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp)):
        yield from _lambda_defaults(ctx, node)
    elif isinstance(node, ast.Constant) and isinstance(node.value, complex):
        yield ctx.finding(
            "MS120",
            "Complex literals are not supported in graph mode; build the complex value outside "
            "compiled code or with `ops.Complex`.",
            node,
        )


def _loop_else(ctx: FunctionContext, node: ast.For | ast.While) -> Iterator[RawFinding]:
    word = "for" if isinstance(node, ast.For) else "while"
    yield ctx.finding(  # MindSpore names the first statement of the `else` clause
        "MS110",
        f"This `else` clause of a `{word}` loop is not supported in graph mode; use a flag "
        "cleared on `break` and an `if` after the loop.",
        node.orelse[0],
        related=[ctx.related(node, f"the `{word}` loop")],
        rng=_first_line(ctx, node.orelse[0]),
        fix=loop_else_fix(ctx.lines, node),
    )


def _first_line(ctx: FunctionContext, node: ast.stmt) -> Range:
    """The statement's range, cut at the end of its first line."""
    if (node.end_lineno or node.lineno) == node.lineno:
        return Range(node.lineno, node.col_offset, node.lineno, node.end_col_offset or 0)
    text = ctx.lines[node.lineno - 1] if node.lineno <= len(ctx.lines) else ""
    return Range(node.lineno, node.col_offset, node.lineno, len(text.rstrip().encode("utf-8")))


def _set_fix(ctx: FunctionContext, node: ast.Set) -> Optional[Fix]:
    """`{1, 2}` -> `(1, 2)` when every element is a distinct constant (same values, same order)."""
    values: list[object] = []
    for element in node.elts:
        if not isinstance(element, ast.Constant):
            return None
        values.append(element.value)
    if len(set(values)) != len(values):  # {1, True} or {1, 1.0} is one element
        return None
    parts = [segment(ctx.lines, e) for e in node.elts]
    if any(p is None for p in parts):
        return None
    text = ", ".join(p for p in parts if p is not None)
    text = f"({text},)" if len(parts) == 1 else f"({text})"
    return make_fix("Replace the set literal with a tuple", replace_node(node, text))


def _lambda_defaults(ctx: FunctionContext, node: ast.expr) -> Iterator[RawFinding]:
    for sub in within(node, ctx.of(ast.Lambda)):
        if sub.args.defaults or any(sub.args.kw_defaults):
            yield ctx.finding(
                "MS118",
                "A lambda with default arguments inside a comprehension "
                "cannot be compiled; build the functions outside compiled code.",
                sub,
                fix=lambda_default_fix(ctx, sub),
            )
