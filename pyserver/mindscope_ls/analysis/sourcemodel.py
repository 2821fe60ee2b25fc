"""The user's file as the inference sees it: a tolerant parse, its imports and scopes.

Pure `ast`: nothing is imported or run. Each document keeps a `MovingBlockParser`, so an edit
re-parses only the top-level block it touched, and blocks that merely moved keep their trees
(with a line `shift`). Half-typed code is the normal case while typing: a block that does not
parse is retried with the cursor's line blanked, then its failing lines, then with the
cursor's line a value inside the brackets open there, then cut at the cursor; the other
blocks are not touched.
"""

from __future__ import annotations

import ast
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Optional, Union

from mindscope_ls.analysis.blocks import BlockError, may_parse_whole, parse_at
from mindscope_ls.analysis.movingblocks import Block, MovingBlockParser
from mindscope_ls.analysis.textscan import open_brackets
from mindscope_ls.checker import split_lines
from mindscope_ls.infra.gcpause import gc_paused

_MAX_REPAIRS = 12
FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)


@dataclass(frozen=True)
class Import:
    """A local name bound by an import: `P` -> `mindspore.ops`; star imports bind many."""

    path: str  # dotted module path, or module path + "." + attribute for from-imports
    line: int


@dataclass
class SourceModel:
    """`body`: the top-level statements. A statement of a block that moved since it was parsed
    keeps its old line numbers, everything nested in it included: `shift_of` tells how many
    lines to add. Statements around the line the model was made for are never shifted."""

    body: list[ast.stmt]
    imports: dict[str, Import] = field(default_factory=dict)
    star_modules: list[str] = field(default_factory=list)  # `from X import *`, in order
    shifts: dict[int, int] = field(default_factory=dict)  # id(top-level statement) -> shift
    blocks: list[Block] = field(default_factory=list)

    def shift_of(self, node: ast.AST) -> int:
        """The shift of a top-level statement (0 for anything else)."""
        return self.shifts.get(id(node), 0)

    def start(self, stmt: ast.stmt) -> int:
        """The 1-based line where a top-level statement starts now."""
        return stmt.lineno + self.shift_of(stmt)

    def locate(self, line: int) -> tuple[Optional[ast.ClassDef], Optional[FunctionNode], int]:
        """The innermost class and function around a 1-based line, and their block's shift."""
        top = next((n for n in self.body if _contains(n, line - self.shift_of(n))), None)
        shift = self.shift_of(top) if top is not None else 0
        cls: Optional[ast.ClassDef] = None
        func: Optional[FunctionNode] = None
        inner = top
        line -= shift
        while True:
            if isinstance(inner, ast.ClassDef):
                cls, func, body = inner, None, inner.body
            elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                func, body = inner, inner.body
            elif inner is not None and hasattr(inner, "body"):
                body = _child_statements(inner)
            else:
                return cls, func, shift
            inner = next((n for n in body if _contains(n, line)), None)

    def scopes_at(self, line: int) -> tuple[Optional[ast.ClassDef], Optional[FunctionNode]]:
        """The innermost class and function around a 1-based line."""
        cls, func, _ = self.locate(line)
        return cls, func

    @cached_property
    def bindings(self) -> dict[str, list[ast.stmt]]:
        """Name -> the top-level statements that bind it, in order."""
        found: dict[str, list[ast.stmt]] = {}
        for stmt in self.body:
            for name in bound_names(stmt):
                found.setdefault(name, []).append(stmt)
        return found

    @cached_property
    def tree(self) -> ast.Module:
        """The whole file with every line number where it is now: moved blocks are parsed
        again (costly on a large file; the inference itself reads `body`)."""
        body: list[ast.stmt] = []
        for block in self.blocks:
            body.extend(_reparsed(block) if block.shift else block.body)
        return ast.Module(body=body, type_ignores=[])

    def classes(self) -> dict[str, ast.ClassDef]:
        return {n.name: n for n in self.body if isinstance(n, ast.ClassDef)}

    def functions(self) -> dict[str, FunctionNode]:
        functions = (ast.FunctionDef, ast.AsyncFunctionDef)
        return {n.name: n for n in self.body if isinstance(n, functions)}


def bound_names(stmt: ast.stmt) -> list[str]:
    """The names a statement binds as the inference follows them (no tuple unpacking)."""
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign):
        return [stmt.target.id] if isinstance(stmt.target, ast.Name) else []
    if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return [stmt.name]
    return []


def _reparsed(block: Block) -> list[ast.stmt]:
    try:
        with warnings.catch_warnings(), gc_paused():
            warnings.simplefilter("ignore")
            return parse_at(block.start, block.text).body
    except _PARSE_ERRORS:  # it parsed where it was: only resource limits get here
        return []


def _contains(node: ast.stmt, line: int) -> bool:
    end: int = getattr(node, "end_lineno", None) or node.lineno
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    start = min([node.lineno] + [d.lineno for d in decorators])
    return start <= line <= end


def _child_statements(node: ast.stmt) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for name in ("body", "orelse", "finalbody"):
        out.extend(getattr(node, name, []) or [])
    for handler in getattr(node, "handlers", []) or []:
        out.extend(handler.body)
    return out


def parse_tolerant(source: str, line: int) -> ast.Module:
    """The tree of `source` as `_parse_blocks` repairs it (0-based cursor `line`)."""
    return SourceModel(body=[], blocks=_parse_blocks(MovingBlockParser(), source, line)).tree


def _parse_blocks(parser: MovingBlockParser, source: str, line: int) -> list[Block]:
    """The blocks of `source`. A block that does not parse gets the cursor's (0-based) line
    blanked, then each failing line in turn; as a last resort the cursor's block keeps only
    what precedes the cursor. Blocks that still fail are left out: the rest stays known."""
    result = parser.parse(source, line)
    if not result.errors:
        return result.blocks
    lines = source.split("\n")
    if any(may_parse_whole(error, len(lines)) for error in result.errors):
        # Something open across many blocks (a long string at column 0): repair the whole.
        return [_whole_block(source, line)]
    blanked: set[int] = set()
    for _ in range(_MAX_REPAIRS):
        bad = {_bad_line(error, line, blanked) for error in result.errors} - {None}
        if not bad:
            break
        for number in bad:
            if number is not None and 0 <= number < len(lines):
                blanked.add(number)
                lines[number] = _indent(lines[number]) + "pass"
        result = parser.parse("\n".join(lines), line)
        if not result.errors:
            return result.blocks
    around = next((e for e in result.errors if e.start <= line < e.end), None)
    if around is not None:
        for block in _closed_at_cursor(source.split("\n"), around.start, around.end, line):
            lines[around.start : around.end] = block
            result = parser.parse("\n".join(lines), line)
            if not any(e.start <= line < e.end for e in result.errors):
                return result.blocks
        lines[line : around.end] = [""] * (around.end - line)
        result = parser.parse("\n".join(lines), line)
    return result.blocks


def _closed_at_cursor(lines: list[str], start: int, end: int, line: int) -> Iterator[list[str]]:
    """The cursor's block (`lines[start:end]`, as typed) with the cursor's line a placeholder
    value, for a cursor inside brackets that span lines (`ops.concat((` above, `x.` here),
    where blanking lines never parses and the block's scopes would be lost: first with the
    rest kept (an element typed into a closed list), then with the brackets still open above
    closed at the cursor, then with the rest blank too. Line numbers do not change."""
    above, rest = lines[start:line], lines[line + 1 : end]
    value = _indent(lines[line]) + "None"
    yield [*above, value, *rest]
    closers = open_brackets("\n".join(above))
    if closers:
        yield [*above, value + closers, *rest]
        yield [*above, value + closers, *[""] * len(rest)]


def _bad_line(error: BlockError, cursor: int, blanked: set[int]) -> Optional[int]:
    """The line of a failing block to blank next: the cursor's, else the one the parser names."""
    if error.start <= cursor < error.end and cursor not in blanked:
        return cursor
    named = min(max(error.line - 1, error.start), error.end - 1)
    return None if named in blanked else named


def _whole_block(source: str, line: int) -> Block:
    lines = split_lines(source)
    blanked: set[int] = set()
    tree = ast.Module(body=[], type_ignores=[])
    for _ in range(_MAX_REPAIRS):
        try:
            with warnings.catch_warnings(), gc_paused():
                warnings.simplefilter("ignore")
                tree = ast.parse("\n".join(lines))
            break
        except SyntaxError as error:
            bad = (
                line if line not in blanked and 0 <= line < len(lines) else (error.lineno or 0) - 1
            )
            if bad in blanked or not 0 <= bad < len(lines):
                tree = _parse_or_empty("\n".join(split_lines(source)[:line]))
                break
            blanked.add(bad)
            lines[bad] = _indent(lines[bad]) + "pass"
        except _PARSE_ERRORS:
            break
    return Block(0, len(lines), "\n".join(lines), tree.body, 0)


def _parse_or_empty(source: str) -> ast.Module:
    try:
        with warnings.catch_warnings(), gc_paused():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except _PARSE_ERRORS:
        return ast.Module(body=[], type_ignores=[])


def _indent(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement, nested ones included; expressions are not walked (they hold no
    imports), which keeps this cheap on large files."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        children = _child_statements(node)
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            children = node.body
        elif isinstance(node, ast.Match):
            children = [stmt for case in node.cases for stmt in case.body]
        stack.extend(reversed(children))


_BlockImports = tuple[dict[str, Import], list[str]]


def _block_imports(block: ast.stmt) -> _BlockImports:
    """The imports anywhere inside one top-level statement, in order."""
    bound: dict[str, Import] = {}
    stars: list[str] = []
    for node in statements([block]):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = Import(alias.name, node.lineno)
                else:
                    head = alias.name.split(".", 1)[0]
                    bound[head] = Import(head, node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name == "*":
                    stars.append(node.module)
                else:
                    path = f"{node.module}.{alias.name}"
                    bound[alias.asname or alias.name] = Import(path, node.lineno)
    return bound, stars


class _Document:
    """One document's parser, and the imports of its top-level statements: an edit re-parses
    and re-walks only the block it touched. Requests run in threads, hence the lock."""

    def __init__(self) -> None:
        self.parser = MovingBlockParser()
        self.lock = threading.Lock()
        # id(statement) -> (statement, its imports); holding the statement keeps its id unique.
        self.imports: dict[int, tuple[ast.stmt, _BlockImports]] = {}

    def model(self, source: str, line: int) -> SourceModel:
        with self.lock:
            blocks = _parse_blocks(self.parser, source, line)
            known: dict[int, tuple[ast.stmt, _BlockImports]] = {}
            body: list[ast.stmt] = []
            shifts: dict[int, int] = {}
            bound: dict[str, Import] = {}
            stars: list[str] = []
            for block in blocks:
                walk = "import" in block.text  # no statement to walk for in most blocks
                for stmt in block.body:
                    body.append(stmt)
                    if block.shift:
                        shifts[id(stmt)] = block.shift
                    if not walk:
                        continue
                    found = self.imports.get(id(stmt)) or (stmt, _block_imports(stmt))
                    known[id(stmt)] = found
                    bound.update(found[1][0])
                    stars.extend(found[1][1])
            self.imports = known
        return SourceModel(body, bound, stars, shifts, blocks)


_DOCUMENTS: OrderedDict[str, _Document] = OrderedDict()
_DOCUMENTS_LOCK = threading.Lock()
# A 3,000-line file's trees take ~10 MB: keep the parsers of the most recently used files.
_MAX_DOCUMENTS = 6


def _document(key: str) -> _Document:
    with _DOCUMENTS_LOCK:
        found = _DOCUMENTS.get(key)
        if found is None:
            found = _DOCUMENTS[key] = _Document()
            while len(_DOCUMENTS) > _MAX_DOCUMENTS:
                _DOCUMENTS.popitem(last=False)
        _DOCUMENTS.move_to_end(key)
        return found


_CURRENT: ContextVar[str] = ContextVar("mindscope_document", default="")


@contextmanager
def for_document(doc: Optional[str]) -> Iterator[None]:
    """Models made inside (without naming a document) belong to document `doc`."""
    token = _CURRENT.set(doc or "")
    try:
        yield
    finally:
        _CURRENT.reset(token)


def model_of(source: str, line: int, doc: Optional[str] = None) -> SourceModel:
    """The model of `source` as it is (for hover: the cursor's line may bind the name).
    `doc` names the document (its URI; default: `for_document`'s): its previous parse is
    reused where unchanged."""
    return _model(doc or _CURRENT.get(), source, line)


def model_around(source: str, line: int, doc: Optional[str] = None) -> SourceModel:
    """The model with the cursor's (0-based) line blanked: for completion and signature help,
    whose expression is read from the line's text, and whose line is mostly half-typed.

    Every keystroke on one line gives the same blanked text, so the model is cached across
    them; no failed parse of the half-typed line is paid first."""
    lines = source.split("\n")
    if 0 <= line < len(lines):
        text = lines[line]
        lines[line] = _indent(text) + "pass" if text.strip() else text
        source = "\n".join(lines)
    return _model(doc or _CURRENT.get(), source, line)


def forget(doc: str) -> None:
    """Drops what was kept for document `doc` (closed), and the last models made."""
    with _DOCUMENTS_LOCK:
        _DOCUMENTS.pop(doc, None)
    _model.cache_clear()


def prime(doc: str, source: str) -> None:
    """Parses an open document ahead of its first request (the warm-up does)."""
    _document(doc).model(source, -1)


@lru_cache(maxsize=4)
def _model(doc: str, source: str, line: int) -> SourceModel:
    return _document(doc).model(source, line)
