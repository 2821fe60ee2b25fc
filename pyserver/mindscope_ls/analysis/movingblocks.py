"""Top-level blocks reused where they moved: pressing Enter shifts every block below it.

`blocks.BlockParser` re-numbers a moved block's tree in place, for the checker, whose caches
are keyed by node. Completion is mostly asked right after such an edit (a new line, then
`x.`) and wants no work at all for the blocks it does not look at, so this parser keys blocks
by their text alone and hands back a moved block's old tree with the `shift` to add to its line
numbers: nothing is re-numbered. Only the
block holding the line a request is about is always parsed where it is (`exact`).

Trees are shared between calls: callers must not mutate them.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, field
from typing import Optional, Union

from mindscope_ls.analysis.blocks import (
    CONTINUATIONS,
    MAX_MERGES,
    OPEN_AT_END,
    PARSE_ERRORS,
    BlockError,
    parse_text,
)
from mindscope_ls.infra.gcpause import gc_paused

_Parsed = Union[list[ast.stmt], BlockError]
# A line that may start a block: code in column 0 (see `blocks.block_starts`).
# (A newline first: the regular expression engine then skips ahead to newlines.)
_COLUMN_ZERO = re.compile(r"\n[^ \t\f\r#)\]}\n]")
_FIRST_LINE = re.compile(r"[^ \t\f\r#)\]}\n]")


@dataclass(frozen=True)
class Block:
    """Statements of lines `start`..`end` (0-based, end exclusive) of the current text, parsed
    when they began at line `start - shift`: add `shift` to their line numbers."""

    start: int
    end: int
    text: str
    body: list[ast.stmt]
    shift: int


@dataclass
class MovingParse:
    blocks: list[Block] = field(default_factory=list)
    errors: list[BlockError] = field(default_factory=list)  # in the current text's lines


class MovingBlockParser:
    """Parses successive versions of one file; keeps the previous version's blocks only."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[int, _Parsed]] = {}  # text -> (start when parsed, result)
        self.parsed = 0  # blocks parsed by the latest call, for tests and benchmarks

    def parse(self, source: str, exact: Optional[int] = None) -> MovingParse:
        """The blocks of `source`; the one holding 0-based line `exact` has shift 0."""
        starts, offsets = block_starts_of(source)
        starts.append(source.count("\n") + 1)
        offsets.append(len(source) + 1)
        cache: dict[str, tuple[int, _Parsed]] = {}
        result = MovingParse()
        self.parsed = 0
        index = 0
        with gc_paused():
            if not self._cache:
                self._seed(source, starts, offsets)
            while index < len(starts) - 1:
                stop, begin, end = index, starts[index], starts[index]
                parsed: _Parsed = []
                shift = 0
                while stop < len(starts) - 1:
                    stop += 1
                    end = starts[stop]
                    text = source[offsets[index] : offsets[stop] - 1]
                    here = exact is not None and begin <= exact < end
                    origin, parsed = self._parse_one(begin, text, cache, here)
                    shift = begin - origin
                    if not isinstance(parsed, BlockError) or not _mergeable(parsed):
                        break
                    if stop - index >= MAX_MERGES:
                        break
                if isinstance(parsed, BlockError):
                    result.errors.append(_moved(parsed, shift))
                else:
                    result.blocks.append(Block(begin, end, text, parsed, shift))
                index = stop
        self._cache = cache
        return result

    def _seed(self, source: str, starts: list[int], offsets: list[int]) -> None:
        """With nothing to reuse: one `ast.parse` of the whole text, cut into blocks, is
        cheaper than parsing each block alone (each of those parses also reads the newlines
        that put its block at its line). A statement that runs past its block (a string with
        lines in column 0) joins the blocks it spans, as `parse` would merge them."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                body = ast.parse(source).body
        except PARSE_ERRORS:
            return  # some block does not parse: `parse` finds which, block by block
        groups: list[tuple[int, int, list[ast.stmt]]] = []  # (first block, stop block, body)
        block = 0
        for stmt in body:
            first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
            while starts[block + 1] <= first - 1:
                block += 1
            stop = block + 1
            while starts[stop] <= (stmt.end_lineno or stmt.lineno) - 1:
                stop += 1
            if groups and groups[-1][1] > block:  # it starts in the group above
                begin, end, stmts = groups[-1]
                groups[-1] = (begin, max(end, stop), [*stmts, stmt])
            else:
                groups.append((block, stop, [stmt]))
        for begin, end, stmts in groups:
            self._cache[source[offsets[begin] : offsets[end] - 1]] = (starts[begin], stmts)

    def _parse_one(
        self, start: int, text: str, cache: dict[str, tuple[int, _Parsed]], here: bool
    ) -> tuple[int, _Parsed]:
        found = self._cache.get(text)
        if text in cache or (found is not None and here and found[0] != start):
            found = None  # the same text twice in one version needs its own tree
        if found is None:
            self.parsed += 1
            found = (start, parse_text(start, text, "<unknown>"))
        cache[text] = found
        return found


def block_starts_of(source: str) -> tuple[list[int], list[int]]:
    """`blocks.block_starts` of `source.split("\\n")`, and where each start's line begins
    in `source`: found by a regular expression, not a Python loop over every line."""
    starts: list[int] = []
    offsets: list[int] = []
    after_decorator = False
    line, previous = 0, 0
    first = [0] if _FIRST_LINE.match(source) else []
    for at in first + [match.start() + 1 for match in _COLUMN_ZERO.finditer(source)]:
        line += source.count("\n", previous, at)
        previous = at
        decorator = source.startswith("@", at)
        if after_decorator or (starts and _continues(source, at)):
            after_decorator = decorator
            continue
        starts.append(line)
        offsets.append(at)
        after_decorator = decorator
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
        offsets.insert(0, 0)
    return starts, offsets


def _continues(source: str, at: int) -> bool:
    for word in CONTINUATIONS:
        if (
            source.startswith(word, at)
            and not source[at + len(word) : at + len(word) + 1].isidentifier()
        ):
            return True
    return False


def _mergeable(error: BlockError) -> bool:
    """The block ends inside something still open, so the next block may close it."""
    return error.line >= error.end or any(s in error.message for s in OPEN_AT_END)


def _moved(error: BlockError, shift: int) -> BlockError:
    if not shift:
        return error
    return BlockError(error.start + shift, error.end + shift, error.message, error.line + shift)
