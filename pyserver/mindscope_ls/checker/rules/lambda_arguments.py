"""MS1042 (widened, round 36): a lambda written inside the call that hands it to compiled code,
or as a default value of a compiled function's parameter.

Measured with MindSpore 2.10 on CPU (`ar_`), at LAX and STRICT alike; each program runs in
PyNative. Graph mode compiles a function argument from its source, and for a lambda
`inspect.getsourcelines` gives the whole statement it starts on:

- `net(x, lambda t: t + 1)`, `net(x, f=lambda t: ...)`, `net(x, (lambda t: t + 1,))` and
  `f(x, lambda t: t * 2)` of an `@ms.jit` function fail ("Parse Lambda Function Fail. Node type
  must be Lambda, but got Call"), even when the compiled function never calls the lambda; no
  line of the program is named. `g = lambda t: t + 1; net(x, g)` compiles.
- `def construct(self, x, f=lambda t: t + 1)` fails, whether `construct` calls `f` or not ("An
  error occurred while parsing the positional information of the lambda expression"); the same
  default on a helper method that `construct` calls compiles.

A lambda written inside compiled code and passed to a helper (`self.apply(x, lambda t: t * 2)`)
compiles: it is parsed with the function around it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..index.module import ModuleInfo
from ..model import RawFinding
from .divergence_inputs import _bound_classes, _calls, _may_target, _target, entry_points
from .function_values import LAMBDA_NOT_ALONE
from .helpers import names
from .helpers.base import FunctionContext


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    """Calls of a Cell or an `@jit` function from code that is not compiled, given a lambda
    written in the call."""
    tree = module.tree
    if tree is None or not module.mentions("lambda"):
        return  # the common case: no lambda in the file
    found = entry_points(module, tree)
    if found is None:
        return
    cells, jits, callers = found
    for caller in callers:
        calls = [c for c in _calls(caller) if _written_lambdas(c)]
        if not calls or not any(_may_target(c, cells, jits) for c in calls):
            continue
        bound = _bound_classes(caller)
        for call in calls:
            target = _target(call, bound, cells, jits)
            if target is None:
                continue
            for lam in _written_lambdas(call):
                yield LAMBDA_NOT_ALONE.finding(
                    lam, target=f"{target.name}()'s argument", container="call", line=lam.lineno
                )


def _written_lambdas(call: ast.Call) -> list[ast.Lambda]:
    """The lambdas written in `call`'s arguments, inside displays too (not in a nested call,
    whose value is what the compiled function gets)."""
    out: list[ast.Lambda] = []
    todo: list[ast.expr] = [*call.args, *(k.value for k in call.keywords)]
    while todo:
        expr = todo.pop()
        if isinstance(expr, ast.Starred):
            expr = expr.value
        if isinstance(expr, ast.Lambda):
            out.append(expr)
        elif isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
            todo.extend(expr.elts)
        elif isinstance(expr, ast.Dict):
            todo.extend(v for v in expr.values if v is not None)
    return sorted(out, key=lambda n: (n.lineno, n.col_offset))


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """An entry point (`construct`, an `@jit` function) with a parameter defaulting to a
    lambda, called or not (measured: both fail; a helper method's `f=lambda t: ...` called
    from `construct` compiles)."""
    node = ctx.fn.node
    defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
    if not any(isinstance(d, ast.Lambda) for d in defaults):
        return  # the common case
    if ctx.fn.caller is not None:
        return  # a helper compiled for its caller: its defaults are not parsed from source
    jit = any(names.is_jit(ctx.fn.module, d) for d in node.decorator_list)
    if not jit and not (node.name == "construct" and ctx.fn.cls is not None):
        return
    for arg, default in names.parameter_defaults(node):
        if isinstance(default, ast.Lambda):
            yield LAMBDA_NOT_ALONE.finding(
                default, target=arg.arg, container="`def` line", line=default.lineno
            )
