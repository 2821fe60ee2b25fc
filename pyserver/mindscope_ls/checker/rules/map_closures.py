"""MS162: `map()` of a lambda or nested function that reads a graph value of the enclosing
function (a Tensor input, `self`).

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them all): graph
mode's `map` cannot take a function with free variables that are graph values ("The Map
operator don't support Closure with free variable yet."), naming the line of the `map`. Fail:
`tuple(map(lambda s: x * s, self.scales))` with `x` an input, `map(lambda f: f(x), self.fcs)`,
`map(lambda a: a * self.scales[0], (x, x))` (`self` is free), `sum(map(lambda t: t * x, ...))`
and a nested `def scale(s): return x * s` given to `map`. Compile: a lambda reading only its
own parameters (`map(lambda t: t * 2, (x, x))`), a free local bound to a constant
(`k = 3.0`), `map(ops.relu, ...)`, `filter` of a lambda with a free variable, and the
comprehension `[f(x) for f in self.fcs]` (the fix).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin, local_names
from .helpers.base import FunctionContext, cacheable

Scope = Union[ast.Lambda, ast.FunctionDef]

MAP_OF_CLOSURE = Rule(
    "MS162",
    "map-of-closure",
    Group.FAILS,
    title="`map()` of a lambda or nested function reading a graph value it does not own",
    message=(
        "`map` is given {what} that reads `{name}` {where}: "
        "graph mode's `map` fails at every level on a function with free variables (PyNative "
        "runs it); write a comprehension instead (`{fixed}`)."
    ),
    why=(
        "Graph mode compiles `map(f, seq)` with its Map operator, which does not support a "
        "closure: `f` may read only its own parameters and constants."
    ),
    remedy=(
        "Use a comprehension (`tuple(x * s for s in self.scales)`, `[f(x) for f in self.fcs]`), "
        "or pass the value as another sequence: `map(lambda s, v: v * s, scales, (x,) * n)`."
    ),
    mindspore_says="RuntimeError: The Map operator don't support Closure with free variable yet.",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name) and c.func.id == "map" and len(c.args) >= 2
    ]
    if not calls or not builtin(ctx, "map"):
        return
    for call in calls:
        scope = called_function(ctx, call.args[0])
        if scope is None:
            continue
        name = free_graph_value(ctx, scope)
        where = "of the enclosing function, a graph value"
        if name == "self" and _constant_attributes_only(ctx, scope):
            name = None
        if name is None:
            name = _free_module_name(ctx, scope)
            where = "from outside it (a module-level name or a builtin), a free variable too"
        if name is not None:
            what = "a lambda" if isinstance(scope, ast.Lambda) else f"`{scope.name}`"
            yield MAP_OF_CLOSURE.finding(
                call, what=what, name=name, where=where, fixed=_fixed(call, scope)
            )


# Module-level names a mapped function may read: `Tensor(0.5)` of a constant is folded
# (measured: `map(lambda g: g * Tensor(0.5), (x, x))` compiles).
FOLDED_GLOBALS = frozenset({"Tensor"})


def _free_module_name(ctx: FunctionContext, scope: Scope) -> Optional[str]:
    """A name `scope` reads that neither it nor the compiled function binds: a module-level
    name or a builtin. Measured on 2.10, LAX and STRICT alike: `map(lambda g: ops.abs(g), (x,
    x))`, `ms.mint.clamp`, `clip_by_value` imported, a module constant `SCALE`, a module
    function `clip(g)`, the builtin `abs(g)` and a nested `def` calling `ops.clip_by_value`
    fail ("The Map operator don't support Closure with free variable yet."), as
    `tuple(map(lambda g: ops.clip_by_value(g, -0.1, 0.1), grads))` does in a training step;
    `map(clip, seq)` of the module function itself, `lambda g: g.clip(-0.1, 0.1)` and
    `lambda g: g * Tensor(0.5)` compile."""
    own = own_names(scope)
    outer = local_names(ctx.fn.node)
    for node in ast.walk(scope):
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and node.id not in own
            and node.id not in outer
            and node.id not in FOLDED_GLOBALS
        ):
            return node.id
    return None


def _constant_attributes_only(ctx: FunctionContext, scope: Scope) -> bool:
    """`self` read in `scope` only as `self.<name>` of a number `__init__` assigns and
    compiled code does not change: the parser folds it into a constant (measured:
    `map(lambda g: g * self.k, (x, x))` with `self.k = 0.5` compiles; `self.sc[0]` of a tuple
    and `self.half(g)` fail)."""
    cls = ctx.fn.cls
    if cls is None:
        return False
    parents = {id(child): node for node in ast.walk(scope) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(scope):
        if not (isinstance(node, ast.Name) and node.id == "self"):
            continue
        parent = parents.get(id(node))
        if not isinstance(parent, ast.Attribute) or isinstance(parents.get(id(parent)), ast.Call):
            return False
        attr = cls.attr(parent.attr)
        made = attr.node if attr is not None else None
        if cls.attr_varies(parent.attr) or not (
            isinstance(made, ast.Constant)
            and type(made.value) in (int, float)
            and not cls.attribute_stores(parent.attr)[1:]
        ):
            return False
    return True


def called_function(ctx: FunctionContext, expr: ast.expr) -> Optional[Scope]:
    """The lambda written in the call, or the nested `def` of the compiled function it names."""
    if isinstance(expr, ast.Lambda):
        return expr
    if isinstance(expr, ast.Name):
        defs: list[ast.FunctionDef] = ctx.of(ast.FunctionDef)
        found = [d for d in defs if d.name == expr.id and d is not ctx.fn.node]
        return found[0] if len(found) == 1 else None
    return None


def free_graph_value(ctx: FunctionContext, scope: Scope) -> Optional[str]:
    """A name `scope` reads from the compiled function that holds a graph value there: `self`
    or a parameter the checker takes for a Tensor, or a Tensor local."""
    own = own_names(scope)
    outer = local_names(ctx.fn.node)  # its parameters and the names it binds
    for node in ast.walk(scope):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            continue
        if node.id in own or node.id not in outer:
            continue
        if (node.id == "self" and ctx.fn.cls is not None) or ctx.types.is_tensor(node):
            return node.id
    return None


def own_names(scope: Scope) -> set[str]:
    args = scope.args
    found = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    for extra in (args.vararg, args.kwarg):
        if extra is not None:
            found.add(extra.arg)
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            found.add(node.id)
    return found


def _fixed(call: ast.Call, scope: Scope) -> str:
    """The comprehension that computes the same, for a one-parameter lambda over one sequence."""
    if isinstance(scope, ast.Lambda) and len(call.args) == 2 and len(scope.args.args) == 1:
        var = scope.args.args[0].arg
        return f"[{ast.unparse(scope.body)} for {var} in {ast.unparse(call.args[1])}]"
    return "[f(v) for v in seq]"
