"""MS331: a compiled function that fills its own mutable default (`acc=[]`, `cache={}`) and
reads it back.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (everything compiles): Python keeps
one default list or dict for every call, so `def helper(x, acc=[]): acc.append(1); return x *
len(acc)` called twice gives 1 then 2 in PyNative; graph mode builds the default afresh for each
call in the graph and keeps nothing between calls of the Cell, so it gave 1 both times (a helper
called twice in one construct; a helper called once, the Cell called twice; a Cell method
`self.feats(x, out=[])`; a dict default `cache["n"] = cache.get("n", 0) + 1`). Left alone: a
default only read (`dims=[1, 2]`), a default rebound before it is filled (`acc = list(acc)`), a
call that passes the argument, a default filled but never read back, and `@jit` roots (PyNative
compiles them too). Left alone too: a default filled only under an `if` on another parameter
that defaults to None (`if feat_cache is not None: feat_idx[0] += 1`), whose callers pass both.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import decorated_helpers
from .helpers.base import FunctionContext

MUTABLE_DEFAULT_FILLED = Rule(
    "MS331",
    "mutable-default-filled",
    Group.DIVERGES,
    title="A compiled function fills its mutable default argument and reads it back",
    message=(
        "`{name}` changes its default `{param}={default}` in place and reads it back: Python "
        "keeps that one {kind} across calls, graph mode starts from a fresh one on every call, "
        "so results differ from the second call on; default to None and build the {kind} in "
        "the function."
    ),
    why=(
        "A Python default is built once and shared by every call; graph mode treats it as a "
        "constant and each compiled call starts from its original value."
    ),
    remedy="Use `param=None` and `param = [] if param is None else param` in the body.",
    mindspore_says="(no error: graph mode gives 1 where PyNative's second call gives 2)",
)

# Methods that change a list or dict in place.
_MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem"}
)


def _kind(default: ast.expr) -> Optional[str]:
    if isinstance(default, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(default, (ast.Dict, ast.DictComp)):
        return "dict"
    if (
        isinstance(default, ast.Call)
        and isinstance(default.func, ast.Name)
        and default.func.id in ("list", "dict")
    ):
        return default.func.id
    return None


def _defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr]:
    args = node.args
    positional = args.posonlyargs + args.args
    found = {
        a.arg: d for a, d in zip(positional[len(positional) - len(args.defaults) :], args.defaults)
    }
    found.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return found


def _is(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name


def _mutation(node: ast.AST, name: str) -> bool:
    """`node` changes `name` in place: a mutating method, an item write, `+=`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in _MUTATORS and _is(node.func.value, name)
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    if isinstance(node, ast.AugAssign) and _is(node.target, name):
        return True
    return any(isinstance(t, ast.Subscript) and _is(t.value, name) for t in targets)


def _rebound(fn: ast.AST, name: str) -> bool:
    """`name` is bound again (`acc = list(acc)`); `acc += [...]` changes it in place instead."""
    augmented = {id(n.target) for n in ast.walk(fn) if isinstance(n, ast.AugAssign)}
    return any(
        isinstance(n, ast.Name)
        and n.id == name
        and isinstance(n.ctx, ast.Store)
        and id(n) not in augmented
        for n in ast.walk(fn)
    )


def _receiver(node: ast.AST, name: str) -> Optional[ast.expr]:
    """The `name` a mutation changes (not the ones it reads)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.value
    if isinstance(node, ast.AugAssign) and _is(node.target, name):
        return node.target
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    for t in targets:
        if isinstance(t, ast.Subscript) and _is(t.value, name):
            return t.value
    return None


def _passed_by_caller(ctx: FunctionContext, param: str) -> bool:
    """The call that made this function compiled supplies `param` (then no default is used)."""
    caller = ctx.fn.caller
    call = caller.node if caller is not None else None
    if not isinstance(call, ast.Call):
        return False
    if any(k.arg == param or k.arg is None for k in call.keywords):
        return True
    if any(isinstance(a, ast.Starred) for a in call.args):
        return True
    node = ctx.fn.node
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    if ctx.fn.cls is not None and params and params[0] in ("self", "cls"):
        params = params[1:]
    return param in params and params.index(param) < len(call.args)


def _guarded(
    fn: ast.FunctionDef | ast.AsyncFunctionDef, mutations: list[ast.AST], param: str
) -> bool:
    """Every mutation sits under an `if` testing another parameter that defaults to None
    (`if feat_cache is not None: feat_idx[0] += 1`): the default is filled only when the caller
    passes that one, and such callers pass `param` along too (mindone's causal VAEs)."""
    optional = {
        p for p, d in _defaults(fn).items() if isinstance(d, ast.Constant) and d.value is None
    }
    optional.discard(param)
    if not optional:
        return False
    tests = [
        (n.lineno, n.end_lineno or n.lineno)
        for n in ast.walk(fn)
        if isinstance(n, ast.If)
        and any(isinstance(t, ast.Name) and t.id in optional for t in ast.walk(n.test))
    ]
    return all(
        any(start < getattr(m, "lineno", 0) <= end for start, end in tests) for m in mutations
    )


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    node = ctx.fn.node
    mutable = {p: d for p, d in _defaults(node).items() if _kind(d) is not None}
    if not mutable or decorated_helpers.compiled_by_jit(ctx):
        return
    for param, default in mutable.items():
        kind = _kind(default)
        if kind is None or _rebound(node, param):
            continue
        mutations = [n for n in ast.walk(node) if _mutation(n, param)]
        if not mutations:
            continue
        # What is read back: any use of `param` but the receivers the mutations change.
        changed = {id(_receiver(m, param)) for m in mutations}
        reads = [
            n
            for n in ast.walk(node)
            if isinstance(n, ast.Name)
            and n.id == param
            and isinstance(n.ctx, ast.Load)
            and id(n) not in changed
        ]
        if not reads:
            continue
        if _passed_by_caller(ctx, param) or _guarded(node, mutations, param):
            continue
        yield MUTABLE_DEFAULT_FILLED.finding(
            mutations[0], name=node.name, param=param, default=ast.unparse(default), kind=kind
        )
