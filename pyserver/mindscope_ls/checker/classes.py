"""Classes of the workspace: which are Cells or jit_classes, and what their attributes hold."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from . import names
from .index import FunctionNode, ModuleInfo
from .walk import of_type
from .workspace import Workspace

MAX_DEPTH = 30


@dataclass
class Attr:
    """What `self.<name>` holds: kind is tensor, const_tensor, cell, list or object."""

    kind: str
    class_qualname: Optional[str] = None
    node: Optional[ast.AST] = None


@dataclass
class ClassInfo:
    module: ModuleInfo
    node: ast.ClassDef
    bases: list[ClassInfo] = field(default_factory=list)
    is_cell: bool = False
    is_jit_class: bool = False
    attrs: dict[str, Attr] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.node.name

    def own_method(self, name: str) -> Optional[FunctionNode]:
        for stmt in self.node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                return stmt
        return None

    def find_method(self, name: str) -> Optional[tuple[ClassInfo, FunctionNode]]:
        """The method `name` as Python's MRO would find it (depth-first is close enough)."""
        seen: set[int] = set()
        stack: list[ClassInfo] = [self]
        while stack:
            info = stack.pop(0)
            if id(info) in seen:
                continue
            seen.add(id(info))
            method = info.own_method(name)
            if method is not None:
                return info, method
            stack.extend(info.bases)
        return None

    def attr(self, name: str) -> Optional[Attr]:
        seen: set[int] = set()
        stack: list[ClassInfo] = [self]
        while stack:
            info = stack.pop(0)
            if id(info) in seen:
                continue
            seen.add(id(info))
            if name in info.attrs:
                return info.attrs[name]
            stack.extend(info.bases)
        return None


class ClassTable:
    """Lazily builds ClassInfo for classes of a workspace, resolving bases across files."""

    def __init__(self, workspace: Workspace):
        self.workspace = workspace
        self._infos: dict[int, ClassInfo] = {}

    def info(self, module: ModuleInfo, node: ast.ClassDef, depth: int = 0) -> ClassInfo:
        key = id(node)
        if key in self._infos:
            return self._infos[key]
        info = ClassInfo(module, node)
        self._infos[key] = info  # registered first: cyclic bases terminate
        for base in node.bases:
            qualname = module.qualname(base)
            if names.is_cell_qualname(qualname):
                info.is_cell = True
                continue
            resolved = self.resolve(qualname, depth + 1)
            if resolved is not None:
                info.bases.append(resolved)
                info.is_cell = info.is_cell or resolved.is_cell
        info.is_jit_class = any(
            module.qualname(d.func if isinstance(d, ast.Call) else d) in names.JIT_CLASS
            for d in node.decorator_list
        )
        info.attrs = self._attributes(module, node)
        return info

    def resolve(self, qualname: Optional[str], depth: int = 0) -> Optional[ClassInfo]:
        if not qualname or depth > MAX_DEPTH:
            return None
        found = self.workspace.resolve_class(qualname)
        if found is None:
            return None
        return self.info(found[0], found[1], depth)

    def _attributes(self, module: ModuleInfo, node: ast.ClassDef) -> dict[str, Attr]:
        attrs: dict[str, Attr] = {}
        for stmt in node.body:
            if not isinstance(stmt, ast.FunctionDef) or stmt.name == "construct":
                continue
            for sub in of_type(stmt, ast.Assign, ast.AnnAssign):
                if isinstance(sub, ast.Assign):
                    targets, value = sub.targets, sub.value
                elif isinstance(sub, ast.AnnAssign) and sub.value is not None:
                    targets, value = [sub.target], sub.value
                else:
                    continue
                for target in targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                        and target.attr not in attrs
                    ):
                        attrs[target.attr] = self._attr_kind(module, value)
        return attrs

    def _attr_kind(self, module: ModuleInfo, value: ast.expr) -> Attr:
        if isinstance(value, (ast.List, ast.ListComp)):
            return Attr("list", node=value)
        if not isinstance(value, ast.Call):
            return Attr("object", node=value)
        qualname = names.callee(module, value)
        if qualname in names.PARAMETER:
            return Attr("tensor", qualname, value)
        if qualname in names.TENSOR_FACTORIES or names.is_ops_call(qualname):
            return Attr("const_tensor", qualname, value)  # may be folded into a constant
        if names.is_cell_qualname(qualname) or names.is_primitive_class(qualname):
            return Attr("cell", qualname, value)
        if qualname in ("list",):
            return Attr("list", qualname, value)
        resolved = self.resolve(qualname)
        if resolved is not None and resolved.is_cell:
            return Attr("cell", qualname, value)
        return Attr("object", qualname, value)
