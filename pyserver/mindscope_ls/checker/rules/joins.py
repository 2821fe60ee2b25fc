"""MS112-MS114, MS119, MS146, MS205, MS218: control flow on Tensor conditions, where both paths are
compiled."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from typing import NamedTuple, Optional

from ..model import Group, RawFinding, Related, SyntaxLevel
from ..rule import Rule, node_range
from .calls_shared import assigned_any
from .helpers import any_uses, names, number_joins, receivers, shared_values
from .helpers.abstract import Abstract, Value, binop_dtype
from .helpers.base import FunctionContext, cacheable, keyword_range
from .helpers.flow import (
    SCOPES,
    Block,
    assigned_names,
    blocks_of,
    bound_before,
    definitely_assigned,
    exits,
    loads_after,
)
from .helpers.helper_arguments import helper_calls
from .helpers.kinds import SCALARS, Clash, clash, join_clash
from .helpers.walk import of_type

BRANCHES_JOIN_DIFFERENT_TYPES = Rule(
    "MS112",
    "branches-join-different-types",
    Group.FAILS,
    title="Branches of a Tensor condition return different types",
    message=(
        "{what} a {kind} here but a {other} on the other path, and the condition is a Tensor so "
        "both are compiled and cannot be joined; give both paths the same type."
    ),
    why=(
        "A condition on a Tensor is not known at compile time, so both branches are compiled and "
        "their results joined; a Tensor cannot be joined with a number or a tuple."
    ),
    remedy=(
        "Return the same type from both branches, e.g. wrap the number with "
        "`ops.zeros_like(x)`/`Tensor(...)`, or make the condition a Python constant."
    ),
    mindspore_says=(
        "TypeError: Cannot join the return values of different branches, perhaps you need to make"
        " them equal. Type Join Failed: Abstract type AbstractTensor cannot join with "
        "AbstractScalar."
    ),
)

BOUND_IN_ONE_BRANCH = Rule(
    "MS113",
    "bound-in-one-branch",
    Group.FAILS,
    title="Variable bound in only one branch of a Tensor condition",
    message=(
        "`{name}` is {bound} of a Tensor condition but used after it; bind it before the `if` "
        "{instead}."
    ),
    why=(
        "Both branches of a Tensor condition are compiled; a name used after the `if` must be "
        "bound on both paths."
    ),
    remedy="Bind the variable before the `if` or in both branches.",
    mindspore_says=(
        "UnboundLocalError: The local variable 'y' is not defined in false branch, but defined in"
        " true branch."
    ),
)

BOUND_IN_TENSOR_WHILE = Rule(
    "MS114",
    "bound-in-tensor-while",
    Group.FAILS,
    title="Variable bound in a Tensor-condition `while` used after the loop",
    message=(
        "`{name}` is first bound inside a `while` on a Tensor condition and used after the loop; "
        "bind it before the `while`."
    ),
    why=(
        "A `while` on a Tensor condition may run zero times, so names first bound in its body do "
        "not exist after it."
    ),
    remedy="Bind the variable before the `while`.",
    mindspore_says=(
        "UnboundLocalError: The local variable 'y' defined in the 'while' loop body cannot be "
        "used outside of the loop body. Please define variable 'y' before 'while'."
    ),
)

RECURSION_ON_TENSOR = Rule(
    "MS119",
    "recursion-on-tensor",
    Group.FAILS,
    title="Recursion on a Tensor condition",
    message=(
        "`{name}` calls itself under a Tensor condition, which the compiler unrolls until its "
        "call-depth limit; use a `while` loop instead."
    ),
    why=(
        "A Tensor condition cannot stop a method's recursion at compile time, so the compiler "
        "unrolls `self.method(...)` calls until it hits its call-depth limit (a module-level "
        "function calling itself compiles in MindSpore 2.10)."
    ),
    remedy="Use a `while` loop on the Tensor condition instead of recursion.",
    mindspore_says=(
        "RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, "
        "simulate call depth: 666)."
    ),
)

TENSOR_NONE_JOIN_UNDER_STRICT = Rule(
    "MS205",
    "tensor-none-join-under-strict",
    Group.STRICT,
    title="A Tensor condition joins a Tensor with None",
    message=(
        "{what} a {kind} here but {other} on the other path of a Tensor condition; STRICT cannot "
        "join a Tensor with None: give both paths a Tensor (e.g. `ops.zeros_like(x)`)."
    ),
    why=(
        "Both paths of a Tensor condition are compiled and their values joined; LAX joins a "
        "Tensor with None through its Python fallback, STRICT cannot."
    ),
    remedy=(
        "Give both paths a Tensor (e.g. `ops.zeros_like(x)`), or make the condition a Python "
        "constant."
    ),
    mindspore_says=(
        "TypeError: Cannot join the return values of different branches, perhaps you need to make"
        " them equal. (only under jit_syntax_level=STRICT)"
    ),
)

TENSOR_WHILE_GROWS = Rule(
    "MS146",
    "tensor-while-grows-shape",
    Group.FAILS,
    title="A `while` on a Tensor condition grows a carried Tensor",
    message=(
        "`{name}` grows by `{op}` on every iteration of this `while` on a Tensor condition, which "
        "the compiler unrolls until its call-depth limit; keep its shape fixed (write into a "
        "pre-allocated Tensor) or loop a constant number of times."
    ),
    why=(
        "A Tensor condition is not known at compile time and a value whose shape changes on each "
        "iteration cannot be carried by a compiled loop, so the compiler unrolls the loop, "
        "iteration by iteration, until it exceeds its call-depth limit."
    ),
    remedy=(
        "Pre-allocate the result and write into slices, slice the concatenation back to a fixed "
        "shape, or use a `for` over a constant `range(n)`."
    ),
    mindspore_says=(
        "RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, "
        "simulate call depth: 501)."
    ),
)
# Ops whose result is longer (or of higher rank) than the sequence's items: a carried value fed
# back through one of them changes shape on every iteration.
GROWING_OPS = frozenset(
    {"concat", "cat", "concatenate", "stack", "hstack", "vstack", "column_stack", "dstack"}
)

TENSOR_LIST_JOIN_UNDER_STRICT = Rule(
    "MS218",
    "tensor-list-join-under-strict",
    Group.STRICT,
    title="A Tensor condition in a Cell joins a Tensor with a list of numbers",
    message=(
        "{what} a {kind} here but a {other} on the other path of a Tensor condition; STRICT "
        "cannot join a Tensor with a list of numbers in a Cell: give both paths a Tensor (e.g. "
        "`Tensor([...])`)."
    ),
    why=(
        "Both paths of a Tensor condition are compiled and their values joined; LAX converts a "
        "list of numbers through its Python fallback, STRICT cannot join it with a Tensor in a "
        "Cell's construct (an `@ms.jit` function compiles)."
    ),
    remedy=(
        "Build a Tensor from the list (`Tensor([1, 2], ms.float32)`) on that path, or make the "
        "condition a Python constant."
    ),
    mindspore_says=(
        "TypeError: Cannot join the return values of different branches, perhaps you need to make"
        " them equal. (only under jit_syntax_level=STRICT)"
    ),
)

CARRIED_JOIN_UNDER_STRICT = Rule(
    "MS237",
    "carried-join-under-strict",
    Group.STRICT,
    title="A Tensor `if` in a `for` loop gives a carried value another dtype (STRICT)",
    message=(
        "`{name}` is a {kind} here but a {other} on the other path of this Tensor condition "
        "inside a loop; LAX lets the unrolled loop pass it on, STRICT cannot join them: keep "
        "one dtype on both paths (cast the update back)."
    ),
    why=(
        "Both paths of a Tensor condition are compiled and the value a loop carries is joined "
        "after them; in a `for` that is unrolled, LAX compiles it when nothing reads the value "
        "after the loop (or both branches step a constant Tensor), STRICT cannot join the two "
        "dtypes."
    ),
    remedy=(
        "Keep the carried value's dtype on both paths, e.g. `acc = acc + v.astype(acc.dtype)`, "
        "or start it with the dtype the update gives (`ops.zeros((), ms.float32)`)."
    ),
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ + __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_1__' to be nonconstant."
        " (only under jit_syntax_level=STRICT)"
    ),
)

ENDLESS_WHILE_COUNTS = Rule(
    "MS1053",
    "endless-while-counts-constant",
    Group.FAILS,
    title="A `while True:` left only on a Tensor condition carries a value that never repeats",
    message=(
        "`{name}` {how} on every pass of this `while {test}:`, which only a Tensor condition "
        "leaves, so the compiler unrolls it pass by pass until its call-depth limit; test the "
        "Tensor condition in the loop's own test instead (`while not <condition>:`)."
    ),
    why=(
        "A `while True:` is not a graph loop: the compiler unrolls it, and stops only where "
        "the values it carries repeat; a Python number (or a Tensor built from literals) "
        "stepped by a constant, or a list or tuple grown by one item, never repeats, and a "
        "Tensor `break` is not known at compile time, so the unrolling goes on until the "
        "call-depth limit."
    ),
    remedy=(
        "Test the Tensor condition in the loop's own test (`while x.sum() <= 10:`), which makes "
        "a graph loop whose counter is a run-time value, or leave the loop on the counter too "
        "(`if i > 30: break`)."
    ),
    mindspore_says=(
        "RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, "
        "simulate call depth: 750)."
    ),
)

ENDLESS_WHILE_NUMBER_JOIN = Rule(
    "MS371",
    "endless-while-number-joins-tensor",
    Group.DIVERGES,
    title="A `while True:` left on a Tensor condition returns a number it made a Tensor",
    message=(
        "`{name}` starts as the Python {kind} `{start}` and this `while True:` makes it a "
        "Tensor after its Tensor `break`, so graph mode returns it as a Python {kind}{bits}, "
        "not the Tensor PyNative returns; start it as a Tensor (`ops.zeros((), ms.float32)`)."
    ),
    why=(
        "A `while True:` left by a `break` on a Tensor condition is unrolled and the values "
        "it leaves with are joined: a Python number joined with the Tensor a later pass makes "
        "keeps the number's type, so the result is a Python number (for an int start, the "
        "float Tensor's bits read as an int)."
    ),
    remedy=(
        "Start the accumulator as a Tensor of the dtype the body gives it "
        "(`acc = ops.zeros((), ms.float32)`), or update it before the `break`."
    ),
    mindspore_says="(no error: `acc = 0` then `acc = acc + x.mean()` returns 1090519040, not 8)",
)

Binding = tuple[ast.AST, ast.expr]  # the binding statement, the value bound


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    values = shared_values.abstract(ctx, module=True)
    found = list(_check(ctx, values))
    yield from _at_strict_uses(ctx, found)
    if found:
        return
    # Callers passing different dtypes: MindSpore compiles one graph per signature, and the
    # first that cannot join fails (the dtype-free checks found nothing above, so only joins
    # that depend on the parameters' dtypes can appear here).
    flows: list[ast.If | ast.While | ast.IfExp] = ctx.of(ast.If, ast.While, ast.IfExp)
    if not any(runtime_test(ctx, n.test) for n in flows):
        return
    for signature in values.signatures():
        found = list(_check(ctx, Abstract(ctx.types, ctx.fn.node, ctx.lines, signature)))
        if found:
            yield from _at_strict_uses(ctx, found)
            return


def _at_strict_uses(ctx: FunctionContext, found: list[RawFinding]) -> Iterator[RawFinding]:
    """At STRICT, a helper's returns that cannot join are reported where its caller first
    applies a Python operator to the result, the line MindSpore names (`any_uses`)."""
    returns: list[ast.Return] = ctx.of(ast.Return) if ctx.level == SyntaxLevel.STRICT else []
    use = _strict_use(ctx) if returns and found else None
    # a join of `name = ...` paths whose name is returned as it is (`return out`)
    returned = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    assigns = [
        a
        for a in (ctx.of(ast.Assign) if use is not None and returned else [])
        if any(isinstance(t, ast.Name) and t.id in returned for t in a.targets)
    ]
    for finding in found:
        start = (finding.range.line, finding.range.col)
        if (
            use is None
            or finding.code != BRANCHES_JOIN_DIFFERENT_TYPES.code
            or not any(_starts_in(start, r) for r in [*returns, *assigns])
        ):
            yield finding
            continue
        joined = Related(ctx.path, finding.range, "the helper's returns that cannot be joined")
        yield replace(finding, range=node_range(use), related=[joined, *finding.related])


def _strict_use(ctx: FunctionContext) -> Optional[ast.expr]:
    """The operator every call of this helper first feeds its result to (the first call's)."""
    cls = ctx.types.cls
    owner = cls.node if cls is not None and cls.module is ctx.types.module else None
    sites = helper_calls(ctx.types.module, owner, ctx.fn.node, ctx.lines)
    uses = [any_uses.python_use(caller, call) for call, caller in sites]
    return uses[0] if uses and all(u is not None for u in uses) else None


def _starts_in(at: tuple[int, int], node: ast.AST) -> bool:
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    end = (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)
    return start <= at <= end


def _check(ctx: FunctionContext, values: Abstract) -> Iterator[RawFinding]:
    # only `if` and `while` statements are judged below: none, no walk of the blocks
    branches = bool(ctx.of(ast.If)) or bool(ctx.of(ast.While))
    owners = _if_owners(ctx.fn.node) if branches else {}
    for block in blocks_of(ctx.fn.node) if branches else ():
        for index, stmt in enumerate(block):
            if isinstance(stmt, ast.If) and runtime_test(ctx, stmt.test):
                rest, falls_off = _continuation(ctx, owners, block, index)
                yield from _returns(ctx, values, stmt, rest, falls_off)
                yield from _one_branch(ctx, stmt)
                yield from _assign_join(ctx, values, stmt)
            elif isinstance(stmt, ast.For):
                yield from _for_returns(ctx, values, stmt, block[index + 1 :])
                yield from _for_leave_carried(ctx, values, stmt)
            elif isinstance(stmt, ast.While) and ctx.types.is_runtime_test(stmt.test):
                yield from _while_bound(ctx, values, stmt)
                yield from _while_returns(ctx, values, stmt, block[index + 1 :])
                yield from _while_grows(ctx, stmt)
            elif isinstance(stmt, ast.While):
                yield from _endless_while(ctx, values, stmt)
                yield from _endless_counter(ctx, values, stmt)
    for node in ctx.of(ast.IfExp):
        if runtime_test(ctx, node.test):
            yield from _if_exp(ctx, values, node)
    yield from _bool_ops(ctx, values)
    yield from _bool_tests(ctx, values)
    yield from _recursion(ctx)


def _if_owners(fn: ast.AST) -> dict[int, tuple[Block, int]]:
    """id of an `if`'s body or else block -> (the block holding that `if`, its index)."""
    owners: dict[int, tuple[Block, int]] = {}
    for block in blocks_of(fn):
        for index, stmt in enumerate(block):
            if isinstance(stmt, ast.If):
                owners[id(stmt.body)] = (block, index)
                if stmt.orelse:
                    owners[id(stmt.orelse)] = (block, index)
    return owners


def _continuation(
    ctx: FunctionContext, owners: dict[int, tuple[Block, int]], block: Block, index: int
) -> tuple[Block, bool]:
    """The statements that run after `block[index]`: the rest of its block or, when that is
    empty and the block is a branch of an enclosing `if` (an `elif` chain), the rest after
    that `if`; and whether the function then ends without a `return`."""
    rest = block[index + 1 :]
    while not rest:
        if block is ctx.fn.node.body:
            return rest, True
        owner = owners.get(id(block))
        if owner is None:
            return rest, False  # a loop body: the loop goes on
        block, index = owner
        rest = block[index + 1 :]
    return rest, False


def _report(
    ctx: FunctionContext, found: Clash, what: str, at: ast.AST, other: ast.AST, test: ast.AST
) -> RawFinding:
    rule = BRANCHES_JOIN_DIFFERENT_TYPES
    if found.strict_only:
        rule = TENSOR_LIST_JOIN_UNDER_STRICT if found.scalar_list else TENSOR_NONE_JOIN_UNDER_STRICT
    return rule.finding(
        at,
        related=[
            ctx.related(other, f"the other path gives a {found.right}"),
            ctx.related(test, "the Tensor condition"),
        ],
        what=what,
        kind=found.left,
        other=found.right,
    )


def _returns(
    ctx: FunctionContext, values: Abstract, node: ast.If, rest: Block, falls_off: bool = False
) -> Iterator[RawFinding]:
    """`falls_off`: the `if` ends the function, so a path without a `return` returns None
    (measured on 2.10: `if t: return x` alone compiles at LAX, fails to join at STRICT)."""
    then_ret = _tail_return(node.body)
    if then_ret is None:
        return
    other: Optional[ast.AST] = _tail_return(node.orelse) if node.orelse else _first_return(rest)
    if other is None and falls_off and not node.orelse:
        found = clash(values, then_ret.value, None)
        if found is not None and found.strict_only:
            yield _report(
                ctx, found, "This branch returns", then_ret.value or then_ret, node, node.test
            )
        return
    if other is None:
        yield from _raise_join(ctx, values, node, then_ret, node.orelse or rest)
        return
    if not isinstance(other, ast.Return):
        return
    found = clash(values, then_ret.value, other.value)
    if found is not None:
        yield _report(
            ctx, found, "This branch returns", then_ret.value or then_ret, other, node.test
        )


def runtime_test(ctx: FunctionContext, test: ast.expr) -> bool:
    """A Tensor condition or a test of a number read from a Tensor, also through a local bound
    once to one (round 31, measured at LAX and STRICT with `k = int(t)` / `g = t.item()`:
    `1 if k > 3 else 2.5` fails to join Int64 with Float32, `if k > 3: return x` then
    `return 0` and a name bound in one branch fail as for a Tensor condition; `n > 3` of
    `n = x.shape[0]` is decided when compiling)."""
    if ctx.types.is_runtime_test(test):
        return True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return runtime_test(ctx, test.operand)
    if isinstance(test, ast.BoolOp):
        return any(runtime_test(ctx, v) for v in test.values)
    if isinstance(test, ast.Compare):
        operands = [test.left, *test.comparators]
        return any(isinstance(e, ast.Name) and receivers.runtime_scalar(ctx, e) for e in operands)
    return False


def _raise_join(
    ctx: FunctionContext, values: Abstract, node: ast.If, then_ret: ast.Return, other: Block
) -> Iterator[RawFinding]:
    """`if t: return 1` and a `raise` on the other path: graph mode joins the number (or str)
    with the raise's value and fails (measured on 2.10, LAX and STRICT: "Type Join Failed:
    dtype1 = Int64, dtype2 = Any", also for a float, a bool, a str and `x.shape[0]`, in
    `construct` and in a helper). A Tensor, a tuple, a list or None returned there compiles at
    LAX, as does a number assigned in the branch (`n = 2`, else `raise`) and `raise` first."""
    if not other or not isinstance(other[-1], ast.Raise) or then_ret.value is None:
        return
    if any(isinstance(n, ast.Return) for stmt in other for n in ast.walk(stmt)):
        return
    value = values.of(then_ret.value)
    if value is None or value.kind not in ("scalar", "str"):
        return
    yield BRANCHES_JOIN_DIFFERENT_TYPES.finding(
        then_ret.value,
        related=[
            ctx.related(other[-1], "the other path raises"),
            ctx.related(node.test, "the Tensor condition"),
        ],
        what="This branch returns",
        kind="str" if value.kind == "str" else "Python number",
        other="`raise` (a value of no type)",
    )


def _if_exp(ctx: FunctionContext, values: Abstract, node: ast.IfExp) -> Iterator[RawFinding]:
    found = clash(values, node.body, node.orelse)
    if found is None or _unread(ctx, node):
        return  # measured: an unread `s = <IfExp>` is dropped before anything is joined
    if {found.left, found.right} <= SCALARS:
        if not _if_exp_returned(ctx, node):
            return  # measured: numbers of two types fail to join only when returned as they are
    elif ctx.level == SyntaxLevel.STRICT and not found.strict_only:
        use = any_uses.python_use(ctx.fn.node, node)
        if use is not None:  # STRICT trips over the unjoined value there (`any_uses`)
            joined = ctx.related(node, "the conditional expression that cannot be joined")
            finding = _report(
                ctx, found, "This conditional expression gives", use, node.orelse, node
            )
            yield replace(finding, related=[joined, *finding.related])
            return
    yield _report(ctx, found, "This conditional expression gives", node.body, node.orelse, node)


def _if_exp_returned(ctx: FunctionContext, node: ast.IfExp) -> bool:
    """`return <IfExp>`, or `s = <IfExp>` then `return s` (`number_joins`)."""
    returns: list[ast.Return] = ctx.of(ast.Return)
    if any(r.value is node for r in returns):
        return True
    bound = _bound_to(ctx, node)
    return bound is not None and "name" in number_joins.return_forms(
        ctx.fn.node, bound[0], bound[1]
    )


def _unread(ctx: FunctionContext, node: ast.IfExp) -> bool:
    """`name = <IfExp>` whose name the function never reads."""
    bound = _bound_to(ctx, node)
    return bound is not None and not any(
        n.id == bound[0] and isinstance(n.ctx, ast.Load) for n in ctx.of(ast.Name)
    )


def _bound_to(ctx: FunctionContext, node: ast.expr) -> Optional[tuple[str, ast.Assign]]:
    """`name = node`: the name and its assignment."""
    for assign in ctx.of(ast.Assign):
        target = assign.targets[0]
        if assign.value is node and len(assign.targets) == 1 and isinstance(target, ast.Name):
            return target.id, assign
    return None


def _bool_ops(ctx: FunctionContext, values: Abstract) -> Iterator[RawFinding]:
    """`t and y` / `t or y` returned or bound: its value is `t` or `y`, joined. (In a branch
    test the operands are only tested, so those are left alone.)"""
    statements: list[ast.Return | ast.Assign] = ctx.of(ast.Return, ast.Assign)
    for stmt in statements:
        node = stmt.value
        if not isinstance(node, ast.BoolOp) or not ctx.types.is_condition(node.values[0]):
            continue
        first = node.values[0]
        for other in node.values[1:]:
            found = clash(values, first, other)
            if found is not None:
                yield _report(ctx, found, "This `and`/`or` gives", node, other, first)
                break


def _bool_tests(ctx: FunctionContext, values: Abstract) -> Iterator[RawFinding]:
    """`if t and flag:` / `while t or n > 0:`: a test is compiled as a value too, `t and y`
    being `y if t else t`, so a Tensor condition followed by a Python bool fails to join
    (measured on 2.10 at LAX and STRICT: "Type Join Failed: dtype1 = Bool, dtype2 = Any" for
    `and True`, `and self.training`, `and n > 0`, `and x.shape[0] > 1`, `and y is None`,
    `or n == 2`; `flag and t`, `t and t2` and `(t > 0) & flag` compile)."""
    flows: list[ast.If | ast.While | ast.IfExp] = ctx.of(ast.If, ast.While, ast.IfExp)
    for flow in flows:
        test = flow.test
        if not isinstance(test, ast.BoolOp):
            continue
        if isinstance(flow, ast.While) and any(_grows(ctx, stmt) for stmt in flow.body):
            continue  # unrolled until the call-depth limit first (MS146, measured)
        if not ctx.types.is_condition(test.values[0]):
            if isinstance(flow, ast.While):
                yield from _counter_tests(ctx, values, flow, test)
            continue
        reported = False
        for other in test.values[1:]:
            if ctx.types.is_tensor(other) or not _python_bool(ctx, values, other):
                continue
            found = join_clash(values.of(test.values[0]), Value("scalar", "bool"))
            if found is not None:
                yield _report(ctx, found, "This `and`/`or` test gives", test, other, test.values[0])
                reported = True
                break
        if not reported and isinstance(flow, ast.While):
            yield from _counter_tests(ctx, values, flow, test)


def _counter_tests(
    ctx: FunctionContext, values: Abstract, flow: ast.While, test: ast.BoolOp
) -> Iterator[RawFinding]:
    """`while t and i < n:` / `while i < n and t:` where the body counts the Python int `i`:
    a Tensor test makes the loop a graph loop, which turns the counter into a run-time scalar,
    so `i < n` is a scalar bool joined with the Tensor one in either order (measured on 2.10 at
    LAX and STRICT: "Type Join Failed: dtype1 = Bool, dtype2 = Any", at the `while`; a Tensor
    counter, `i = Tensor(0)`, compiles)."""
    tensor = next((v for v in test.values if ctx.types.is_condition(v)), None)
    if tensor is None:
        return
    for other in test.values:
        if other is tensor or not _counter_compare(ctx, flow, other):
            continue
        found = join_clash(values.of(tensor), Value("scalar", "bool"))
        if found is not None:
            yield _report(ctx, found, "This `and`/`or` test gives", test, other, tensor)
            return


def _counter_compare(ctx: FunctionContext, flow: ast.While, expr: ast.expr) -> bool:
    """`i < n` comparing Python numbers, `i` a counter: bound before the loop to an int
    literal and only counted in its body (`i += 1`, `i = i + 1`)."""
    if not isinstance(expr, ast.Compare) or len(expr.ops) != 1:
        return False
    operands = [expr.left, *expr.comparators]
    if any(not isinstance(o, (ast.Name, ast.Constant)) for o in operands):
        return False
    counters = [o.id for o in operands if isinstance(o, ast.Name) and counted_in(flow, o.id)]
    if not counters:
        return False
    names_ = [o.id for o in operands if isinstance(o, ast.Name)]
    return all(_int_literal_before(ctx, flow, n) for n in names_)


def counted_in(flow: ast.While, name: str) -> bool:
    """The loop body changes `name` only by adding or subtracting a literal."""
    found = False
    for node in ast.walk(ast.Module(body=flow.body, type_ignores=[])):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            if node.target.id == name:
                if not (isinstance(node.op, (ast.Add, ast.Sub)) and _int_const(node.value)):
                    return False
                found = True
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            value = node.value
            if not (
                isinstance(value, ast.BinOp)
                and isinstance(value.op, (ast.Add, ast.Sub))
                and isinstance(value.left, ast.Name)
                and value.left.id == name
                and _int_const(value.right)
            ):
                return False
            found = True
        elif isinstance(node, (ast.For, ast.comprehension)) and any(
            isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.target)
        ):
            return False
    return found


def _int_literal_before(ctx: FunctionContext, flow: ast.While, name: str) -> bool:
    """Every binding of `name` outside the loop is `name = <int literal>` above it."""
    outside = [
        a
        for a in ctx.of(ast.Assign)
        if any(isinstance(t, ast.Name) and t.id == name for t in a.targets) and not _within(a, flow)
    ]
    if not outside or name in ctx.fn.tensor_params or name in _parameter_names(ctx):
        return False
    return all(
        len(a.targets) == 1 and _int_const(a.value) and a.lineno < flow.lineno for a in outside
    )


def _within(node: ast.stmt, flow: ast.While) -> bool:
    end = flow.end_lineno or flow.lineno
    return flow.lineno <= node.lineno <= end


def _parameter_names(ctx: FunctionContext) -> set[str]:
    args = ctx.fn.node.args
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}


def _int_const(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Constant)
        and isinstance(expr.value, int)
        and not isinstance(expr.value, bool)
    )


def _python_bool(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> bool:
    """A value known to be a Python scalar: a literal, a name or `self.<attr>` holding one, a
    `not` of one, or a comparison of shapes, lengths, `None` or Python numbers."""
    known = values.of(expr)
    if known is not None:
        return known.kind == "scalar"
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return _python_bool(ctx, values, expr.operand)
    if _scalar_parameter(ctx, expr) or _training(expr):
        return True
    if isinstance(expr, ast.Compare) and all(isinstance(op, IDENTITY) for op in expr.ops):
        return True  # `y is None`: folded to a Python bool whatever `y` is
    if isinstance(expr, ast.Compare):
        operands = [expr.left, *expr.comparators]
        return not any(ctx.types.is_tensor(o) for o in operands) and all(
            _python_operand(ctx, values, o) for o in operands
        )
    return False


IDENTITY = (ast.Is, ast.IsNot)


def _scalar_parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A parameter (not one the checker takes for a Tensor) whose default is a number or bool
    (`def construct(self, x, flag=True, n=1)`)."""
    if not isinstance(expr, ast.Name) or expr.id in ctx.fn.tensor_params:
        return False
    default = next((d for a, d in names.parameter_defaults(ctx.fn.node) if a.arg == expr.id), None)
    return (
        isinstance(default, ast.Constant)
        and isinstance(default.value, (bool, int, float))
        and not assigned_any(ctx.fn.node, expr.id)
    )


def _training(expr: ast.expr) -> bool:
    """`self.training`: the Cell's Python bool (`set_train`)."""
    return (
        isinstance(expr, ast.Attribute)
        and expr.attr == "training"
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "self"
    )


def _python_operand(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> bool:
    if isinstance(expr, ast.Constant) or _scalar_parameter(ctx, expr):
        return True
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute):
        return expr.value.attr == "shape"  # `x.shape[0]`
    if isinstance(expr, ast.Attribute) and expr.attr in ("ndim", "shape"):
        return True
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len":
        return True
    known = values.of(expr)
    return known is not None and known.kind in ("scalar", "None")


def _tail_return(block: Block) -> Optional[ast.Return]:
    if block and isinstance(block[-1], ast.Return):
        return block[-1]
    return None


def _first_return(block: Block) -> Optional[ast.Return]:
    for stmt in block:
        if isinstance(stmt, ast.Return):
            return stmt
        if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass)):
            return None  # another branch or loop: too complex to pair returns
    return None


def _one_branch(ctx: FunctionContext, node: ast.If) -> Iterator[RawFinding]:
    if exits(node.body) or (node.orelse and exits(node.orelse)):
        return
    then_names = assigned_names(node.body)
    else_names = assigned_names(node.orelse)
    runtime = ctx.types.is_runtime_test
    both = definitely_assigned(node.body, runtime) & definitely_assigned(node.orelse, runtime)
    for name in sorted((set(then_names) | set(else_names)) - both):
        where = then_names.get(name) or else_names.get(name)
        if where is None or bound_before(ctx.fn.node, name, node):
            continue
        use = loads_after(ctx.fn.node, name, node)
        if use is None:
            continue
        if name in then_names and name in else_names:
            side = "on every path"
        else:
            side = "in the true branch" if name in then_names else "in the false branch"
        bound, instead = (
            ("not bound on every path", "or on every path")
            if side == "on every path"
            else (f"bound only {side}", "or in both branches")
        )
        yield BOUND_IN_ONE_BRANCH.finding(
            use,
            related=_bound_here(ctx, name, where, node.test),
            name=name,
            bound=bound,
            instead=instead,
        )


def _bound_here(ctx: FunctionContext, name: str, where: ast.AST, test: ast.AST) -> list[Related]:
    return [ctx.related(where, f"`{name}` bound here"), ctx.related(test, "the Tensor condition")]


def _assign_join(ctx: FunctionContext, values: Abstract, node: ast.If) -> Iterator[RawFinding]:
    """`y = x` in one branch and `y = (x, x)` (or an earlier `y = 0`) on the other path."""
    then_values = _last_bindings(node.body)
    else_values = _last_bindings(node.orelse)
    fn = ctx.fn.node
    for name in sorted(set(then_values) | set(else_values)):
        if name in then_values and name in else_values:
            (_, value), (other_at, other) = then_values[name], else_values[name]
        elif exits(node.body) or (node.orelse and exits(node.orelse)):
            continue
        else:
            _, value = then_values.get(name) or else_values[name]
            before = _binding_before(fn, name, node)
            if before is None:
                entry = _entry_value(ctx, values, name, node)
                use = loads_after(fn, name, node)
                if entry is None:
                    carried = _carried_into_if(ctx, values, name, node, then_values, else_values)
                    if carried is not None:
                        yield from _carried_finding(ctx, name, node, carried)
                        continue
                if entry is None or use is None:
                    continue
                found = join_clash(values.of(value), entry[1], in_cell=_in_cell(values))
                if (
                    found is not None
                    and {found.left, found.right} <= SCALARS
                    and not number_joins.statement_join_fails(
                        number_joins.return_forms(fn, name, node),
                        strict=ctx.level == SyntaxLevel.STRICT,
                    )
                ):
                    continue  # an int input made a float: see below
                if found is not None:
                    yield _joined_at_use(
                        _report(ctx, found, f"`{name}` is", value, entry[0], node.test), ctx, use
                    )
                continue
            other_at, other = before
        found = clash(values, value, other)
        if found is None:
            carried = _carried_into_if(ctx, values, name, node, then_values, else_values)
            if carried is not None:
                yield from _carried_finding(ctx, name, node, carried)
                continue
        use = loads_after(fn, name, node)
        if found is None or use is None:
            continue
        if {found.left, found.right} <= SCALARS and not number_joins.statement_join_fails(
            number_joins.return_forms(fn, name, node),
            strict=ctx.level == SyntaxLevel.STRICT,
        ):
            continue
        finding = _joined_at_use(
            _report(ctx, found, f"`{name}` is", value, other_at, node.test), ctx, use
        )
        yield _at_strict_operator(ctx, found, finding, node, use)


def _at_strict_operator(
    ctx: FunctionContext, found: Clash, finding: RawFinding, node: ast.If, use: ast.Name
) -> RawFinding:
    """At STRICT, Tensors of two dtypes joined by a Tensor `if` fail where a Python operator
    first takes the joined name, as a helper's returns do (`any_uses`; measured round 36:
    `r + 1`, `2 - r`, `y = r * 2`, `r.sum()` fail there; `return r`, `ops.relu(r)`, `(r, x)`
    fail at the branch). In a loop the next pass reads the name first, at the branch's line."""
    tensors = found.left.endswith(" Tensor") and found.right.endswith(" Tensor")
    if ctx.level != SyntaxLevel.STRICT or not tensors or _in_loop(ctx, node):
        return finding
    operator = any_uses.python_use(ctx.fn.node, use)
    if operator is None:
        return finding
    joined = Related(ctx.path, finding.range, "the branch whose value cannot be joined")
    return replace(finding, range=node_range(operator), related=[joined, *finding.related])


def _in_loop(ctx: FunctionContext, node: ast.stmt) -> bool:
    loops: list[ast.For | ast.While] = ctx.of(ast.For, ast.While)
    return any(node in ast.walk(loop) for loop in loops)


class Carried(NamedTuple):
    """A value carried into a Tensor `if` in a loop that the `if` gives another dtype."""

    found: Clash
    at: ast.expr  # the branch value
    other: ast.AST  # the other path's binding (or the one before the loop)
    loop: ast.For | ast.While  # the outermost loop holding the `if`
    literal_both: bool  # both branches step a `Tensor(0, ms.int32)`-like entry


def _carried_finding(
    ctx: FunctionContext, name: str, node: ast.If, carried: Carried
) -> Iterator[RawFinding]:
    """MS112 where both levels fail, MS237 where only STRICT does (measured on 2.10): in a
    `for` (unrolled) LAX compiles when nothing reads the value after the loop, or when both
    branches step a literal-built entry (`cnt + 1` / `cnt + 0.5`); STRICT fails on both
    ("When handling script '... + ...' in graph mode, the inputs should be constant", naming
    the `for` and the `if`). A `while` on a Tensor condition carries the value into its next
    pass and fails at both levels either way."""
    use: Optional[ast.AST] = loads_after(ctx.fn.node, name, node)
    loop = carried.loop
    unrolled = isinstance(loop, ast.For) or not ctx.types.is_runtime_test(loop.test)
    strict_only = unrolled and (use is None or carried.literal_both)
    if use is None:
        use = next(
            (n for n in ast.walk(carried.at) if isinstance(n, ast.Name) and n.id == name), None
        )
        if use is None:
            return
    finding = _report(ctx, carried.found, f"`{name}` is", carried.at, carried.other, node.test)
    if strict_only:
        finding = CARRIED_JOIN_UNDER_STRICT.finding(
            carried.at,
            related=finding.related,
            name=name,
            kind=carried.found.left,
            other=carried.found.right,
        )
    yield _joined_at_use(finding, ctx, use)


def _carried_into_if(
    ctx: FunctionContext,
    values: Abstract,
    name: str,
    node: ast.If,
    then_values: dict[str, Binding],
    else_values: dict[str, Binding],
) -> Optional[Carried]:
    """`acc = Tensor(0, ms.int32)` before a loop whose body holds `if <Tensor>: acc = acc + v`
    with a float `v`: on the first pass `acc` is still the int32 it entered with, and the
    branch joins it with a float32 (measured on 2.10 in `for i in range(3)`, `for row in x`,
    nested `for`s and a Tensor `while`: "Type Join Failed: dtype1 = Float32, dtype2 = Int32"
    at LAX naming the assignment and the `if`; STRICT fails at the loop and the `if` too; also
    when the result only scales another Tensor after the loop). The reads of the carried name
    inside its loop are unknown to the flow-insensitive values, so the branch values are
    computed from the value entering the loop. Look-alikes measured to compile: `acc += v`
    (an augmented assignment keeps int32), `acc = acc * 2` or `acc + 1` (int32 kept), both
    branches changing the dtype the same way, and `cnt + 1` / `cnt + 0.5` in the two branches
    of a `cnt = Tensor(0, ms.int32)` (LAX joins them; STRICT fails, not reported)."""
    bindings = [b for b in (then_values.get(name), else_values.get(name)) if b is not None]
    if not bindings or any(not isinstance(stmt, ast.Assign) for stmt, _ in bindings):
        return None
    loop = _outer_loop(ctx, node)
    if loop is None:
        return None
    allowed = {id(stmt.targets[0]) for stmt, _ in bindings if isinstance(stmt, ast.Assign)}
    for sub in of_type(loop, ast.Name):
        if sub.id == name and isinstance(sub.ctx, ast.Store) and id(sub) not in allowed:
            return None  # bound elsewhere in the loop too (or the loop's target)
    fn = ctx.fn.node
    entry_at: ast.AST
    before = _binding_before(fn, name, loop)
    if before is not None:
        if not any(before[0] in block for block in blocks_of(fn) if loop in block):
            return None  # bound before the loop only on some paths
        entry_at, entry = before[0], values.of(before[1])
    elif name in _parameter_names(ctx):
        entry_at, entry = loop, values.parameter(name)
    else:
        return None
    if entry is None or entry.kind != "tensor" or entry.dtype is None:
        return None

    def branch(binding: Optional[Binding]) -> Optional[Value]:
        if binding is None:
            return entry
        value = binding[1]
        if isinstance(value, ast.BinOp):
            sides = (value.left, value.right)
            if any(isinstance(e, ast.Name) and e.id == name for e in sides):
                left, right = (
                    entry if isinstance(e, ast.Name) and e.id == name else _operand(ctx, values, e)
                    for e in sides
                )
                dtype = binop_dtype(left, right, value.op) or _wider_float(left, right)
                return Value("tensor", dtype) if dtype is not None else None
        found = values.of(value)
        if found is None and not _names(value, name):
            return None
        if _names(value, name) and not (
            isinstance(value, ast.Call) and found is not None and found.kind == "tensor"
        ):
            return None  # only a cast (`y.astype(...)`, `ops.cast(y, ...)`) reads it whole
        return found

    then_binding, else_binding = then_values.get(name), else_values.get(name)
    literal_both = bool(
        then_binding and else_binding and before is not None and _literal_built(values, before[1])
    )
    first, second = branch(then_binding), branch(else_binding)
    if first is None or second is None or first.kind != "tensor" or second.kind != "tensor":
        return None
    found = join_clash(first, second, in_cell=_in_cell(values))
    if found is None:
        return None
    at = (then_binding or else_binding or (node, node.test))[1]
    if then_binding is not None and else_binding is not None:
        other_at: ast.AST = else_binding[0]
    else:
        other_at = entry_at
    return Carried(found, at, other_at, loop, literal_both)


FLOAT_WIDTHS = {"float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}


def _wider_float(left: Optional[Value], right: Optional[Value]) -> Optional[str]:
    """float16 + float32 Tensors give float32 (measured: `acc = ops.zeros((3,), ms.float16)`
    then `acc = acc + row` of a float32 row fails to join "Float32" with "Float16"), and a
    bool Tensor plus another gives the other's dtype."""
    if left is None or right is None or left.kind != "tensor" or right.kind != "tensor":
        return None
    bools = {"bool", "bool_"}
    if {left.dtype, right.dtype} & bools and None not in (left.dtype, right.dtype):
        # measured: a bool mask plus a float32 (or int32) Tensor fails to join "Bool"
        other = left.dtype if right.dtype in bools else right.dtype
        return other if other not in bools else None
    widths = [FLOAT_WIDTHS.get(v.dtype or "") for v in (left, right)]
    if None in widths or widths[0] == widths[1]:
        return None
    return left.dtype if (widths[0] or 0) > (widths[1] or 0) else right.dtype


def _operand(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> Optional[Value]:
    """`values.of(expr)`, and for the target of a `for row in x` over a Tensor `x` of known
    dtype (a row of it), a Tensor of that dtype."""
    found = values.of(expr)
    known = found is not None and (found.kind != "tensor" or found.dtype is not None)
    if known or not isinstance(expr, ast.Name):
        return found
    loops: list[ast.For] = ctx.of(ast.For)
    for loop in loops:
        if isinstance(loop.target, ast.Name) and loop.target.id == expr.id:
            rows = values.of(loop.iter)
            if rows is not None and rows.kind == "tensor" and rows.dtype is not None:
                return Value("tensor", rows.dtype)
    return None


def _outer_loop(ctx: FunctionContext, node: ast.stmt) -> Optional[ast.For | ast.While]:
    """The outermost `for`/`while` of the function (not of a nested scope) holding `node`."""
    loops: list[ast.For | ast.While] = ctx.of(ast.For, ast.While)
    for loop in sorted(loops, key=lambda n: (n.lineno, n.col_offset)):
        if loop.lineno <= node.lineno <= (loop.end_lineno or loop.lineno) and any(
            sub is node for sub in ast.walk(loop)
        ):
            return loop
    return None


def _joined_at_use(finding: RawFinding, ctx: FunctionContext, use: ast.AST) -> RawFinding:
    name = getattr(use, "id", "the value")
    finding.related.append(ctx.related(use, f"`{name}` is used here, after the join"))
    return finding


def _in_cell(values: Abstract) -> bool:
    cls = values.types.cls
    return cls is not None and cls.is_cell


def _entry_value(
    ctx: FunctionContext, values: Abstract, name: str, node: ast.stmt
) -> Optional[tuple[ast.arg, Value]]:
    """A parameter that still holds what the callers passed when `node` starts: nothing
    stores it earlier in the source nor elsewhere in a loop around `node` (measured on 2.10,
    `if t: x = x.astype(ms.int32)` with a float32 `x` fails to join, like a local bound
    before the `if`)."""
    fn = ctx.fn.node
    args = fn.args
    param = next((a for a in [*args.posonlyargs, *args.args] if a.arg == name), None)
    if param is None:
        return None
    entry = values.entry_value(name)
    if entry is None:
        return None
    start = (node.lineno, node.col_offset)
    inside = {id(n) for n in ast.walk(node)}
    loops = [
        loop
        for loop in of_type(fn, ast.For, ast.While)
        if id(node) in {id(n) for n in ast.walk(loop)}
    ]
    around = {id(n) for loop in loops for n in ast.walk(loop)}
    for sub in of_type(fn, ast.Name):
        if sub.id != name or not isinstance(sub.ctx, ast.Store) or id(sub) in inside:
            continue
        if (sub.lineno, sub.col_offset) < start or id(sub) in around:
            return None
    return param, entry


def _last_bindings(block: Block) -> dict[str, Binding]:
    found: dict[str, Binding] = {}
    for stmt in block:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                found[target.id] = (stmt, stmt.value)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            value = ast.BinOp(stmt.target, stmt.op, stmt.value)
            found[stmt.target.id] = (stmt, ast.copy_location(value, stmt.value))
    return found


def _binding_before(fn: ast.AST, name: str, node: ast.stmt) -> Optional[Binding]:
    """The last `name = value` that starts before `node` (in source order)."""
    best: Optional[ast.Assign] = None
    start = (node.lineno, node.col_offset)
    for sub in of_type(fn, ast.Assign):
        if (
            len(sub.targets) == 1
            and isinstance(sub.targets[0], ast.Name)
            and sub.targets[0].id == name
            and (sub.lineno, sub.col_offset) < start
            and (best is None or (sub.lineno, sub.col_offset) > (best.lineno, best.col_offset))
        ):
            best = sub
    return (best, best.value) if best is not None else None


def _endless_while(ctx: FunctionContext, values: Abstract, node: ast.While) -> Iterator[RawFinding]:
    """`while True:` left by a `break` under a Tensor `if`: the loop becomes a graph loop on
    that condition, whose carried values join like a Tensor `while`'s (measured on 2.10:
    `x = x * 2; if x.sum() > 50: break; x = x.astype(ms.float16)` fails, "Type Join Failed:
    dtype1 = Float32, dtype2 = Float16", naming the `break` and its `if`; the same loop
    keeping float32, one left on a Python counter, and one whose body opens with the
    `if ...: break` all compile)."""
    if not (isinstance(node.test, ast.Constant) and node.test.value is True) or node.orelse:
        return
    found = _tensor_break(ctx, node.body)
    if found is None:
        return
    leave, test = found
    skip = set(_stored_before_exit(node, leave))
    fn = ctx.fn.node
    for name in sorted(assigned_names(node.body)):
        before = _binding_before(fn, name, node)
        entry = values.of(before[1]) if before is not None else None
        if entry is not None and entry.kind != "tensor":
            # measured: a number joined with the Tensor a later pass makes compiles (MS371)
            skip.add(name)
            if name not in _stored_before_exit(node, leave) and before is not None:
                yield from _number_join(ctx, values, node, name, before[1])
    for finding in _while_bound(ctx, values, node, test, frozenset(skip)):
        if finding.code == BOUND_IN_TENSOR_WHILE.code:
            continue  # a name first bound in the loop: not measured for `while True`
        yield replace(finding, range=keyword_range(leave, "break"))
        return


def _number_join(
    ctx: FunctionContext, values: Abstract, loop: ast.While, name: str, start: ast.expr
) -> Iterator[RawFinding]:
    """`acc = 0` then `while True: ...; if <Tensor>: break; acc = acc + x.mean()` and `return
    acc` (alone or in a returned tuple): measured on 2.10 at LAX and STRICT, it compiles and
    returns a Python number: 1090519040 (float32 8.0's bits) for an int start, 12.0 for a
    float one, 4 for an int start plus an int64 `argmax`, where PyNative returns a Tensor.
    `return x * acc` gives PyNative's values (not reported)."""
    if not (isinstance(start, ast.Constant) and _zero(start)):
        return
    last = _last_bindings(loop.body).get(name)
    if last is None:
        return
    value = values.of(last[1])
    if value is None or value.kind != "tensor":
        return
    end = (loop.end_lineno or loop.lineno, loop.end_col_offset or 0)
    returns: list[ast.Return] = ctx.of(ast.Return)
    for ret in returns:
        if (ret.lineno, ret.col_offset) < end or ret.value is None:
            continue
        items = ret.value.elts if isinstance(ret.value, ast.Tuple) else [ret.value]
        read = next((e for e in items if isinstance(e, ast.Name) and e.id == name), None)
        if read is None:
            continue
        is_int = isinstance(start.value, int)
        floats = value.dtype is not None and value.dtype.startswith(("float", "bfloat"))
        yield ENDLESS_WHILE_NUMBER_JOIN.finding(
            read,
            related=[
                ctx.related(start, f"`{name}` starts as a Python number here"),
                ctx.related(last[0], f"`{name}` becomes a Tensor here, after the `break`"),
            ],
            name=name,
            kind="int" if is_int else "float",
            start=ast.unparse(start),
            bits=" (the float's bits read as an int)" if is_int and floats else "",
        )
        return


def _stored_before_exit(loop: ast.While, leave: ast.stmt) -> frozenset[str]:
    """Names every store of which in the loop body comes in statements before the one holding
    `leave`: each pass leaves with the value the same statements made, so the unrolled passes
    never join the value the loop was entered with (measured on 2.10: `i = 0` then `while True:
    x = x * 2; i = i + x.sum(); if x.sum() > 10: break` compiles)."""
    index = next(
        (i for i, stmt in enumerate(loop.body) if any(sub is leave for sub in ast.walk(stmt))),
        None,
    )
    if index is None:
        return frozenset()
    early: set[str] = set()
    late: set[str] = set()
    for i, stmt in enumerate(loop.body):
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                (early if i < index else late).add(sub.id)
    return frozenset(early - late)


def _endless_counter(
    ctx: FunctionContext, values: Abstract, node: ast.While
) -> Iterator[RawFinding]:
    """`i = 0` then `while True: x = x * 2; i += 1; if x.sum() > 10: break`: measured on 2.10
    (LAX and STRICT, in construct and in a helper method) "Exceed function call depth limit
    1000", naming the `while` and the `if`; also with `while 1:`, the `if ...: break` first
    in the body, the counter stepped after the `break`, never read, a float `s + 0.5`, a
    `return` instead of the `break`, and a counter `Tensor(0, ms.int32)` or `ops.zeros((),
    ms.int32)`. Look-alikes measured to compile: no counter, a counter stepped only under a
    Tensor `if` (the join makes it a run-time value), one reset to a constant (`i = 1`), one
    computed from an input (`x.sum() * 0`), a loop also left on a Python test (`if i > 30:
    break`), and `while <Tensor>:` with the same counter."""
    test = node.test
    if node.orelse or not isinstance(test, ast.Constant) or not _int_const_or_true(test):
        return
    exits = _loop_exits(node)
    if not exits or not all(_tensor_guarded(ctx, node, e)[1] for e in exits):
        return
    leave = next(iter(exits))
    for stmt in node.body:
        grows = _grows(ctx, stmt)
        if grows is not None and _only_store(node, grows[0], stmt):
            finding = _counts_finding(ctx, node, leave, stmt, grows[0], f"grows by `{grows[1]}`")
            guard = _tensor_guarded(ctx, node, leave)[0]
            if guard is not None:
                # measured: MindSpore names the function and the `if`, not the `while`
                finding = replace(finding, range=node_range(guard))
            yield finding
            return
        step = _stepped(stmt) or _grown(stmt)
        if step is None or not _only_store(node, step[0], stmt):
            continue
        name, how = step
        before = _binding_before(ctx.fn.node, name, node)
        if before is None:
            if how != "grows" and _number_default(ctx, values, name):
                yield _counts_finding(ctx, node, leave, stmt, name, how)
                return
            continue
        if name in _parameter_names(ctx):
            continue
        entry = before[1]
        if how == "grows":
            if not isinstance(entry, (ast.List, ast.Tuple)):
                continue
        elif not (
            _zero(entry)
            or _literal_built(values, entry)
            or _number_attr(values, entry)
            or names.is_static_size(entry)
        ):
            continue
        yield _counts_finding(ctx, node, leave, stmt, name, how)
        return


def _counts_finding(
    ctx: FunctionContext, node: ast.While, leave: ast.stmt, stmt: ast.stmt, name: str, how: str
) -> RawFinding:
    guard = _tensor_guarded(ctx, node, leave)[0]
    related = [ctx.related(stmt, f"`{name}` {how} here")]
    if guard is not None:
        related.append(ctx.related(guard, "the Tensor condition that leaves the loop"))
    return ENDLESS_WHILE_COUNTS.finding(
        keyword_range(node, "while"),
        related=related,
        name=name,
        how=how,
        test=ast.unparse(node.test),
    )


def _number_default(ctx: FunctionContext, values: Abstract, name: str) -> bool:
    """A parameter, not one the checker takes for a Tensor nor one the callers pass a Tensor
    for, whose default is a number literal (measured: `def construct(self, x, start=0)`
    stepping `start` fails like `i = 0`; passed `Tensor(0, ms.int32)`, it compiles)."""
    if name in ctx.fn.tensor_params or values.parameter(name) is not None:
        return False
    default = next((d for a, d in names.parameter_defaults(ctx.fn.node) if a.arg == name), None)
    return default is not None and _zero(default)


def _number_attr(values: Abstract, expr: ast.expr) -> bool:
    """`self.start` holding a Python number (measured: `i = self.start` with `self.start = 0`
    set in `__init__` fails like `i = 0`)."""
    if not (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "self"
    ):
        return False
    found = values.of(expr)
    return found is not None and found.kind == "scalar" and found.dtype in ("int", "float")


def _int_const_or_true(test: ast.Constant) -> bool:
    value = test.value
    return value is True or (isinstance(value, int) and not isinstance(value, bool) and value != 0)


def _loop_exits(loop: ast.While) -> list[ast.stmt]:
    """The `break`s of this loop (not of loops inside it) and the `return`s in its body."""
    found: list[ast.stmt] = []
    stack: list[tuple[ast.AST, bool]] = [(s, False) for s in loop.body]
    while stack:
        sub, nested = stack.pop()
        if isinstance(sub, SCOPES):
            continue
        if isinstance(sub, ast.Return) or (isinstance(sub, ast.Break) and not nested):
            found.append(sub)
        inner = nested or isinstance(sub, (ast.For, ast.While, ast.AsyncFor))
        stack.extend((child, inner) for child in ast.iter_child_nodes(sub))
    return found


def _tensor_guarded(
    ctx: FunctionContext, loop: ast.While, leave: ast.stmt
) -> tuple[Optional[ast.expr], bool]:
    """(the Tensor test, True) when an `if` on a Tensor condition in the loop holds `leave`,
    and no `if` around it tests a Python value (which could end the unrolling)."""
    path: list[ast.If] = []

    def walk(block: Block) -> bool:
        for stmt in block:
            if stmt is leave:
                return True
            if isinstance(stmt, ast.If):
                path.append(stmt)
                if walk(stmt.body) or walk(stmt.orelse):
                    return True
                path.pop()
            elif isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try)):
                blocks = [stmt.body, getattr(stmt, "orelse", [])]
                if any(walk(b) for b in blocks):
                    return True
        return False

    if not walk(loop.body) or not path:
        return None, False
    runtime = [ctx.types.is_runtime_test(p.test) for p in path]
    if not any(runtime):
        return None, False
    return next(p.test for p, r in zip(path, runtime) if r), all(runtime)


def _stepped(stmt: ast.stmt) -> Optional[tuple[str, str]]:
    """`n += <number>`, `n -= <number>`, `n = n + <number>` or `n = n - <number>`."""
    how = "changes by a constant"
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        if isinstance(stmt.op, (ast.Add, ast.Sub)) and _number(stmt.value):
            return stmt.target.id, how
        return None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
        if (
            isinstance(target, ast.Name)
            and isinstance(value, ast.BinOp)
            and isinstance(value.op, (ast.Add, ast.Sub))
            and isinstance(value.left, ast.Name)
            and value.left.id == target.id
            and _number(value.right)
        ):
            return target.id, how
    return None


def _grown(stmt: ast.stmt) -> Optional[tuple[str, str]]:
    """`out.append(v)` or `out = out + (v,)` / `out += (v,)`: a list or tuple one longer on
    every pass."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "append"
            and isinstance(func.value, ast.Name)
        ):
            return func.value.id, "grows"
        return None
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        if isinstance(stmt.op, ast.Add) and isinstance(stmt.value, (ast.Tuple, ast.List)):
            return stmt.target.id, "grows"
        return None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
        if (
            isinstance(target, ast.Name)
            and isinstance(value, ast.BinOp)
            and isinstance(value.op, ast.Add)
            and isinstance(value.left, ast.Name)
            and value.left.id == target.id
            and isinstance(value.right, (ast.Tuple, ast.List))
            and value.right.elts
        ):
            return target.id, "grows"
    return None


def _zero(expr: ast.expr) -> bool:
    """A number literal (zero included) as a counter's start."""
    return (
        isinstance(expr, ast.Constant)
        and isinstance(expr.value, (int, float))
        and not isinstance(expr.value, bool)
    )


def _number(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Constant)
        and isinstance(expr.value, (int, float))
        and not isinstance(expr.value, bool)
        and expr.value != 0
    )


def _only_store(loop: ast.While, name: str, stmt: ast.stmt) -> bool:
    """`stmt` is the loop body's only store of `name`."""
    target: Optional[ast.AST] = None
    if isinstance(stmt, ast.AugAssign):
        target = stmt.target
    elif isinstance(stmt, ast.Assign):
        target = stmt.targets[0]
    for body_stmt in loop.body:
        for sub in ast.walk(body_stmt):
            stored = isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Store)
            if stored and sub is not target:
                return False
    return True


def _tensor_break(ctx: FunctionContext, block: Block) -> Optional[tuple[ast.Break, ast.expr]]:
    """The first `break` of this loop body directly under an `if` on a Tensor condition that
    is not the body's first statement, with that condition. A body opening with `if <Tensor>:
    break` compiles whatever the rest carries (measured: MindSpore reads it as the loop's own
    test), so that one is left out."""
    for stmt in block[1:]:
        if isinstance(stmt, ast.If) and ctx.types.is_runtime_test(stmt.test):
            leave = next((s for s in stmt.body if isinstance(s, ast.Break)), None)
            if leave is not None:
                return leave, stmt.test
    return None


def _while_bound(
    ctx: FunctionContext,
    values: Abstract,
    node: ast.While,
    test: Optional[ast.expr] = None,
    skip: frozenset[str] = frozenset(),
) -> Iterator[RawFinding]:
    """`test`: the Tensor condition that ends the loop (the loop's own test by default);
    `skip`: names not judged."""
    fn = ctx.fn.node
    if test is None:
        test = node.test
    last = _last_bindings(node.body)
    for name, where in sorted(assigned_names(node.body).items()):
        if name in skip:
            continue
        use = loads_after(fn, name, node)
        if use is None:
            continue
        if not bound_before(fn, name, node):
            related = _bound_here(ctx, name, where, test)
            related.append(ctx.related(use, f"`{name}` is used here, after the loop"))
            yield BOUND_IN_TENSOR_WHILE.finding(
                _defined_at(node, name) or use, related=related, name=name
            )
            continue
        before = _binding_before(fn, name, node)
        if name not in last:
            continue
        if before is None:
            entry = _entry_value(ctx, values, name, node)
            if entry is None:
                continue
            before_at: ast.AST = entry[0]
            found = join_clash(values.of(last[name][1]), entry[1], in_cell=_in_cell(values))
        else:
            before_at = before[0]
            found = clash(values, last[name][1], before[1])
            if found is None:
                found = _carried_clash(values, name, last[name][1], before[1], test)
            if (
                found is not None
                and _dtype_only(values, last[name][1], before[1])
                and _mixed_after(ctx, name, node)
            ):
                found = None
        if found is not None:
            # MindSpore names the loop, whose carried value fails to join (then the read).
            finding = _report(ctx, found, f"The `while` body makes `{name}`", node, before_at, test)
            finding.related.append(ctx.related(use, f"`{name}` is read here, after the loop"))
            yield replace(finding, range=keyword_range(node, "while"))


def _carried_clash(
    values: Abstract, name: str, update: ast.expr, entry: ast.expr, test: ast.expr
) -> Optional[Clash]:
    """`i = i + 0.5` (or `n / 2`, `c + x.mean()`) in the body, with `i` an int Tensor when
    the loop is entered: the first iteration already gives another dtype, which the carried
    value cannot join (measured: "Type Join Failed: dtype1 = Float32, dtype2 = Int32";
    `i = i * 2` keeps int32 and compiles). Only a loop that runs on a value computed in the
    graph: one on a constant counter (`i = Tensor(0, ms.int32)` tested only against numbers)
    compiled or failed depending on how the result was used, unless the update itself reads a
    graph Tensor (measured: `s = Tensor(0, ms.int32)` then `while s < 5: s = s + x.sum()` fails
    the same way, `ops.zeros((), ms.int32)` too; `return x * s` after it compiles)."""
    if not isinstance(update, ast.BinOp):
        return None
    if (
        _literal_built(values, entry)
        and not _reads_other_tensor(values, test, name)
        and not _reads_other_tensor(values, update, name)
    ):
        return None
    carried = values.of(entry)
    if carried is None or carried.kind != "tensor" or carried.dtype is None:
        return None

    def operand(expr: ast.expr) -> Optional[Value]:
        is_carried = isinstance(expr, ast.Name) and expr.id == name
        return carried if is_carried else values.of(expr)

    if not any(isinstance(e, ast.Name) and e.id == name for e in (update.left, update.right)):
        return None
    dtype = binop_dtype(operand(update.left), operand(update.right), update.op)
    if dtype is None:
        return None
    return join_clash(Value("tensor", dtype), carried, in_cell=_in_cell(values))


LITERAL_NODES = (
    ast.Constant,
    ast.Tuple,
    ast.List,
    ast.Attribute,
    ast.Name,
    ast.Load,
    ast.UnaryOp,
    ast.USub,
)


def _dtype_only(values: Abstract, a: ast.expr, b: ast.expr) -> bool:
    """Both values are Tensors (the clash is of dtypes), or `a` is arithmetic on one."""
    first, second = values.of(a), values.of(b)
    tensors = (first is not None and first.kind == "tensor") or isinstance(a, ast.BinOp)
    return tensors and second is not None and second.kind == "tensor"


def _mixed_after(ctx: FunctionContext, name: str, loop: ast.While) -> bool:
    """Every read of `name` after the loop is an operand of arithmetic with another Tensor
    (`x * i`): measured to compile (MindSpore casts the carried value for the arithmetic)
    where returning `i`, `i * 2`, `(x, i)` or `ops.relu(i)` fails to join the dtypes."""
    end = (loop.end_lineno or 0, loop.end_col_offset or 0)
    reads = {
        id(n)
        for n in ctx.of(ast.Name)
        if n.id == name and isinstance(n.ctx, ast.Load) and (n.lineno, n.col_offset) >= end
    }
    if not reads:
        return False
    mixed = set()
    for op in ctx.of(ast.BinOp):
        for side, other in ((op.left, op.right), (op.right, op.left)):
            if id(side) in reads and not _names(other, name) and ctx.types.is_tensor(other):
                mixed.add(id(side))
    return reads <= mixed


def _names(expr: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))


def _literal_built(values: Abstract, expr: ast.expr) -> bool:
    """`Tensor(0, ms.int32)`, `ops.zeros((), ms.int32)`: a MindSpore function given only
    literals and dtypes."""
    if not isinstance(expr, ast.Call):
        return False
    qualname = names.callee(values.types.module, expr.func) or ""
    if not qualname.startswith("mindspore."):
        return False
    arguments = [*expr.args, *(k.value for k in expr.keywords)]
    return all(
        isinstance(node, LITERAL_NODES)
        and not (isinstance(node, ast.Name) and node.id not in ("ms", "mindspore", "mstype"))
        for argument in arguments
        for node in ast.walk(argument)
    )


def _reads_other_tensor(values: Abstract, test: ast.expr, name: str) -> bool:
    """The loop's test reads a Tensor other than the carried `name` (`i < x.sum()`)."""
    return any(
        isinstance(node, ast.Name) and node.id != name and values.types.is_tensor(node)
        for node in ast.walk(test)
    )


def _defined_at(loop: ast.While, name: str) -> Optional[ast.AST]:
    """Where MindSpore places a name first bound in a Tensor `while`: the node that makes the
    value of its first binding in the body (`z = x * 2` names `x * 2`; `y = x` names the `x`
    that `x = x * 2` made before it, or the loop's own read of a carried `x`). None when the
    value comes from outside the loop (MindSpore then names the read after it)."""
    bindings = _body_bindings(loop.body)
    first = next((i for i, (n, _) in enumerate(bindings) if n == name), None)
    if first is None:
        return None
    value = bindings[first][1]
    carried = {n for n, _ in bindings}
    while isinstance(value, ast.Name):
        earlier = [v for n, v in bindings[:first] if n == value.id]
        if earlier:
            first = max(i for i, (n, _) in enumerate(bindings[:first]) if n == value.id)
            value = earlier[-1]
            continue
        if value.id not in carried:
            return None
        return next(
            (
                n
                for n in ast.walk(loop.test)
                if isinstance(n, ast.Name) and n.id == value.id and isinstance(n.ctx, ast.Load)
            ),
            None,
        )
    return value


def _body_bindings(block: Block) -> list[tuple[str, ast.expr]]:
    """`name = value` statements at the top of a loop body, in order."""
    return [
        (stmt.targets[0].id, stmt.value)
        for stmt in block
        if isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ]


def _while_returns(
    ctx: FunctionContext, values: Abstract, node: ast.While, rest: Block
) -> Iterator[RawFinding]:
    """A `return` inside a Tensor-condition `while` joins the one after the loop."""
    after = _first_return(rest)
    if after is None:
        return
    inside: list[ast.Return] = []
    stack: list[ast.AST] = list(node.body)
    while stack:
        sub = stack.pop()
        if isinstance(sub, SCOPES):
            continue
        if isinstance(sub, ast.Return):
            inside.append(sub)
        stack.extend(ast.iter_child_nodes(sub))
    for ret in sorted(inside, key=lambda r: (r.lineno, r.col_offset)):  # the first in the source
        found = clash(values, ret.value, after.value)
        if found is not None:
            yield _report(ctx, found, "This return gives", ret.value or ret, after, node.test)
            return


def _for_returns(
    ctx: FunctionContext, values: Abstract, node: ast.For, rest: Block
) -> Iterator[RawFinding]:
    """`for blk in self.blocks: ... if <Tensor>: return a` then `return b` after the loop: the
    return inside joins the one after it (the loop's own body returns nothing else). Also a
    return nested deeper under the Tensor `if` (an `elif`, an inner `if`, a Tensor `while`
    in the body): measured on 2.10, `for i in range(3): if x.sum() > i: if x.max() > 0:
    return 1` then `return x` fails to join, naming that return."""
    if node.orelse or any(isinstance(s, ast.Return) for s in node.body):
        return
    after = _first_return(rest)
    if after is None:
        return
    for inside, test in _guarded_returns(ctx, node.body, None):
        found = clash(values, inside.value, after.value)
        if found is not None:
            yield _report(ctx, found, "This return gives", inside.value or inside, after, test)
            return


def _for_leave_carried(
    ctx: FunctionContext, values: Abstract, node: ast.For
) -> Iterator[RawFinding]:
    """`for ...: if <Tensor>: break` (or `continue`) with a name rebound after that `if` to
    another type than it holds when the `if` runs: the paths leaving at the `break` join the
    iterations that went on (measured on 2.10: `for i in range(3): if x.sum() > 5: break` then
    `x = x.astype(ms.int32)` fails, "Type Join Failed: dtype1 = Int32, dtype2 = Float32",
    naming the `break` and its `if`; `x = x * 2` there, or the cast before the `if`,
    compiles)."""
    if node.orelse:
        return
    fn = ctx.fn.node
    for index, stmt in enumerate(node.body):
        if not isinstance(stmt, ast.If) or not ctx.types.is_runtime_test(stmt.test):
            continue
        if _reads_training(stmt.test):
            continue  # see _reads_training
        leave = next((s for s in stmt.body if isinstance(s, (ast.Break, ast.Continue))), None)
        if leave is None:
            continue
        later = _last_bindings(node.body[index + 1 :])
        earlier = _last_bindings(node.body[:index])
        for name in sorted(later):
            if loads_after(fn, name, node) is None:
                continue
            update = later[name][1]
            if name in earlier:
                at, found = earlier[name][0], clash(values, update, earlier[name][1])
            else:
                before = _binding_before(fn, name, node)
                if before is not None:
                    at, found = before[0], clash(values, update, before[1])
                else:
                    entry = _entry_value(ctx, values, name, node)
                    if entry is None:
                        continue
                    at = entry[0]
                    found = join_clash(values.of(update), entry[1], in_cell=_in_cell(values))
            if found is None:
                continue
            keyword = "break" if isinstance(leave, ast.Break) else "continue"
            finding = _report(ctx, found, f"The loop body makes `{name}`", update, at, stmt.test)
            yield replace(finding, range=keyword_range(leave, keyword))
            return
        return


def _reads_training(test: ast.expr) -> bool:
    """A test that reads `self.training`, which is folded when compiled: the names it guards
    are often Tensors only on its other path (a quantizer's `if self.training is False and
    i >= n: break`, where `n` becomes a Tensor only when training), which the Tensor
    inference does not tell apart, so such a `break` is left alone."""
    return any(
        isinstance(n, ast.Attribute)
        and n.attr == "training"
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
        for n in ast.walk(test)
    )


def _guarded_returns(
    ctx: FunctionContext, block: Block, test: Optional[ast.expr]
) -> Iterator[tuple[ast.Return, ast.expr]]:
    """The returns of `block` (in source order, not in nested scopes) that run only under a
    Tensor condition, with the innermost such condition; `test`: the one around `block`."""
    for stmt in block:
        if isinstance(stmt, ast.Return):
            if test is not None:
                yield stmt, test
        elif isinstance(stmt, ast.If):
            inner = stmt.test if ctx.types.is_runtime_test(stmt.test) else test
            yield from _guarded_returns(ctx, stmt.body, inner)
            yield from _guarded_returns(ctx, stmt.orelse, inner)
        elif isinstance(stmt, ast.While) and not stmt.orelse:
            inner = stmt.test if ctx.types.is_runtime_test(stmt.test) else test
            yield from _guarded_returns(ctx, stmt.body, inner)
        elif isinstance(stmt, ast.For) and not stmt.orelse:
            yield from _guarded_returns(ctx, stmt.body, test)


def _while_grows(ctx: FunctionContext, node: ast.While) -> Iterator[RawFinding]:
    """`y = ops.concat((y, x))` in the body of a Tensor `while`, with `y` bound before it and not
    cut back later in the body."""
    if any(isinstance(n, (ast.Break, ast.Return)) for n in ast.walk(node)):
        return  # an early exit: not measured
    for index, stmt in enumerate(node.body):
        op = _grows(ctx, stmt)
        if op is None:
            continue
        name = op[0]
        rebound = assigned_names(node.body[index + 1 :])
        if name in rebound or not bound_before(ctx.fn.node, name, node):
            continue
        if _shape_bounded(ctx, node.test, name):
            continue
        related = [
            ctx.related(stmt, f"`{name}` grows here"),
            ctx.related(node.test, "the Tensor condition"),
        ]
        yield TENSOR_WHILE_GROWS.finding(
            keyword_range(node, "while"), related=related, name=name, op=op[1]
        )
        return


def _shape_bounded(ctx: FunctionContext, test: ast.expr, name: str) -> bool:
    """`while y.shape[0] < 8 and <Tensor>:` — a test of `name`'s shape (or `len`) before the
    first Tensor operand of an `and` is folded on each unrolled iteration, and stops the
    unrolling once the shape passes it (measured: compiles; `<Tensor> and y.shape[0] < 8`
    and `or` still exceed the call-depth limit)."""
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And)):
        return False
    for operand in test.values:
        if ctx.types.is_tensor(operand):
            return False
        if any(_shape_of(node, name) for node in ast.walk(operand)):
            return True
    return False


def _shape_of(node: ast.AST, name: str) -> bool:
    """`name.shape` / `name.ndim` / `name.size`, or `len(name)` / `ops.shape(name)`."""
    if isinstance(node, ast.Attribute) and node.attr in ("shape", "ndim", "size"):
        return isinstance(node.value, ast.Name) and node.value.id == name
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
        func = node.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        return called in ("len", "shape") and node.args[0].id == name
    return False


def _grows(ctx: FunctionContext, stmt: ast.stmt) -> Optional[tuple[str, str]]:
    """(name, op) for `name = ops.concat((..., name, ...))`."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return None
    target, call = stmt.targets[0], stmt.value
    if not (isinstance(target, ast.Name) and isinstance(call, ast.Call) and call.args):
        return None
    qualname = names.callee(ctx.types.module, call.func)
    if not names.is_ops_call(qualname) or qualname is None:
        return None
    op = qualname.rsplit(".", 1)[-1]
    items = call.args[0]
    if op not in GROWING_OPS or not isinstance(items, (ast.Tuple, ast.List)):
        return None
    if not any(isinstance(e, ast.Name) and e.id == target.id for e in items.elts):
        return None
    return target.id, op


def _recursion(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    if ctx.fn.cls is None:
        return
    if not any(_calls_itself(ctx, node) for node in ctx.of(ast.Call)):
        return  # the cheap test first: a method rarely calls itself
    has_tensor_if = any(ctx.types.is_condition(n.test) for n in ctx.of(ast.If)) or any(
        ctx.types.is_condition(n.test) for n in ctx.of(ast.IfExp)
    )
    if not has_tensor_if:
        return
    for node in ctx.of(ast.Call):
        if _calls_itself(ctx, node):
            yield RECURSION_ON_TENSOR.finding(
                node, related=[ctx.related(fn, f"`{fn.name}` defined here")], name=fn.name
            )


def _calls_itself(ctx: FunctionContext, call: ast.Call) -> bool:
    """`self.<this method>(...)`. A module function calling itself compiles in MindSpore 2.10
    (its recursion is resolved as a graph), so only methods are reported."""
    func = call.func
    return (
        ctx.fn.cls is not None
        and isinstance(func, ast.Attribute)
        and func.attr == ctx.fn.node.name
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    )
