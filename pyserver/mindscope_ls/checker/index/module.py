"""A parsed module and what it names: imports, classes, functions, dotted-name resolution."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from typing import Optional, Union

from ...analysis.blocks import BlockError
from ..rules.helpers.walk import of_type
from .parsing import ModuleParser

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def module_name_for(path: str, root: Optional[str] = None) -> str:
    """Dotted module name of `path`, relative to `root` when given (`a/b/c.py` -> `a.b.c`)."""
    rel = path
    if root:
        try:
            rel = os.path.relpath(path, root)
        except ValueError:
            rel = path
    rel = rel.replace("\\", "/")
    if rel.endswith(".py"):
        rel = rel[:-3]
    parts = [p for p in rel.split("/") if p not in ("", ".", "..")]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or "__main__"


@dataclass
class ModuleInfo:
    """One source file of the workspace, parsed once; `errors` lists the top-level blocks that
    do not parse, which `tree` leaves out."""

    path: str
    name: str
    source: str
    tree: Optional[ast.Module]
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted target
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    functions: dict[str, FunctionNode] = field(default_factory=dict)
    errors: list[BlockError] = field(default_factory=list)
    # What `qualname` reads: a result computed from this module's names stays valid while its
    # `env` is equal (the workspace hands the previous version's tuple on when it is).
    env: tuple[object, ...] = ()
    # `qualname`'s answers by node id, with the node (an id is only unique while it lives):
    # the rules ask about the same callee of the same call again and again.
    _qualnames: dict[int, tuple[ast.expr, Optional[str]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _mentions: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)

    def mentions(self, word: str) -> bool:
        """`word in self.source`, asked once per word of this version of the file."""
        found = self._mentions.get(word)
        if found is None:
            found = self._mentions[word] = word in self.source
        return found

    @classmethod
    def build(
        cls,
        path: str,
        source: str,
        root: Optional[str] = None,
        parser: Optional[ModuleParser] = None,
    ) -> ModuleInfo:
        """`parser` parsed the previous version of the file: see `ModuleParser`."""
        tree, errors = (parser or ModuleParser(path)).parse(source)
        info = cls(path, module_name_for(path, root), source, tree, errors=errors)
        info._index(tree)
        info.env = (
            info.name,
            tuple(info.imports.items()),
            tuple(info.classes),
            tuple(info.functions),
        )
        return info

    def _index(self, tree: ast.Module) -> None:
        for node in of_type(tree, ast.Import, ast.ImportFrom):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imports[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.imports[top] = top
            elif isinstance(node, ast.ImportFrom):
                base = self._resolve_relative(node)
                for alias in node.names:
                    if alias.name != "*":
                        target = f"{base}.{alias.name}" if base else alias.name
                        self.imports[alias.asname or alias.name] = target
        for stmt in tree.body:
            if isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[stmt.name] = stmt

    def _resolve_relative(self, node: ast.ImportFrom) -> str:
        module = node.module or ""
        if not node.level:
            return module
        package = self.name.split(".")
        is_package = self.path.replace("\\", "/").endswith("/__init__.py")
        keep = len(package) - node.level + (1 if is_package else 0)
        prefix = ".".join(package[: max(keep, 0)])
        return ".".join(p for p in (prefix, module) if p)

    def qualname(self, expr: ast.expr) -> Optional[str]:
        """Dotted name an expression refers to (`nn.Cell` -> `mindspore.nn.Cell`), or None."""
        known = self._qualnames.get(id(expr))
        if known is not None and known[0] is expr:
            return known[1]
        found = self._qualname(expr)
        self._qualnames[id(expr)] = (expr, found)
        return found

    def _qualname(self, expr: ast.expr) -> Optional[str]:
        parts: list[str] = []
        node: ast.expr = expr
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        parts.append(node.id)
        parts.reverse()
        head = parts[0]
        if head in self.imports:
            return ".".join([self.imports[head], *parts[1:]])
        if head in self.classes or head in self.functions:
            return ".".join([self.name, *parts])
        return ".".join(parts)
