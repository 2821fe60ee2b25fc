"""MS1125: a compiled function with positional-only parameters (`def f(a, /)`).

Measured with MindSpore 2.10 on CPU (round 36, `ar_`), at LAX and STRICT alike; each program
runs in PyNative. MindSpore's parser binds a function's arguments from `args.args` only and never
reads `posonlyargs`, so a parameter before `/` does not exist in the graph:

- an entry point (`construct(self, x, /, y)`, `@ms.jit def f(x, y, /)`) called with it fails
  with "For 'Cell', the function construct requires 1 positional argument and 0 default
  argument, total 1, but got 2" / "Function f needs 0 positional argument ..." (no line named);
- a helper (`self.f(x, x)` of `def f(self, a, /, b)`, a module function `g(a, /)`, a nested
  `def g(a, /)`, a sub-Cell's `construct(self, a, /)`) fails when its body reads the parameter:
  "NameError: The name 'a' is not defined" at the call site;
- a defaulted positional-only parameter nothing passes fails on its read likewise
  (`construct(self, x=None, y=2.0, /)` then `return y`).

`def construct(self, /, x)` (only `self` before the `/`) compiles: the parser drops the first
parameter of a method by position.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext

POSITIONAL_ONLY_PARAMETER = Rule(
    "MS1125",
    "positional-only-parameter-in-graph",
    Group.FAILS,
    title="A compiled function with positional-only parameters (`/`)",
    message=(
        "`{name}` is a positional-only parameter of `{function}` (before `/`); graph mode "
        "does not bind positional-only parameters, so the call fails or `{name}` is not "
        "defined; drop the `/` from the signature."
    ),
    why=(
        "MindSpore's graph parser takes a function's parameters from `args.args` and ignores "
        "`posonlyargs`: a parameter written before `/` is neither counted nor defined in the "
        "graph."
    ),
    remedy="Remove the `/` (make the parameters ordinary positional ones).",
    mindspore_says="NameError: The name 'a' is not defined, or not supported in graph mode.",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    node = ctx.fn.node
    posonly = list(node.args.posonlyargs)
    if not posonly:
        return  # the common case: one attribute read
    if ctx.fn.cls is not None and not _static(node) and posonly[0].arg in ("self", "cls"):
        posonly = posonly[1:]  # `self` before the `/` compiles (dropped by position)
    if not posonly:
        return
    wanted = {a.arg for a in posonly}
    reads = sorted(
        (
            n
            for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in wanted
        ),
        key=lambda n: (n.lineno, n.col_offset),
    )
    required = [a for a, d in _with_defaults(node) if d is None and a in posonly]
    if reads:
        first = reads[0]
        yield POSITIONAL_ONLY_PARAMETER.finding(first, name=first.id, function=node.name)
    elif required:
        arg = required[0]
        yield POSITIONAL_ONLY_PARAMETER.finding(arg, name=arg.arg, function=node.name)


def _with_defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.arg, object]]:
    positional = [*node.args.posonlyargs, *node.args.args]
    defaults: list[object] = [None] * (len(positional) - len(node.args.defaults))
    defaults += list(node.args.defaults)
    return list(zip(positional, defaults))


def _static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
