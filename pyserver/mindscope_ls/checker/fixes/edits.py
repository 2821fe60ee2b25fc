"""Building blocks for quick fixes: text of a range, whole-line edits, re-indentation."""

from __future__ import annotations

import ast
from typing import Optional

from ..model import Range, TextEdit


def line_text(lines: list[str], line: int) -> str:
    return lines[line - 1] if 0 < line <= len(lines) else ""


def indent_of(text: str) -> str:
    return text[: len(text) - len(text.lstrip(" \t"))]


def segment(lines: list[str], node: ast.AST) -> Optional[str]:
    """Source text of `node` (ast columns are UTF-8 byte offsets)."""
    start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
    col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
    if start is None or end is None or col is None or end_col is None:
        return None
    chunk = [line_text(lines, n).encode("utf-8") for n in range(start, end + 1)]
    if not chunk:
        return None
    if len(chunk) == 1:
        return chunk[0][col:end_col].decode("utf-8", errors="replace")
    chunk[0] = chunk[0][col:]
    chunk[-1] = chunk[-1][:end_col]
    return "\n".join(c.decode("utf-8", errors="replace") for c in chunk)


def replace_node(node: ast.expr | ast.stmt, text: str) -> TextEdit:
    end_line = node.end_lineno or node.lineno
    return TextEdit(Range(node.lineno, node.col_offset, end_line, node.end_col_offset or 0), text)


def delete_lines(first: int, last: int) -> TextEdit:
    """Delete lines `first`..`last` (1-based, inclusive) with their line breaks."""
    return TextEdit(Range(first, 0, last + 1, 0), "")


def insert_line(before: int, text: str) -> TextEdit:
    """Insert `text` (without newline) as a new line before line `before`."""
    return TextEdit(Range(before, 0, before, 0), text + "\n")


def owns_lines(lines: list[str], node: ast.stmt) -> bool:
    """True when nothing but whitespace or a comment shares the statement's lines."""
    first = line_text(lines, node.lineno).encode("utf-8")
    last = line_text(lines, node.end_lineno or node.lineno).encode("utf-8")
    before = first[: node.col_offset]
    after = last[node.end_col_offset or 0 :].strip()
    return not before.strip() and (not after or after.startswith(b"#"))


def dedent_lines(lines: list[str], first: int, last: int, width: int) -> Optional[list[TextEdit]]:
    """Edits removing `width` leading spaces from each line, or None if a line is shallower."""
    edits: list[TextEdit] = []
    for number in range(first, last + 1):
        text = line_text(lines, number)
        if not text.strip():
            continue
        if not text.startswith(" " * width):
            return None
        edits.append(TextEdit(Range(number, 0, number, width), ""))
    return edits
