"""The `nn.Cell` subclasses of one file, as the checker's discovery sees them: subclasses of a
user base class (in the file or, with the workspace index, in another file) and of imported
aliases (`from mindspore import nn as mnn`) included. Pure `ast`, never raising."""

from __future__ import annotations

import ast
import logging
from dataclasses import dataclass
from typing import Optional

from mindscope_ls.checker import ClassTable, Workspace

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CellClass:
    name: str
    line: int  # 0-based, the `class` line (decorators above it not counted)
    character: int  # 0-based column of `class`, in code points
    end_line: int  # 0-based, the class's last line


def cell_classes(
    source: str, path: str, workspace: Optional[Workspace] = None, offset: int = 0
) -> list[CellClass]:
    """The Cell classes of `source` (the text of `path`), in source order; with `workspace`,
    `source` replaces that file's indexed text. `offset` lines of `source` that come before the
    document (a notebook cell's program) are skipped and taken off the lines."""
    try:
        ws = workspace if workspace is not None else Workspace()
        module = ws.update(path, source)
        if module.tree is None:
            return []
        table = ClassTable(ws)
        lines = source.split("\n")
        found = [
            CellClass(
                node.name,
                node.lineno - 1 - offset,
                _code_points(lines[node.lineno - 1], node.col_offset),
                (node.end_lineno or node.lineno) - 1 - offset,
            )
            for node in ast.walk(module.tree)
            if isinstance(node, ast.ClassDef)
            and node.lineno > offset
            and table.info(module, node).is_cell
        ]
    except Exception:  # broken or surprising code: no classes, never an error
        log.exception("finding the Cell classes of %s failed", path)
        return []
    return sorted(found, key=lambda c: (c.line, c.character))


def _code_points(line: str, utf8_offset: int) -> int:
    """`ast` columns count UTF-8 bytes; LSP clients want characters."""
    return len(line.encode("utf-8")[:utf8_offset].decode("utf-8", errors="ignore"))
