"""The edits of the quick fix for `for...else` / `while...else` (MS110): how it rewrites the
clause (a phrase for the fix title) and the edits."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Range, TextEdit
from .edits import dedent_lines, delete_lines, indent_of, insert_line, line_text

Loop = Union[ast.For, ast.While]
Rewrite = tuple[str, list[TextEdit]]  # how the `else` clause is replaced, the edits


def loop_else_edits(lines: list[str], loop: Loop) -> Optional[Rewrite]:
    """Rewrite the `else` clause: dedent it when the loop never breaks, else guard it by a flag."""
    else_line = _else_line(lines, loop)
    if else_line is None:
        return None
    breaks = list(_own_breaks(loop.body))
    if not breaks:
        return _dedent_fix(lines, loop, else_line)
    return _flag_fix(lines, loop, else_line, breaks)


def _else_line(lines: list[str], loop: Loop) -> Optional[int]:
    """The line holding only `else:` at the loop's indentation, above the else body."""
    first_else = loop.orelse[0].lineno
    last_body = loop.body[-1].end_lineno or loop.body[-1].lineno
    loop_indent = indent_of(line_text(lines, loop.lineno))
    for number in range(first_else - 1, last_body, -1):
        text = line_text(lines, number)
        stripped = text.strip()
        if stripped.startswith("else") and stripped.split("#")[0].strip() == "else:":
            return number if indent_of(text) == loop_indent else None
    return None


def _own_breaks(body: list[ast.stmt]) -> Iterator[ast.Break]:
    """`break` statements that leave this loop (not a nested loop or function)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Break):
            yield node
        elif isinstance(
            node,
            (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda),
        ):
            if isinstance(node, (ast.For, ast.While)):
                stack.extend(node.orelse)
            continue
        else:
            stack.extend(ast.iter_child_nodes(node))


def _dedent_fix(lines: list[str], loop: Loop, else_line: int) -> Optional[Rewrite]:
    first = loop.orelse[0].lineno
    last = loop.orelse[-1].end_lineno or first
    width = len(indent_of(line_text(lines, first))) - len(indent_of(line_text(lines, loop.lineno)))
    if width <= 0 or first == else_line:
        return None
    dedents = dedent_lines(lines, first, last, width)
    if dedents is None:
        return None
    edits = [delete_lines(else_line, else_line), *dedents]
    return "by running its block after the loop (the loop never breaks)", edits


def _flag_fix(
    lines: list[str], loop: Loop, else_line: int, breaks: list[ast.Break]
) -> Optional[Rewrite]:
    flag = _fresh_name(lines, "no_break")
    indent = indent_of(line_text(lines, loop.lineno))
    edits: list[TextEdit] = [insert_line(loop.lineno, f"{indent}{flag} = True")]
    for brk in breaks:
        text = line_text(lines, brk.lineno)
        if text.strip().split("#")[0].strip() != "break":
            return None  # `if c: break` on one line: not mechanical
        edits.append(insert_line(brk.lineno, f"{indent_of(text)}{flag} = False"))
    else_text = line_text(lines, else_line)
    edits.append(
        TextEdit(
            Range(else_line, 0, else_line, len(else_text.encode("utf-8"))), f"{indent}if {flag}:"
        )
    )
    return "with a flag set on `break`", edits


def _fresh_name(lines: list[str], base: str) -> str:
    text = "\n".join(lines)
    name, n = base, 1
    while name in text:
        n += 1
        name = f"{base}_{n}"
    return name
