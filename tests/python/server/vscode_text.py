"""A reference for document sync: text edited the way VS Code's text model edits it, on one
flat string (no kept lines), written apart from the server's code to check it.

VS Code ends lines at "\\r\\n", "\\r" and "\\n" only; `validatePosition` clamps a line past the
last to the end of the document and a character past a line's end to that end; a range's
ends are ordered, and one inside a surrogate pair widens to cover it."""

from __future__ import annotations

import re

from lsprotocol import types

_BREAK = re.compile(r"\r\n|\r|\n")


class VSCodeText:
    def __init__(self, text: str) -> None:
        self.text = text

    def lines(self) -> list[str]:
        """The lines with their breaks (no empty last line), as `splitlines(True)` would give
        them if it split where VS Code does."""
        out, start = [], 0
        for match in _BREAK.finditer(self.text):
            out.append(self.text[start : match.end()])
            start = match.end()
        if start < len(self.text):
            out.append(self.text[start:])
        return out

    def offset(self, position: types.Position, after: bool = False) -> int:
        starts = [0] + [m.end() for m in _BREAK.finditer(self.text)]
        if position.line >= len(starts):
            return len(self.text)
        start = starts[position.line]
        found = _BREAK.search(self.text, start)
        end = found.start() if found is not None else len(self.text)
        units, at = 0, start
        while at < end and units < position.character:
            units += 2 if ord(self.text[at]) > 0xFFFF else 1
            at += 1
        if units > position.character and not after:
            at -= 1  # inside a surrogate pair
        return at

    def apply(self, change: types.TextDocumentContentChangeEvent) -> None:
        if isinstance(change, types.TextDocumentContentChangeWholeDocument):
            self.text = change.text
            return
        empty = change.range.start == change.range.end
        a = self.offset(change.range.start)
        b = self.offset(change.range.end, after=not empty)
        a, b = min(a, b), max(a, b)
        self.text = self.text[:a] + change.text + self.text[b:]
