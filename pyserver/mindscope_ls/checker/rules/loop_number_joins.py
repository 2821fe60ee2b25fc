"""MS1095: a Python number a loop carries, given another type under a Tensor `if` in the loop.

Measured with MindSpore 2.10 on CPU at LAX and STRICT (round 35, Cells' `construct`):
`s = 0` before `for i in range(3):` whose body has `if x.sum() > 10: s = 0.5`, then
`return x * s` fails at both levels ("Type Join Failed: dtype1 = Float32, dtype2 = Int64";
MindSpore names the `if` at LAX, the loop and the first Python operator on `s` at STRICT)
where PyNative runs it. Outside a loop the same join used
with a Tensor (`x * s`) compiles (round 32, `helpers/number_joins.py`): in a loop the value is
carried into the next pass, and that join fails. So did `s += 0.5` read after the loop,
`s = s * 0.5`, `x = x + s` earlier in the body, a float start made an int (`s = 0.5` then
`s = 1`), a bool made an int (`s = False` then `s = 1`), a `for` over a Tensor's rows and a
`while` on a Tensor counter. They compile: `s` never read again, both branches binding a
float (`if ...: s = 0.5 else: s = 1.5`), an int made another int, a float start
(`s = 0.0`), and a Python condition (`if i > 1:`). `return s`, `return s + 1`, `return x, s`
(and `return [s]` at STRICT) are MS112's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import number_joins
from .helpers.base import FunctionContext, cacheable, keyword_range, within
from .joins import runtime_test

LOOP_NUMBER_CHANGES_TYPE = Rule(
    "MS1095",
    "loop-number-changes-type-under-tensor-if",
    Group.FAILS,
    title="A loop's Python number gets another type under a Tensor condition",
    message=(
        "`{name}` is the Python {kind} `{start}` when the loop starts, and this Tensor `if` "
        "makes it a {other}; the loop carries it into the next pass, where the two cannot be "
        "joined; start it as a {other} (`{name} = {hint}`)."
    ),
    why=(
        "Both paths of a Tensor condition are compiled and a number bound on one of them is "
        "joined with its value from before the `if`; in a loop that value is carried on, and "
        "an int (or bool) cannot be joined with a float there, even where the same `if` "
        "outside a loop compiles."
    ),
    remedy=(
        "Give the number its final type before the loop (`s = 0.0`), bind it on both paths, "
        "or make it a Tensor (`s = ops.zeros((), ms.float32)`)."
    ),
    mindspore_says=(
        "TypeError: Cannot join the return values of different branches, perhaps you need to make"
        " them equal. Type Join Failed: dtype1 = Float32, dtype2 = Int64."
    ),
)

_CASTS = {"float": float, "int": int, "bool": bool}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.For | ast.While] = ctx.of(ast.For, ast.While)
    if not loops:
        return
    ifs: list[ast.If] = ctx.of(ast.If)
    if not ifs:
        return
    reported: set[str] = set()
    for loop in loops:
        for node in within(loop, ifs):
            if not runtime_test(ctx, node.test):
                continue
            for name, stmt, other in _retyped(ctx, loop, node):
                if name in reported:
                    continue
                start = _start(ctx, name, loop)
                if start is None or _kind(start.value) == other:
                    continue
                forms = number_joins.return_forms(ctx.fn.node, name, loop)
                if number_joins.statement_join_fails(forms, ctx.level == SyntaxLevel.STRICT):
                    continue  # `return s`, `return x, s`, ...: MS112 reports the join
                if not _read_elsewhere(ctx, name, loop, stmt) or _rebound_in(ctx, name, loop, node):
                    continue
                reported.add(name)
                kind = _kind(start.value) or "number"
                # MindSpore names the Tensor `if` at LAX; at STRICT the loop (and the first
                # Python operator applied to the number)
                strict = ctx.level == SyntaxLevel.STRICT
                at = keyword_range(loop, _keyword(loop)) if strict else keyword_range(node, "if")
                yield LOOP_NUMBER_CHANGES_TYPE.finding(
                    at,
                    related=[ctx.related(stmt, f"`{name}` gets another type here")],
                    name=name,
                    kind=kind,
                    start=ast.unparse(start.value),
                    other=other,
                    hint=_hint(start.value, other),
                )


def _retyped(
    ctx: FunctionContext, loop: ast.For | ast.While, node: ast.If
) -> Iterator[tuple[str, ast.stmt, str]]:
    """`(name, statement, new kind)` for `s = 0.5` / `s += 0.5` / `s = s * 0.5` directly in
    one branch of `node` (not both), `s` a number the loop starts with."""
    both = _bound(node.body) & _bound(node.orelse)
    for stmt in _branch_statements(node):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AugAssign):
            target, value = stmt.target, ast.BinOp(stmt.target, stmt.op, stmt.value)
        else:
            continue
        if not isinstance(target, ast.Name) or target.id in both:
            continue
        start = _start(ctx, target.id, loop)
        if start is None:
            continue
        kind = _value_kind(value, target.id, _kind(start.value))
        if kind is not None:
            yield target.id, stmt, kind


def _branch_statements(node: ast.If) -> Iterator[ast.stmt]:
    """The statements of `node`'s branches and of `if`s nested in them, leaving out blocks
    that `break`, `return` or `raise` (the value is then not carried into another pass:
    measured to compile)."""
    for block in (node.body, node.orelse):
        if any(isinstance(s, (ast.Break, ast.Return, ast.Raise)) for s in block):
            continue
        for stmt in block:
            yield stmt
            if isinstance(stmt, ast.If):
                yield from _branch_statements(stmt)


def _bound(block: list[ast.stmt]) -> set[str]:
    found: set[str] = set()
    for stmt in block:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else []
        if isinstance(stmt, ast.AugAssign):
            targets = [stmt.target]
        found |= {t.id for t in targets if isinstance(t, ast.Name)}
    return found


def _start(ctx: FunctionContext, name: str, loop: ast.For | ast.While) -> Optional[ast.Assign]:
    """The only binding of `name` before the loop, `name = <number literal>`; None if the
    function binds it otherwise before the loop (a parameter, a loop target, ...)."""
    begin = (loop.lineno, loop.col_offset)
    stores: list[ast.Name] = ctx.of(ast.Name)
    before = [
        n
        for n in stores
        if n.id == name and isinstance(n.ctx, ast.Store) and (n.lineno, n.col_offset) < begin
    ]
    if len(before) != 1:
        return None
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        if len(assign.targets) == 1 and assign.targets[0] is before[0]:
            return assign if _kind(assign.value) is not None else None
    return None


def _keyword(loop: ast.For | ast.While) -> str:
    return "for" if isinstance(loop, ast.For) else "while"


def _hint(value: ast.expr, other: str) -> str:
    """The start value written as a number of kind `other` (`1` as `1.0`)."""
    literal = ast.literal_eval(value)
    return repr(_CASTS[other](literal))


def _kind(expr: ast.expr) -> Optional[str]:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    if isinstance(expr, ast.Constant):
        value = expr.value
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, int):
            return "int"
        if isinstance(value, float):
            return "float"
    return None


def _value_kind(value: ast.expr, name: str, start: Optional[str]) -> Optional[str]:
    """The kind of a number literal, or of arithmetic on `name` (of kind `start`) and one."""
    literal = _kind(value)
    if literal is not None:
        return literal
    if not isinstance(value, ast.BinOp) or start is None:
        return None
    sides: list[Optional[str]] = []
    for side in (value.left, value.right):
        if isinstance(side, ast.Name) and side.id == name:
            sides.append(start)
        else:
            sides.append(_kind(side))
    if None in sides or not any(isinstance(s, ast.Name) for s in (value.left, value.right)):
        return None
    if isinstance(value.op, ast.Div) or "float" in sides:
        return "float"
    if isinstance(value.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)):
        return "int"
    return None


def _rebound_in(ctx: FunctionContext, name: str, loop: ast.For | ast.While, node: ast.If) -> bool:
    """`name` is also bound in the loop outside `node` (`s = 0` at the top of each pass): the
    join is then one pass's, as outside a loop (not measured to fail)."""
    stores: list[ast.Name] = ctx.of(ast.Name)
    inside = {id(n) for n in within(node, stores)}
    return any(
        n.id == name and isinstance(n.ctx, ast.Store) and id(n) not in inside
        for n in within(loop, stores)
    )


def _read_elsewhere(
    ctx: FunctionContext, name: str, loop: ast.For | ast.While, stmt: ast.stmt
) -> bool:
    """`name` is read after the loop starts, outside the statement that retypes it."""
    begin = (loop.lineno, loop.col_offset)
    own = {id(n) for n in ast.walk(stmt)}
    loads: list[ast.Name] = ctx.of(ast.Name)
    return any(
        n.id == name
        and isinstance(n.ctx, ast.Load)
        and (n.lineno, n.col_offset) > begin
        and id(n) not in own
        for n in loads
    )
