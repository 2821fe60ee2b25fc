"""MS346: `&` / `|` of two Python bools is an int in graph mode, and the result is seen.

Measured with MindSpore 2.10 on CPU at LAX against PyNative: graph mode's scalar `BitAnd` /
`BitOr` turn bools into ints, so with `a = x.shape[0] > 1`, `b = x.shape[1] > 5`, a `construct`
returning `(a & b, a | b, a & True, True & False, True | False)` gave `(0, 1, 1, 0, 1)` in
GRAPH_MODE where PyNative gave `(False, True, True, False, True)`, and `f"{a & b}"` / `str(a & b)`
give '0' where Python gives 'False'; `isinstance(n, int) & (n > 1)`, `(not n > 5) | False`
and `bool(n) & hasattr(self, "training")` gave 1 for True. The truth of the result is the
same, so `if a & b:` and `x * (a & b)` compute alike: only a result that leaves the graph
(returned by the compiled entry, in a tuple, list or dict it returns) or is turned into text
(`str`, `repr`, an f-string) or tested by identity (`... is True`) differs. `a and b`,
`a + b` (an int in both modes) and `&` of bool Tensors agree. `^` of bools fails to compile
(MS153, MS1016).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding
from ..rule import Rule
from .bool_negation import _flag, _known_bool
from .calls_shared import builtin
from .divergence_scalars import _entry
from .helpers import names, receivers
from .helpers.base import FunctionContext
from .helpers.shared_values import abstract

BOOL_BITOP_INT = Rule(
    "MS346",
    "bool-bitop-int",
    Group.DIVERGES,
    title="`&` / `|` of two Python bools gives an int in graph mode",
    message=(
        "`{text}` combines two Python bools with `{op}`, which graph mode computes as an int "
        "(0 or 1, not False or True) and this code {use}; write `{instead}`, or `bool(...)` "
        "around it."
    ),
    why=(
        "Graph mode's scalar `&` and `|` turn Python bools into ints: `(n > 1) & (m > 5)` "
        "returned 0 in GRAPH_MODE where PyNative returned False, and its `str()` is '0' for "
        "'False'. Its truth is the same, so conditions and arithmetic agree."
    ),
    remedy="Use `and` / `or` between bools, or wrap the result in `bool(...)`.",
    mindspore_says="(compiles; result differs from PyNative)",
)

Op = Union[ast.BinOp, ast.AugAssign]
BIT_OPS = (ast.BitAnd, ast.BitOr)
TEXT_CALLS = frozenset({"str", "repr"})
BOOL_CALLS = frozenset({"isinstance", "hasattr", "callable", "bool", "issubclass"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    ops: list[Op] = [
        n
        for n in ctx.of(ast.BinOp, ast.AugAssign)
        if isinstance(n, (ast.BinOp, ast.AugAssign)) and isinstance(n.op, BIT_OPS)
    ]
    if not ops:
        return
    bool_ops: list[Op] = [op for op in ops if _bool_op(ctx, op)]
    if not bool_ops:
        return
    entry = _entry(ctx)
    ints = _int_names(ctx, bool_ops)
    reported: set[int] = set()
    for use, what in _uses(ctx, entry):
        op = _op_of(use, bool_ops, ints)
        if op is None or id(op) in reported:
            continue
        reported.add(id(op))
        word = "and" if isinstance(op.op, ast.BitAnd) else "or"
        yield BOOL_BITOP_INT.finding(
            op,
            text=ast.unparse(op).strip(),
            op="&" if word == "and" else "|",
            use=what,
            instead=_instead(op, word),
        )


def _bool_op(ctx: FunctionContext, op: Op) -> bool:
    """Both operands of `op` are Python bools (an augmented target: bound to bools only)."""
    if isinstance(op, ast.AugAssign):
        target = op.target
        if not isinstance(target, ast.Name):
            return False
        values = _bindings(ctx, target.id)
        return (
            bool(values)
            and all(boolish(ctx, v, 0) for v in values if v is not None)
            and boolish(ctx, op.value, 0)
        )
    return boolish(ctx, op.left, 0) and boolish(ctx, op.right, 0)


def boolish(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """A Python bool in PyNative: True / False, a comparison of Python numbers, a bool the
    values know, or `&` / `|` of such (graph mode's int, PyNative's bool)."""
    if depth > 4 or ctx.types.is_tensor(expr):
        return False
    if _flag(ctx, expr) is not None or _known_bool(ctx, expr):
        return True
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, BIT_OPS):
        return boolish(ctx, expr.left, depth + 1) and boolish(ctx, expr.right, depth + 1)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return not ctx.types.is_tensor(expr.operand)  # `not (n > 5)`: a Python bool
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in BOOL_CALLS
        and builtin(ctx, expr.func.id)
        and not any(ctx.types.is_tensor(a) for a in expr.args)
    ):
        return True  # `isinstance(n, int)`, `hasattr(self, "x")`, `bool(n)`
    if isinstance(expr, ast.Name):
        values = _bindings(ctx, expr.id)  # `ok = True` then `ok &= b`: each a bool
        return bool(values) and all(v is not None and boolish(ctx, v, depth + 1) for v in values)
    if names.self_attribute(expr) == "training":
        return True  # nn.Cell's mode flag
    if isinstance(expr, ast.Attribute):  # `self.flag` that `__init__` sets to a bool
        value = abstract(ctx, module=True).of(expr)
        return value is not None and value.kind == "scalar" and value.dtype == "bool"
    return False


def _bindings(ctx: FunctionContext, name: str) -> list[Optional[ast.expr]]:
    """The values `name = ...` binds, an augmented `name op= ...` as None (judged by the
    caller); empty when any other binding (a loop target, a parameter) exists."""
    values: list[Optional[ast.expr]] = []
    stores = 0
    for node in ctx.of(ast.Name):
        if node.id == name and isinstance(node.ctx, ast.Store):
            stores += 1
    for assign in ctx.of(ast.Assign):
        for target in assign.targets:
            if isinstance(target, ast.Name) and target.id == name:
                values.append(assign.value)
    augmented = [
        a for a in ctx.of(ast.AugAssign) if isinstance(a.target, ast.Name) and a.target.id == name
    ]
    if stores != len(values) + len(augmented):
        return []
    if any(not isinstance(a.op, BIT_OPS) for a in augmented):
        return []
    return values


def _int_names(ctx: FunctionContext, bool_ops: list[Op]) -> dict[str, Op]:
    """Locals a bool `&` / `|` binds (`ok = a & b`, `ok &= b`): the op that makes them ints."""
    found: dict[str, Op] = {}
    for op in bool_ops:
        if isinstance(op, ast.AugAssign) and isinstance(op.target, ast.Name):
            found.setdefault(op.target.id, op)
    for assign in ctx.of(ast.Assign):
        if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
            continue
        value = assign.value
        made = next((o for o in bool_ops if o is value), None)
        name = assign.targets[0].id
        if made is not None and receivers.only_binding(ctx, name) is value:
            found.setdefault(name, made)
    return found


def _uses(ctx: FunctionContext, entry: bool) -> Iterator[tuple[ast.expr, str]]:
    """The expressions whose value is seen as it is: returned by the entry, made text, or
    compared by identity."""
    if entry:
        for ret in ctx.of(ast.Return):
            for part in _parts(ret.value):
                yield part, "returns it"
    for call in ctx.of(ast.Call):
        if (
            isinstance(call.func, ast.Name)
            and call.func.id in TEXT_CALLS
            and len(call.args) == 1
            and not call.keywords
        ):
            yield call.args[0], f"makes it text with `{call.func.id}()`"
    for joined in ctx.of(ast.JoinedStr):
        for part in joined.values:
            if isinstance(part, ast.FormattedValue) and part.format_spec is None:
                yield part.value, "formats it in an f-string"
    for compare in ctx.of(ast.Compare):
        if len(compare.ops) == 1 and isinstance(compare.ops[0], (ast.Is, ast.IsNot)):
            yield compare.left, "compares it by identity"


def _parts(value: Optional[ast.expr]) -> Iterator[ast.expr]:
    """A returned value and the items of the tuples, lists and dict displays it writes out."""
    if value is None:
        return
    if isinstance(value, (ast.Tuple, ast.List)):
        for item in value.elts:
            yield from _parts(item)
    elif isinstance(value, ast.Dict):
        for item in value.values:
            yield from _parts(item)
    else:
        yield value


def _op_of(use: ast.expr, bool_ops: list[Op], ints: dict[str, Op]) -> Optional[Op]:
    if isinstance(use, ast.Name):
        return ints.get(use.id)
    return next((op for op in bool_ops if op is use), None)


def _instead(op: Op, word: str) -> str:
    if isinstance(op, ast.AugAssign):
        target = ast.unparse(op.target)
        return f"{target} = {target} {word} {ast.unparse(op.value)}"
    return f"{ast.unparse(op.left)} {word} {ast.unparse(op.right)}"
