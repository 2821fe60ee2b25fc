"""MS130, MS133, MS155 on Parameters a compiled function reaches through module-level
instances, as the tutorial's `@ms.jit def train_step(data, label)` does: `net.w.set_data(v)`,
`net.b.requires_grad = False`, `p.name` for `p` in `optimizer.parameters`.

Measured on 2.10 (LAX and STRICT; PyNative runs them): each fails like the same code on
`self.w` in a Cell's `construct` ("the 'Parameter' object's method 'set_data' is not
supported", "Do not support to set attribute for a parameter", "the 'Parameter' object's
method 'name' is not supported"). Not cacheable: it reads the module's top-level names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..facts import FACTS
from ..model import RawFinding
from .attributes import ATTRIBUTE_OF_WRONG_KIND, unused_value
from .forbidden import FORBIDDEN_API
from .helpers import globals as globals_
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.parameter_items import is_optimizer, item_of
from .helpers.receivers import LAYER_PARAMETERS
from .mutation import PARAMETER_ATTRIBUTE_WRITE

WRITTEN = frozenset({"requires_grad", "name"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    attributes: list[ast.Attribute] = ctx.of(ast.Attribute)
    if not any(a.attr in ("set_data", "requires_grad", "name") for a in attributes):
        return
    calls = {id(c.func) for c in ctx.of(ast.Call)}
    for node in attributes:
        attr = node.attr
        if attr == "set_data" and id(node) in calls:
            if FACTS.forbidden_method("Parameter", attr) and global_parameter(ctx, node.value):
                call = next(c for c in ctx.of(ast.Call) if c.func is node)
                yield FORBIDDEN_API.finding(call, name="Parameter.set_data()")
        elif attr in WRITTEN and isinstance(node.ctx, ast.Store):
            if global_parameter(ctx, node.value):
                yield PARAMETER_ATTRIBUTE_WRITE.finding(node, target=ast.unparse(node))
        elif (
            attr == "name"
            and isinstance(node.ctx, ast.Load)
            and global_parameter(ctx, node.value)
            and not unused_value(ctx, node)
        ):
            advice = "read it from the Parameter outside compiled code"
            yield ATTRIBUTE_OF_WRONG_KIND.finding(node, attr=attr, kind="Parameter", advice=advice)


def global_parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`expr` holds a Parameter through a module-level instance, as the tutorial's `@ms.jit def
    train_step` reads them: `net.w` of a global `net = Net()` whose `__init__` sets `self.w =
    Parameter(...)` (or `fc.weight` of a global `nn.Dense`), `optimizer.parameters[0]`, or a
    name bound only as the loop variable over `optimizer.parameters` (a global optimizer).
    Reads the module's top level: only for checks that are not cacheable."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return _global_cell_parameter(ctx, expr.value, expr.attr)
    seq = item_of(ctx, expr)
    return seq is not None and _global_parameters(ctx, seq)


def _global_parameters(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`optimizer.parameters` of a module-level optimizer."""
    return (
        isinstance(expr, ast.Attribute)
        and expr.attr == "parameters"
        and isinstance(expr.value, ast.Name)
        and is_optimizer(globals_.instance_class(ctx, expr.value))
    )


def _global_cell_parameter(ctx: FunctionContext, holder: ast.Name, attr: str) -> bool:
    qualname = globals_.instance_class(ctx, holder)
    if qualname is None:
        return False
    if qualname.startswith("mindspore."):
        return attr in LAYER_PARAMETERS.get(qualname.rsplit(".", 1)[-1], ())
    info = ctx.classes.resolve(qualname)
    if info is None or not info.is_cell or info.attr_varies(attr):
        return False
    held = info.attr(attr)
    return held is not None and held.kind == "tensor" and held.class_qualname in names.PARAMETER
