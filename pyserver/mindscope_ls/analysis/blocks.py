"""Incremental parsing of a file as its top-level blocks.

`ast.parse` of a 3,000-line model file takes ~65 ms on this machine: more than a keystroke's
whole budget. While a user types, all but one top-level block (a class, a function, an
import) is unchanged, so a `BlockParser` splits the text at lines that start in column 0,
parses each block on its own and reuses the trees of blocks whose text did not change since
its previous call. The result is the tree `ast.parse` gives for the whole text.

Why that is sound: a block that parses on its own ends with no open bracket, string or line
continuation, so the tokenizer is back at column 0 with nothing pending where the next block
starts, and a sequence of statements followed by a sequence of statements is what the whole
file parses to. Blocks that do not parse alone (a column-0 line inside a docstring or a
bracket, `else:` after an `if` block, decorators) are merged with their neighbour and retried.

A block that only moved (Enter above it) keeps its tree: the parser re-numbers its nodes' lines
in place, which costs a fraction of parsing it again (~1 ms per 500 lines against ~10), and
keeps the node objects that the checker's caches are keyed by. So a tree handed out is valid
until the next call on the same parser, which may move its lines; callers must not mutate
trees themselves.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from mindscope_ls.infra.gcpause import gc_paused

# Column-0 keywords that continue the statement above rather than start one.
CONTINUATIONS = ("else", "elif", "except", "finally")
# Errors that a following block may resolve (the block ends inside something still open).
OPEN_AT_END = ("never closed", "unterminated", "unexpected EOF", "expected an indented block")
MAX_MERGES = 8
PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)


@dataclass(frozen=True)
class BlockError:
    """A block that parses neither alone nor merged with what follows (0-based lines)."""

    start: int
    end: int  # exclusive
    message: str
    line: int  # 1-based line the parser names


@dataclass
class BlockParse:
    """The blocks of one text that parse, in order, and those that do not."""

    tree: ast.Module
    errors: list[BlockError] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.errors


_Parsed = Union[list[ast.stmt], BlockError]


def block_starts(lines: list[str]) -> list[int]:
    """0-based lines where a top-level block may start: code in column 0 that neither
    closes a bracket, continues the statement above (`else:` …) nor follows a decorator."""
    starts: list[int] = []
    after_decorator = False
    for number, text in enumerate(lines):
        if not text or text[0] in " \t\f\r#)]}":
            continue
        if after_decorator or (starts and _continues(text)):
            after_decorator = text.startswith("@")
            continue
        starts.append(number)
        after_decorator = text.startswith("@")
    # Whatever precedes the first start (comments, or stray indented code) opens the file.
    return starts if starts and starts[0] == 0 else [0, *starts]


def _continues(text: str) -> bool:
    for word in CONTINUATIONS:
        if text.startswith(word) and not (text[len(word) : len(word) + 1].isidentifier()):
            return True
    return False


class BlockParser:
    """Parses successive versions of one file, re-parsing only the blocks that changed.

    Keeps the previous version's blocks only, so memory stays at one tree per file.
    """

    def __init__(self, filename: str = "<unknown>") -> None:
        self.filename = filename
        self._cache: dict[str, _Kept] = {}  # a block's text -> its tree, where it now is
        self.reused = 0  # blocks taken from the cache by the latest call, for tests/benchmarks
        self.parsed = 0  # blocks parsed by the latest call
        self.moved = 0  # of the reused blocks, those whose lines were re-numbered

    def parse_blocks(self, source: str) -> BlockParse:
        """Every block that parses; the ones that do not are listed in `errors`."""
        if "\r" in source and source.count("\r") != source.count("\r\n"):
            # Python also ends lines at a lone CR, which `split` does not see: no blocks.
            self._cache = {}
            self.reused, self.parsed, self.moved = 0, 1, 0
            whole = parse_text(0, source, self.filename)
            if isinstance(whole, BlockError):
                return BlockParse(ast.Module(body=[], type_ignores=[]), [whole])
            return BlockParse(ast.Module(body=whole, type_ignores=[]))
        lines = source.split("\n")
        starts = [*block_starts(lines), len(lines)]
        cache: dict[str, _Kept] = {}
        body: list[ast.stmt] = []
        errors: list[BlockError] = []
        index = 0
        with gc_paused():
            if not self._cache:
                self._seed(lines, starts)
            self.reused = self.parsed = self.moved = 0
            while index < len(starts) - 1:
                stop, parsed = self._parse_from(lines, starts, index, cache)
                if isinstance(parsed, BlockError):
                    errors.append(parsed)
                else:
                    body.extend(parsed)
                index = stop
        self._cache = cache
        return BlockParse(ast.Module(body=body, type_ignores=[]), errors)

    def _seed(self, lines: list[str], starts: list[int]) -> None:
        """First call: one `ast.parse` of the whole text, its statements grouped into blocks.

        Parsing every block behind its own leading newlines costs ~1.6x one whole parse on a
        3,000-line file (the newlines add up); a cold file is better served whole. A group
        ends at the first block start that no statement spans, so each group is text that
        parses alone to exactly these statements. Invalid text seeds nothing."""
        whole = parse_text(0, "\n".join(lines), self.filename)
        if isinstance(whole, BlockError):
            return
        at, index, last = 0, 0, len(starts) - 1
        while index < last and at < len(whole):
            stop = index + 1
            group: list[ast.stmt] = []
            while at < len(whole) and _first_line(whole[at]) < starts[stop]:
                end = (whole[at].end_lineno or whole[at].lineno) - 1
                while stop < last and end >= starts[stop]:
                    stop += 1
                group.append(whole[at])
                at += 1
            text = "\n".join(lines[starts[index] : starts[stop]])
            self._cache.setdefault(text, _Kept(starts[index], group))
            index = stop

    def parse(self, source: str) -> ast.Module:
        """The tree `ast.parse(source)` gives; raises what it raises when the text is invalid."""
        result = self.parse_blocks(source)
        if result.complete:
            return result.tree
        with warnings.catch_warnings(), gc_paused():
            warnings.simplefilter("ignore")
            return ast.parse(source, filename=self.filename)

    def _parse_from(
        self,
        lines: list[str],
        starts: list[int],
        index: int,
        cache: dict[str, _Kept],
    ) -> tuple[int, _Parsed]:
        """Parse the block at `starts[index]`, merging following blocks while the parser
        says something is still open at its end. Returns the next block index and the result."""
        begin = starts[index]
        stop = index + 1
        while True:
            end = starts[stop]
            parsed = self._parse_one(begin, "\n".join(lines[begin:end]), cache)
            if not isinstance(parsed, BlockError):
                return stop, parsed
            mergeable = parsed.line >= end or any(s in parsed.message for s in OPEN_AT_END)
            if not mergeable or stop >= len(starts) - 1 or stop - index >= MAX_MERGES:
                return stop, parsed
            stop += 1

    def _parse_one(self, start: int, text: str, cache: dict[str, _Kept]) -> _Parsed:
        if text in cache:
            # The same text twice in one version: each needs its own nodes (an error is a
            # value, but parsing it again is as cheap and keeps one path).
            self.parsed += 1
            return parse_text(start, text, self.filename)
        kept = self._cache.get(text)
        if kept is None:
            self.parsed += 1
            kept = _Kept(start, parse_text(start, text, self.filename))
        else:
            self.reused += 1
            self.moved += kept.start != start
            kept.move_to(start)
        cache[text] = kept
        return kept.parsed


@dataclass
class _Kept:
    """A block's parse result, and where it is: its tree's lines say it starts at `start`."""

    start: int
    parsed: _Parsed
    # The attribute dicts of its nodes that have lines, gathered the first time it moves.
    located: Optional[list[dict[str, Any]]] = None

    def move_to(self, start: int) -> None:
        delta = start - self.start
        if not delta:
            return
        self.start = start
        parsed = self.parsed
        if isinstance(parsed, BlockError):
            self.parsed = BlockError(
                parsed.start + delta, parsed.end + delta, parsed.message, parsed.line + delta
            )
            return
        if self.located is None:
            self.located = _located(parsed)
        # The dicts directly: attribute access on nodes costs about twice as much.
        for attrs in self.located:
            attrs["lineno"] += delta
            if attrs["end_lineno"] is not None:
                attrs["end_lineno"] += delta


def _located(body: list[ast.stmt]) -> list[dict[str, Any]]:
    """The attribute dicts of every node under `body` that has a line number."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = list(body)
    pop, push, add = stack.pop, stack.append, found.append
    while stack:
        attrs = pop().__dict__
        if "lineno" in attrs:
            add(attrs)
        for value in attrs.values():
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push(item)
            elif isinstance(value, ast.AST):
                push(value)
    return found


def _first_line(node: ast.stmt) -> int:
    """0-based first line of a statement, its decorators included."""
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)]) - 1


# Up to this line, leading newlines put a block's nodes at their lines in the whole file for
# less than `ast.increment_lineno` costs; further down the parser reading them costs more
# (each block of a 100,000-line file read ~50,000 of them: 18 s for a cold parse).
NEWLINES_UP_TO = 2_000


def parse_at(start: int, text: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse(text)` with its lines numbered from 0-based line `start` of the file (a
    SyntaxError's too)."""
    if start <= NEWLINES_UP_TO:
        return ast.parse("\n" * start + text, filename=filename)
    try:
        tree = ast.parse(text, filename=filename)
    except SyntaxError as error:
        if error.lineno is not None:
            error.lineno += start
        if error.end_lineno is not None:
            error.end_lineno += start
        raise
    return ast.increment_lineno(tree, start)


def parse_text(start: int, text: str, filename: str) -> _Parsed:
    end = start + text.count("\n") + 1
    try:
        with warnings.catch_warnings():  # invalid escapes are the user's linter's business
            warnings.simplefilter("ignore")
            return parse_at(start, text, filename).body
    except SyntaxError as error:
        return BlockError(start, end, error.msg or "invalid syntax", error.lineno or start + 1)
    except PARSE_ERRORS as error:
        return BlockError(start, end, str(error) or type(error).__name__, start + 1)


def parse_or_none(parser: Optional[BlockParser], source: str) -> Optional[ast.Module]:
    """`parser.parse(source)` (or a plain parse without a parser); None when invalid."""
    try:
        if parser is not None:
            return parser.parse(source)
        with warnings.catch_warnings(), gc_paused():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except PARSE_ERRORS:
        return None


def may_parse_whole(error: BlockError, line_count: int) -> bool:
    """True when `error` may only mean that the parser stopped merging (`MAX_MERGES`) a block
    still open at its end, so the whole text of `line_count` lines may yet parse. An error at
    the end of the text, or one no following text resolves, is the text's own."""
    open_at_end = error.line >= error.end or any(s in error.message for s in OPEN_AT_END)
    return open_at_end and error.end < line_count
