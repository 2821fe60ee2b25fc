"""A document's lines as VS Code has them, and an LSP edit applied to them as VS Code applies
it: lines end at "\r\n", "\r" or "\n" only, and a position past the end of a line or of the
document is clamped to that end (VS Code's `TextModel.validatePosition`), never to another
line. pygls splits with `str.splitlines` and clamps differently: its copy drifted from the
editor's after an edit near a "\x0c" or a "\u2028"."""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types

from mindscope_ls.checker import split_lines

# Code units of one character in the client's position encoding (UTF-16 by default).
Units = Callable[[str], int]


def content(line: str) -> str:
    """The line without its line break."""
    if line.endswith("\r\n"):
        return line[:-2]
    return line[:-1] if line.endswith(("\n", "\r")) else line


def locate(
    lines: list[str], position: types.Position, units: Units, after: bool
) -> tuple[int, int]:
    """(line, code point column) of a client position; line == len(lines) is the empty last
    line after a final line break. A column inside a character of two code units moves before
    it, or `after` it (a range's end, so that the range covers the character)."""
    last = len(lines) - 1
    if position.line > last:
        if lines and content(lines[last]) == lines[last]:  # no break at the end
            return last, len(lines[last])
        return len(lines), 0
    text = content(lines[position.line])
    count = column = 0
    while column < len(text) and count < position.character:
        count += units(text[column])
        column += 1
    if count > position.character and not after:
        column -= 1
    return position.line, column


def apply_change(
    lines: list[str], change: types.TextDocumentContentChangePartial, units: Units
) -> list[str]:
    """The lines after `change`, re-splitting only the lines it touches."""
    empty = change.range.start == change.range.end
    start = locate(lines, change.range.start, units, after=False)
    end = locate(lines, change.range.end, units, after=not empty)
    if end < start:  # VS Code orders a range's ends
        start, end = end, start
    (first, start_col), (last, end_col) = start, end
    head = lines[first][:start_col] if first < len(lines) else ""
    tail = lines[last][end_col:] if last < len(lines) else ""
    before, after = lines[:first], lines[last + 1 :]
    middle = head + change.text + tail
    joined = (
        before
        and before[-1].endswith("\r")
        and (middle or (after[0] if after else "")).startswith("\n")
    )
    if joined or (after and not middle.endswith(("\n", "\r"))):
        return split_lines("".join([*before, middle, *after]), True)  # lines ran together
    return [*before, *split_lines(middle, True), *after]
