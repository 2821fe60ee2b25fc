"""Parsing one file as it is typed: only the top-level blocks an edit touched are parsed again,
and while one block does not parse the others are still read."""

from __future__ import annotations

import ast
import warnings
from typing import Optional

from ...analysis.blocks import BlockError, BlockParser, block_starts, may_parse_whole

PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, UnicodeError, OverflowError)


def parse_source(source: str, path: str) -> Optional[ast.Module]:
    """Parse `source`; None when it is not valid Python (or cannot be parsed at all)."""
    try:
        with warnings.catch_warnings():  # invalid escapes etc. are the user's linter's business
            warnings.simplefilter("ignore")
            return ast.parse(source, filename=path, type_comments=False)
    except PARSE_ERRORS:
        return None


class ModuleParser:
    """Parses successive versions of one file. Unchanged blocks keep their trees (the same node
    objects), which is what lets the checker keep its results for them."""

    def __init__(self, path: str):
        self.path = path
        self.blocks = BlockParser(path)
        self._recovery: Optional[BlockParser] = None  # only while the file does not parse

    def parse(self, source: str) -> tuple[ast.Module, list[BlockError]]:
        """The tree of `source` and the blocks that do not parse (left out of the tree)."""
        if "\r" in source and "\r" in source.replace("\r\n", ""):
            # A lone carriage return ends a line for Python but not for the block parser,
            # which counts lines at "\n": parse the whole text (old Mac line endings are rare).
            return self._whole(source)
        try:
            result = self.blocks.parse_blocks(source)
        except PARSE_ERRORS:  # not expected (each block's errors are caught): parse plainly
            return self._whole(source)
        if result.complete:
            self._recovery = None
            return result.tree, []
        lines = source.split("\n")
        if any(may_parse_whole(error, len(lines)) for error in result.errors):
            whole = parse_source(source, self.path)  # the parser stopped merging: the file decides
            if whole is not None:
                self._recovery = None
                return whole, []
        return self._recover(result.tree, result.errors, lines), result.errors

    def _whole(self, source: str) -> tuple[ast.Module, list[BlockError]]:
        whole = parse_source(source, self.path)
        if whole is not None:
            return whole, []
        return ast.Module([], []), [BlockError(0, source.count("\n") + 1, "no parse", 1)]

    def _recover(self, tree: ast.Module, errors: list[BlockError], lines: list[str]) -> ast.Module:
        """Add the blocks a failing block swallowed: one left open at its end (`f(` being
        typed) is merged with the blocks after it, which then all fail with it. Each is read
        again on its own, without the failing block (the first of the merged ones)."""
        kept = [""] * len(lines)
        for error in errors:
            starts = block_starts(lines[error.start : error.end])
            if len(starts) < 2:
                continue
            first_end = error.start + starts[1]
            kept[first_end : error.end] = lines[first_end : error.end]
        if not any(kept):
            return tree
        if self._recovery is None:
            self._recovery = BlockParser(self.path)
        found = self._recovery.parse_blocks("\n".join(kept)).tree.body
        if not found:
            return tree
        body = sorted([*tree.body, *found], key=lambda stmt: stmt.lineno)
        return ast.Module(body=body, type_ignores=[])
