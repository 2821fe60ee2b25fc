"""The user's file as the inference sees it: a tolerant parse, its imports and scopes.

Pure `ast`: nothing is imported or run. Half-typed code is the normal case while typing, so a
file that does not parse is retried with the cursor's line blanked, then cut at the cursor.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional, Union

from mindscope_ls.gcpause import gc_paused

_MAX_REPAIRS = 12
FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


@dataclass(frozen=True)
class Import:
    """A local name bound by an import: `P` -> `mindspore.ops`; star imports bind many."""

    path: str  # dotted module path, or module path + "." + attribute for from-imports
    line: int


@dataclass
class SourceModel:
    tree: ast.Module
    imports: dict[str, Import] = field(default_factory=dict)
    star_modules: list[str] = field(default_factory=list)  # `from X import *`, in order

    def scopes_at(self, line: int) -> tuple[Optional[ast.ClassDef], Optional[FunctionNode]]:
        """The innermost class and function around a 1-based line."""
        cls: Optional[ast.ClassDef] = None
        func: Optional[FunctionNode] = None
        body: list[ast.stmt] = self.tree.body
        while True:
            inner = next((n for n in body if _contains(n, line)), None)
            if isinstance(inner, ast.ClassDef):
                cls, func, body = inner, None, inner.body
            elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                func, body = inner, inner.body
            elif inner is not None and hasattr(inner, "body"):
                body = _child_statements(inner)
            else:
                return cls, func

    def classes(self) -> dict[str, ast.ClassDef]:
        return {n.name: n for n in self.tree.body if isinstance(n, ast.ClassDef)}

    def functions(self) -> dict[str, FunctionNode]:
        return {
            n.name: n
            for n in self.tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        }


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
    """Parse; on a syntax error blank the cursor's (0-based) line, then each failing line in
    turn; as a last resort keep only what precedes the cursor."""
    lines = source.splitlines()
    blanked: set[int] = set()
    for _ in range(_MAX_REPAIRS):
        try:
            with gc_paused():
                return ast.parse("\n".join(lines) if blanked else source)
        except SyntaxError as error:
            bad = (
                line if line not in blanked and 0 <= line < len(lines) else (error.lineno or 0) - 1
            )
            if bad in blanked or not 0 <= bad < len(lines):
                break
            blanked.add(bad)
            lines[bad] = _indent(lines[bad]) + "pass"
        except (ValueError, RecursionError, MemoryError):
            break
    try:
        return ast.parse("\n".join(source.splitlines()[:line]))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
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


def _imports(tree: ast.Module) -> tuple[dict[str, Import], list[str]]:
    bound: dict[str, Import] = {}
    stars: list[str] = []
    for node in statements(tree.body):
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


def model_of(source: str, line: int) -> SourceModel:
    """The model of `source` as it is (for hover: the cursor's line may bind the name)."""
    return _model(source, line)


def model_around(source: str, line: int) -> SourceModel:
    """The model with the cursor's (0-based) line blanked: for completion and signature help,
    whose expression is read from the line's text, and whose line is mostly half-typed.

    Every keystroke on one line gives the same blanked text, so the parse is cached across
    them; no failed parse of the half-typed line is paid first."""
    lines = source.split("\n")
    if 0 <= line < len(lines):
        text = lines[line]
        lines[line] = _indent(text) + "pass" if text.strip() else text
        source = "\n".join(lines)
    return _model(source, line)


@lru_cache(maxsize=2)  # a 3,000-line file's tree takes ~10 MB
def _model(source: str, line: int) -> SourceModel:
    tree = parse_tolerant(source, line)
    imports, stars = _imports(tree)
    return SourceModel(tree=tree, imports=imports, star_modules=stars)
