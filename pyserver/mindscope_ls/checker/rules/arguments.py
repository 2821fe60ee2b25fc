"""MS170-MS172: how a compiled function passes arguments: defaults, builtin keywords, `*`.

From MindSpore 2.10's own sources and measured compiles (`generated/errors/`,
docs/checker-errors.md):

- MS170: a `def` or `lambda` inside a compiled function gets its own graph; a default value
  that reads the enclosing function's inputs (a parameter, or a local computed from one) is a
  node of the other graph, and a call that leaves that argument out fails ("Illegal AnfNode for
  evaluating, node: ...:param_x"). Constant locals (`n = 2`), `self.<attr>` and module names
  compile; a call that passes the argument compiles. Round 34: the value of a `for` loop's
  variable is the loop graph's, so `def g(y, k=k)` written in `for k in (1, 2):` fails the same
  way when called without `k`, by name or from the list it is appended to (`fs[1](x)`, `for f
  in fs: f(x)`); a lambda collected so compiles (to other values: MS304).
- MS171: the builtins the graph translates into its own functions
  (`graph/_parse/resources.py` `convert_object_map`) take the keywords of those functions only:
  `ms_max(*data)`, `ms_min(*data)`, `ms_sum(*data)`, `ms_zip(*data)` take none (`key=`,
  `default=`, `start=`, `strict=` fail: "Got an unexpected keyword argument"), nor does the
  `inner_round` primitive (`round(v, ndigits=2)`). `enumerate_(x, start=0)` takes `start`.
  `print` is MS157's (calls.py). The builtin classes the parser calls as functions
  (`convert_class_to_function_map`: `int_func(*data)`, `float_func`, `bool_func`, `str_func`)
  take none either: `int(s, base=2)` fails ("Got an unexpected keyword argument 'base'") where
  `int(s, 2)` compiles.
- MS172: `f(*v)` unpacks `v` through `UnpackCall`, which takes a tuple, list or dict only:
  a str (`*'ab'`, a str local or attribute) or a Tensor row fails ("The arguments of
  UnpackCall operator should be tuple, list or dict"). `*t` of a Tensor parameter is MS166's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import shared_values
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import parameters
from .helpers.walk import own_nodes

DEFAULT_READS_GRAPH_VALUE = Rule(
    "MS170",
    "default-reads-graph-value",
    Group.FAILS,
    title="A nested function's default value reads the enclosing graph's inputs",
    message=(
        "`{name}()` is called without `{param}`, whose default `{default}` reads `{source}` of "
        "the enclosing compiled function; pass `{param}` explicitly."
    ),
    why=(
        "A `def` or `lambda` inside compiled code becomes its own graph; its default values are "
        "evaluated there, where the enclosing function's inputs (and what is computed from "
        "them) do not exist. A call that relies on such a default fails to compile."
    ),
    remedy=(
        "Pass the argument at the call, or give the parameter a constant default and read the "
        "value from the closure inside the body."
    ),
    mindspore_says=(
        "RuntimeError: Illegal AnfNode for evaluating, node: @Net_construct:param_x"
        "(type:Parameter), fg: construct"
    ),
)

BUILTIN_KEYWORD = Rule(
    "MS171",
    "builtin-keyword-unsupported",
    Group.FAILS,
    title="A keyword argument the graph's version of a builtin does not take",
    message=(
        "graph mode translates `{name}()` into its own function, which takes no `{keyword}=`; "
        "{advice}."
    ),
    why=(
        "The graph compiler replaces `max`, `min`, `sum`, `zip`, `round`, `int`, `float`, "
        "`bool` and `str` with its own implementations (`ms_max(*data)`, `int_func(*data)`, "
        "...), which accept positional arguments only: Python's keyword arguments fail to "
        "compile at every level."
    ),
    remedy=(
        "Drop the keyword: sort or filter first instead of `key=`, add the start value with "
        "`+` instead of `start=`, and compute outside the graph what needs the keyword."
    ),
    mindspore_says="RuntimeError: Got an unexpected keyword argument 'key'",
)

STAR_OF_NON_SEQUENCE = Rule(
    "MS172",
    "star-of-non-sequence",
    Group.FAILS,
    title="`f(*v)` with a str or a Tensor row",
    message=(
        "`*` unpacks {what} into call arguments; graph mode unpacks only a tuple, list or dict "
        "({advice})."
    ),
    why=(
        "Graph mode builds `f(*args)` with its UnpackCall operator, which takes a tuple, list "
        "or dict it knows when it compiles; a str or a Tensor is not one."
    ),
    remedy="Unpack a tuple instead (`*tuple(...)` of constants, `*ops.unstack(t)`).",
    mindspore_says=(
        "RuntimeError: The arguments of UnpackCall operator should be tuple, list or dict, "
        "but got AbstractScalar(Type: String, ...)"
    ),
)

# Builtins whose graph translation (`convert_object_map`) takes no keyword argument, and what
# to do instead; `tests/python/checker/test_errors_rules.py` checks the signatures against the
# installed `graph/_parse/standard_method.py`.
NO_KEYWORDS = {
    "max": "pick the maximum of a sorted tuple or use `ops.max`",
    "min": "pick the minimum of a sorted tuple or use `ops.min`",
    "sum": "add the start value with `+`",
    "zip": "check the lengths yourself",
    "round": "pass `ndigits` positionally",
    # builtin classes called as functions (`convert_class_to_function_map`: `int_func(*data)`)
    "int": "pass `base` positionally: `int(s, 2)`",
    "float": "pass the value positionally",
    "bool": "pass the value positionally",
    "str": "convert outside compiled code",
}

Scope = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda]


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    calls = ctx.of(ast.Call)
    if not calls:
        return
    values = shared_values.abstract(ctx)
    yield from _defaults(ctx, fn, calls)
    for call in calls:
        yield from _keywords(ctx, call)
        yield from _stars(ctx, values, call)


# ---- MS170


def _reads(expr: ast.AST, names: set[str]) -> Optional[str]:
    """The first of `names` that `expr` reads, or None."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names:
            return node.id
    return None


def _graph_names(fn: FunctionNode, own: list[ast.AST]) -> set[str]:
    """The enclosing function's inputs (not `self`) and the locals computed from them."""
    graph = parameters(fn) - {"self", "cls"}
    flows: list[tuple[list[str], ast.AST]] = []
    for node in own:
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            stored = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            flows.append((stored, node.value))
        elif isinstance(node, (ast.For, ast.comprehension)):
            stored = [n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)]
            flows.append((stored, node.iter))
        elif isinstance(node, ast.NamedExpr):
            flows.append(([node.target.id], node.value))
    changed = True
    while changed:
        changed = False
        for stored, value in flows:
            if not set(stored) <= graph and _reads(value, graph):
                graph.update(stored)
                changed = True
    return graph


def _bound_name(scope: Scope, own: list[ast.AST]) -> Optional[str]:
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return scope.name
    for node in own:  # `f = lambda ...`
        if isinstance(node, ast.Assign) and node.value is scope and len(node.targets) == 1:
            target = node.targets[0]
            return target.id if isinstance(target, ast.Name) else None
    return None


def _defaulted(scope: Scope) -> list[tuple[str, int, ast.expr]]:
    """(parameter, position or -1 for keyword-only, default) of each defaulted parameter."""
    args = scope.args
    positional = [*args.posonlyargs, *args.args]
    first = len(positional) - len(args.defaults)
    out = [(positional[first + i].arg, first + i, d) for i, d in enumerate(args.defaults)]
    out += [(a.arg, -1, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return out


def _defaults(
    ctx: FunctionContext, fn: FunctionNode, calls: list[ast.Call]
) -> Iterator[RawFinding]:
    nested: list[Scope] = [*ctx.of(ast.FunctionDef), *ctx.of(ast.AsyncFunctionDef)]
    nested += ctx.of(ast.Lambda)
    if not any(
        n is not fn and (n.args.defaults or any(d is not None for d in n.args.kw_defaults))
        for n in nested
    ):
        return  # the common case, from the node index: no nested default, no walk
    own = list(own_nodes(fn))
    scopes = [
        n
        for n in own
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        and (n.args.defaults or any(d is not None for d in n.args.kw_defaults))
    ]
    if not scopes:
        return
    graph = _graph_names(fn, own)
    loops = [n for n in own if isinstance(n, ast.For)]
    for scope in scopes:
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and scope.decorator_list:
            continue
        name = _bound_name(scope, own)
        if name is None or _bindings(name, own) != 1:
            continue
        loop = _enclosing_loop(scope, loops)
        seen = graph | _targets(loop) if loop is not None else graph
        reading = [(p, pos, d, _reads(d, seen)) for p, pos, d in _defaulted(scope)]
        reading = [r for r in reading if r[3] is not None]
        if not reading:
            continue
        if loop is not None and not isinstance(scope, ast.Lambda):
            # a lambda collected in a loop with `k=k` compiles, to other values (MS304); called
            # by name in its loop it fails as a def does (measured)
            yield from _collected(ctx, name, reading, own, calls)
        for call in calls:
            if not (isinstance(call.func, ast.Name) and call.func.id == name):
                continue
            if any(isinstance(a, ast.Starred) for a in call.args):
                continue
            if any(k.arg is None for k in call.keywords):
                continue
            passed = {k.arg for k in call.keywords}
            for param, pos, default, source in reading:
                if param in passed or 0 <= pos < len(call.args):
                    continue
                related = [ctx.related(default, f"the default of `{param}` reads `{source}`")]
                yield DEFAULT_READS_GRAPH_VALUE.finding(
                    call,
                    related=related,
                    name=name,
                    param=param,
                    default=ast.unparse(default),
                    source=source,
                )
                break


def _enclosing_loop(scope: Scope, loops: list[ast.For]) -> Optional[ast.For]:
    """The innermost `for` whose body holds the nested `def` or lambda `scope`."""
    found: Optional[ast.For] = None
    for loop in loops:
        inside = any(n is scope for stmt in loop.body for n in ast.walk(stmt))
        if inside and (found is None or loop.lineno > found.lineno):
            found = loop
    return found


def _targets(loop: ast.For) -> set[str]:
    return {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}


def _collected(
    ctx: FunctionContext,
    name: str,
    reading: list[tuple[str, int, ast.expr, Optional[str]]],
    own: list[ast.AST],
    calls: list[ast.Call],
) -> Iterator[RawFinding]:
    """A `def g(y, k=k)` written in a `for k in ...` body (the loop's value is the loop
    graph's, as an input is), collected into a list
    (`fs.append(g)`) and called from it without `k` (`fs[1](x)`, `for f in fs: f(x)`):
    measured on 2.10, "Illegal AnfNode for evaluating, node: @g:param_k", MindSpore naming
    the `for` and the call; `fs[1](x, 5)` compiles. A call by name is `_defaults`' own."""
    lists = {
        c.func.value.id
        for c in calls
        if isinstance(c.func, ast.Attribute)
        and c.func.attr == "append"
        and isinstance(c.func.value, ast.Name)
        and len(c.args) == 1
        and isinstance(c.args[0], ast.Name)
        and c.args[0].id == name
    }
    if not lists:
        return
    through = {
        n.target.id: n
        for n in own
        if isinstance(n, ast.For)
        and isinstance(n.iter, ast.Name)
        and n.iter.id in lists
        and isinstance(n.target, ast.Name)
    }
    for call in calls:
        func = call.func
        picked = (
            isinstance(func, ast.Subscript)
            and isinstance(func.value, ast.Name)
            and func.value.id in lists
        )
        looped = through.get(func.id) if isinstance(func, ast.Name) else None
        if not picked and looped is None:
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or call.keywords:
            continue
        param, pos, default, source = reading[0]
        if 0 <= pos < len(call.args):
            continue
        related = [ctx.related(default, f"the default of `{param}` reads `{source}`")]
        # MindSpore names the `for f in fs:` a looped call is in, else the call
        where = (
            ast.For(  # the loop's header only, not its body
                target=looped.target,
                iter=looped.iter,
                body=[],
                orelse=[],
                lineno=looped.lineno,
                col_offset=looped.col_offset,
                end_lineno=looped.iter.end_lineno,
                end_col_offset=looped.iter.end_col_offset,
            )
            if looped is not None
            else call
        )
        yield DEFAULT_READS_GRAPH_VALUE.finding(
            where,
            related=related,
            name=name,
            param=param,
            default=ast.unparse(default),
            source=source,
        )
        return


def _bindings(name: str, own: list[ast.AST]) -> int:
    """How many times the enclosing function binds `name` (defs and stores)."""
    count = 0
    for node in own:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            count += node.name == name
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            count += node.id == name
    return count


# ---- MS171


def _keywords(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    func = call.func
    if not (isinstance(func, ast.Name) and func.id in NO_KEYWORDS and call.keywords):
        return
    keyword = next((k.arg for k in call.keywords if k.arg is not None), None)
    if keyword is None or not builtin(ctx, func.id):
        return
    yield BUILTIN_KEYWORD.finding(call, name=func.id, keyword=keyword, advice=NO_KEYWORDS[func.id])


# ---- MS172


def _stars(ctx: FunctionContext, values: Abstract, call: ast.Call) -> Iterator[RawFinding]:
    for arg in call.args:
        if not isinstance(arg, ast.Starred):
            continue
        what = _non_sequence(ctx, values, arg.value)
        if what is not None:
            yield STAR_OF_NON_SEQUENCE.finding(arg, what=what[0], advice=what[1])
            return


def _non_sequence(
    ctx: FunctionContext, values: Abstract, expr: ast.expr
) -> Optional[tuple[str, str]]:
    known = values.of(expr)
    if known is not None and known.kind == "str":
        return "a str", "write the characters as a tuple: `*('a', 'b')`"
    # A Tensor picked out of a Tensor (`x[0]`, `x[0, :2]`); a bare Tensor parameter is MS166's,
    # and names are left alone: multi-output ops (`ops.unstack`) give tuples.
    if isinstance(expr, ast.Subscript):
        base = values.of(expr.value)
        if base is not None and base.kind == "tensor" and ctx.types.is_tensor(expr.value):
            return "a Tensor row", "unpack `*ops.unstack(row)` or pass the row itself"
    return None
