"""Values graph mode holds as opaque Python objects: instances of the workspace's plain classes
and `@jit_class`es, and members of an `enum.Enum` that is not also an int or a str.

Measured with MindSpore 2.10 on CPU (`round31/ob_*`): such a value is a `PythonObject` (or an
`MsClassObject`) in the graph, which `a is b` refuses on its right ("b supports Int, Bool,
String, None and Type") and a dict display refuses as a key ("make_dict evaluator key only
supports string, number, type, none, constant tensor and tuple"). An `IntEnum` or `str`-mixed
Enum member is an int or a str there, and compiles.
"""

from __future__ import annotations

import ast
from typing import Optional

from ...index.module import ModuleInfo
from .base import FunctionContext
from .classes import ClassInfo
from .instances import instance_class
from .module_values import (
    argument_values,
    call_lines,
    entry_point,
    global_binding,
    note_read,
    ordered_parameters,
    parameters,
)
from .reaching import reaching
from .receivers import only_binding, self_attr_name

# Bases that make an Enum's members plain ints or strs in the graph.
_SCALAR_MIXINS = frozenset({"int", "str", "float", "bool"})
_ENUM_BASES = frozenset({"enum.Enum"})


def enum_class(module: ModuleInfo, name: str) -> Optional[ast.ClassDef]:
    """The module's class `name` when it derives from `enum.Enum` directly and mixes in no
    scalar type (an `IntEnum`, `StrEnum` or `class K(str, Enum)` is a scalar in the graph)."""
    return module.classes.get(name) if name in enum_classes(module) else None


def _enum_class(module: ModuleInfo, name: str) -> Optional[ast.ClassDef]:
    node = module.classes.get(name)
    if node is None or node.keywords or not node.bases:
        return None
    qualnames = [
        module.qualname(b) if isinstance(b, (ast.Name, ast.Attribute)) else None for b in node.bases
    ]
    if not any(q in _ENUM_BASES for q in qualnames):
        return None
    if any(
        q not in _ENUM_BASES and (q or "").rsplit(".", 1)[-1] in _SCALAR_MIXINS for q in qualnames
    ):
        return None
    if any(
        q is None or (q not in _ENUM_BASES and q not in ("builtins.object", "object"))
        for q in qualnames
    ):
        return None
    return node


_ENUMS = "_mindscope_enum_classes"  # kept on the module tree: freed with it


def enum_classes(module: ModuleInfo) -> frozenset[str]:
    """The names of the module's Enum classes (`enum_class`), read once per module tree."""
    tree = module.tree
    if tree is None:
        return frozenset()
    held: Optional[frozenset[str]] = tree.__dict__.get(_ENUMS)
    if held is None:
        held = frozenset(name for name in module.classes if _enum_class(module, name))
        tree.__dict__[_ENUMS] = held
    return held


def enum_member(module: ModuleInfo, expr: ast.expr) -> Optional[str]:
    """`Mode.TRAIN` of an Enum class of the module whose body binds `TRAIN`."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return None
    if expr.value.id not in enum_classes(module):
        return None
    node = enum_class(module, expr.value.id)
    if node is None or expr.attr not in _members(node):
        return None
    return f"the Enum member `{expr.value.id}.{expr.attr}`"


def _members(node: ast.ClassDef) -> set[str]:
    found: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, ast.Assign):
            found.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value:
            found.add(stmt.target.id)
    return {name for name in found if not name.startswith("_")}


def python_object(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[str]:
    """What `expr` is when it surely holds an opaque Python object: an Enum member
    (`Mode.TRAIN`, `self.mode` set to one in `__init__`, a local bound once to one), or an
    instance of a workspace class that is neither a Cell nor derived from anything outside the
    workspace (`self.s = Scale(2.0)`, a module-level `OBJ = Scale()`, a local `s = Scale()`)."""
    if depth > 3:
        return None
    module = ctx.fn.module
    member = enum_member(module, expr)
    if member is not None:
        return member
    name = self_attr_name(expr)
    cls = ctx.fn.cls
    if name is not None and cls is not None:
        held = cls.attr(name)
        if held is None or held.kind != "object" or cls.attr_varies(name):
            return None
        if isinstance(held.node, ast.Attribute):
            if self_attr_name(held.node) is not None:  # `self.b = self.a`
                return python_object(ctx, held.node, depth + 1)
            return enum_member(module, held.node)
        if held.class_qualname is not None:
            return _instance(ctx.classes.resolve(held.class_qualname))
        return None
    if isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        if bound is not None:
            if isinstance(bound, ast.Call) and isinstance(bound.func, (ast.Name, ast.Attribute)):
                return _instance(ctx.classes.resolve(module.qualname(bound.func)))
            if isinstance(bound, ast.Attribute):
                return enum_member(module, bound)
            return None
        if any(isinstance(n.ctx, ast.Store) and n.id == expr.id for n in ctx.of(ast.Name)):
            return None
        node = instance_class(module, expr)
        if node is not None and not node.decorator_list:
            return f"an instance of the plain class `{node.name}`"
    return None


def opaque_class(info: Optional[ClassInfo]) -> bool:
    """An instance of `info` is an opaque object: a plain class or `@jit_class` whose bases
    are all such workspace classes, with no decorator but `@jit_class` and no metaclass."""
    if info is None or info.is_cell:
        return False
    for each in info.lineage():
        if len(each.node.bases) != len(each.bases) or each.node.keywords:
            return False
        if each.node.decorator_list and not (each is info and info.is_jit_class):
            return False
    return True


def _instance(info: Optional[ClassInfo]) -> Optional[str]:
    if info is None or not opaque_class(info):
        return None
    kind = "`@jit_class`" if info.is_jit_class else "plain class"
    return f"an instance of the {kind} `{info.name}`"


# Tuple methods a namedtuple keeps in the graph (measured: `cfg.count(2.0)`, `cfg.index(1)`).
TUPLE_METHODS = frozenset({"count", "index"})
_NAMEDTUPLE = frozenset({"collections.namedtuple", "typing.NamedTuple"})


def namedtuple_fields(module: ModuleInfo, name: str) -> Optional[tuple[str, ...]]:
    """The fields of the module's namedtuple type `name`: `Name = namedtuple('Name', [...])`
    (or a field string) bound once at module level, or `class Name(NamedTuple)` with annotated
    fields and no other base."""
    node = module.classes.get(name)
    if node is not None:
        if len(node.bases) != 1 or node.keywords or node.decorator_list:
            return None
        base = node.bases[0]
        if not isinstance(base, (ast.Name, ast.Attribute)):
            return None
        if module.qualname(base) != "typing.NamedTuple":
            return None
        return tuple(
            s.target.id
            for s in node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        )
    binding = global_binding(module, name)
    value = binding.value if binding is not None else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute))):
        return None
    if module.qualname(value.func) not in _NAMEDTUPLE or len(value.args) != 2:
        return None
    fields = value.args[1]
    if isinstance(fields, ast.Constant) and isinstance(fields.value, str):
        return tuple(fields.value.replace(",", " ").split())
    if isinstance(fields, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in fields.elts
    ):
        return tuple(e.value for e in fields.elts)  # type: ignore[attr-defined]
    return None


def namedtuple_instance(
    ctx: FunctionContext, expr: ast.expr
) -> Optional[tuple[str, tuple[str, ...]]]:
    """(type name, fields) when `expr` surely holds an instance of one of the module's
    namedtuple types: `self.cfg = Cfg(...)` set in `__init__`, a local bound once to `Cfg(...)`
    of constants or a module-level `CFG = Cfg(...)`."""
    module = ctx.fn.module
    value: Optional[ast.expr] = None
    name = self_attr_name(expr)
    if name is not None:
        cls = ctx.fn.cls
        held = cls.attr(name) if cls is not None else None
        if held is None or cls is None or cls.attr_varies(name):
            return None
        value = held.node if isinstance(held.node, ast.expr) else None
    elif isinstance(expr, ast.Name):
        value = only_binding(ctx, expr.id) or _reaching_value(ctx, expr)
        if isinstance(value, ast.Call) and not _constant_arguments(value):
            # measured: `Cfg(x, 1)._replace(...)` of a Tensor `x` compiles at LAX: built
            # from graph values, the fallback makes a real namedtuple
            return None
        if value is None:
            if any(isinstance(n.ctx, ast.Store) and n.id == expr.id for n in ctx.of(ast.Name)):
                return None
            if expr.id in parameters(ctx.fn.node):
                value = _passed_by_every_call(ctx, expr.id)
            else:
                binding = global_binding(module, expr.id)
                value = binding.value if binding is not None else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
        return None
    fields = namedtuple_fields(module, value.func.id)
    return (value.func.id, fields) if fields else None


def _reaching_value(ctx: FunctionContext, read: ast.Name) -> Optional[ast.expr]:
    """The value of the one `name = value` that reaches `read` in a function rebinding the
    name (`c = Cfg(2.0, 1); c = c._replace(...)`: the first read sees `Cfg(2.0, 1)`)."""
    flow = reaching(ctx.fn.node)
    found = flow.of(read)
    if found is None or len(found) != 1:
        return None
    return flow.values.get(next(iter(found)))


def _passed_by_every_call(ctx: FunctionContext, param: str) -> Optional[ast.expr]:
    """The namedtuple call (`Cfg(2.0, 1)`) every call of the function's entry point passes for
    `param`, all of one type; measured: `net(x, Cfg(2.0, 1))` then `cfg._replace(...)` in
    `construct` fails like a local one, and so does `net(t, Cfg(t, 1))` with a Tensor field
    (an argument becomes a graph tuple, unlike a namedtuple built in the graph from a Tensor)."""
    module = ctx.fn.module
    if not (module.mentions("namedtuple") or module.mentions("NamedTuple")):
        return None  # the common case; reading the callers ties the findings to their lines
    entry = entry_point(ctx.types, ctx.fn.node)
    if entry is None:
        return None
    for line in call_lines(module, entry):
        note_read(ctx.lines, line)
    params = ordered_parameters(ctx.fn.node, skip_self=ctx.fn.cls is not None)
    passed = argument_values(module, entry, params)
    values = passed.get(param) if passed else None
    if not values:
        return None
    kinds = {v.func.id for v in values if isinstance(v, ast.Call) and isinstance(v.func, ast.Name)}
    if len(kinds) != 1 or not all(isinstance(v, ast.Call) for v in values):
        return None
    return values[0]


def _constant_arguments(call: ast.Call) -> bool:
    values = [*call.args, *(k.value for k in call.keywords)]
    return all(
        isinstance(v, ast.Constant)
        or (isinstance(v, ast.UnaryOp) and isinstance(v.operand, ast.Constant))
        for v in values
    )


def object_class(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[ClassInfo]:
    """The workspace class of the object `python_object` finds in `expr` (not an Enum member)."""
    if depth > 3:
        return None
    module = ctx.fn.module
    name = self_attr_name(expr)
    cls = ctx.fn.cls
    info: Optional[ClassInfo] = None
    if name is not None and cls is not None:
        held = cls.attr(name)
        if held is None or held.kind != "object" or cls.attr_varies(name):
            return None
        if isinstance(held.node, ast.Attribute) and self_attr_name(held.node) is not None:
            return object_class(ctx, held.node, depth + 1)
        info = ctx.classes.resolve(held.class_qualname)
    elif isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        if isinstance(bound, ast.Call) and isinstance(bound.func, (ast.Name, ast.Attribute)):
            info = ctx.classes.resolve(module.qualname(bound.func))
        elif bound is None and not any(
            isinstance(n.ctx, ast.Store) and n.id == expr.id for n in ctx.of(ast.Name)
        ):
            node = instance_class(module, expr)
            info = ctx.classes.info(module, node) if node is not None else None
    return info if _instance(info) is not None else None


_OPERATORS = "_mindscope_operator_classes"  # kept on the module tree: freed with it


def defines_any(module: ModuleInfo, methods: frozenset[str]) -> bool:
    """Some class of the module defines one of `methods` (read once per module tree and set)."""
    tree = module.tree
    if tree is None:
        return False
    held: Optional[dict[frozenset[str], bool]] = tree.__dict__.get(_OPERATORS)
    if held is None:
        held = tree.__dict__[_OPERATORS] = {}
    found = held.get(methods)
    if found is None:
        found = held[methods] = any(
            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in methods
            for node in module.classes.values()
            for item in node.body
        )
    return found


def is_dataclass(module: ModuleInfo, info: ClassInfo) -> bool:
    """A `@dataclass` (`@dataclasses.dataclass(...)`) with no base and no other decorator: a
    plain class to graph mode (measured: created from a Tensor it fails STRICT as a plain class
    does; `return D(3)` fails under STRICT, "Illegal type in the graph: ... D(a=3))")."""
    node = info.node
    if node.bases or node.keywords or len(node.decorator_list) != 1:
        return False
    deco = node.decorator_list[0]
    target = deco.func if isinstance(deco, ast.Call) else deco
    if not isinstance(target, (ast.Name, ast.Attribute)):
        return False
    return module.qualname(target) == "dataclasses.dataclass"
