"""MS136, MS155, MS223: attributes read on values that do not have them.

Measured with MindSpore 2.10 (`generated/attributes/`): an attribute only a Tensor has
(`shape`, `dtype`, `ndim`, `data`) fails on a scalar, tuple, list, None, str or dict; a Tensor
computed in the graph has no `grad`/`name`/`requires_grad`; an instance of the module's own
plain class has only the attributes its class sets. Under STRICT the Tensor members the graph
has no translation for fail when read (`x.device`, `x.stride`, `x.__class__`), and at every
level a Tensor method without a graph registration fails when called (`x.diag()`); both
tables are compiled per member from the installed MindSpore (facts `graph_members`). Values the
source does not fix are never reported.

A namedtuple (`collections.namedtuple` or `typing.NamedTuple`) is a plain tuple in the graph
(round31 `ob_nt_*`, both levels): its fields, `count` and `index` read fine, but `_replace`,
`_asdict`, `_fields` of an instance and the methods or properties a `NamedTuple` class defines
fail ("'NamedTuple' object has no attribute '_replace'"; STRICT: "cannot get attributes
_replace or the Tuple[Float32,Int64] object has no attribute"), for one set in `__init__`,
built in `construct` or held at module level. `Cfg._make([...])` and `Cfg._fields` of the class
compile.

`p.name` of `p` looped from a `ParameterTuple` (`for p in self.weights`, or the first of
`zip(self.weights, grads)`, in a loop or a comprehension) fails like `self.w.name` (round 35,
measured at LAX and STRICT); its `shape` compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import assigned, assigned_any, describe, instance, local_names, missing_advice
from .helpers import names, python_objects, receivers
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext
from .helpers.instances import lacks
from .helpers.module_values import global_binding, note_read
from .helpers.parameter_items import parameter_item
from .strict import TO_NUMPY

ATTRIBUTE_OF_WRONG_KIND = Rule(
    "MS155",
    "attribute-of-wrong-kind",
    Group.FAILS,
    title="A Tensor attribute read on a value that is not a Tensor",
    message="`.{attr}` is read on a {kind}, which has no such attribute; {advice}.",
    why=(
        "Graph mode resolves an attribute from the value's type when it compiles: a scalar, "
        "tuple, list, None or str has no `shape`/`dtype`/`ndim`/`data`, and a Tensor computed "
        "in the graph has no `name`, `grad` or `requires_grad`."
    ),
    remedy=(
        "Read the attribute from a Tensor (`ops.stack(values).shape`, `len(t)` for a tuple), or "
        "keep the name/grad bookkeeping outside compiled code."
    ),
    mindspore_says="AttributeError: 'Tuple' object has no attribute 'shape'",
)


ATTRIBUTE_UNDER_STRICT = Rule(
    "MS223",
    "tensor-attribute-under-strict",
    Group.STRICT,
    title="A Tensor member STRICT has no translation for (`x.device`, `x.stride()`)",
    message="`.{attr}` of a Tensor is not supported under jit_syntax_level=STRICT; {advice}.",
    why=(
        "Under STRICT only the members the graph knows for a Tensor can be read; the others "
        "(measured per member on 2.10: `device`, `stride`, `data_ptr`, `is_contiguous`, "
        "`storage_offset`, `__class__`, ...) reach LAX only through its Python fallback."
    ),
    remedy="Read the attribute outside compiled code, or use the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes device or the Tensor[Float32] "
        "object has no attribute: 'device'."
    ),
)


TENSOR_METHOD_UNREGISTERED = Rule(
    "MS136",
    "tensor-method-not-in-graph",
    Group.FAILS,
    title="A Tensor method graph mode has no registration for",
    message=(
        "`.{attr}()` of a Tensor runs in PyNative but graph mode has no registration for it; "
        "use the `ops` function instead (`ops.{attr}(x)`) or compute it outside."
    ),
    why=(
        "In GRAPH_MODE a Tensor method resolves through MindSpore's table of graph methods; a "
        "method left out of it (measured on 2.10: `diag`, ...) fails when it is called, at "
        "every syntax level, though PyNative runs the Python method."
    ),
    remedy="Call the functional form (`ops.diag(x)`), or do the computation outside the graph.",
    mindspore_says=(
        "As a deprecated Tensor method, 'diag' should be registered in "
        "graph/_parse/deprecated/deprecated_tensor_method.py"
    ),
)


# Attributes measured to fail on non-Tensor values (a Python scalar, tuple, None, ...).
TENSOR_ONLY = frozenset({"shape", "dtype", "ndim", "data"})
# Measured to fail on a Tensor computed in the graph (`requires_grad` fails on a Parameter too;
# a Parameter's `name`/`grad` are not measured, so only computed Tensors are reported).
NOT_ON_TENSOR = frozenset({"grad", "name", "requires_grad"})
# Measured to fail under STRICT on a Tensor ("In JIT strict mode, cannot get attributes
# __class__ or the Tensor[Float32] object has no attribute"); the public members that do are in
# the facts (`graph_members["tensor"]`, e.g. `device`, `stride`, `is_contiguous`).
STRICT_TENSOR_DUNDERS = frozenset({"__class__"})
# Tensor members with no graph translation, which LAX runs through its fallback on a Tensor but
# refuses on a Parameter, come from the facts' compiles of `self.w.<name>` (kind
# "parameter_tensor": `asnumpy`, `numpy`, `init_data`, `stride`, `is_contiguous`, ... 47 on 2.10:
# "the 'Parameter' object's method 'asnumpy' is not supported in 'construct'"). `tolist()` fails
# through the `asnumpy` it calls, so MindSpore names that one instead.
NOT_ON_PARAMETER = frozenset({"tolist"})
# Which members of a Parameter (`self.w.name`) and of a sub-Cell (`self.sub.cell_init_args`)
# `construct` may read comes from the facts table, compiled for every member of the installed
# MindSpore at LAX and STRICT (`graph_members`): "the 'Parameter' object's method 'name' is not
# supported in 'construct'"; `shape`, `dtype` and `data` compile.
# No Cell of `mindspore.nn` sets these (its 2.10 sources), and `nn.Cell` has neither: reading one
# on a sub-Cell fails ("object has no attribute 'ndim'"). `shape`/`dtype` are set by many.
NOT_ON_ANY_CELL = frozenset({"ndim", "data"})
CELL_BASE = "mindspore.nn.Cell"
NOT_A_TENSOR = frozenset({"scalar", "tuple", "list", "None", "str", "dict"})


def check_attribute(
    ctx: FunctionContext, values: Abstract, node: ast.Attribute
) -> Iterator[RawFinding]:
    if not isinstance(node.ctx, ast.Load):
        return
    attr = node.attr
    if not attr.startswith("__"):
        named = python_objects.namedtuple_instance(ctx, node.value)
        if named is not None:
            if attr not in named[1] and attr not in python_objects.TUPLE_METHODS:
                yield ATTRIBUTE_OF_WRONG_KIND.finding(
                    node,
                    attr=attr,
                    kind=f"`{named[0]}` namedtuple, which graph mode compiles as a plain tuple",
                    advice=(
                        f"read its fields ({', '.join(named[1])}) only, and build a changed "
                        f"copy with `{named[0]}(...)` or outside compiled code"
                    ),
                )
            return
    cls = instance(ctx, node.value)
    if cls is not None:
        if lacks(ctx.fn.module, cls, attr):
            yield ATTRIBUTE_OF_WRONG_KIND.finding(
                node, attr=attr, kind=f"`{cls.name}` object", advice=missing_advice(cls, attr)
            )
        return
    refused = (
        _refused("parameter", attr, ctx)
        or attr in NOT_ON_PARAMETER
        or _parameter_refuses(ctx, attr)
    )
    if refused and (
        _parameter(ctx, node.value) or (attr == "name" and _parameter_item(ctx, node.value))
    ):
        if not unused_value(ctx, node):
            advice = "read it from the Parameter outside compiled code (in `__init__`)"
            yield ATTRIBUTE_OF_WRONG_KIND.finding(node, attr=attr, kind="Parameter", advice=advice)
        return
    if _refused("cell", attr, ctx) and _sub_cell_member(ctx, node.value, attr):
        advice = "graph mode does not resolve `nn.Cell`'s own attribute; read it in `__init__`"
        yield ATTRIBUTE_OF_WRONG_KIND.finding(node, attr=attr, kind="Cell", advice=advice)
        return
    if attr in TENSOR_ONLY:
        value = values.of(node.value)
        unknown_or_cell = value is None or value.kind == "cell"
        if unknown_or_cell and _cell_lacks(ctx, node.value, attr):
            advice = "read it from a Tensor the Cell returns, or set it in the Cell's `__init__`"
            yield ATTRIBUTE_OF_WRONG_KIND.finding(node, attr=attr, kind="Cell", advice=advice)
            return
        if value is not None and value.kind in NOT_A_TENSOR:
            advice = (
                "use `len()` of the tuple"
                if value.kind in ("tuple", "list")
                else ("read it from a Tensor")
            )
            yield ATTRIBUTE_OF_WRONG_KIND.finding(
                node, attr=attr, kind=describe(value), advice=advice
            )
    elif attr in NOT_ON_TENSOR and _computed_tensor(ctx, values, node.value):
        advice = "read it from the Parameter outside compiled code (in `__init__`)"
        yield ATTRIBUTE_OF_WRONG_KIND.finding(node, attr=attr, kind="Tensor", advice=advice)
    elif _strict_refused(attr):
        value = values.of(node.value)
        numpy_call = (attr == "asnumpy" or attr in TO_NUMPY) and _called(ctx, node)  # MS201's
        if value is not None and value.kind == "tensor" and not numpy_call:
            if attr == "__class__":
                advice = "use `isinstance(x, Tensor)`"
            elif FACTS.member("tensor", attr) == "method":
                advice = "call it outside compiled code, or use the default LAX level"
            else:
                advice = "read it outside"
            yield ATTRIBUTE_UNDER_STRICT.finding(node, attr=attr, advice=advice)
    elif FACTS.graph_member("tensor_call", attr, ctx.level) == "unregistered":
        value = values.of(node.value)
        if value is not None and value.kind == "tensor" and _called(ctx, node):
            yield TENSOR_METHOD_UNREGISTERED.finding(node, attr=attr)


def _strict_refused(attr: str) -> bool:
    """Reading `attr` of a Tensor fails under STRICT (the finding's group makes it an error only
    there): measured per member in the facts' compiles."""
    return attr in STRICT_TENSOR_DUNDERS or FACTS.graph_member("tensor", attr, "STRICT") == (
        "refused"
    )


def _called(ctx: FunctionContext, node: ast.Attribute) -> bool:
    calls: list[ast.Call] = ctx.of(ast.Call)
    return any(call.func is node for call in calls)


def unused_value(ctx: FunctionContext, node: ast.Attribute) -> bool:
    """`n = <node>` where the function never reads `n`: the graph drops the unused value before
    inferring it, so the attribute is never looked up (measured: `n = self.p.name` compiles,
    `return x, self.p.name` fails)."""
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        if assign.value is node and len(assign.targets) == 1:
            target = assign.targets[0]
            if not isinstance(target, ast.Name):
                return False
            found: list[ast.Name] = ctx.of(ast.Name)
            declared: list[ast.Global | ast.Nonlocal] = ctx.of(ast.Global, ast.Nonlocal)
            if any(target.id in d.names for d in declared):
                return False
            return not any(n.id == target.id and isinstance(n.ctx, ast.Load) for n in found)
    return False


def _refused(kind: str, attr: str, ctx: FunctionContext) -> bool:
    """Reading member `attr` (not a method: calls are MS130's) of a Parameter / sub-Cell was
    refused by MindSpore at this level, in the facts' compiles."""
    return (
        FACTS.member(kind, attr) in ("property", "attribute")
        and FACTS.graph_member(kind, attr, ctx.level) == "refused"
    )


def _parameter_refuses(ctx: FunctionContext, attr: str) -> bool:
    """A Tensor member (or the Parameter's own method) that graph mode refuses on a Parameter at
    this level, in the facts' compiles; a method MindSpore marks forbidden is MS130's."""
    return FACTS.graph_member("parameter_tensor", attr, ctx.level) == "refused" and not (
        FACTS.forbidden_method("Parameter", attr) or FACTS.forbidden_method("Tensor", attr)
    )


def _sub_cell_member(ctx: FunctionContext, expr: ast.expr, attr: str) -> bool:
    """`expr` is a sub-Cell (`self.sub`, `self.blocks[i]`) whose `attr` is `nn.Cell`'s own: no
    class of the workspace in its lineage defines or sets it."""
    if isinstance(expr, ast.Name) and expr.id == "self":
        return False  # measured on sub-Cells
    if receivers.kind_of(ctx, expr) != receivers.CELL:
        return False
    info = receivers.workspace_class(ctx, expr)
    if info is None:
        return True
    return not any(
        attr in each.attrs or each.own_method(attr) is not None or attr in class_names(each.node)
        for each in info.lineage()
    )


def _computed_tensor(
    ctx: FunctionContext, values: Abstract, expr: ast.expr, depth: int = 0
) -> bool:
    """`expr` is a Tensor that cannot be a Parameter: an arithmetic result, or a local name
    every binding of which is one (a function's parameters may be handed Parameters)."""
    if isinstance(expr, (ast.BinOp, ast.UnaryOp)):
        value = values.of(expr)
        return value is not None and value.kind == "tensor"
    if not isinstance(expr, ast.Name) or depth > 4:
        return False
    fn = ctx.fn.node
    if fn.name == "construct" and expr.id in {a.arg for a in fn.args.args[1:]}:
        # What a Cell is called with is a Tensor, not a Parameter (`self.p` is read in place).
        value = values.of(expr)
        return value is not None and value.kind == "tensor" and not assigned_any(fn, expr.id)
    bound = assigned(fn, expr.id)
    return bool(bound) and all(
        isinstance(v, (ast.BinOp, ast.UnaryOp, ast.Name))
        and _computed_tensor(ctx, values, v, depth + 1)
        for v in bound
    )


def self_attr(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`X` when `expr` is `self.X`, or a local bound once to `self.X`."""
    return names.self_attribute(_aliased(ctx, expr))


def _aliased(ctx: FunctionContext, expr: ast.expr) -> ast.expr:
    """What a local bound once stands for (`w = self.fc.weight`); any other `expr` itself."""
    if isinstance(expr, ast.Name):
        bound = assigned(ctx.fn.node, expr.id)
        return bound[0] if len(bound) == 1 else expr
    return expr


def _parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`self.p` (or a local bound once to it) where `__init__` sets `self.p = Parameter(...)`,
    or a sub-Cell's Parameter (`self.fc.weight`: measured, `.asnumpy()` of it fails alike)."""
    cls = ctx.types.cls
    name = self_attr(ctx, expr) if cls is not None else None
    attr = cls.attr(name) if cls is not None and name is not None else None
    if attr is not None:
        return attr.kind == "tensor" and attr.class_qualname in names.PARAMETER
    held = _aliased(ctx, expr)
    return (
        isinstance(held, ast.Attribute)
        and isinstance(held.value, ast.Attribute)
        and receivers.kind_of(ctx, held) == receivers.PARAMETER
    )


def _parameter_item(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`p` bound only as the variable of `for p in self.weights` or `for p, g in
    zip(self.weights, grads)` (a loop or a comprehension), `self.weights` a `ParameterTuple`
    set in `__init__`, an optimizer's `parameters` or a `clone()` of one
    (`helpers/parameter_items.py`); also `self.weights[0]`. Measured on 2.10 (LAX and STRICT):
    `p.name` there fails like `self.w.name` ("the 'Parameter' object's method 'name' is not
    supported"), e.g. in `{w.name: g for w, g in zip(self.weights, grads)}` after
    `value_and_grad`."""
    return parameter_item(ctx, expr)


def _cell_lacks(ctx: FunctionContext, expr: ast.expr, attr: str) -> bool:
    """The Cell `expr` holds has no attribute `attr`: a Cell of the workspace whose classes
    (up to `nn.Cell`) never set it, or any Cell for `ndim`/`data`."""
    qualname = _cell_qualname(ctx, expr)
    if qualname is None:
        return False
    info = ctx.classes.resolve(qualname)
    if info is None:
        return attr in NOT_ON_ANY_CELL and names.is_cell_qualname(qualname)
    for each in info.lineage():
        if attr in each.attrs or each.own_method(attr) is not None:
            return False
        if attr in class_names(each.node):
            return False
        known = {id(b.node) for b in each.bases}
        for base in each.node.bases:
            resolved = ctx.classes.resolve(each.module.qualname(base))
            if (resolved is None or id(resolved.node) not in known) and (
                each.module.qualname(base) != CELL_BASE
            ):
                return attr in NOT_ON_ANY_CELL  # an nn base may set `shape`/`dtype`
    return True


def class_names(cls: ast.ClassDef) -> set[str]:
    """What a class body binds (class attributes, methods)."""
    found: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(stmt.name)
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                found.add(node.id)
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                found.add(node.attr)  # `self.X = ...` in any method, not only `__init__`
    return found


def _cell_qualname(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The class a sub-Cell was made from: `self.act` set in `__init__`, or a module name
    bound once to `nn.ReLU()` (through one local `v = ...` at most)."""
    cls = ctx.types.cls
    name = self_attr(ctx, expr)
    if name is not None:
        attr = cls.attr(name) if cls is not None else None
        return attr.class_qualname if attr is not None and attr.kind == "cell" else None
    if isinstance(expr, ast.Name):
        bound = assigned(ctx.fn.node, expr.id)
        if len(bound) == 1 and isinstance(bound[0], ast.Name):
            expr = bound[0]
        elif bound:
            return None
    if not isinstance(expr, ast.Name) or expr.id in local_names(ctx.fn.node):
        return None
    binding = global_binding(ctx.fn.module, expr.id)
    if binding is None or not isinstance(binding.value, ast.Call):
        return None
    note_read(ctx.lines, binding.lineno)
    return names.callee(ctx.fn.module, binding.value)
