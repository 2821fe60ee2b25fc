"""The execution mode, syntax level and compiled functions of one file or notebook, statically.

What the status bar shows: which `set_context(mode=...)` the file runs with (MindSpore 2.x runs
in PyNative when nothing sets it), the `jit_syntax_level` it asks for (else the user's setting)
and how many functions MindSpore compiles. Pure `ast` over the checker's index and discovery:
nothing is imported or run. A notebook is read through the one notebook model
(documents/notebook.py): each cell as its program (the cells up to it) sees it, so a mode set
in one cell applies to the cells below, and nothing a later cell imports leaks into an earlier.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

# The engine caches discovery per workspace version (`compiled_in`): sharing that cache keeps
# a status request from re-walking the whole workspace after the diagnostics just did.
from mindscope_ls.checker import (
    DEFAULT_LEVEL,
    CompiledFunction,
    ModuleInfo,
    SyntaxLevel,
    Workspace,
    compiled_in,
    file_level,
    level_set_by,
    mode_settings,
    normalize_level,
    of_type,
)
from mindscope_ls.documents.notebook import blank_magics, program

GRAPH = "GRAPH_MODE"
PYNATIVE = "PYNATIVE_MODE"
UNKNOWN = "UNKNOWN"
DEFAULT_MODE = PYNATIVE  # MindSpore 2.x
_MAX_LISTED = 200  # compiled functions listed by name; all are counted
_MAX_TEXT = 80
_MAX_REPAIRS = 12


@dataclass(frozen=True)
class Where:
    """A place in the analysed text: `part` is the cell index (0 for a file), `line` 1-based."""

    part: int
    line: int
    text: str


@dataclass(frozen=True)
class Compiled:
    name: str
    kind: str  # "construct" (of a Cell), "jit" (@jit / ms.jit(f)) or "callee" (called by those)
    part: int
    line: int


@dataclass(frozen=True)
class FileMode:
    mode: str  # GRAPH_MODE, PYNATIVE_MODE, or UNKNOWN when the value is computed at run time
    mode_source: str  # "file" or "default"
    mode_choices: tuple[str, ...]  # what a conditional `mode=A if c else B` may pick
    mode_at: Optional[Where]
    mode_set_count: int
    level: str
    level_source: str  # "file" or "setting"
    level_at: Optional[Where]
    compiled_count: int
    compiled: tuple[Compiled, ...]
    parsed: bool  # False when some text did not parse and was read with failing lines blanked


@dataclass(frozen=True)
class _Part:
    """What one cell (or the file) contributes, read in `module`: its program."""

    module: ModuleInfo
    offset: int  # the line of the program where the part starts
    end: int  # the line after its last one
    compiled: list[CompiledFunction]
    parsed: bool

    def holds(self, node: ast.AST) -> bool:
        return self.offset < getattr(node, "lineno", 0) <= self.end


def file_mode(
    source: str, path: str, *, setting_level: Optional[str], workspace: Optional[Workspace] = None
) -> FileMode:
    """`source` is the text of `path`; with a `workspace`, helpers in other files count too."""
    repaired = _repaired(source)
    if workspace is None or repaired != source:
        # A half-typed file is read repaired, apart from the workspace the checks share.
        workspace = Workspace()
    module = workspace.update(path, repaired)
    lines = repaired.count("\n") + 1
    part = _Part(module, 0, lines, compiled_in(workspace, module), repaired == source)
    return _summarize([part], setting_level)


def notebook_mode(cells: Sequence[str], *, setting_level: Optional[str]) -> FileMode:
    """`cells` are the code cells in notebook order. Cell k is read in its program, one
    workspace file updated cell by cell, so each top-level block is parsed once."""
    texts = [blank_magics(cell) for cell in cells]
    repaired = [_repaired(text) for text in texts]
    workspace = Workspace()
    parts: list[_Part] = []
    for index in range(len(repaired)):
        source, offset = program(repaired, index)
        module = workspace.update("<notebook>", source)
        end = offset + repaired[index].count("\n") + 1
        part = _Part(module, offset, end, [], repaired[index] == texts[index])
        compiled = [fn for fn in compiled_in(workspace, module) if _compiled_by(part, fn)]
        parts.append(_Part(module, offset, end, compiled, part.parsed))
    return _summarize(parts, setting_level)


def _compiled_by(part: _Part, fn: CompiledFunction) -> bool:
    """Whether running the part compiles `fn`: it is defined there, or called from there (a
    helper of an earlier cell that this cell's compiled code calls)."""
    return part.holds(fn.node) or (fn.caller is not None and part.holds(fn.caller.node))


def _summarize(parts: list[_Part], setting_level: Optional[str]) -> FileMode:
    settings = [(where, modes) for i, p in enumerate(parts) for where, modes in _mode_sets(i, p)]
    mode, source, mode_at = DEFAULT_MODE, "default", None
    choices: tuple[str, ...] = (DEFAULT_MODE,)
    if settings:
        mode_at, choices = settings[-1]  # the last one wins when the file runs top to bottom
        mode, source = (choices[0] if len(choices) == 1 else UNKNOWN), "file"
    level, level_at = normalize_level(setting_level) or DEFAULT_LEVEL, None
    level_source = "setting"
    for index, part in enumerate(parts):
        found = _level_where(index, part)
        if found is not None:
            level, level_at, level_source = found[0], found[1], "file"
    unique = {_compiled(parts, fn) for p in parts for fn in p.compiled}  # a helper called twice
    compiled = sorted(unique, key=lambda c: (c.part, c.line, c.name))
    return FileMode(
        mode=mode,
        mode_source=source,
        mode_choices=choices,
        mode_at=mode_at,
        mode_set_count=len(settings),
        level=level,
        level_source=level_source,
        level_at=level_at,
        compiled_count=len(compiled),
        compiled=tuple(compiled[:_MAX_LISTED]),
        parsed=all(p.parsed for p in parts),
    )


def _mode_sets(index: int, part: _Part) -> list[tuple[Where, tuple[str, ...]]]:
    # The checker's one reading of set_context(mode=...), which its severities follow too.
    return [
        (_where(index, part, call), modes)
        for call, modes in mode_settings(part.module)
        if part.holds(call)  # an earlier cell's is counted in its own program
    ]


def _level_where(index: int, part: _Part) -> Optional[tuple[SyntaxLevel, Where]]:
    """The level the part sets last (as `file_level` decides) and where it does so."""
    module = part.module
    level = file_level(module)
    if level is None or module.tree is None:
        return None
    setters = [
        n
        for n in of_type(module.tree, ast.Call, ast.Assign)
        if part.holds(n) and level_set_by(module, n)
    ]
    if not setters:
        return None  # the level an earlier cell set, found in that cell
    last = max(setters, key=lambda n: (n.lineno, n.col_offset))  # type: ignore[attr-defined]
    return level_set_by(module, last) or level, _where(index, part, last)


def _compiled(parts: list[_Part], fn: CompiledFunction) -> Compiled:
    """`fn` in the part that defines it (a cell's program holds the cells above it too)."""
    index = next((i for i, p in enumerate(parts) if p.holds(fn.node)), len(parts) - 1)
    if fn.node.name == "construct" and fn.cls is not None:
        kind = "construct"
    elif fn.caller is None:
        kind = "jit"
    else:
        kind = "callee"
    return Compiled(fn.qualname, kind, index, fn.node.lineno - parts[index].offset)


def _where(index: int, part: _Part, node: ast.AST) -> Where:
    segment = ast.get_source_segment(part.module.source, node) or ""
    text = re.sub(r"\s+", " ", segment).strip()
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT - 1] + "…"
    return Where(index, getattr(node, "lineno", 1) - part.offset, text)


def _repaired(source: str) -> str:
    """`source`, or while it does not parse, with each failing line blanked to `pass` (same
    line numbers, like `sourcemodel.parse_tolerant`, but the text is kept for the index)."""
    lines = source.split("\n")
    text = source
    for _ in range(_MAX_REPAIRS):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(text)
            return text
        except SyntaxError as error:
            bad = (error.lineno or 0) - 1
            if not 0 <= bad < len(lines) or lines[bad].strip() == "pass":
                break
            stripped = lines[bad].lstrip()
            lines[bad] = lines[bad][: len(lines[bad]) - len(stripped)] + "pass"
            text = "\n".join(lines)
        except (ValueError, RecursionError, MemoryError, OverflowError):
            break
    return text
