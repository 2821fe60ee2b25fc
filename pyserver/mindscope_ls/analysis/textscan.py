"""Read the text around the cursor: the expression before a dot, under the cursor, or being
called. Plain string scanning, so it works on code that does not parse.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from mindscope_ls.checker import split_lines

_IDENT_TAIL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_IDENT_HEAD = re.compile(r"^[A-Za-z0-9_]*")
_CLOSE = {")": "(", "]": "["}
_MAX_CALL_LINES = 30
# What decides whether a bracket counts: comments and strings hide theirs. A quote that starts
# no complete string is an unclosed one.
_BRACKETS = re.compile(
    r"""\#[^\n]*
    |'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"
    |'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"
    |(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<quote>['"])""",
    re.VERBOSE,
)
_CLOSERS = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True)
class DotContext:
    """`<expr>.<prefix>|` at the cursor."""

    expr: ast.expr
    prefix: str


@dataclass(frozen=True)
class CallContext:
    """Inside `<callee>(arg0, kw=…, |`: which argument the cursor is in."""

    callee: ast.expr
    arg_index: int
    keyword: Optional[str]  # the keyword being written, `kw=` before the cursor


@lru_cache(maxsize=4)
def lines_of(source: str) -> tuple[str, ...]:
    """`source.splitlines()`, once per text: a request asks several times (the same str
    object, so the cache's lookup costs no comparison of the text)."""
    return tuple(split_lines(source))


def line_text(source: str, line: int) -> str:
    lines = lines_of(source)
    return lines[line] if 0 <= line < len(lines) else ""


def _expression_start(text: str) -> int:
    """Start of the trailing `a.b(c)[d].e` chain of `text` (balanced brackets)."""
    index = len(text)
    depth = 0
    while index > 0:
        char = text[index - 1]
        if char in _CLOSE:
            depth += 1
        elif char in "([":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and not (char.isalnum() or char in "._"):
            break
        index -= 1
    return index


def parse_expr(text: str) -> Optional[ast.expr]:
    text = text.strip()
    if not text or text[0].isdigit() or text[0] == ".":
        return None
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


def dot_context(source: str, line: int, character: int) -> Optional[DotContext]:
    text = line_text(source, line)[:character]
    prefix_match = _IDENT_TAIL.search(text)
    prefix = prefix_match.group(0) if prefix_match else ""
    before = text[: len(text) - len(prefix)]
    if not before.endswith(".") or _in_string_or_comment(before):
        return None
    expr = parse_expr(before[_expression_start(before[:-1]) : -1])
    return DotContext(expr, prefix) if expr is not None else None


def expression_at(source: str, line: int, character: int) -> Optional[ast.expr]:
    """The dotted expression ending with the identifier under the cursor (`ops.mat|mul`)."""
    text = line_text(source, line)
    head = _IDENT_HEAD.match(text[character:])
    end = character + (head.group(0).__len__() if head else 0)
    if end == 0 or _in_string_or_comment(text[:character]):
        return None
    start = _expression_start(text[:end])
    return parse_expr(text[start:end])


def call_context(source: str, line: int, character: int) -> Optional[CallContext]:
    lines = lines_of(source)
    if not 0 <= line < len(lines):
        return None
    first = max(0, line - _MAX_CALL_LINES)
    text = "\n".join([*lines[first:line], lines[line][:character]])
    depth, commas, index = 0, 0, len(text)
    while index > 0:
        index -= 1
        char = text[index]
        if char in _CLOSE or char == "}":
            depth += 1
        elif char in "([{":
            if depth == 0:
                if char != "(":
                    return None
                break
            depth -= 1
        elif char == "," and depth == 0:
            commas += 1
        elif char == "\n" and text[index + 1 : index + 2].strip() and depth == 0:
            stripped = text[index + 1 :].lstrip()
            if re.match(r"(def|class|return|if|for|while)\b", stripped):
                return None
    else:
        return None
    callee = parse_expr(text[_expression_start(text[:index]) : index])
    if callee is None:
        return None
    current = text[index + 1 :].rsplit(",", 1)[-1]
    keyword = re.match(r"\s*([A-Za-z_]\w*)\s*=(?!=)", current)
    return CallContext(callee, commas, keyword.group(1) if keyword else None)


def _in_string_or_comment(text: str) -> bool:
    """Rough: an odd number of quotes, or a `#` outside quotes, before the cursor."""
    quote: Optional[str] = None
    for char in text:
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#":
            return True
    return quote is not None


def open_brackets(text: str) -> Optional[str]:
    """The closing brackets the text lacks, innermost first; None when it cannot be told (an
    unclosed string, unbalanced brackets)."""
    stack: list[str] = []
    for match in _BRACKETS.finditer(text):
        opened, closed = match.group("open"), match.group("close")
        if match.group("quote"):
            return None
        if opened:
            stack.append(_CLOSERS[opened])
        elif closed and (not stack or stack.pop() != closed):
            return None
    return "".join(reversed(stack))
