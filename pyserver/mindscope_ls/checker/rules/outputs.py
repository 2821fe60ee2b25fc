"""MS219, MS307: what a Cell's graph hands back after control flow on a Tensor condition.

Only the graph's own output counts: the `return` of a Cell's `construct` that no compiled code
calls (a sub-Cell's output is consumed by its parent's graph). Measured with MindSpore 2.10 on
CPU: under STRICT a None anywhere in that output fails once a Tensor condition survives in the
graph (an `@ms.jit` function compiles); at both levels a join of two different strings gives a
Tensor, and a join of lists of different lengths gives a list holding one stacked Tensor.

A `construct` that returns nothing (no `return`, or a bare one) fails STRICT alike once an
`if`/`while` or an `assert` on a Tensor is compiled (measured: a raise, a print or an
assignment in the branch, a lone `assert (x > -100).all()`: "Invalid abstract;AbstractNone");
a test on a shape, or `self.debug and ...` the parser folds, compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..incremental.memo import NodeMemo
from ..model import Group, RawFinding
from ..rule import Rule
from . import raise_forms
from . import returns as graph_returns  # MS212 is its rule: same MindSpore error
from .helpers import shared_values
from .helpers.abstract import NONE, Abstract, Value
from .helpers.base import FunctionContext, within
from .helpers.flow import SCOPES, assigned_names, loads_after

NONE_OUTPUT_UNDER_STRICT = Rule(
    "MS219",
    "none-output-under-strict",
    Group.STRICT,
    title="`construct` outputs None after control flow on a Tensor",
    message=(
        "`construct` outputs {what} and has {flow} on a Tensor condition; STRICT cannot put None "
        "in the output of a graph with control flow: drop the None or return a Tensor in its "
        "place."
    ),
    why=(
        "A Tensor condition makes the graph a control-flow graph, whose every output must be "
        "data the backend can size; under STRICT a None output has no such value (LAX passes "
        "it through its Python fallback, and a graph without Tensor control flow compiles)."
    ),
    remedy=(
        "Return only the Tensors (e.g. `return logits` instead of `return logits, None`), a "
        "placeholder Tensor such as `ops.zeros((), ms.float32)`, or use the default LAX level."
    ),
    mindspore_says=(
        "RuntimeError: Invalid abstract;AbstractNone(Value: None) for node:ValueNode<None> None "
        "index:0 shape:NoShape"
    ),
)

JOINED_CONSTANTS_DIVERGE = Rule(
    "MS307",
    "joined-constants-diverge",
    Group.DIVERGES,
    title="A Tensor condition joins two strings or lists of different lengths",
    message=(
        "Graph mode joins {what} chosen by a Tensor condition into {becomes}, so `construct` "
        "does not return what PyNative returns; compute the choice outside the graph or return "
        "Tensors."
    ),
    why=(
        "Both paths of a Tensor condition are compiled and their values joined into one graph "
        "value: two different strings become a Tensor, and lists of different lengths become a "
        "list holding one stacked Tensor (PyNative returned 'a' where GRAPH_MODE returned "
        "Tensor(0), and [x] where GRAPH_MODE returned [stack([x])])."
    ),
    remedy=(
        "Return Tensors of one shape from both paths, or decide the string/list with a Python "
        "constant condition (or outside `construct`)."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

Flow = Union[ast.If, ast.While, ast.IfExp, ast.BoolOp]


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether the function is the graph's entry depends on its callers.
    if ctx.fn.caller is not None or not _is_construct(ctx):
        return
    returns = _own_returns(ctx)
    if all(r.value is None for r in returns):
        yield from _no_output(ctx)
        return
    yield from _appended_join(ctx, returns)
    flows = _tensor_flows(ctx)
    if not flows:
        return
    values = shared_values.abstract(ctx, module=True)
    yield from _none_output(ctx, values, returns, flows)  # STRICT's rule: a warning at LAX
    yield from _joined_constants(ctx, values, returns, flows)
    yield from _joined_objects(ctx, returns, flows)


def _no_output(ctx: FunctionContext) -> Iterator[RawFinding]:
    """A `construct` that returns nothing (no `return`, or a bare one) after an `if`/`while`
    or an `assert` on a Tensor (measured, STRICT: a raise, a print, an assignment in the branch
    or a lone `assert (x > 0).all()` fail alike; a test on a shape compiles)."""
    if ctx.of(ast.Yield, ast.YieldFrom):
        return
    derived = raise_forms.derived_of(ctx)
    flows = [i.stmt for i in raise_forms.reached(ctx) if raise_forms.runtime_test(ctx, i, derived)]
    if not flows:
        return
    flow = min(flows, key=lambda n: (n.lineno, n.col_offset))
    name = "a `while`" if isinstance(flow, ast.While) else "an `if`"
    if isinstance(flow, ast.Assert):
        name = "an `assert`"
    yield NONE_OUTPUT_UNDER_STRICT.finding(
        flow.test if isinstance(flow, ast.Assert) else flow,
        related=[ctx.related(flow, "the Tensor condition")],
        what="None (it returns nothing)",
        flow=name,
    )


def _is_construct(ctx: FunctionContext) -> bool:
    return ctx.fn.cls is not None and ctx.fn.cls.is_cell and ctx.fn.node.name == "construct"


def _own_returns(ctx: FunctionContext) -> list[ast.Return]:
    found: list[ast.Return] = ctx.of(ast.Return)
    for inner in ctx.of(ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
        if inner is not ctx.fn.node:
            inside = {id(r) for r in within(inner, found)}
            found = [r for r in found if id(r) not in inside]
    return found


# Each construct's flows, kept on its node while what its types are inferred from is the same
# (the Tensor parameters, the module's names, the class): `check` runs in every check.
_FLOWS: NodeMemo[list[Flow]] = NodeMemo()


def _tensor_flows(ctx: FunctionContext) -> list[Flow]:
    fn = ctx.fn
    deps = (frozenset(fn.tensor_params), fn.module.env, fn.cls.signature() if fn.cls else None)
    return _FLOWS.get(fn.node, deps, lambda: _find_tensor_flows(ctx))


def _find_tensor_flows(ctx: FunctionContext) -> list[Flow]:
    """Tensor conditions that stay in the graph: an `if`/`while` that returns or binds a name
    read after it, an IfExp or `t and y` that is returned or bound to a name read later (an
    unused one is dropped before the backend sees it)."""
    fn, condition = ctx.fn.node, ctx.types.is_condition
    found: list[Flow] = []
    loops: list[Union[ast.If, ast.While]] = ctx.of(ast.If, ast.While)
    for stmt in loops:
        if condition(stmt.test) and _survives(fn, stmt):
            found.append(stmt)
    if not ctx.of(ast.IfExp, ast.BoolOp):
        return found
    holders: list[Union[ast.Return, ast.Assign]] = ctx.of(ast.Return, ast.Assign)
    for holder in holders:
        if holder.value is None:
            continue
        joins: list[Flow] = [
            node
            for node in ast.walk(holder.value)
            if (isinstance(node, ast.IfExp) and condition(node.test))
            or (isinstance(node, ast.BoolOp) and condition(node.values[0]))
        ]
        if joins and _used(fn, holder):  # the read check is the costly part: last
            found += joins
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _survives(fn: ast.AST, stmt: Union[ast.If, ast.While]) -> bool:
    body = [*stmt.body, *stmt.orelse]
    if any(isinstance(n, ast.Return) for s in body for n in _own_nodes(s)):
        return True
    return any(loads_after(fn, name, stmt) is not None for name in assigned_names(body))


def _used(fn: ast.AST, holder: Union[ast.Return, ast.Assign]) -> bool:
    if isinstance(holder, ast.Return):
        return True
    return any(
        isinstance(t, ast.Name) and loads_after(fn, t.id, holder) is not None
        for t in holder.targets
    )


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    stack = [node]
    while stack:
        sub = stack.pop()
        if isinstance(sub, SCOPES):
            continue
        yield sub
        stack.extend(ast.iter_child_nodes(sub))


def _none_output(
    ctx: FunctionContext, values: Abstract, returns: list[ast.Return], flows: list[Flow]
) -> Iterator[RawFinding]:
    kinds = [_none_in(values, r.value) for r in returns]
    if any(k is None for k in kinds):
        return  # a path without None: a Tensor/None mismatch is the joins rules' finding
    whole = all(k == "None" for k in kinds)
    at = _first_none(ctx, flows if whole else [])
    flow = flows[0]
    what = "None" if whole else "a None"
    yield NONE_OUTPUT_UNDER_STRICT.finding(
        at,
        related=[ctx.related(flow, "the Tensor condition"), ctx.related(returns[0], "the output")],
        what=what,
        flow=_flow_name(flow),
    )


def _none_in(values: Abstract, expr: Optional[ast.expr]) -> Optional[str]:
    """ "None" when the whole value is None, "element" when a None is inside it, else None."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        found = [_none_in(values, e) for e in expr.elts if not isinstance(e, ast.Starred)]
        return "element" if any(found) else None
    if isinstance(expr, ast.Dict):
        found = [_none_in(values, v) for v in expr.values]
        return "element" if any(found) else None
    value = values.of(expr)
    if value == NONE:
        return "None"
    return "element" if value is not None and _holds_none(value) else None


def _holds_none(value: Value) -> bool:
    return value.items is not None and any(
        v is not None and (v == NONE or _holds_none(v)) for v in value.items
    )


def _first_none(ctx: FunctionContext, flows: list[Flow]) -> ast.AST:
    """Where MindSpore names the None: the graph keeps one None constant, which carries the
    place of the first None it meets (a literal, a bare `return`, or, when the whole output is
    None, the default `None` of a call in the Tensor condition, e.g. `x.sum()`'s `axis`)."""
    body = _position(ctx.fn.node.body[0])  # not the parameters' defaults
    spots: list[ast.AST] = [
        n for n in ctx.of(ast.Constant) if n.value is None and _position(n) >= body
    ]
    spots += [r for r in _own_returns(ctx) if r.value is None]
    for flow in flows:
        test = flow.values[0] if isinstance(flow, ast.BoolOp) else flow.test
        spots += [n for n in ast.walk(test) if isinstance(n, ast.Call)][:1]
    return min(spots, key=_position) if spots else ctx.fn.node


def _flow_name(flow: Flow) -> str:
    if isinstance(flow, ast.If):
        return "an `if`"
    if isinstance(flow, ast.While):
        return "a `while`"
    if isinstance(flow, ast.IfExp):
        return "a conditional expression"
    return "an `and`/`or`"


def _joined_constants(
    ctx: FunctionContext, values: Abstract, returns: list[ast.Return], flows: list[Flow]
) -> Iterator[RawFinding]:
    """An early `return` under a Tensor `if` against the last one, an IfExp that is returned
    (or bound to a name the output reads), or an if/else binding a name the output reads."""
    returned = {
        n.id
        for r in returns
        if r.value is not None
        for n in ast.walk(r.value)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    for flow in flows:
        if isinstance(flow, ast.IfExp):
            found = _diverging(values, flow.body, flow.orelse)
            if found is not None and _reaches_output(ctx, flow, returned):
                yield _divergence(ctx, flow, flow.orelse, flow.test, found)
        elif isinstance(flow, ast.If):
            yield from _if_join(ctx, values, flow, returns, returned)


def _if_join(
    ctx: FunctionContext,
    values: Abstract,
    node: ast.If,
    returns: list[ast.Return],
    returned: set[str],
) -> Iterator[RawFinding]:
    early = node.body[-1] if isinstance(node.body[-1], ast.Return) else None
    if early is not None and not node.orelse and returns[-1] is not early:
        last = returns[-1]
        found = _diverging(values, early.value, last.value)
        if found is not None and _position(last) > _position(node):
            yield _divergence(ctx, last, early, node.test, found)
        return
    then_values, else_values = _last_values(node.body), _last_values(node.orelse)
    for name in sorted(set(then_values) & set(else_values) & returned):
        found = _diverging(values, then_values[name], else_values[name])
        use = loads_after(ctx.fn.node, name, node)
        if found is not None and use is not None:
            yield _divergence(ctx, use, else_values[name], node.test, found)


def _last_values(block: list[ast.stmt]) -> dict[str, ast.expr]:
    found: dict[str, ast.expr] = {}
    for stmt in block:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                found[target.id] = stmt.value
    return found


def _reaches_output(
    ctx: FunctionContext, node: Union[ast.IfExp, ast.BoolOp], returned: set[str]
) -> bool:
    holders: list[Union[ast.Return, ast.Assign]] = ctx.of(ast.Return, ast.Assign)
    for holder in holders:
        if holder.value is None or not within(holder.value, [node]):
            continue
        if isinstance(holder, ast.Return):
            return True
        return any(isinstance(t, ast.Name) and t.id in returned for t in holder.targets)
    return False


def _diverging(
    values: Abstract, a: Optional[ast.expr], b: Optional[ast.expr]
) -> Optional[tuple[str, str]]:
    """(what is joined, what graph mode makes of it) when the join changes the value."""
    if (
        isinstance(a, ast.Constant)
        and isinstance(b, ast.Constant)
        and isinstance(a.value, str)
        and isinstance(b.value, str)
    ):
        return ("two different strings", "a Tensor") if a.value != b.value else None
    left, right = values.of(a), values.of(b)
    if left is None or right is None or left.kind != right.kind:
        return None
    if left.kind not in ("tuple", "list") or left.items is None or right.items is None:
        return None
    if len(left.items) == len(right.items) or left.op or right.op:
        return None
    items = (*left.items, *right.items)
    if not all(v is not None and v.kind == "tensor" for v in items):
        return None  # measured: lists of numbers of different lengths join unchanged
    kind = left.kind
    return f"{kind}s of Tensors of different lengths", f"a {kind} holding one stacked Tensor"


def _divergence(
    ctx: FunctionContext,
    at: ast.AST,
    other: ast.AST,
    test: ast.AST,
    found: tuple[str, str],
) -> RawFinding:
    return JOINED_CONSTANTS_DIVERGE.finding(
        at,
        related=[
            ctx.related(other, "the other path's value"),
            ctx.related(test, "the Tensor condition"),
        ],
        what=found[0],
        becomes=found[1],
    )


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _joined_objects(
    ctx: FunctionContext, returns: list[ast.Return], flows: list[Flow]
) -> Iterator[RawFinding]:
    """A plain object reaching the output through a Tensor join (MS212 judges one direct
    `return OBJ`): a branch's binding of the returned name, an IfExp or `t and OBJ` operand, or
    the last `return OBJ` after an early return under a Tensor `if` (MindSpore names the `if`)."""
    returned = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    for flow in flows:
        spots: list[tuple[ast.AST, ast.expr]] = []
        if isinstance(flow, ast.If):
            early = isinstance(flow.body[-1], ast.Return) and not flow.orelse
            last = returns[-1].value
            if (
                early
                and len(returns) > 1
                and last is not None
                and _position(last) > _position(flow)
            ):
                spots.append((flow.test, last))
            for block in (flow.body, flow.orelse):
                for name, value in _last_values(block).items():
                    if name in returned and loads_after(ctx.fn.node, name, flow) is not None:
                        spots.append((value, value))
        elif isinstance(flow, (ast.IfExp, ast.BoolOp)) and _reaches_output(ctx, flow, returned):
            operands = [flow.body, flow.orelse] if isinstance(flow, ast.IfExp) else flow.values[1:]
            spots += [(v, v) for v in operands]
        for at, value in spots:
            what = graph_returns.object_like(ctx, value)
            if what is not None:
                yield graph_returns.RETURN_OBJECT_UNDER_STRICT.finding(
                    at, related=[ctx.related(flow, "the Tensor condition")], what=what
                )
                return


def _appended_join(ctx: FunctionContext, returns: list[ast.Return]) -> Iterator[RawFinding]:
    """`outs = [x]`, then `outs.append(t)` under a Tensor `if` on one path only (or a different
    number of times on each), `outs` returned as it is: the two lengths are joined like two
    list displays (measured on 2.10, LAX and STRICT: [x] against [x, 2 * x] came out as
    [stack([x])], and, at LAX, [] against [x] as Tensor(0))."""
    given = list(_returned_names(returns))
    output = {n.id for n in given}
    if not output:
        return
    ifs: list[ast.If] = ctx.of(ast.If)
    for node in ifs:
        if not ctx.types.is_condition(node.test):
            continue
        then_count, else_count = _appends(node.body), _appends(node.orelse)
        if then_count is None or else_count is None:
            continue
        for name in sorted((set(then_count) | set(else_count)) & output):
            a, b = then_count.get(name, 0), else_count.get(name, 0)
            start = _tensor_list_before(ctx, name, node)
            if a == b or start is None:
                continue
            end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
            use = next((n for n in given if n.id == name and _position(n) >= end), None)
            if use is None:
                continue
            empty = start + min(a, b) == 0
            yield _divergence(
                ctx,
                use,
                node,
                node.test,
                (
                    "lists of Tensors of different lengths",
                    "a scalar Tensor at LAX" if empty else "a list holding one stacked Tensor",
                ),
            )


def _returned_names(returns: list[ast.Return]) -> Iterator[ast.Name]:
    """Names a `return` gives as they are (`return v`, `return x, v`)."""
    for ret in returns:
        value = ret.value
        for item in value.elts if isinstance(value, ast.Tuple) else [value]:
            if isinstance(item, ast.Name):
                yield item


def _appends(block: list[ast.stmt]) -> Optional[dict[str, int]]:
    """How many times each name gets `name.append(<Tensor>)` at the top of `block`; None when
    the block grows a list anywhere deeper (not counted) or leaves the function."""
    counts: dict[str, int] = {}
    for stmt in block:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)
        ):
            if call.func.attr != "append":
                if call.func.attr in ("extend", "insert", "pop", "clear", "remove"):
                    return None
                continue
            name = call.func.value.id
            counts[name] = counts.get(name, 0) + 1
            continue
        for sub in ast.walk(stmt):
            if isinstance(sub, (ast.Return, ast.Break, ast.Continue)):
                return None
            if (
                isinstance(sub, ast.Call)
                and isinstance(sub.func, ast.Attribute)
                and sub.func.attr in ("append", "extend", "insert", "pop", "clear", "remove")
            ):
                return None
    return counts


def _tensor_list_before(ctx: FunctionContext, name: str, node: ast.If) -> Optional[int]:
    """The length of `name = [t1, t2]` (Tensors only, or empty), the function's only binding of
    `name`, before `node`, when nothing outside `node` grows or shrinks it."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    args = ctx.fn.node.args
    if name in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
        return None
    if len(stores) != 1 or (stores[0].lineno, stores[0].col_offset) >= (node.lineno, 0):
        return None
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    binding = next((a for a in assigns if len(a.targets) == 1 and a.targets[0] is stores[0]), None)
    if binding is None or not isinstance(binding.value, ast.List):
        return None
    items = binding.value.elts
    if not all(ctx.types.is_tensor(e) for e in items):
        return None
    inside = {id(n) for n in ast.walk(node)}
    loops: list[Union[ast.For, ast.While]] = ctx.of(ast.For, ast.While)
    if any(id(node) in {id(n) for n in ast.walk(loop)} for loop in loops):
        return None  # an `if` in a loop joins again on each iteration: not measured
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if id(call) in inside or not isinstance(func, ast.Attribute):
            continue
        if isinstance(func.value, ast.Name) and func.value.id == name:
            return None  # grown, shrunk or read through a method elsewhere
    if any(
        isinstance(s.value, ast.Name) and s.value.id == name and not isinstance(s.ctx, ast.Load)
        for s in ctx.of(ast.Subscript)
    ):
        return None
    return len(items)
