"""Compile errors made readable: a short summary above MindSpore's full trace.

MindSpore reports a GRAPH_MODE compile failure as an ordinary exception (RuntimeError,
TypeError, …) whose message ends with `The Traceback of Net Construct Code` and `# In file
PATH:LINE~LINE, COL~COL` entries. The summary names what failed, the cell and line it points at,
and the checker's matching rule with its fix.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any, Callable, Optional

from mindscope_kernel.cellfiles import CellFiles
from mindscope_kernel.cellsource import prepare
from mindscope_runtime.infile import construct_locations, innermost, is_framework_file

COMPILE_MARKERS = ("The Traceback of Net Construct Code", "- C++ Call Stack:")
_COMPILE_FRAMES = ("compile", "compile_and_run", "compile_frontend", "__call__")


@dataclass(frozen=True)
class Location:
    path: str
    line: int
    end_line: int


@dataclass(frozen=True)
class Advice:
    code: str
    message: str
    remedy: str


def is_compile_error(exc: BaseException) -> bool:
    text = str(exc)
    if COMPILE_MARKERS[0] in text:
        return True
    if COMPILE_MARKERS[1] not in text:
        return False
    frames = traceback.extract_tb(exc.__traceback__)
    return any(
        "mindspore" in f.filename and f.name in _COMPILE_FRAMES
        for f in frames
        if "site-packages" in f.filename
    )


def user_location(exc: BaseException, is_user_file: Callable[[str], bool]) -> Optional[Location]:
    """The innermost `# In file` entry in user code (a cell file or a workspace file)."""
    found = innermost(construct_locations(str(exc)), is_user_file)
    return Location(found.file, found.line, found.end_line) if found else None


def headline(exc: BaseException) -> str:
    for raw in str(exc).splitlines():
        line = raw.strip()
        if line and not line.startswith(("-", "#")):
            return line if len(line) <= 200 else line[:199] + "…"
    return type(exc).__name__


def advice_for(
    source: str, path: str, where: Location, level: str, previous: list[str], message: str
) -> Optional[Advice]:
    """The checker's rule for the failing lines (the runtime's one compile-error mapper), with
    the finding's quick fix or else the rule's remedy."""
    from mindscope_runtime.errormap import find_rule

    try:
        prepared = prepare(source, previous)
        text, offset = prepared.source, prepared.offset
    except ImportError:  # no checker: MindSpore's message alone can still name the rule
        text, offset = source, 0
    found = find_rule(
        message, path, where.line, level, end_line=where.end_line, source=text, line_offset=offset
    )
    if found is None:
        return None
    rule = _rule(found.code)
    text = found.message or (rule.title if rule else "")
    remedy = found.fix_title or (rule.remedy if rule else "")
    return Advice(found.code, text, remedy)


def _rule(code: str) -> Any:
    try:
        from mindscope_ls.checker import RULES
    except ImportError:
        return None
    return RULES.get(code)


def summarize(exc: BaseException, cells: CellFiles, level: str) -> list[str]:
    """Plain-text lines of the summary (without ANSI colours)."""
    where = user_location(exc, lambda p: cells.is_cell_file(p) or not is_framework_file(p))
    lines = [f"MindScope: GRAPH_MODE compile failed: {type(exc).__name__}: {headline(exc)}"]
    if where is None:
        return [*lines, "  (full MindSpore trace below)"]
    cell = cells.lookup(where.path)
    source = cell.code if cell else _read(where.path)
    place = f"cell [{cell.execution_count}]" if cell else where.path
    text = _line(source, where.line)
    lines.append(f"  at {place}, line {where.line}: {text}")
    previous = [c.code for c in cells.executed() if c.path != where.path]
    message = str(exc).split("\n----", 1)[0]
    advice = advice_for(source, where.path, where, level, previous, message) if source else None
    if advice:
        lines.append(f"  {advice.code}: {advice.message}")
        if advice.remedy:
            lines.append(f"  Fix: {advice.remedy}")
    lines.append("  (full MindSpore trace below)")
    return lines


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return ""


def _line(source: str, number: int) -> str:
    lines = source.splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def render(lines: list[str]) -> list[str]:
    """ANSI-coloured like IPython's tracebacks: a bold red first line."""
    if not lines:
        return []
    return [f"\x1b[1;31m{lines[0]}\x1b[0m\n" + "\n".join(lines[1:]) + "\n"]


def syntax_level_name(ms: Any) -> str:
    value = ms.get_context("jit_syntax_level")
    for name in ("STRICT", "COMPATIBLE", "LAX"):
        if getattr(ms, name, None) == value:
            return name
    return "LAX"
