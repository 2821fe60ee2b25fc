"""What kind of object an expression of a compiled method holds, as far as its class shows:
the Cell itself, a Parameter, a sub-Cell, a jit_class instance, a dict or list attribute.

Only `self` and `self.<attr>` (and items of a CellList attribute) are known: an attribute's
kind comes from what `__init__` assigns it (`classes.py`). Anything else is unknown (None), and
the rules built on these kinds then say nothing.
"""

from __future__ import annotations

import ast
from typing import Optional

from . import names
from .base import FunctionContext
from .classes import Attr, ClassInfo
from .module_values import parameters
from .parameter_items import parameter_item

PARAMETER = "Parameter"
CELL = "Cell"
JIT_CLASS = "jit_class"
DICT = "dict"
LIST = "list"
# Cells whose items are Cells: `self.layers[0]` is a Cell.
CELL_CONTAINERS = frozenset(
    {"mindspore.nn.CellList", "mindspore.nn.SequentialCell", "mindspore.nn.CellDict"}
)
_NORM = ("gamma", "beta")
_CONV = ("weight", "bias")
# The Parameters MindSpore's own layers hold (`self.fc.weight` of an `nn.Dense`).
LAYER_PARAMETERS = {
    "Dense": _CONV,
    "Conv1d": _CONV,
    "Conv2d": _CONV,
    "Conv3d": _CONV,
    "Conv1dTranspose": _CONV,
    "Conv2dTranspose": _CONV,
    "Conv3dTranspose": _CONV,
    "Embedding": ("embedding_table",),
    "LayerNorm": _NORM,
    "GroupNorm": _NORM,
    "BatchNorm1d": (*_NORM, "moving_mean", "moving_variance"),
    "BatchNorm2d": (*_NORM, "moving_mean", "moving_variance"),
    "BatchNorm3d": (*_NORM, "moving_mean", "moving_variance"),
}


def tensor_or_parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`expr` holds a Tensor, or a Parameter of the Cell or of a sub-Cell (`self.fc.weight`)."""
    return ctx.types.is_tensor(expr) or kind_of(ctx, expr) == PARAMETER


def self_attr_name(expr: ast.expr) -> Optional[str]:
    """`name` when `expr` is `self.name`."""
    return names.self_attribute(expr)


def self_attr(ctx: FunctionContext, expr: ast.expr) -> Optional[Attr]:
    """What `self.<name>` holds, when `expr` is that and the class assigns it."""
    name = self_attr_name(expr)
    if name is None or ctx.fn.cls is None:
        return None
    return ctx.fn.cls.attr(name)


def kind_of(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The kind of `self`, `self.<attr>` or `self.<cell list>[i]`, or None when unknown."""
    cls = ctx.fn.cls
    if cls is None:
        return None
    if isinstance(expr, ast.Name) and expr.id == "self" and _is_method(ctx):
        return CELL if cls.is_cell else None
    if isinstance(expr, ast.Subscript):
        held = self_attr(ctx, expr.value)
        if held is not None and held.kind == "cell" and held.class_qualname in CELL_CONTAINERS:
            return CELL
        return PARAMETER if parameter_item(ctx, expr) else None
    if isinstance(expr, ast.Name) and expr.id != "self":
        return PARAMETER if parameter_item(ctx, expr) else None
    held = self_attr(ctx, expr)
    if held is None and isinstance(expr, ast.Attribute) and _sub_cell_parameter(ctx, expr):
        return PARAMETER
    return attr_kind(ctx, held) if held is not None else None


def _sub_cell_parameter(ctx: FunctionContext, expr: ast.Attribute) -> bool:
    """`self.<sub-Cell>.<name>` where the sub-Cell holds a Parameter `name`: one of
    MindSpore's layers (`self.fc.weight`) or a workspace Cell whose `__init__` sets one."""
    held = self_attr(ctx, expr.value)
    if held is None or held.kind != "cell" or held.class_qualname is None:
        return False
    qualname = held.class_qualname
    if qualname.startswith("mindspore."):
        layer = qualname.rsplit(".", 1)[-1]
        return expr.attr in LAYER_PARAMETERS.get(layer, ())
    info = ctx.classes.resolve(qualname)
    if info is None or not info.is_cell:
        return False
    inner = info.attr(expr.attr)
    return inner is not None and inner.kind == "tensor" and inner.class_qualname in names.PARAMETER


def attr_kind(ctx: FunctionContext, held: Attr) -> Optional[str]:
    if held.kind == "tensor" and held.class_qualname in names.PARAMETER:
        return PARAMETER
    if held.kind == "cell" and not names.is_primitive_class(held.class_qualname):
        return CELL
    if held.kind == "list" and isinstance(held.node, (ast.List, ast.ListComp)):
        return LIST
    if held.kind == "object" and isinstance(held.node, (ast.Dict, ast.DictComp)):
        return DICT
    if held.kind == "object" and held.class_qualname is not None:
        info = ctx.classes.resolve(held.class_qualname)
        if info is not None and info.is_jit_class and not info.is_cell:
            return JIT_CLASS
    return None


def workspace_class(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The workspace class of `self` or of a `self.<attr>` assigned `Cls(...)`, if any."""
    if isinstance(expr, ast.Name) and expr.id == "self":
        return ctx.fn.cls
    held = self_attr(ctx, expr)
    if held is None or held.class_qualname is None:
        return None
    return ctx.classes.resolve(held.class_qualname)


def only_binding(ctx: FunctionContext, name: str) -> Optional[ast.expr]:
    """The value of `name = value` when that is the function's only binding of `name` (not a
    parameter, loop target or augmented assignment)."""
    value = assigned_once(ctx, name)
    if value is None:
        return None
    stores: list[ast.Name] = ctx.of(ast.Name)
    bindings = sum(1 for n in stores if n.id == name and isinstance(n.ctx, ast.Store))
    return value if bindings == 1 else None


def assigned_once(ctx: FunctionContext, name: str) -> Optional[ast.expr]:
    """The value of the function's one `name = value` statement, `name` not a parameter (other
    bindings of `name` are the caller's to rule out)."""
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    bound = [
        a.value
        for a in assigns
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name
    ]
    if len(bound) != 1 or name in parameters(ctx.fn.node):
        return None
    return bound[0]


def _is_method(ctx: FunctionContext) -> bool:
    args = ctx.fn.node.args.posonlyargs + ctx.fn.node.args.args
    return bool(args) and args[0].arg == "self"


def runtime_scalar(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """A Python number read from a Tensor computed in the graph (`t.item()`, `int(t)`), directly,
    through a local bound once to one, in arithmetic on one without a Tensor (`-n`, `n - 3`) or
    converted (`float(n)`):
    graph mode keeps it a variable scalar, not a constant."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        return bound is not None and runtime_scalar(ctx, bound, depth + 1)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return runtime_scalar(ctx, expr.operand, depth + 1)
    if isinstance(expr, ast.BinOp):
        sides = (expr.left, expr.right)
        if any(ctx.types.is_tensor(side) for side in sides):
            return False
        return any(runtime_scalar(ctx, side, depth + 1) for side in sides)
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("int", "float")
        and len(expr.args) == 1
        and not expr.keywords
        and not ctx.types.is_tensor(expr.args[0])
        and runtime_scalar(ctx, expr.args[0], depth + 1)
    ):
        return True  # `float(n)` of such a number is one too
    return isinstance(expr, ast.Call) and ctx.types.is_runtime_test(expr)


def computed_tensor_method(
    ctx: FunctionContext, expr: ast.expr, method: str
) -> Optional[tuple[ast.Call, ast.expr]]:
    """(the call, the Tensor) when `expr` is `t.<method>()` with no arguments, directly or
    through a local bound only to it, and `t` a Tensor computed in the graph (a Tensor of
    literals is folded when compiled)."""
    if isinstance(expr, ast.Name):
        expr = only_binding(ctx, expr.id) or expr
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == method
        and not expr.args
        and not expr.keywords
    ):
        return None
    tensor = expr.func.value
    if not ctx.types.is_tensor(tensor) or ctx.types.is_constant_tensor(tensor):
        return None
    return expr, tensor


def membership_tests(ctx: FunctionContext) -> list[ast.Compare]:
    """The function's `a in b` / `a not in b` comparisons (one operator each)."""
    compares: list[ast.Compare] = ctx.of(ast.Compare)
    return [c for c in compares if len(c.ops) == 1 and isinstance(c.ops[0], (ast.In, ast.NotIn))]
