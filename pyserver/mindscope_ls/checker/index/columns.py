"""Convert ast's UTF-8 byte columns into character columns, for findings, related and edits."""

from __future__ import annotations

import dataclasses

from ..model import Finding, Fix, Range, Related, TextEdit
from .sources import split_lines
from .workspace import Workspace


class ColumnMap:
    def __init__(self, ws: Workspace):
        self.ws = ws
        self._lines: dict[str, list[str]] = {}
        self._ascii: dict[str, bool] = {}

    def _is_ascii(self, path: str) -> bool:
        """True when every column of `path` is already a character column (or it is unknown)."""
        found = self._ascii.get(path)
        if found is None:
            module = self.ws.get(path)
            found = self._ascii[path] = module is None or module.source.isascii()
        return found

    def _line(self, path: str, number: int) -> str:
        lines = self._lines.get(path)
        if lines is None:
            module = self.ws.get(path)
            lines = split_lines(module.source) if module is not None else []
            self._lines[path] = lines
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def column(self, path: str, line: int, byte_col: int) -> int:
        text = self._line(path, line)
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def range(self, path: str, rng: Range) -> Range:
        return Range(
            rng.line,
            self.column(path, rng.line, rng.col),
            rng.end_line,
            self.column(path, rng.end_line, rng.end_col),
        )

    def finding(self, finding: Finding) -> Finding:
        path = finding.path
        if self._is_ascii(path) and all(self._is_ascii(r.path) for r in finding.related):
            return finding
        rng = self.range(path, finding.range)
        related = tuple(
            Related(r.path, self.range(r.path, r.range), r.message) for r in finding.related
        )
        fix = None
        if finding.fix is not None:
            edits = tuple(
                TextEdit(self.range(path, e.range), e.new_text) for e in finding.fix.edits
            )
            fix = Fix(finding.fix.title, edits)
        return dataclasses.replace(
            finding,
            line=rng.line,
            col=rng.col,
            end_line=rng.end_line,
            end_col=rng.end_col,
            related=related,
            fix=fix,
        )
