"""The class and method around the cursor when the file's parse lost them: a layer list being
typed (`nn.SequentialCell([` on one line, `nn.` on the next, nothing closed yet) leaves the
whole class unparsable, and the repairs of `sourcemodel` give up on it. Here the class's header
and the text from the `def` line to the cursor are closed as Python needs them (`None` for the
element being typed, then the open brackets in reverse) and parsed on their own: pure `ast`.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator
from typing import Optional

from mindscope_ls.analysis.sourcemodel import FunctionNode
from mindscope_ls.analysis.textscan import open_brackets

_CLASS = re.compile(r"([ \t]*)class\s+[A-Za-z_]")
_DEF = re.compile(r"([ \t]*)(?:async\s+)?def\s")
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)

Found = tuple[ast.ClassDef, Optional[FunctionNode]]


def method_around(lines: list[str], first: int) -> Optional[Found]:
    """The innermost class around the end of `lines` (the last one cut at the cursor) and the
    method of it the end is in. `first` is the file's line number (0-based) of `lines[0]`; the
    nodes carry the file's line numbers."""
    chunk = _class_and_method(lines)
    if chunk is None:
        return None
    start, indent, text = chunk
    for closed in _closed(text):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse("\n" * (first + start) + _dedent(closed, indent))
        except _PARSE_ERRORS:
            continue
        return _innermost(tree.body, first + len(lines))
    return None


def _class_and_method(lines: list[str]) -> Optional[tuple[int, int, str]]:
    """(index of the `class` line, its indent, the text from it to the end) with only the class
    header and the last method kept, the lines between them blank: the method's size, not the
    class's, bounds the work."""
    last_def = _last(lines, _DEF, len(lines))
    before = len(lines) if last_def is None else last_def[0]
    width = None if last_def is None else last_def[1]
    found = _last(lines, _CLASS, before, below=width)
    if found is None:
        return None
    start, indent = found
    header = start + 1
    while header < before and not lines[header - 1].split("#", 1)[0].rstrip().endswith(":"):
        header += 1  # bases over several lines
    if last_def is None:
        before = header  # no method: the class body as it is
    kept = lines[start:header] + [""] * (before - header) + lines[before:]
    return start, indent, "\n".join(kept)


def _last(
    lines: list[str], pattern: re.Pattern[str], before: int, below: Optional[int] = None
) -> Optional[tuple[int, int]]:
    """(index, indent) of the last line before `before` that `pattern` matches, indented less
    than `below` when given."""
    for index in range(before - 1, -1, -1):
        match = pattern.match(lines[index])
        if match is not None and (below is None or len(match.group(1)) < below):
            return index, len(match.group(1))
    return None


def _dedent(text: str, indent: int) -> str:
    if not indent:
        return text
    return "\n".join(
        line[indent:] if line[:indent].isspace() else line for line in text.split("\n")
    )


def _closed(text: str) -> Iterator[str]:
    """`text` completed into something that may parse: with a placeholder for the element at
    the cursor, then without it (`[a b|` takes no placeholder)."""
    closers = open_brackets(text)
    if closers is None:
        return
    yield f"{text}None{closers}\n"
    yield f"{text}{closers}\n"


def _innermost(body: list[ast.stmt], line: int) -> Optional[Found]:
    """The innermost class whose statements contain the 1-based `line`, with its method there."""
    for node in body:
        if not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        if not isinstance(node, ast.ClassDef):
            return None
        method = next(
            (
                item
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                and item.lineno <= line <= (item.end_lineno or item.lineno)
            ),
            None,
        )
        return _innermost(node.body, line) or (node, method)
    return None
