"""Classes of the workspace: which are Cells or jit_classes, and what their attributes hold."""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Optional

from ...incremental.memo import NodeMemo
from ...index.module import FunctionNode, ModuleInfo
from ...index.workspace import Workspace
from . import names
from .walk import of_type

MAX_DEPTH = 30  # classes followed along bases and attributes (chains.py reports the cut)
CHAIN_CUT = "class-chain-cut"  # in `Workspace.cache`: a chain was cut at this version


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
    _local: Optional[_Local] = field(default=None, repr=False, compare=False)
    _signature: Optional[tuple[object, ...]] = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.node.name

    def own_method(self, name: str) -> Optional[FunctionNode]:
        if self._local is not None:
            return self._local.methods.get(name)
        return _methods(self.node).get(name)

    def lineage(self) -> Iterator[ClassInfo]:
        """This class, then its bases breadth first, each once: the order lookups search (close
        enough to Python's MRO)."""
        if not self.bases:
            yield self
            return
        seen: set[int] = set()
        queue: deque[ClassInfo] = deque([self])
        while queue:
            info = queue.popleft()
            if id(info) not in seen:
                seen.add(id(info))
                yield info
                queue.extend(info.bases)

    def find_method(self, name: str) -> Optional[tuple[ClassInfo, FunctionNode]]:
        """The method `name` as Python's MRO would find it."""
        for info in self.lineage():
            method = info.own_method(name)
            if method is not None:
                return info, method
        return None

    def attr(self, name: str) -> Optional[Attr]:
        for info in self.lineage():
            if name in info.attrs:
                return info.attrs[name]
        return None

    def attribute_stores(self, name: str) -> list[ast.Attribute]:
        """Every `self.<name>` this class's own body writes or deletes (any method)."""
        return [
            n
            for n in of_type(self.node, ast.Attribute)
            if not isinstance(n.ctx, ast.Load) and names.self_attribute(n) == name
        ]

    def bound_once(self, name: str) -> Optional[ast.expr]:
        """The value of this class's one write to `self.<name>`, when that write is a plain
        `self.<name> = value` (no other assignment, augmented assignment or `del` of it in the
        class's own body); else None."""
        stores = self.attribute_stores(name)
        if len(stores) != 1:
            return None
        assigns: list[ast.Assign] = of_type(self.node, ast.Assign)
        return next((a.value for a in assigns if any(t is stores[0] for t in a.targets)), None)

    def attr_varies(self, name: str) -> bool:
        """The class that sets `self.<name>` sets it to values of more than one callee
        (`self.pool = Identity()` in one branch, `ops.ReduceMean()` in another): `attr` holds
        only the first, so a rule that needs the one class it holds must not trust it."""
        for info in self.lineage():
            if name in info.attrs:
                return info._local is not None and name in info._local.varied
        return False

    def signature(self) -> tuple[object, ...]:
        """All that type inference and the rules read from this class and its bases (kinds,
        positions for related locations): results that depend on the class are kept between
        checks while this compares equal. Positions are relative to each class's first line,
        so a class that only moved keeps its signature: `anchors` says where each one is."""
        if self._signature is None:
            self._signature = ()  # a cyclic base sees this placeholder
            local = self._local
            attrs = local.attrs_signature if local is not None else None
            if attrs is None:
                attrs = _attrs_signature(self.attrs, self.node.lineno)
            where = local.position if local is not None else position(self.node, self.node.lineno)
            own = (self.module.path, self.name, where, self.is_cell, self.is_jit_class)
            varied = local.varied if local is not None else frozenset()
            bases = tuple(base.signature() for base in self.bases)
            self._signature = (*own, attrs, tuple(sorted(varied)), bases)
        return self._signature

    def anchors(self) -> tuple[tuple[str, int], ...]:
        """Where this class and its bases are (path, first line): what `signature`'s relative
        positions are relative to."""
        return tuple((info.module.path, info.node.lineno) for info in self.lineage())


@dataclass(frozen=True)
class _Local:
    """What a class statement says on its own, given its module's names: the dotted names of
    its bases (and which are Cells already), whether it is a jit_class, and its attributes
    (`None` where the kind depends on whether a workspace class is a Cell)."""

    bases: tuple[tuple[Optional[str], bool], ...]
    is_jit_class: bool
    attrs: tuple[tuple[str, Optional[Attr], Optional[str], ast.expr], ...]
    methods: dict[str, FunctionNode]  # the first definition of each name, as Python's would be
    position: Optional[tuple[int, int, int, int]]  # relative to the class's first line
    attrs_signature: Optional[tuple[object, ...]]  # when no attribute's kind waits on a lookup
    varied: frozenset[str] = frozenset()  # attributes set to values of different callees


_LOCAL: NodeMemo[_Local] = NodeMemo()


class ClassTable:
    """Lazily builds ClassInfo for classes of a workspace, resolving bases across files."""

    def __init__(self, workspace: Workspace):
        self.workspace = workspace
        self._infos: dict[int, ClassInfo] = {}

    def info(self, module: ModuleInfo, node: ast.ClassDef, depth: int = 0) -> ClassInfo:
        key = id(node)
        if key in self._infos:
            return self._infos[key]
        local = _LOCAL.get(node, module.env, lambda: _local(module, node))
        info = ClassInfo(module, node, _local=local)
        self._infos[key] = info  # registered first: cyclic bases terminate
        for qualname, is_cell in local.bases:
            if is_cell:
                info.is_cell = True
                continue
            resolved = self.resolve(qualname, depth + 1)
            if resolved is not None:
                info.bases.append(resolved)
                info.is_cell = info.is_cell or resolved.is_cell
        # `@jit_class` sets `__ms_class__` on the class, and graph mode tests it with `hasattr`:
        # a subclass of one is one too (measured: `with Sub():` compiles).
        info.is_jit_class = local.is_jit_class or any(b.is_jit_class for b in info.bases)
        for name, attr, qualname, value in local.attrs:
            if attr is None:
                # Deeper too: a chain of Cells held in attributes recurses as bases do.
                resolved = self.resolve(qualname, depth + 1)
                kind = "cell" if resolved is not None and resolved.is_cell else "object"
                attr = Attr(kind, qualname, value)
            info.attrs[name] = attr
        return info

    def resolve(self, qualname: Optional[str], depth: int = 0) -> Optional[ClassInfo]:
        if not qualname:
            return None
        if depth > MAX_DEPTH:
            # chains.py measures the chain and says where, for this version of the workspace.
            self.workspace.cache[CHAIN_CUT] = (self.workspace.version, qualname)
            return None
        found = self.workspace.resolve_class(qualname)
        if found is None:
            return None
        return self.info(found[0], found[1], depth)


# A class looked up by name: the name, and the class's signature and anchors relative to a
# line (the line of the function whose results depend on it), or None when nothing was found.
Lookup = tuple[Optional[str], Optional[tuple[tuple[object, ...], tuple[tuple[str, int], ...]]]]


class RecordingClassTable(ClassTable):
    """A view of a table that notes each class looked up and what it was (its signature and
    where it is relative to line `line`), so results that depend on those lookups can be kept
    while they give the same classes, in the same place relative to that line."""

    def __init__(self, table: ClassTable, line: int):
        super().__init__(table.workspace)
        self._infos = table._infos
        self.line = line
        self.looked_up: list[Lookup] = []
        self._nested = 0

    def resolve(self, qualname: Optional[str], depth: int = 0) -> Optional[ClassInfo]:
        self._nested += 1
        try:
            info = super().resolve(qualname, depth)
        finally:
            self._nested -= 1
        if not self._nested:  # the rule's own lookup: the classes it built are complete
            self.looked_up.append((qualname, _found(info, self.line)))
        return info


def same_lookups(table: ClassTable, looked_up: tuple[Lookup, ...], line: int) -> bool:
    """True when `table` resolves each name as recorded by a `RecordingClassTable` (made with
    the line that is `line` now)."""
    return all(_found(table.resolve(qualname), line) == found for qualname, found in looked_up)


def relative_anchors(info: ClassInfo, line: int) -> tuple[tuple[str, int], ...]:
    """`info.anchors()` relative to `line`: equal while the classes are where they were
    relative to that line (in whichever file they are)."""
    return tuple((path, first - line) for path, first in info.anchors())


def _found(
    info: Optional[ClassInfo], line: int
) -> Optional[tuple[tuple[object, ...], tuple[tuple[str, int], ...]]]:
    return (info.signature(), relative_anchors(info, line)) if info is not None else None


def position(node: Optional[ast.AST], base: int) -> Optional[tuple[int, int, int, int]]:
    """Where a node is relative to line `base`, as compared by cached results (its range in a
    related location)."""
    if node is None:
        return None
    return (
        getattr(node, "lineno", 0) - base,
        getattr(node, "col_offset", 0),
        (getattr(node, "end_lineno", 0) or 0) - base,
        getattr(node, "end_col_offset", 0) or 0,
    )


def _local(module: ModuleInfo, node: ast.ClassDef) -> _Local:
    bases = tuple(
        (qualname, names.is_cell_qualname(qualname))
        for qualname in (module.qualname(base) for base in node.bases)
    )
    is_jit_class = any(
        module.qualname(d.func if isinstance(d, ast.Call) else d) in names.JIT_CLASS
        for d in node.decorator_list
    )
    attrs: list[tuple[str, Optional[Attr], Optional[str], ast.expr]] = []
    seen: dict[str, str] = {}  # name -> what its first value calls
    varied: set[str] = set()
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
                name = names.self_attribute(target)
                if name is None:
                    continue
                maker = _maker(module, value)
                if name not in seen:
                    seen[name] = maker
                    attrs.append((name, *_attr_kind(module, value), value))
                elif seen[name] != maker:
                    varied.add(name)
    known = {name: attr for name, attr, _, _ in attrs if attr is not None}
    complete = len(known) == len(attrs)
    base = node.lineno  # positions are kept relative to the class: it may move
    signature = _attrs_signature(known, base) if complete else None
    return _Local(
        bases,
        is_jit_class,
        tuple(attrs),
        _methods(node),
        position(node, base),
        signature,
        frozenset(varied),
    )


def _maker(module: ModuleInfo, value: ast.expr) -> str:
    """What an attribute's value is made by: the callee's dotted name, else the node type
    (two `None`s, two lists are alike; a `Cell()` and an op are not)."""
    if isinstance(value, ast.Call):
        return names.callee(module, value) or ast.dump(value.func)
    return type(value).__name__


def _methods(node: ast.ClassDef) -> dict[str, FunctionNode]:
    found: dict[str, FunctionNode] = {}
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.setdefault(stmt.name, stmt)
    return found


def _attrs_signature(attrs: dict[str, Attr], base: int) -> tuple[object, ...]:
    return tuple(
        (name, a.kind, a.class_qualname, position(a.node, base)) for name, a in attrs.items()
    )


def _attr_kind(module: ModuleInfo, value: ast.expr) -> tuple[Optional[Attr], Optional[str]]:
    """The attribute's kind, or (None, the class's dotted name) when that depends on whether a
    workspace class is a Cell."""
    if isinstance(value, (ast.List, ast.ListComp)):
        return Attr("list", node=value), None
    if not isinstance(value, ast.Call):
        return Attr("object", node=value), None
    qualname = names.callee(module, value)
    if qualname in names.PARAMETER:
        return Attr("tensor", qualname, value), None
    if qualname in names.TENSOR_FACTORIES or names.is_ops_call(qualname):
        return Attr("const_tensor", qualname, value), None  # may be folded into a constant
    if names.is_cell_qualname(qualname) or names.is_primitive_class(qualname):
        return Attr("cell", qualname, value), None
    if qualname in ("list",):
        return Attr("list", qualname, value), None
    return None, qualname
