"""What an expression in the user's file is, in MindSpore terms: a catalogue API, an instance
of a catalogue class (a Tensor), or an instance of a Cell class defined in the file.

Deliberately shallow and fast: assignments are followed by line order, not control flow, and
anything unknown is None so that callers fall back to jedi.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional, Union

from mindscope_ls.analysis.sourcemodel import FunctionNode, SourceModel, bound_names, statements
from mindscope_ls.catalogue.model import Catalogue, Entry

TENSOR = "mindspore.Tensor"
PARAMETER = "mindspore.Parameter"
CELL = "mindspore.nn.Cell"
JIT = "mindspore.jit"
_MAX_DEPTH = 12


@dataclass(frozen=True)
class Api:
    """A catalogue object itself: a module, class, function, method or constant."""

    entry: Entry


@dataclass(frozen=True)
class Instance:
    """A value whose class is in the catalogue (Tensor, nn.Conv2d, …)."""

    cls: Entry


@dataclass(frozen=True)
class LocalClass:
    """A class defined in the file (`instance`: an object of it, e.g. `self`)."""

    node: ast.ClassDef
    instance: bool
    shift: int = 0  # lines to add to the node's (see `SourceModel`)


@dataclass(frozen=True)
class LocalFunction:
    node: FunctionNode
    owner: Optional[ast.ClassDef]  # a method: calls on `self.` resolve through it
    shift: int = 0


Value = Union[Api, Instance, LocalClass, LocalFunction]


@dataclass(frozen=True)
class Scope:
    """Where a name is looked up: a function (or the module) up to a line."""

    cls: Optional[ast.ClassDef]
    func: Optional[FunctionNode]
    line: int  # 1-based, as the scope's nodes number lines; only bindings before it count
    shift: int = 0  # add to `line` for the line in the file now (see `SourceModel`)


class Inferencer:
    def __init__(self, model: SourceModel, catalogue: Catalogue) -> None:
        self.model = model
        self.cat = catalogue
        self._depth = 0
        # Per request: a class's attributes and Cell-ness are asked for once per member.
        self._attributes: dict[int, dict[str, tuple[Union[ast.expr, _Annotation], FunctionNode]]]
        self._attributes = {}
        self._cells: dict[int, bool] = {}

    # -- entry points -------------------------------------------------------------------
    def scope_at(self, line: int) -> Scope:
        cls, func, shift = self.model.locate(line)
        return Scope(cls, func, line - shift, shift)

    def infer(self, expr: ast.expr, scope: Scope) -> Optional[Value]:
        if self._depth > _MAX_DEPTH:
            return None
        self._depth += 1
        try:
            return self._infer(expr, scope)
        finally:
            self._depth -= 1

    def is_compiled(self, scope: Scope) -> bool:
        """Inside `construct` of a class, or a function decorated with `@ms.jit`."""
        func = scope.func
        if func is None:
            return False
        if func.name == "construct" and scope.cls is not None:
            return True
        for decorator in func.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            value = self.infer(target, Scope(None, None, func.lineno, scope.shift))
            if isinstance(value, Api) and value.entry.public == JIT:
                return True
        return False

    def is_cell_class(self, node: ast.ClassDef) -> bool:
        known = self._cells.get(id(node))
        if known is None:
            self._cells[id(node)] = False  # a class that (wrongly) inherits from itself
            known = self._cells[id(node)] = self._is_cell_class(node)
        return known

    def _is_cell_class(self, node: ast.ClassDef) -> bool:
        for base in node.bases:
            value = self.infer(base, Scope(None, None, node.lineno, self.model.shift_of(node)))
            if isinstance(value, Api) and (value.entry.public == CELL or value.entry.is_cell):
                return True
            local = value.node if isinstance(value, LocalClass) else None
            if local is not None and local is not node and self.is_cell_class(local):
                return True
        return False

    def self_attributes(
        self, node: ast.ClassDef
    ) -> dict[str, tuple[Union[ast.expr, _Annotation], FunctionNode]]:
        """`self.x = …` / `self.x: T = …` in the class's methods: name -> (value or annotation)."""
        known = self._attributes.get(id(node))
        if known is None:
            known = self._attributes[id(node)] = self._self_attributes(node)
        return known

    def _self_attributes(
        self, node: ast.ClassDef
    ) -> dict[str, tuple[Union[ast.expr, _Annotation], FunctionNode]]:
        found: dict[str, tuple[Union[ast.expr, _Annotation], FunctionNode]] = {}
        methods = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        methods.sort(key=lambda m: m.name != "__init__")  # __init__ decides
        for method in methods:
            for stmt in statements(method.body):
                for target, value in _self_bindings(stmt):
                    if target not in found:
                        found[target] = (value, method)
        return found

    def attribute_value(
        self, node: ast.ClassDef, name: str, shift: Optional[int] = None
    ) -> Optional[Value]:
        shift = self.model.shift_of(node) if shift is None else shift
        binding = self.self_attributes(node).get(name)
        if binding is not None:
            value, method = binding
            scope = Scope(node, method, getattr(value, "lineno", method.lineno), shift)
            if isinstance(value, _Annotation):
                return self.annotated(value.expr, scope)
            return self.infer(value, scope) if isinstance(value, ast.expr) else None
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name:
                return LocalFunction(item, node, shift)
        return self._inherited(node, name)

    def annotated(self, annotation: ast.expr, scope: Scope) -> Optional[Value]:
        """The value of a variable annotated `X`, `X | None`, `Optional[X]` or `"X"`."""
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            return self.annotated(annotation.left, scope) or self.annotated(annotation.right, scope)
        if isinstance(annotation, ast.Subscript):
            head = annotation.value
            name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", "")
            if name in ("Optional", "Union"):
                inner = annotation.slice
                first = inner.elts[0] if isinstance(inner, ast.Tuple) and inner.elts else inner
                return self.annotated(first, scope) if isinstance(first, ast.expr) else None
        return self.as_instance(self.infer(annotation, scope))

    def as_instance(self, value: Optional[Value]) -> Optional[Value]:
        """The value of a variable whose type is `value`."""
        if isinstance(value, Api) and value.entry.kind == "class":
            return Instance(value.entry)
        if isinstance(value, LocalClass):
            return LocalClass(value.node, True, value.shift)
        return None

    # -- expressions ---------------------------------------------------------------------
    def _infer(self, expr: ast.expr, scope: Scope) -> Optional[Value]:
        if isinstance(expr, ast.Name):
            return self._name(expr.id, scope)
        if isinstance(expr, ast.Attribute):
            return self._attribute(self.infer(expr.value, scope), expr.attr)
        if isinstance(expr, ast.Call):
            return self._call(self.infer(expr.func, scope))
        if isinstance(expr, ast.BinOp):
            left, right = self.infer(expr.left, scope), self.infer(expr.right, scope)
            return left if _is_tensor(left) else right if _is_tensor(right) else None
        if isinstance(expr, ast.UnaryOp):
            return self.infer(expr.operand, scope)
        if isinstance(expr, ast.Subscript):
            base = self.infer(expr.value, scope)
            return base if _is_tensor(base) else None
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return self._annotation_text(expr.value, scope)
        return None

    def _annotation_text(self, text: str, scope: Scope) -> Optional[Value]:
        try:
            parsed = ast.parse(text, mode="eval").body
        except SyntaxError:
            return None
        return self.infer(parsed, scope)

    def _name(self, name: str, scope: Scope) -> Optional[Value]:
        if scope.func is not None:
            found = self._local(name, scope)
            if found is not _MISSING:
                return found  # type: ignore[return-value]
        # From inside a function, a module-level name may be bound anywhere in the module.
        cut = scope.line + scope.shift if scope.func is None else 1 << 30
        binding = self._module_binding(name, cut)
        if binding is not None:
            shift = self.model.shift_of(binding)
            return self._binding(binding, Scope(None, None, binding.lineno, shift))
        imported = self.model.imports.get(name)
        if imported is not None:
            return self._path(imported.path)
        for module in reversed(self.model.star_modules):
            ident = self.cat.star_import(module).get(name)
            if ident is not None:
                entry = self.cat.entry(ident)
                return Api(entry) if entry else None
        return None

    def _local(self, name: str, scope: Scope) -> object:
        func = scope.func
        assert func is not None
        binding = _last_binding(func.body, name, scope.line)
        if binding is not None:
            return self._binding(binding, Scope(scope.cls, func, binding.lineno, scope.shift))
        args = func.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        for index, arg in enumerate(params):
            if arg.arg != name:
                continue
            if arg.annotation is not None:
                return self.annotated(arg.annotation, Scope(None, None, func.lineno, scope.shift))
            if index == 0 and scope.cls is not None and not _is_static(func):
                return LocalClass(scope.cls, True, scope.shift)
            if self.is_compiled(scope):
                return self._tensor()  # construct / @jit arguments are Tensors
            return None
        return _MISSING

    def _binding(self, binding: ast.stmt, scope: Scope) -> Optional[Value]:
        if isinstance(binding, ast.AnnAssign):
            return self.annotated(binding.annotation, scope)
        if isinstance(binding, ast.Assign):
            return self.infer(binding.value, scope)
        if isinstance(binding, ast.ClassDef):
            return LocalClass(binding, False, scope.shift)
        if isinstance(binding, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return LocalFunction(binding, None, scope.shift)
        return None

    def _module_binding(self, name: str, before: int) -> Optional[ast.stmt]:
        """The last top-level statement binding `name` that starts before line `before`."""
        found: Optional[ast.stmt] = None
        for stmt in self.model.bindings.get(name, ()):
            if self.model.start(stmt) >= before:
                break
            found = stmt
        return found

    def _path(self, path: str) -> Optional[Value]:
        entry = self.cat.lookup(path) or self.cat.module_entry(path)
        return Api(entry) if entry else None

    def _attribute(self, base: Optional[Value], attr: str) -> Optional[Value]:
        if isinstance(base, Api):
            namespace = members_namespace(self.cat, base)
            entry = self.cat.member(namespace, attr) if namespace else None
            if entry is None:
                return None
            return (
                Api(self.cat.module_entry(entry.ident) or entry)
                if entry.kind == "module"
                else Api(entry)
            )
        if isinstance(base, Instance):
            namespace = members_namespace(self.cat, base)
            entry = self.cat.member(namespace, attr) if namespace else None
            return Api(entry) if entry else None
        if isinstance(base, LocalClass) and base.instance:
            return self.attribute_value(base.node, attr, base.shift)
        return None

    def _call(self, callee: Optional[Value]) -> Optional[Value]:
        if isinstance(callee, Api):
            entry = callee.entry
            if entry.kind == "class":
                return Instance(entry)
            if entry.returns == "Tensor":
                return self._tensor()
            if entry.returns == "Parameter":
                return self._class(PARAMETER)
            return None
        if isinstance(callee, Instance):
            return self._tensor() if callee.cls.is_cell or callee.cls.is_primitive else None
        if isinstance(callee, LocalClass):
            if not callee.instance:
                return LocalClass(callee.node, True, callee.shift)
            return self._tensor() if self.is_cell_class(callee.node) else None
        if isinstance(callee, LocalFunction) and callee.node.returns is not None:
            scope = Scope(callee.owner, None, callee.node.lineno, callee.shift)
            return self.annotated(callee.node.returns, scope)
        return None

    def _inherited(self, node: ast.ClassDef, name: str) -> Optional[Value]:
        if self.is_cell_class(node):
            entry = self.cat.member(CELL, name)
            return Api(entry) if entry else None
        return None

    def _class(self, public: str) -> Optional[Value]:
        entry = self.cat.lookup(public)
        return Instance(entry) if entry else None

    def _tensor(self) -> Optional[Value]:
        return self._class(TENSOR)


def members_namespace(cat: Catalogue, value: Union[Api, Instance]) -> Optional[str]:
    """The catalogue namespace that lists what `value.` offers."""
    if isinstance(value, Api):
        entry = value.entry
        if entry.kind == "module":
            return entry.ident if entry.ident in cat.namespaces else None
        return entry.public if entry.kind == "class" and entry.public in cat.namespaces else None
    cls = value.cls
    if cls.public in cat.namespaces:
        return cls.public
    if cls.is_cell:
        return CELL
    return None


class _Annotation:
    """`self.x: T = …` in a method: the annotation decides."""

    def __init__(self, expr: ast.expr) -> None:
        self.expr = expr


_MISSING = object()


def _self_attr(node: ast.AST) -> Optional[str]:
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return node.attr
    return None


def _self_bindings(stmt: ast.AST) -> list[tuple[str, Union[ast.expr, _Annotation]]]:
    found: list[tuple[str, Union[ast.expr, _Annotation]]] = []
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            name = _self_attr(target)
            if name:
                found.append((name, stmt.value))
    elif isinstance(stmt, ast.AnnAssign):
        name = _self_attr(stmt.target)
        if name:
            found.append((name, _Annotation(stmt.annotation)))
    return found


def _binds(stmt: ast.stmt, name: str) -> bool:
    return name in bound_names(stmt)


def _last_binding(body: list[ast.stmt], name: str, before: int) -> Optional[ast.stmt]:
    """The last statement binding `name` that starts before line `before`, in `body` and the
    blocks that enclose that line (not inside nested functions or classes)."""
    found: Optional[ast.stmt] = None
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if stmt.lineno >= before and not _encloses(stmt, before):
            continue
        later = found is None or stmt.lineno > found.lineno
        if _binds(stmt, name) and stmt.lineno < before and later:
            found = stmt
        if not isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            for field_name in ("body", "orelse", "finalbody"):
                stack.extend(getattr(stmt, field_name, []) or [])
            for handler in getattr(stmt, "handlers", []) or []:
                stack.extend(handler.body)
    return found


def _encloses(stmt: ast.stmt, line: int) -> bool:
    return stmt.lineno <= line <= (getattr(stmt, "end_lineno", None) or stmt.lineno)


def _is_static(func: FunctionNode) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list)


def _is_tensor(value: Optional[Value]) -> bool:
    return isinstance(value, Instance) and value.cls.public in (TENSOR, PARAMETER)
