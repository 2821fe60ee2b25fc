"""MS101-MS111, MS118: statements and expressions the graph compiler has no translation for."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Optional

from ..fixes.closures import lambda_default_edit, nonlocal_edits
from ..fixes.edits import owns_lines, replace_node, segment
from ..fixes.loops import loop_else_edits
from ..model import Fix, Group, Range, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable, keyword_range, within

TRY_IN_GRAPH = Rule(
    "MS101",
    "try-in-graph",
    Group.FAILS,
    title="`try` in compiled code",
    message=(
        "`try` is not supported in graph mode; check the condition explicitly or move this code "
        "out of compiled code."
    ),
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `try`; LAX mode does not fall back to Python for it."
    ),
    remedy=(
        "Remove the `try`: check the condition explicitly, or move the guarded code out of "
        "`construct`/`@jit` code."
    ),
    mindspore_says="RuntimeError: Unsupported statement 'Try'.",
)

DEL_IN_GRAPH = Rule(
    "MS102",
    "del-in-graph",
    Group.FAILS,
    title="`del` in compiled code",
    message="`del` is not supported in graph mode; remove the statement.",
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `del`; LAX mode does not fall back to Python for it."
    ),
    remedy="Remove the `del` statement; rebinding the name is enough for the graph.",
    mindspore_says="RuntimeError: Unsupported statement 'Delete'.",
    fix_title="Remove the `del` statement",
)

YIELD_IN_GRAPH = Rule(
    "MS103",
    "yield-in-graph",
    Group.FAILS,
    title="`yield` in compiled code",
    message="`yield` is not supported in graph mode; return a tuple of the values instead.",
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `yield`; LAX mode does not fall back to Python for it."
    ),
    remedy="Return a tuple or list instead of yielding values.",
    mindspore_says="RuntimeError: Unsupported expression 'Yield'.",
)

NONLOCAL_IN_GRAPH = Rule(
    "MS104",
    "nonlocal-in-graph",
    Group.FAILS,
    title="`nonlocal` in compiled code",
    message=(
        "`nonlocal` is not supported in graph mode; return the new value from the inner function "
        "instead."
    ),
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `nonlocal`; LAX mode does not fall back to Python for it."
    ),
    remedy=(
        "Return the new value from the inner function, or keep the state in an attribute of the "
        "Cell."
    ),
    mindspore_says="RuntimeError: Unsupported statement 'Nonlocal'.",
    fix_title="Keep `{names}` in an attribute of the Cell",
)

MATCH_IN_GRAPH = Rule(
    "MS105",
    "match-in-graph",
    Group.FAILS,
    title="`match` in compiled code",
    message="`match` is not supported in graph mode; rewrite it as `if`/`elif`.",
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `match`; LAX mode does not fall back to Python for it."
    ),
    remedy="Rewrite the `match` statement as `if`/`elif`.",
    mindspore_says="RuntimeError: Unsupported statement 'Match'.",
)

WALRUS_IN_GRAPH = Rule(
    "MS106",
    "walrus-in-graph",
    Group.FAILS,
    title="`:=` in compiled code",
    message=(
        "The walrus operator `:=` is not supported in graph mode; assign the value in its own "
        "statement first."
    ),
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `:=`; LAX mode does not fall back to Python for it."
    ),
    remedy="Assign the value in its own statement before using it.",
    mindspore_says="RuntimeError: Unsupported expression 'NamedExpr'.",
)

IMPORT_IN_GRAPH = Rule(
    "MS107",
    "import-in-graph",
    Group.FAILS,
    title="`import` in compiled code",
    message="`import` is not supported inside compiled code; move it to the top of the module.",
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `import`; LAX mode does not fall back to Python for it."
    ),
    remedy="Move the import to the top of the module.",
    mindspore_says="RuntimeError: Unsupported statement 'Import'.",
)

CLASS_IN_GRAPH = Rule(
    "MS108",
    "class-in-graph",
    Group.FAILS,
    title="`class` in compiled code",
    message=(
        "Defining class `{name}` inside compiled code is not supported; define it at module level."
    ),
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `class`; LAX mode does not fall back to Python for it."
    ),
    remedy="Define the class at module level.",
    mindspore_says="RuntimeError: Unsupported statement 'ClassDef'.",
)

ASYNC_IN_GRAPH = Rule(
    "MS109",
    "async-in-graph",
    Group.FAILS,
    title="`async` in compiled code",
    message="`async`/`await` is not supported in graph mode; use plain synchronous code.",
    why=(
        "MindSpore's graph compiler parses the source of compiled functions and has no "
        "translation for `async`; LAX mode does not fall back to Python for it."
    ),
    remedy="Use a plain `def`; compiled code cannot be asynchronous.",
    mindspore_says="RuntimeError: Unsupported statement 'AsyncFunctionDef'.",
)

LOOP_ELSE = Rule(
    "MS110",
    "loop-else",
    Group.FAILS,
    title="`for`/`while` with an `else` clause",
    message=(
        "This `else` clause of a `{loop}` loop is not supported in graph mode; use a flag cleared"
        " on `break` and an `if` after the loop."
    ),
    why="The graph compiler does not translate the `else` clause of loops.",
    remedy="Use a flag set before the loop and cleared on `break`, then an `if` after the loop.",
    mindspore_says=(
        "RuntimeError: The 'for...else...' statement is not supported now. (and 'while...else...'"
        " for while loops)"
    ),
    fix_title="Replace the `else` clause {how}",
)

SET_IN_GRAPH = Rule(
    "MS111",
    "set-in-graph",
    Group.FAILS,
    title="Set literal or set comprehension in compiled code",
    message="A {kind} is not supported in graph mode; use a tuple of the distinct values instead.",
    why="Graph mode has no set type.",
    remedy="Use a tuple (or list) of the distinct values instead.",
    mindspore_says="RuntimeError: Unsupported expression 'Set'. (and 'SetComp')",
    fix_title="Replace the set literal with a tuple",
)

LAMBDA_DEFAULT_IN_COMPREHENSION = Rule(
    "MS118",
    "lambda-default-in-comprehension",
    Group.FAILS,
    title="Lambda with default arguments inside a comprehension",
    message=(
        "A lambda with default arguments inside a comprehension cannot be compiled; build the "
        "functions outside compiled code."
    ),
    why=(
        "The compiler cannot evaluate a lambda's default that refers to the comprehension variable."
    ),
    remedy="Build the functions outside compiled code, or use `functools.partial` in `__init__`.",
    mindspore_says=(
        "RuntimeError: Illegal AnfNode for evaluating, node: "
        "@Net_construct__lambda_...:param_i(type:Parameter)"
    ),
    fix_title="Capture the value with a closure instead of a default argument",
)

COMPLEX_LITERAL = Rule(
    "MS120",
    "complex-literal",
    Group.FAILS,
    title="Complex number literal in compiled code",
    message=(
        "Complex literals are not supported in graph mode; build the complex value outside "
        "compiled code or with `ops.Complex`."
    ),
    why="The graph compiler has no constant type for Python complex numbers such as `2j`.",
    remedy=(
        "Build complex values outside compiled code (e.g. a `Tensor` made in `__init__`), or use "
        "`ops.Complex(real, imag)` on Tensors."
    ),
    mindspore_says="TypeError: Unsupported Constant type : 2j",
)

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

    rule: Rule
    keyword: Optional[str] = None
    fix: Optional[Callable[[FunctionContext, Any], Optional[Fix]]] = None

    def finding(self, ctx: FunctionContext, node: ast.AST) -> RawFinding:
        at = (
            keyword_range(node, self.keyword)
            if isinstance(node, ast.stmt) and self.keyword
            else node
        )
        fix = self.fix(ctx, node) if self.fix is not None else None
        return self.rule.finding(at, fix=fix, name=getattr(node, "name", ""))


def _del_fix(ctx: FunctionContext, node: ast.Delete) -> Optional[Fix]:
    """Remove `del name` (only plain names: deleting a binding does not change a result)."""
    if not all(isinstance(t, ast.Name) for t in node.targets) or not owns_lines(ctx.lines, node):
        return None
    return DEL_IN_GRAPH.fix(replace_node(node, "pass"))


def _nonlocal_fix(ctx: FunctionContext, node: ast.Nonlocal) -> Optional[Fix]:
    edits = nonlocal_edits(ctx, node)
    return NONLOCAL_IN_GRAPH.fix(*edits, names=", ".join(sorted(node.names))) if edits else None


_TRY = _Unsupported(TRY_IN_GRAPH, "try")
_YIELD = _Unsupported(YIELD_IN_GRAPH)
_IMPORT = _Unsupported(IMPORT_IN_GRAPH)
_ASYNC = _Unsupported(ASYNC_IN_GRAPH, "async")
_UNSUPPORTED: dict[Optional[type], _Unsupported] = {
    getattr(ast, "Try", None): _TRY,
    getattr(ast, "TryStar", None): _TRY,
    ast.Delete: _Unsupported(DEL_IN_GRAPH, "del", _del_fix),
    ast.Yield: _YIELD,
    ast.YieldFrom: _YIELD,
    ast.Nonlocal: _Unsupported(NONLOCAL_IN_GRAPH, fix=_nonlocal_fix),
    MATCH: _Unsupported(MATCH_IN_GRAPH, "match"),
    ast.NamedExpr: _Unsupported(WALRUS_IN_GRAPH),
    ast.Import: _IMPORT,
    ast.ImportFrom: _IMPORT,
    ast.ClassDef: _Unsupported(CLASS_IN_GRAPH, "class"),
    ast.AsyncFunctionDef: _ASYNC,
    ast.AsyncFor: _ASYNC,
    ast.AsyncWith: _ASYNC,
    ast.Await: _Unsupported(ASYNC_IN_GRAPH),
}
_UNSUPPORTED.pop(None, None)

# Node class -> the rule of a node MindSpore reports as "Unsupported statement/expression 'X'":
# the one map of syntax the graph compiler has no translation for (the runtime maps
# MindSpore's messages back to rules with it).
UNSUPPORTED_SYNTAX: Mapping[type[ast.AST], str] = MappingProxyType(
    {
        **{kind: u.rule.code for kind, u in _UNSUPPORTED.items() if kind is not None},
        ast.Set: SET_IN_GRAPH.code,
        ast.SetComp: SET_IN_GRAPH.code,
    }
)


def _check_node(ctx: FunctionContext, node: ast.AST) -> Iterator[RawFinding]:
    unsupported = _UNSUPPORTED.get(type(node))
    if unsupported is not None:
        yield unsupported.finding(ctx, node)
    elif isinstance(node, (ast.For, ast.While)) and node.orelse:
        yield from _loop_else(ctx, node)
    elif isinstance(node, (ast.Set, ast.SetComp)):
        kind = "set literal" if isinstance(node, ast.Set) else "set comprehension"
        fix = _set_fix(ctx, node) if isinstance(node, ast.Set) else None
        yield SET_IN_GRAPH.finding(node, fix=fix, kind=kind)
    elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp)):
        yield from _lambda_defaults(ctx, node)
    elif isinstance(node, ast.Constant) and isinstance(node.value, complex):
        yield COMPLEX_LITERAL.finding(node)


def _loop_else(ctx: FunctionContext, node: ast.For | ast.While) -> Iterator[RawFinding]:
    word = "for" if isinstance(node, ast.For) else "while"
    rewrite = loop_else_edits(ctx.lines, node)
    yield LOOP_ELSE.finding(  # MindSpore names the first statement of the `else` clause
        _first_line(ctx, node.orelse[0]),
        related=[ctx.related(node, f"the `{word}` loop")],
        fix=LOOP_ELSE.fix(*rewrite[1], how=rewrite[0]) if rewrite else None,
        loop=word,
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
    return SET_IN_GRAPH.fix(replace_node(node, text))


def _lambda_defaults(ctx: FunctionContext, node: ast.expr) -> Iterator[RawFinding]:
    for sub in within(node, ctx.of(ast.Lambda)):
        if sub.args.defaults or any(sub.args.kw_defaults):
            edit = lambda_default_edit(ctx, sub)
            fix = LAMBDA_DEFAULT_IN_COMPREHENSION.fix(edit) if edit else None
            yield LAMBDA_DEFAULT_IN_COMPREHENSION.finding(sub, fix=fix)
