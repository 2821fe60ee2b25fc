"""MS3010, MS3011: a Python int (or tuple of ints) that a Tensor condition chooses, or that a
Tensor `while` carries, used as a shape, a size, a slice bound or an axis.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 36, `x` of shape
(3, 4), `x.sum() > 0` true), in a Cell's `construct` and through a helper method:
- MS3010: `n = x.shape[0] - 1 if x.sum() > 0 else 3`, or `if x.sum() > 0: n = x.shape[0] - 1`
  / `else: n = 3`, then `ops.zeros((n, 2))` made 3 rows (PyNative 2): graph mode folds the
  shape with the value of the last path (the `else`, or the value bound before an `if`
  without one). So did `ops.ones(n)`, `x.reshape(n, -1)` (and `x.reshape((n, -1))`,
  `ops.reshape`, `x.view`), `x.tile((n, 1))`, `broadcast_to`, a slice bound (`x[:n]`, `x[n:]`,
  `x[:, :n]`), `ops.split(x, [n, 3 - n])`, `squeeze(n - 1)` and an axis (`x.sum(axis=n - 1)`,
  `x.mean`, `x.transpose`: an axis out of range then fails), with values `x.shape[i]`,
  `len(x)`, `x.ndim - 1`, `self.k`, `1 + 1`, `mutable(1)`, and tuples (`s = (1, 2)` / `(2, 2)`,
  also of literals), also `s = (n, 2)` then `ops.zeros(s)`. An `if` statement whose paths bind
  only int literals (`n = 1` / `n = 2`, `elif` too) agrees with PyNative; an IfExp of literals
  (`n = 1 if c else 2`) does not. They agree too: `ops.full`, `ops.fill`, `ops.randn`,
  `ops.arange`, `ops.eye`, `ops.topk`'s k, `ops.one_hot`'s depth, `ops.expand_dims`, `x[n]`,
  `n * 2` and `return n`, and a Python condition (`if x.shape[0] > 2:`).
- MS3011: `n = 1` then `while x.sum() > n * 40: n = n + 1` (also `n * 2`, a counter of
  another name in the test, a Tensor test on an accumulator with `i = i + 1` in the body) and
  `n` as one of the same shapes, after the loop or inside it (`acc = acc + x[:i].sum()`):
  graph mode uses the value from before the loop (`ops.zeros(n)` of 1 element, PyNative 2).
  `return n`, `x * n`, `ops.arange(n)`, `x[i]` and a `while` on a Python int (unrolled) agree.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable, within
from .helpers.reaching import reaching
from .joins import runtime_test

SHAPE_FROM_TENSOR_BRANCH = Rule(
    "MS3010",
    "shape-from-tensor-branch",
    Group.DIVERGES,
    title="An int a Tensor condition chooses, used as a shape, slice bound or axis",
    message=(
        "`{name}` is chosen by a Tensor condition (line {line}), and `{call}` uses it as a "
        "shape, size, slice bound or axis: graph mode folds it to the value of the last path "
        "(`{last}`) whichever path runs; PyNative uses the chosen one."
    ),
    why=(
        "Graph mode compiles both paths of a Tensor condition and joins the number each binds; "
        "where a shape or an axis must be a constant, it takes the value of the last path "
        "(the `else`, or the value from before the `if`). Measured: `n = x.shape[0] - 1 if "
        "x.sum() > 0 else 3; ops.zeros((n, 2))` gave 3 rows in GRAPH_MODE, 2 in PyNative."
    ),
    remedy=(
        "Compute both results and choose between Tensors (`ops.select`, or slice/pad to one "
        "shape), or decide the size with a Python condition on shapes."
    ),
    mindspore_says="(compiles; the shape is the last path's value)",
)

SHAPE_FROM_TENSOR_WHILE = Rule(
    "MS3011",
    "shape-from-tensor-while",
    Group.DIVERGES,
    title="An int a Tensor `while` changes, used as a shape, slice bound or axis",
    message=(
        "`{name}` is changed by a `while` on a Tensor condition (line {line}), and `{call}` "
        "uses it as a shape, size, slice bound or axis: graph mode folds it to its value "
        "from before the loop (`{start}`); PyNative uses the value the loop reached."
    ),
    why=(
        "A `while` on a Tensor condition is compiled once, and a Python int it carries is a "
        "variable there; where a shape or an axis must be a constant, graph mode takes the "
        "value the int had when the loop started. Measured: `n = 1; while x.sum() > n * 40: "
        "n = n + 1; ops.zeros(n)` gave 1 element in GRAPH_MODE, 2 in PyNative."
    ),
    remedy=(
        "Keep the size a Tensor and mask or slice with Tensor operations, or bound the loop by "
        "a Python value so that it unrolls."
    ),
    mindspore_says="(compiles; the shape is the value from before the loop)",
)

# where graph mode folds the number (measured): function name -> positions of shape arguments
# (in the `ops.` function, the Tensor first); for a Tensor method: name -> all positions
_FUNCTIONS: dict[str, tuple[int, ...]] = {
    "zeros": (0,),
    "ones": (0,),
    "reshape": (1,),
    "tile": (1,),
    "broadcast_to": (1,),
    "split": (1,),
    "squeeze": (1,),
    "sum": (1,),
    "mean": (1,),
    "transpose": (1,),
    "narrow": (1, 2, 3),
}
_STRICT_FAILS = frozenset({"narrow"})  # STRICT refuses a variable there (MS236's family)
_KEYWORDS = frozenset({"shape", "size", "axis", "dims", "multiples", "split_size_or_sections"})
_METHODS = frozenset(
    {
        "reshape",
        "view",
        "tile",
        "broadcast_to",
        "squeeze",
        "sum",
        "mean",
        "transpose",
        "split",
        "narrow",
    }
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.While] = [w for w in ctx.of(ast.While) if runtime_test(ctx, w.test)]
    ifs: list[ast.If] = [i for i in ctx.of(ast.If) if runtime_test(ctx, i.test)]
    ifexps: list[ast.IfExp] = ctx.of(ast.IfExp)
    if not (loops or ifs or ifexps):
        return
    bindings = _bindings(ctx)
    if not bindings:
        return
    flow = reaching(ctx.fn.node)
    seen: set[int] = set()
    for call, read in _shape_reads(ctx):
        if id(read) in seen:
            continue
        found = _judge(ctx, read, flow, bindings, loops, ifs)
        if found is None:
            continue
        seen.add(id(read))
        rule, line, value = found
        text = names.short(call)
        if rule is SHAPE_FROM_TENSOR_WHILE:
            yield rule.finding(read, name=read.id, call=text, line=line, start=value)
        else:
            yield rule.finding(read, name=read.id, call=text, line=line, last=value)


def _bindings(ctx: FunctionContext) -> dict[int, tuple[ast.Name, ast.expr]]:
    """id of a Name store -> (the store, its value) for `n = v` and `n op= v` (as `n op v`)."""
    found: dict[int, tuple[ast.Name, ast.expr]] = {}
    stmts: list[ast.Assign | ast.AugAssign] = ctx.of(ast.Assign, ast.AugAssign)
    for stmt in stmts:
        if isinstance(stmt, ast.Assign):
            if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                found[id(stmt.targets[0])] = (stmt.targets[0], stmt.value)
        elif isinstance(stmt.target, ast.Name):
            value = ast.BinOp(ast.Name(stmt.target.id, ast.Load()), stmt.op, stmt.value)
            found[id(stmt.target)] = (stmt.target, value)
    return found


def _shape_reads(ctx: FunctionContext) -> Iterator[tuple[ast.expr, ast.Name]]:
    """(the call or subscript, a Name read) for each name given where a shape is folded."""
    for call in ctx.of(ast.Call):
        for arg in _shape_arguments(ctx, call):
            for name in _names_in(ctx, arg):
                yield call, name
    for sub in ctx.of(ast.Subscript):
        if not isinstance(sub.ctx, ast.Load) or not ctx.types.is_tensor(sub.value):
            continue
        parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        for part in parts:
            if isinstance(part, ast.Slice):
                for bound in (part.lower, part.upper):
                    if bound is not None:
                        for name in _names_in(ctx, bound):
                            yield sub, name


def _shape_arguments(ctx: FunctionContext, call: ast.Call) -> list[ast.expr]:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in _STRICT_FAILS and ctx.level == SyntaxLevel.STRICT:
        return []
    qualname = names.callee(ctx.fn.module, func)
    if (
        qualname is not None
        and qualname.startswith("mindspore.ops.")
        and names.is_ops_call(qualname)
    ):
        positions = _FUNCTIONS.get(qualname.rsplit(".", 1)[-1])
        if positions is None:
            return []
        given = [call.args[p] for p in positions if p < len(call.args)]
        return given + [k.value for k in call.keywords if k.arg in _KEYWORDS]
    if (
        isinstance(func, ast.Attribute)
        and func.attr in _METHODS
        and receivers.tensor_or_parameter(ctx, func.value)
    ):
        return list(call.args) + [k.value for k in call.keywords if k.arg in _KEYWORDS]
    return []


def _names_in(ctx: FunctionContext, arg: ast.expr, depth: int = 0) -> Iterator[ast.Name]:
    """Names read as a number in `arg`: itself, items of a tuple/list, operands of arithmetic;
    a local bound once to a tuple (`s = (n, 2)`) is followed."""
    if depth > 4 or isinstance(arg, ast.Starred):
        return
    if isinstance(arg, ast.Name):
        yield arg
        bound = receivers.only_binding(ctx, arg.id)
        if isinstance(bound, (ast.Tuple, ast.List)):
            for elt in bound.elts:
                yield from _names_in(ctx, elt, depth + 1)
    elif isinstance(arg, (ast.Tuple, ast.List)):
        for elt in arg.elts:
            yield from _names_in(ctx, elt, depth + 1)
    elif isinstance(arg, ast.BinOp):
        yield from _names_in(ctx, arg.left, depth + 1)
        yield from _names_in(ctx, arg.right, depth + 1)
    elif isinstance(arg, ast.UnaryOp):
        yield from _names_in(ctx, arg.operand, depth + 1)


def _judge(
    ctx: FunctionContext,
    read: ast.Name,
    flow: object,
    bindings: dict[int, tuple[ast.Name, ast.expr]],
    loops: list[ast.While],
    ifs: list[ast.If],
) -> Optional[tuple[Rule, int, str]]:
    reached = flow.of(read)  # type: ignore[attr-defined]
    if reached is None:
        bound = receivers.only_binding(ctx, read.id)
        if isinstance(bound, ast.IfExp) and _ifexp_differs(ctx, bound):
            return SHAPE_FROM_TENSOR_BRANCH, bound.lineno, ast.unparse(bound.orelse)
        return None
    values = [bindings.get(b) for b in reached]
    if len(values) < 2 or any(v is None for v in values):
        return None
    pairs = [v for v in values if v is not None]
    if not all(_intlike(value, read.id) for _, value in pairs):
        return None
    # MS3011: one binding inside a Tensor `while`, another before it
    for loop in loops:
        inside = [p for p in pairs if within(loop, [p[0]])]
        before = [p for p in pairs if not within(loop, [p[0]]) and _before(p[0], loop)]
        if inside and len(before) == 1 and _refers(inside, read.id):
            return SHAPE_FROM_TENSOR_WHILE, loop.lineno, ast.unparse(before[0][1])
    # MS3010: bindings on the paths of a Tensor `if`
    for node in ifs:
        if not any(within(node, [p[0]]) for p in pairs):
            continue
        if _in_loop_of(read, loops):
            return None
        texts = {ast.unparse(v) for _, v in pairs}
        if len(texts) < 2:
            return None
        if all(names.is_int_literal(v) for _, v in pairs):
            return None  # an `if` binding only int literals agrees (measured)
        return SHAPE_FROM_TENSOR_BRANCH, node.lineno, _last(node, pairs)
    return None


def _last(node: ast.If, pairs: list[tuple[ast.Name, ast.expr]]) -> str:
    """The value of the last path: bound in the `else`, or (no `else` binding) outside the
    `if`'s body."""
    orelse = [p for p in pairs if any(within(s, [p[0]]) for s in node.orelse)]
    rest = orelse or [p for p in pairs if not any(within(s, [p[0]]) for s in node.body)]
    chosen = max(rest or pairs, key=lambda p: (p[0].lineno, p[0].col_offset))
    return ast.unparse(chosen[1])


def _ifexp_differs(ctx: FunctionContext, node: ast.IfExp) -> bool:
    if not runtime_test(ctx, node.test):
        return False
    if not (_intlike(node.body, "") and _intlike(node.orelse, "")):
        return False
    return ast.unparse(node.body) != ast.unparse(node.orelse)


def _refers(inside: list[tuple[ast.Name, ast.expr]], name: str) -> bool:
    """A binding in the loop computes the number from itself (`n = n + 1`, `n *= 2`)."""
    return any(
        isinstance(v, ast.BinOp)
        and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(v))
        for _, v in inside
    )


def _before(node: ast.AST, loop: ast.While) -> bool:
    return (node.lineno, node.col_offset) < (loop.lineno, loop.col_offset)  # type: ignore[attr-defined]


def _in_loop_of(read: ast.Name, loops: list[ast.While]) -> bool:
    return any(within(loop, [read]) for loop in loops)


def _intlike(expr: ast.expr, name: str, depth: int = 0) -> bool:
    """A Python int (or tuple of ints) graph mode knows when compiling: literals, `x.shape`
    and its items, `len(x)`, `x.ndim`, `self.k`, `mutable(k)`, arithmetic on them (and on
    `name` itself, the number a loop carries)."""
    if depth > 6:
        return False
    if names.is_int_literal(expr):
        return True
    if isinstance(expr, ast.Name):
        return expr.id == name and name != ""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return bool(expr.elts) and all(_intlike(e, name, depth + 1) for e in expr.elts)
    if isinstance(expr, ast.BinOp):
        return isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)) and all(
            _intlike(s, name, depth + 1) for s in (expr.left, expr.right)
        )
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return _intlike(expr.operand, name, depth + 1)
    if isinstance(expr, ast.Attribute):
        if expr.attr in ("shape", "ndim"):
            return True
        return isinstance(expr.value, ast.Name) and expr.value.id == "self"
    if isinstance(expr, ast.Subscript):
        value = expr.value
        return isinstance(value, ast.Attribute) and value.attr == "shape"
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        if expr.func.id == "len" and len(expr.args) == 1:
            return True
        if expr.func.id == "mutable" and len(expr.args) == 1:
            return _intlike(expr.args[0], name, depth + 1)
    return False
