"""MS1130: gradients taken in compiled code for weights written as a list, given to an optimizer.

Measured with MindSpore 2.10 on CPU at LAX and STRICT (PyNative runs every program below): a
training step that builds its gradient function in compiled code with the weights as a list
display or a list comprehension, `ms.value_and_grad(self.forward, None, [self.net.w,
self.net.b])`, `ms.grad(f, None, [...])`, `ops.GradOperation(get_by_list=True)(f, [...])` or
`[p for p in self.weights]`, gets the gradients as a list in graph mode (PyNative: a tuple).
The optimizer's `HyperMap` then pairs that list with its tuples of Parameters and fails ("In a
nonleaf situation, the types of arguments in HyperMap must be consistent ... List[Tensor
[Float32]*2] ... Tuple[Ref[Tensor[Float32]]*2]"), naming the optimizer call; also after
`ops.clip_by_global_norm(grads, ...)`, which keeps the list. Compile: the same list given in
`__init__` (the transform runs in Python there), a tuple or a ParameterTuple as the weights,
`tuple(g * 0.5 for g in grads)` before the optimizer, and the list returned or indexed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import globals as globals_
from .helpers.base import FunctionContext
from .helpers.call_targets import Bindings
from .helpers.parameter_items import is_optimizer, optimizer_attr

GRAD_LIST_TO_OPTIMIZER = Rule(
    "MS1130",
    "grads-of-weight-list-to-optimizer",
    Group.FAILS,
    title="Gradients for weights written as a list, in compiled code, given to an optimizer",
    message=(
        "`{grads}` comes from `{transform}` given the weights as a list in compiled code: graph "
        "mode returns the gradients as a list (PyNative: a tuple), and `{optimizer}` cannot pair "
        "a list with its tuple of Parameters; pass the weights as a tuple or a ParameterTuple, "
        "or `tuple({grads})`."
    ),
    why=(
        "A gradient transform applied in compiled code returns the gradients in the container "
        "its weights came in. An optimizer maps its update over the gradients and its own "
        "tuples of Parameters with `HyperMap`, which needs the same kind of sequence in every "
        "argument."
    ),
    remedy=(
        "Give the weights as a tuple or a `ParameterTuple` (`self.opt.parameters`), build the "
        "gradient function in `__init__`, or convert: `self.opt(tuple(grads))`."
    ),
    mindspore_says=(
        "RuntimeError: In a nonleaf situation, the types of arguments in HyperMap must be "
        "consistent, but the types of arguments are inconsistent."
    ),
)

TRANSFORMS = frozenset({"grad", "value_and_grad"})
KEEPS_LIST = frozenset({"clip_by_global_norm"})


def _mindspore_last(ctx: FunctionContext, func: ast.expr) -> Optional[str]:
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return None
    qualname = ctx.fn.module.qualname(func) or ""
    return qualname.rsplit(".", 1)[-1] if qualname.startswith("mindspore.") else None


def _is_list(expr: Optional[ast.expr]) -> bool:
    return isinstance(expr, (ast.List, ast.ListComp))


def _list_transform(ctx: FunctionContext, made: ast.expr) -> Optional[tuple[str, bool]]:
    """(the transform's name, whether it returns (value, grads)) when `made` builds a gradient
    function over weights written as a list."""
    if not isinstance(made, ast.Call):
        return None
    last = _mindspore_last(ctx, made.func)
    if last in TRANSFORMS:
        weights = made.args[2] if len(made.args) > 2 else None
        for kw in made.keywords:
            if kw.arg == "weights":
                weights = kw.value
            if kw.arg == "has_aux" and not (
                isinstance(kw.value, ast.Constant) and kw.value.value is False
            ):
                return None
        if _is_list(weights):
            return f"ms.{last}", last == "value_and_grad"
        return None
    gradop = isinstance(made.func, ast.Call) and (
        _mindspore_last(ctx, made.func.func) == "GradOperation"
    )
    if gradop and len(made.args) > 1 and _is_list(made.args[1]):
        return "GradOperation", False
    return None


def _optimizer(ctx: FunctionContext, func: ast.expr) -> bool:
    cls = ctx.fn.cls
    if cls is not None and optimizer_attr(cls, func):
        return True
    return isinstance(func, ast.Name) and is_optimizer(globals_.instance_class(ctx, func))


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    if not any(
        isinstance(c.func, (ast.Name, ast.Attribute))
        and (c.func.id if isinstance(c.func, ast.Name) else c.func.attr)
        in ("grad", "value_and_grad", "GradOperation")
        for c in calls
    ):
        return
    single = Bindings.of(ctx.fn.node, ctx.fn.cls).single
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for stmt in assigns:
        value = stmt.value
        if not isinstance(value, ast.Call) or len(stmt.targets) != 1:
            continue
        made: ast.expr = value.func
        if isinstance(made, ast.Name):
            made = single.get(made.id, made)
        found = _list_transform(ctx, made)
        if found is None:
            continue
        transform, pair = found
        target = stmt.targets[0]
        if pair:
            if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
                continue
            target = target.elts[1]
        if isinstance(target, ast.Name):
            yield from _given_to_optimizer(ctx, target.id, stmt, transform)


def _given_to_optimizer(
    ctx: FunctionContext, grads: str, made: ast.Assign, transform: str
) -> Iterator[RawFinding]:
    """The optimizer calls given `grads` while it still holds the list: bound once by `made`,
    or again only by `grads = ops.clip_by_global_norm(grads, ...)`."""
    stores = [n for n in ctx.of(ast.Name) if n.id == grads and not isinstance(n.ctx, ast.Load)]
    binders: list[ast.Assign | ast.AugAssign | ast.AnnAssign | ast.For] = ctx.of(
        ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For
    )
    for stmt in binders:
        if stmt is made:
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if not any(n in stores for t in targets for n in ast.walk(t)):
            continue
        keeps = (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Call)
            and _mindspore_last(ctx, stmt.value.func) in KEEPS_LIST
            and stmt.value.args
            and isinstance(stmt.value.args[0], ast.Name)
            and stmt.value.args[0].id == grads
        )
        if not keeps:
            return
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        if (
            len(call.args) == 1
            and isinstance(call.args[0], ast.Name)
            and call.args[0].id == grads
            and _optimizer(ctx, call.func)
        ):
            yield GRAD_LIST_TO_OPTIMIZER.finding(
                call, grads=grads, transform=transform, optimizer=ast.unparse(call.func)
            )
