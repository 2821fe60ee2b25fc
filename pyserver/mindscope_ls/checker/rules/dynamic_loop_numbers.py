"""MS1069: a Python number carried through a `for` over a Tensor of run-time length, made a
Tensor in the loop.

Measured with MindSpore 2.10 on CPU (GRAPH_MODE, LAX and STRICT, against PyNative), with
`u, _ = ops.unique(x)`, `u = ops.masked_select(x, x > 0)`, `u = x[x > 0]` or
`u = ops.nonzero(x > 0)`: `s = 0` then `for v in u: s = s + v` fails to compile ("Cannot join
the return values of different branches ... AbstractTensor cannot join with AbstractScalar"),
and so do `for i in range(len(u))` / `range(u.shape[0])` with `s = s + u[i]`, a float start
(`s = 0.0`), `best = ops.maximum(best, v)` with `best = -1.0`, and a single unique value:
the length is known only when it runs, so the loop stays a loop in the graph, and its carried
value must keep one type. PyNative runs them. Compiling (left alone): a Tensor start
(`s = u[0] * 0` with `range(u.shape[0])`), a loop over a Tensor of static shape (`for v in x`,
unrolled), a number that stays a number. A Tensor start with `for v in u` fails another way
that depends on the data, so it is not reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext, cacheable, keyword_range
from .helpers.dynamic_shapes import runtime_length
from .helpers.flow import loads_after

NUMBER_CARRIED_THROUGH_DYNAMIC_LOOP = Rule(
    "MS1069",
    "number-carried-through-dynamic-loop",
    Group.FAILS,
    title="A Python number made a Tensor in a `for` over a Tensor of run-time length",
    message=(
        "`{name}` enters this loop over `{source}` as the number `{start}` and leaves each pass "
        "as a Tensor: the length is known only when it runs, so the graph keeps the loop and "
        "cannot join a number with a Tensor (PyNative runs it); start it as a Tensor "
        "(`{name} = ops.zeros((), ms.float32)`) or compute on the whole Tensor (`u.sum()`)."
    ),
    why=(
        "`unique`, `masked_select`, `nonzero` and a boolean-mask index give Tensors of dynamic "
        "shape; a `for` over one (or over `range(len(u))`) is not unrolled, and a value it "
        'carries must keep one type (measured: "Type Join Failed: Abstract type '
        'AbstractTensor cannot join with AbstractScalar").'
    ),
    remedy=(
        "Start the accumulator as a Tensor, or replace the loop with a Tensor op (`u.sum()`, "
        "`u.max()`)."
    ),
    mindspore_says=(
        "TypeError: Cannot join the return values of different branches, perhaps you need to "
        "make them equal. Type Join Failed: Abstract type AbstractTensor cannot join with "
        "AbstractScalar."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.For] = ctx.of(ast.For)
    for loop in loops:
        source = _runtime_length(ctx, loop.iter)
        if source is None:
            continue
        for name, start in _numbers_before(ctx, loop).items():
            update = _tensor_update(ctx, loop, name)
            if update is None:
                continue
            # MindSpore names the loop (and the read after it), as for a `while`.
            finding = NUMBER_CARRIED_THROUGH_DYNAMIC_LOOP.finding(
                loop, name=name, source=source, start=ast.unparse(start)
            )
            finding.related.append(ctx.related(update, f"`{name}` becomes a Tensor here"))
            yield replace(finding, range=keyword_range(loop, "for"))


def _runtime_length(ctx: FunctionContext, it: ast.expr) -> Optional[str]:
    """The text of the run-time-length Tensor the loop runs over: `u` itself, or the `u` of
    `range(len(u))` / `range(u.shape[0])`."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
        if len(it.args) != 1 or it.keywords:
            return None
        size = it.args[0]
        if isinstance(size, ast.Call) and isinstance(size.func, ast.Name) and size.func.id == "len":
            it = size.args[0] if len(size.args) == 1 else size
        elif (
            isinstance(size, ast.Subscript)
            and isinstance(size.value, ast.Attribute)
            and size.value.attr == "shape"
            and isinstance(size.slice, ast.Constant)
            and size.slice.value == 0
        ):
            it = size.value.value
        else:
            return None
    if not isinstance(it, ast.Name):
        return None
    return it.id if runtime_length(ctx, it) is not None else None


def _numbers_before(ctx: FunctionContext, loop: ast.For) -> dict[str, ast.expr]:
    """Names bound to a number literal (`s = 0`, `best = -1.0`) by a statement of the loop's
    own block before it, not rebound between."""
    found: dict[str, ast.expr] = {}
    for stmt in _block_of(ctx.fn.node, loop):
        if stmt is loop:
            return found
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                if names.is_number_literal(stmt.value):
                    found[target.id] = stmt.value
                else:
                    found.pop(target.id, None)
                continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found.pop(node.id, None)
    return {}


def _block_of(fn: ast.AST, stmt: ast.stmt) -> list[ast.stmt]:
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(s is stmt for s in block):
                return block
    return []


def _tensor_update(ctx: FunctionContext, loop: ast.For, name: str) -> Optional[ast.stmt]:
    """The first statement of the loop's body (at any depth) that binds `name` to a Tensor, when
    `name` is read after the loop or by the next pass (the value is carried)."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            tensor = ctx.types.is_tensor(value)
        elif isinstance(node, ast.AugAssign):
            target, value = node.target, node.value
            tensor = ctx.types.is_tensor(value)
        else:
            continue
        if not (isinstance(target, ast.Name) and target.id == name) or not tensor:
            continue
        carried = isinstance(node, ast.AugAssign) or _reads(value, name)
        if carried or loads_after(ctx.fn.node, name, loop):
            return node
    return None


def _reads(expr: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))
