"""MS189: a dict indexed by a key chosen under a Tensor condition.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`): `level = "hard" if loss.mean() >
0.3 else "easy"` joins two strings under a Tensor condition, so `level` is a string known only
when the graph runs; indexing a dict (or a CellDict) with it fails at every level ("dict_getitem
evaluator key only supports string, number, type, none, constant tensor and tuple, but got
ValueAny"), MindSpore naming the subscript. A tuple indexed by such an int compiles.
The same holds for a key that is a scalar known only when the graph runs: `int(t)`/`float(t)`
of a Tensor, `t.item()`, or a `mutable(1)` (measured: `d[int(x[0, 1])]`, `d[mutable(1)]` and
`d.get(mutable(2), 0)` fail at LAX and STRICT with the same message; `d[x.shape[0]]`,
`d[len(x)]` compile), and for `int(t.item())`, `float(t.item())` and `t.item() + 1` (round 32:
`k = int(x.item()); d[k]`, `d[x.item() + 1]`, `d.get(int(x.item()), x)` fail at every level; a
tuple indexed by `int(x.item())` compiles).
A parameter every call of the entry point passes `mutable(k)` for is such a key too (measured:
`d[n]` in `construct(self, x, n)` with `Net()(x, mutable(1))` fails at every level with the same
message; `Net()(x, 1)` compiles).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import names, receivers
from .helpers.abstract import MUTABLE
from .helpers.base import FunctionContext, cacheable
from .mutable_scalars import mutable_parameters

DICT_KEY_FROM_TENSOR_CONDITION = Rule(
    "MS189",
    "dict-key-from-tensor-condition",
    Group.FAILS,
    title="A dict indexed by a key known only when the graph runs",
    message=(
        "`{key}` {how}, so it is not a constant when compiling, and a {kind} can only be "
        "indexed by constant keys; {advice}."
    ),
    why=(
        "A dict's item is looked up when compiling. Both sides of a Tensor condition are "
        "compiled and the chosen string is only known when the graph runs; a scalar read from "
        "a Tensor (`int(t)`, `t.item()`) or made `mutable` is a run-time value as well."
    ),
    remedy=(
        "Read both items and choose between the results with `ops.where(cond, a, b)`, or keep "
        "the choice on a Python value (an attribute, a constant)."
    ),
    mindspore_says=(
        "RuntimeError: dict_getitem evaluator key only supports string, number, type, none, "
        "constant tensor and tuple, but got ValueAny"
    ),
)
CELL_DICT = "mindspore.nn.CellDict"


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    subscripts: list[ast.Subscript] = ctx.of(ast.Subscript)
    for node in subscripts:
        if not isinstance(node.ctx, ast.Load):
            continue
        kind = _dict_kind(ctx, node.value)
        if kind is None:
            continue
        if _chosen_by_tensor(ctx, node.slice):
            yield DICT_KEY_FROM_TENSOR_CONDITION.finding(
                node, key=ast.unparse(node.slice), kind=kind, how=CHOSEN, advice=SELECT
            )
        elif _run_time_scalar(ctx, node.slice):
            yield DICT_KEY_FROM_TENSOR_CONDITION.finding(
                node, key=ast.unparse(node.slice), kind=kind, how=RUN_TIME, advice=CONSTANT
            )
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "get" and call.args):
            continue
        kind = _dict_kind(ctx, func.value)
        if kind == "dict" and _run_time_scalar(ctx, call.args[0]):
            yield DICT_KEY_FROM_TENSOR_CONDITION.finding(
                call, key=ast.unparse(call.args[0]), kind=kind, how=RUN_TIME, advice=CONSTANT
            )


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`d[n]` / `d.get(n)` for a parameter every call of the entry point passes `mutable(k)`
    for (`Net()(x, mutable(1))`); it reads the callers, so it is not cacheable."""
    if not ctx.fn.module.mentions("mutable"):
        return
    keys: list[tuple[ast.expr, ast.expr, ast.expr]] = [
        (node, node.value, node.slice)
        for node in ctx.of(ast.Subscript)
        if isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Name)
    ]
    keys += [
        (call, call.func.value, call.args[0])
        for call in ctx.of(ast.Call)
        if isinstance(call.func, ast.Attribute)
        and call.func.attr == "get"
        and call.args
        and isinstance(call.args[0], ast.Name)
    ]
    if not keys:
        return
    params = mutable_parameters(ctx)
    guarded = _guarded(ctx)
    for node, seq, key in keys:
        assert isinstance(key, ast.Name)
        if key.id not in params or (key.id, id(node)) in guarded:
            continue
        kind = _dict_kind(ctx, seq)
        if kind is None or (kind != "dict" and isinstance(node, ast.Call)):
            continue
        yield DICT_KEY_FROM_TENSOR_CONDITION.finding(
            node, key=key.id, kind=kind, how=RUN_TIME, advice=CONSTANT
        )


def _guarded(ctx: FunctionContext) -> set[tuple[str, int]]:
    """(name, node id) of every node under `if name in <seq>:`: measured, graph mode folds
    that test of a variable key to False (MS355) and never compiles the branch, so
    `if n in d: return d[n]` compiles."""
    found: set[tuple[str, int]] = set()
    for node in ctx.of(ast.If):
        test = node.test
        if not (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.In)
            and isinstance(test.left, ast.Name)
        ):
            continue
        for stmt in node.body:
            found.update((test.left.id, id(inner)) for inner in ast.walk(stmt))
    return found


CHOSEN = "is chosen by a Tensor condition"
SELECT = (
    "compute both values and select with `ops.select`/`ops.where`, or decide the key from a "
    "Python value"
)
RUN_TIME = "is a scalar known only when the graph runs"
CONSTANT = "key the dict by a constant, or keep the values in a Tensor and index that"
TO_SCALAR = frozenset({"int", "float", "bool"})


def _run_time_scalar(ctx: FunctionContext, key: ast.expr, depth: int = 0) -> bool:
    """`int(t)`, `float(t)`, `t.item()` of a Tensor `t`, or `mutable(<number>)`, directly or
    through a local bound once."""
    if depth > 3:
        return False
    if isinstance(key, ast.Name):
        bound = receivers.only_binding(ctx, key.id)
        return bound is not None and _run_time_scalar(ctx, bound, depth + 1)
    if isinstance(key, ast.BinOp) and isinstance(key.op, SCALAR_OPS):
        # `t.item() + 1`: the sum of a run-time scalar and a number is one too (measured)
        sides = (key.left, key.right)
        return any(_number(s) for s in sides) and any(
            _run_time_scalar(ctx, s, depth + 1) for s in sides
        )
    if not isinstance(key, ast.Call):
        return False
    func = key.func
    if isinstance(func, ast.Name) and func.id in TO_SCALAR and len(key.args) == 1:
        arg = key.args[0]
        return builtin(ctx, func.id) and (
            ctx.types.is_tensor(arg) or _run_time_scalar(ctx, arg, depth + 1)
        )
    if isinstance(func, ast.Attribute) and func.attr == "item" and not key.args:
        return ctx.types.is_tensor(func.value)
    if names.callee(ctx.fn.module, func) in MUTABLE and len(key.args) == 1:
        arg = key.args[0]
        return isinstance(arg, ast.Constant) and type(arg.value) in (int, float)
    return False


SCALAR_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


def _number(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)


def _dict_kind(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    held = receivers.self_attr(ctx, expr)
    if held is not None:
        if held.kind == "cell" and held.class_qualname == CELL_DICT:
            return "CellDict"
        return "dict" if receivers.attr_kind(ctx, held) == receivers.DICT else None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return "dict" if isinstance(bound, ast.Dict) else None
    return None


def _constant_key(expr: Optional[ast.expr]) -> bool:
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str)


def _chosen_by_tensor(ctx: FunctionContext, key: ast.expr) -> bool:
    if isinstance(key, ast.IfExp):
        return (
            ctx.types.is_condition(key.test)
            and _constant_key(key.body)
            and _constant_key(key.orelse)
            and key.body.value != key.orelse.value  # type: ignore[attr-defined]
        )
    if not isinstance(key, ast.Name):
        return False
    bound = receivers.only_binding(ctx, key.id)
    if bound is not None:
        return _chosen_by_tensor(ctx, bound)
    return _branches_bind(ctx, key.id)


def _branches_bind(ctx: FunctionContext, name: str) -> bool:
    """`if <Tensor>: name = "a"` / `else: name = "b"`, name bound nowhere else."""
    stores: list[ast.Name] = ctx.of(ast.Name)
    count = sum(1 for n in stores if n.id == name and not isinstance(n.ctx, ast.Load))
    ifs: list[ast.If] = ctx.of(ast.If)
    for node in ifs:
        if not node.orelse or not ctx.types.is_condition(node.test):
            continue
        then, other = _constant_binding(node.body, name), _constant_binding(node.orelse, name)
        if then is not None and other is not None and then != other and count == 2:
            return True
    return False


def _constant_binding(block: list[ast.stmt], name: str) -> Optional[str]:
    for stmt in block:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == name
            and _constant_key(stmt.value)
        ):
            return stmt.value.value  # type: ignore[attr-defined,no-any-return]
    return None
