"""A very large file's requests read a window of it: its imports, then the top-level block
around the cursor. Parsing all of a 100,000-line file (3.5 MB) took ~3 s of CPU before the
first completion or hover could answer (~30 s on a busy machine); the window is a few hundred
lines. Only files past LARGE_FILE_CHARS, which are neither checked nor indexed either, are
read this way; what the window leaves out (a class defined elsewhere in the file) is not
inferred for them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Optional

from mindscope_ls.checker import split_lines
from mindscope_ls.documents.position import At

# Past this size a file is neither checked as it is typed (generated code, data dumped as
# Python) nor indexed, and its requests read a window: parsing it all would hold the
# interpreter for seconds at a time (a 100,000-line file, 3.5 MB: ~5 s of CPU), and every
# request would wait behind it.
LARGE_FILE_CHARS = 2_000_000
# How far from the cursor the block may reach: a block longer than this is cut.
REACH = 2_000
_IMPORTS = ("import ", "from ")


@dataclass(frozen=True)
class Window:
    source: str
    line: int  # the cursor's line in `source`
    rows: tuple[int, ...]  # the file's line of each import line at the top of `source`
    start: int  # the file's line of the first line after them

    def file_line(self, line: int) -> int:
        """The file's line of `source`'s `line`."""
        return self.rows[line] if line < len(self.rows) else self.start + line - len(self.rows)


def windowed(at: At) -> tuple[At, Optional[Window]]:
    """`at` in its window when its file is past LARGE_FILE_CHARS (not a notebook's cell)."""
    if at.offset or len(at.source) <= LARGE_FILE_CHARS:
        return at, None
    found = window(split_lines(at.source, True), at.line)
    return replace(at, source=found.source, line=found.line), found


def window(lines: Sequence[str], line: int) -> Window:
    """The imports above the cursor's top-level block, then the block (`lines` keep their
    line breaks, as `document.lines` does)."""
    start = _block_start(lines, line)
    end = _block_end(lines, line)
    rows = tuple(_import_rows(lines, start))
    head = "".join(_whole(lines[i]) for i in rows)
    return Window(head + "".join(lines[start:end]), len(rows) + line - start, rows, start)


def _import_rows(lines: Sequence[str], stop: int) -> list[int]:
    """The lines of the top-level imports above `stop`, a parenthesized one's lines too."""
    rows: list[int] = []
    at = 0
    while at < stop:
        text = lines[at]
        if text.startswith(_IMPORTS):
            rows.append(at)
            if "(" in text and ")" not in text:
                while at + 1 < stop and ")" not in lines[at]:
                    at += 1
                    rows.append(at)
        at += 1
    return rows


def _top_level(text: str) -> bool:
    return bool(text.strip()) and not text[0].isspace() and not text.startswith("#")


def _block_start(lines: Sequence[str], line: int) -> int:
    """The first line of the top-level statement holding `line` (its decorators included)."""
    first = max(0, line - REACH)
    at = min(line, len(lines) - 1)
    while at > first and not _top_level(lines[at]):
        at -= 1
    while at > first and lines[at - 1].startswith("@"):
        at -= 1
    return max(at, 0)


def _block_end(lines: Sequence[str], line: int) -> int:
    last = min(len(lines), line + REACH)
    at = line + 1
    while at < last and not _top_level(lines[at]):
        at += 1
    return min(at, len(lines))


def _whole(text: str) -> str:
    return text if text.endswith(("\n", "\r")) else text + "\n"
