"""What a function rule that reads beyond its own function may have read, as a key: its findings
are kept between checks while the key is equal.

Such a rule may read the module's other blocks (constants, the classes and functions the
function names, their bodies through calls) and what other blocks do with this function's names
(the calls that construct its class or mark it `jit`, writes to globals, `set_train()`). The key
of a function in top-level block X is therefore:
- every block X reaches by name, transitively (the blocks binding a name, attribute or string X
  mentions, then theirs): kept only while those are the same nodes, i.e. untouched by edits;
- what any block shows the others (its "outline"): its calls whole, its stores and deletes,
  `global`/`nonlocal`, the module-level names it reads, attribute names, strings, the headers
  of its definitions (names, parameters, defaults, decorators, bases), and where every block
  starts and ends. Typing inside a function body mostly changes none of these (a local name, a
  number, an operator), so the findings of every other block's functions are kept.
Anything a rule reaches in other files is covered by their versions.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import count
from typing import Optional

from ..index.module import ModuleInfo
from ..rules.helpers.walk import of_type
from .memo import NodeMemo

_SERIALS = count()


@dataclass(frozen=True)
class _Block:
    serial: int  # for this node while it lives: never reused, unlike id()
    outline: tuple[object, ...]  # what the other blocks' rules may read of it
    reads: frozenset[str]  # the names it loads (those bound at module level count)
    binds: frozenset[str]  # module-level names it binds
    mentions: frozenset[str]  # every name, attribute and identifier-like string in it


_BLOCKS: NodeMemo[_Block] = NodeMemo()


@dataclass
class Neighbourhood:
    """The outline of one version of a module, and the blocks each block reaches."""

    blocks: list[_Block]
    starts: list[int]  # each block's first line, ascending
    shape: tuple[object, ...]  # every block's outline and extent, and the other files
    _reached: dict[int, tuple[int, ...]]
    _binders: Optional[dict[str, list[int]]] = None

    def key(self, node: ast.AST) -> tuple[object, ...]:
        """What findings about `node` (a function of this module) are kept by."""
        at = _block_at(self.starts, getattr(node, "lineno", 0))
        if at is None:
            return (self.shape, None)
        reached = self._reached.get(at)
        if reached is None:
            reached = self._reached[at] = self._reach(at)
        return (self.shape, reached)

    def _reach(self, start: int) -> tuple[int, ...]:
        binders = self._binders
        if binders is None:
            binders = self._binders = {}
            for index, block in enumerate(self.blocks):
                for name in block.binds:
                    binders.setdefault(name, []).append(index)
        seen = {start}
        todo = [start]
        while todo:
            block = self.blocks[todo.pop()]
            for name in block.mentions:
                for index in binders.get(name, ()):
                    if index not in seen:
                        seen.add(index)
                        todo.append(index)
        return tuple(self.blocks[index].serial for index in sorted(seen))


def neighbourhood(module: ModuleInfo, others: object) -> Optional[Neighbourhood]:
    """The module's neighbourhood; `others` stands for the versions of the other files."""
    tree = module.tree
    if tree is None:
        return None
    source = module.source
    # The lines as the parser counts them; with a lone carriage return they differ: no text.
    lines = None if "\r" in source.replace("\r\n", "") else source.split("\n")
    blocks = [
        _BLOCKS.get(stmt, (stmt.lineno, stmt.end_lineno), partial(_block, stmt, lines))
        for stmt in tree.body
    ]
    bound = frozenset().union(*(b.binds for b in blocks))
    shape = (
        tuple(b.outline for b in blocks),
        tuple(b.reads & bound for b in blocks),
        tuple((stmt.lineno, stmt.end_lineno) for stmt in tree.body),
        module.source.count("\n"),
        others,
    )
    # The same object as last time when equal: every kept result compares it at once.
    last = _LAST_SHAPE.get(module.path)
    if last == shape:
        shape = last
    else:
        _LAST_SHAPE.pop(module.path, None)
        _LAST_SHAPE[module.path] = shape
        if len(_LAST_SHAPE) > _FILES_KEPT:
            del _LAST_SHAPE[next(iter(_LAST_SHAPE))]  # the file edited longest ago
    return Neighbourhood(blocks, [stmt.lineno for stmt in tree.body], shape, {})


_LAST_SHAPE: dict[str, tuple[object, ...]] = {}  # by path, the latest edited last
_FILES_KEPT = 16  # the files being edited; a folder's check need not keep any


def _block_at(starts: list[int], line: int) -> Optional[int]:
    at = bisect_right(starts, line) - 1
    return at if at >= 0 else None


def _block(stmt: ast.stmt, lines: Optional[list[str]]) -> _Block:
    outline: list[object] = []
    reads: set[str] = set()
    mentions: set[str] = set()
    for name in of_type(stmt, ast.Name):
        mentions.add(name.id)
        if isinstance(name.ctx, ast.Load):
            reads.add(name.id)
        else:
            outline.append((name.id, type(name.ctx).__name__, name.lineno, name.col_offset))
    for attr in of_type(stmt, ast.Attribute):
        mentions.add(attr.attr)
        outline.append((attr.attr, type(attr.ctx).__name__, attr.lineno, attr.col_offset))
    for call in of_type(stmt, ast.Call):
        outline.append((_text(lines, call), call.lineno, call.col_offset))
    for item in of_type(stmt, ast.Subscript):
        if not isinstance(item.ctx, ast.Load):
            outline.append((_text(lines, item), item.lineno, item.col_offset))
    scopes: list[ast.Global | ast.Nonlocal] = [*of_type(stmt, ast.Global)]
    scopes.extend(of_type(stmt, ast.Nonlocal))
    for scope in scopes:
        outline.append((type(scope).__name__, tuple(scope.names)))
        mentions.update(scope.names)
    for constant in of_type(stmt, ast.Constant):
        if isinstance(constant.value, str):
            outline.append(constant.value)
            if constant.value.isidentifier():
                mentions.add(constant.value)
    for definition in of_type(stmt, *_DEFINITIONS):
        outline.append(_header(definition))
        if not isinstance(definition, ast.Lambda):
            mentions.add(definition.name)  # type: ignore[attr-defined]
    for imported in of_type(stmt, ast.Import, ast.ImportFrom):
        outline.append(_text(lines, imported))
        mentions.update(_imported(imported))  # type: ignore[arg-type]
    mentions.update(arg.arg for arg in of_type(stmt, ast.arg))
    if not isinstance(stmt, _DEFINITIONS):
        outline.append(_text(lines, stmt))  # module-level code: the rules read all of it
    return _Block(
        next(_SERIALS), tuple(outline), frozenset(reads), _binds(stmt), frozenset(mentions)
    )


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _imported(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    return (alias.asname or alias.name.split(".")[0] for alias in node.names)


def _text(lines: Optional[list[str]], node: ast.expr | ast.stmt) -> str:
    """The text of `node` (whole lines when it spans several): cheaper than `ast.dump`, and it
    changes whenever the node does."""
    if lines is None:
        return ast.dump(node)
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    if first != last:
        return "\n".join(lines[first : last + 1])
    line = lines[first]
    start, end = node.col_offset, node.end_col_offset or len(line)
    if line.isascii():
        return line[start:end]
    return line.encode("utf-8", "surrogatepass")[start:end].decode("utf-8", "replace")  # bytes


def _header(node: ast.AST) -> object:
    """A definition's name, parameters with their defaults, decorators and bases."""
    if isinstance(node, ast.Lambda):
        return ("lambda", ast.dump(node.args), node.lineno, node.col_offset)
    if isinstance(node, ast.ClassDef):
        parts: Iterable[ast.AST] = [*node.bases, *node.keywords, *node.decorator_list]
        return ("class", node.name, tuple(ast.dump(p) for p in parts), node.lineno)
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    returns = ast.dump(node.returns) if node.returns is not None else None
    decorators = tuple(ast.dump(d) for d in node.decorator_list)
    return ("def", node.name, ast.dump(node.args), decorators, returns, node.lineno)


def _binds(stmt: ast.stmt) -> frozenset[str]:
    """The module-level names `stmt` may bind (a few more at worst): a definition's name, names
    declared `global` in it, and for other statements every name they store and import."""
    names = {g for node in of_type(stmt, ast.Global) for g in node.names}
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        names.add(stmt.name)
        return frozenset(names)
    names.update(n.id for n in of_type(stmt, ast.Name) if not isinstance(n.ctx, ast.Load))
    names.update(d.name for d in of_type(stmt, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))  # type: ignore[attr-defined]
    for imported in of_type(stmt, ast.Import, ast.ImportFrom):
        names.update(_imported(imported))  # type: ignore[arg-type]
    return frozenset(names)
