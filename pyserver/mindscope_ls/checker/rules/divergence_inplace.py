"""MS311: an in-place Tensor method that graph mode runs in place and PyNative does not.

Measured with MindSpore 2.10 on CPU, against PyNative: `y.add_(1)`, `y.mul_(2)`, `y.div_(2)`,
`y.floor_divide_(2)` and `y.remainder_(2)` return the new value in PyNative and leave `y` as it
was (so a bare `y.add_(1)` does nothing there), while GRAPH_MODE (LAX and STRICT) writes `y`
itself. Whatever reads `y` afterwards differs: a local returned later, the same local in the next
turn of a loop, a Tensor built from it (`t = (y,)`, `z = y`), the caller's Tensor when `y` is an
input (GRAPH_MODE changed it, PyNative did not), a Tensor attribute of the Cell on the next
call, and a gradient taken through the function (`ms.grad` of `(y * v).sum()` with
`y.add_(v)` gave 6v in GRAPH_MODE, 2v in PyNative). `sub_` and `copy_` behave alike in both
modes; `y = y.add_(1)` rebinds `y` to the result in both, so it is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .grad_transforms import _grad_operation
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import loads_after

IN_PLACE_NOT_IN_PYNATIVE = Rule(
    "MS311",
    "in-place-method-diverges",
    Group.DIVERGES,
    title="`add_`/`mul_`/`div_` updates the Tensor in graph mode only",
    message=(
        "`{name}.{method}(...)` updates `{name}` in place in graph mode, but PyNative "
        "(MindSpore 2.10 on CPU) returns a new Tensor and leaves `{name}` as it was, so {reader} "
        "differs; write `{name} = {name}.{plain}(...)`."
    ),
    why=(
        "Graph mode runs `y.add_(v)` (and `mul_`, `div_`, `floor_divide_`, `remainder_`) in "
        "place; PyNative on CPU returns the result and leaves `y` unchanged, so what reads `y` "
        "afterwards, the caller's input or a gradient through it, differs (GRAPH_MODE returned "
        "x + 1 where PyNative returned x for the example)."
    ),
    remedy=(
        "Rebind the result, `y = y.add(v)` (or `y = y + v`): the same in both modes. Use "
        "`ops.assign` on a Parameter for state that must change."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

# Measured to differ (see the module's docstring); `sub_` and `copy_` did not.
DIVERGING_METHODS = {
    "add_": "add",
    "mul_": "mul",
    "div_": "div",
    "floor_divide_": "floor_divide",
    "remainder_": "remainder",
}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    params = _parameters(ctx.fn.node)
    for call in ctx.of(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in DIVERGING_METHODS:
            continue
        receiver = func.value
        if isinstance(receiver, ast.Name):
            if (
                not ctx.types.is_tensor(receiver)
                or _rebinds_itself(ctx, call, receiver.id)
                or _alias_rule_reports(ctx, call, receiver.id)
            ):
                continue
            reader = _reader(ctx, call, receiver.id, params)
            name = receiver.id
        elif (
            isinstance(receiver, ast.Attribute)
            and isinstance(receiver.value, ast.Name)
            and receiver.value.id == "self"
            and (ctx.types.is_tensor(receiver) or _tensor_attribute(ctx, receiver.attr))
        ):
            reader = "the next call (the Cell keeps the updated Tensor)"
            name = ast.unparse(receiver)
        else:
            continue
        if reader is None:
            continue
        yield IN_PLACE_NOT_IN_PYNATIVE.finding(
            call, name=name, method=func.attr, plain=DIVERGING_METHODS[func.attr], reader=reader
        )


GRAD_FUNCTIONS = frozenset(
    {
        "mindspore.grad",
        "mindspore.value_and_grad",
        "mindspore.ops.grad",
        "mindspore.ops.value_and_grad",
        "mindspore.vjp",  # round 37: `ms.vjp(f, x)` then `fn(v)`, the same 2x gradient
        "mindspore.ops.vjp",
    }
)


def check_grad(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`ms.grad(loss)(x)` in compiled code, where the module's function `loss` runs a diverging
    in-place method on a Tensor it reads afterwards: the gradient differs too (measured: 6v in
    GRAPH_MODE, 2v in PyNative). Reads the other function's nodes: not cacheable."""
    module = ctx.fn.module
    local: Optional[set[str]] = None  # built only for a grad call: most functions have none
    for call in ctx.of(ast.Call):
        if (
            not call.args
            or not isinstance(call.args[0], ast.Name)
            or not _grad_transform(ctx, call.func)
        ):
            continue
        if local is None:
            local = {n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store)}
        name = call.args[0].id
        target: object = None
        # a `def` nested in this function, not rebound (round 37: the same 2x gradient)
        defs = [d for d in ctx.of(ast.FunctionDef) if d.name == name and d is not ctx.fn.node]
        if defs:
            target = defs[0] if len(defs) == 1 and name not in local else None
        elif name not in local:
            target = module.functions.get(name)
        if not isinstance(target, ast.FunctionDef):
            continue
        found = _diverging_in(target)
        if found is None:
            continue
        inner, name = found
        assert isinstance(inner.func, ast.Attribute)
        method = inner.func.attr
        yield IN_PLACE_NOT_IN_PYNATIVE.finding(
            call,
            related=[ctx.related(inner, f"`{name}.{method}(...)` in `{target.name}`")],
            name=name,
            method=method,
            plain=DIVERGING_METHODS[method],
            reader=f"the gradient taken through `{target.name}`",
        )


def _grad_transform(ctx: FunctionContext, func: ast.expr) -> bool:
    """`ms.grad` / `ms.value_and_grad` (and the `ops` forms), or an `ops.GradOperation(...)`
    written inline: `GradOperation()(f)`."""
    module = ctx.fn.module
    if module.qualname(func) in GRAD_FUNCTIONS:
        return True
    if isinstance(func, ast.Attribute) and _grad_operation(ctx, func) is not None:
        return True  # `self.grad_op(f)`, the operation made in `__init__`
    return (
        isinstance(func, ast.Call)
        and isinstance(func.func, (ast.Name, ast.Attribute))
        and (module.qualname(func.func) or "").startswith("mindspore.")
        and (module.qualname(func.func) or "").endswith(".GradOperation")
    )


def _diverging_in(fn: ast.FunctionDef) -> Optional[tuple[ast.Call, str]]:
    """The first diverging in-place call of `fn` on a Tensor made from its inputs, read after."""
    params = _parameters(fn)
    made = set(params)
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and any(
            isinstance(n, ast.Name) and n.id in params for n in ast.walk(node.value)
        ):
            made |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    calls = sorted(
        (n for n in ast.walk(fn) if isinstance(n, ast.Call)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    rebinding = {  # `y = y.mul_(2)`: both modes leave `y` holding the result
        id(node.value)
        for node in ast.walk(fn)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and isinstance(node.value.func.value, ast.Name)
        and any(isinstance(t, ast.Name) and t.id == node.value.func.value.id for t in node.targets)
    }
    for call in calls:
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in DIVERGING_METHODS
            and isinstance(func.value, ast.Name)
            and func.value.id in made
            and id(call) not in rebinding
            and loads_after(fn, func.value.id, call) is not None
        ):
            return call, func.value.id
    return None


def _tensor_attribute(ctx: FunctionContext, name: str) -> bool:
    """`self.<name>` set to a Tensor (not only a Parameter) in the Cell's `__init__`."""
    cls = ctx.fn.cls
    attr = cls.attr(name) if cls is not None else None
    return attr is not None and attr.kind in ("tensor", "const_tensor")


def _parameters(fn: ast.AST) -> set[str]:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return set()
    args = fn.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}


def _rebinds_itself(ctx: FunctionContext, call: ast.Call, name: str) -> bool:
    """`y = y.add_(1)`: both modes leave `y` holding the result."""
    for node in ctx.of(ast.Assign):
        if node.value is call and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return True
    return False


def _alias_rule_reports(ctx: FunctionContext, call: ast.Call, name: str) -> bool:
    """`y = x; y.add_(1)` with `x` read afterwards: MS303 (in-place-alias-update) says it."""
    for node in ctx.of(ast.Assign):
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == name
            and isinstance(node.value, ast.Name)
            and loads_after(ctx.fn.node, node.value.id, call) is not None
        ):
            return True
    return False


def _reader(ctx: FunctionContext, call: ast.Call, name: str, params: set[str]) -> Optional[str]:
    """What sees the difference: a later read of `name` (or of a name bound to it before), the
    caller's Tensor when `name` is an input, or None when nothing reads it."""
    fn = ctx.fn.node
    if loads_after(fn, name, call) is not None:
        return f"the later read of `{name}`"
    for holder in _holders(ctx, name, call):
        if loads_after(fn, holder, call) is not None:
            return f"`{holder}`, which holds `{name}`,"
    if name in params:
        return "the caller's Tensor"
    return None


def _holders(ctx: FunctionContext, name: str, call: ast.Call) -> list[str]:
    """Names bound before `call` to `name` itself or to a tuple/list holding it."""
    found = []
    for node in ctx.of(ast.Assign):
        if (node.lineno, node.col_offset) >= (call.lineno, call.col_offset):
            continue
        value = node.value
        items = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
        if any(isinstance(v, ast.Name) and v.id == name for v in items):
            found += [t.id for t in node.targets if isinstance(t, ast.Name) and t.id != name]
    return found
