"""MS1006: printing the Cell itself (`print(self)`) in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative prints the Cell's
repr): graph mode cannot pass the Cell object to its print kernel ("RuntimeError: Illegal type
in the graph: AbstractScalar(Type: External, Value: ClassMember: 'Namespace:...<Net>'", no line
named): `print(self)`, `print("net:", self)`, `print(self, x)` and `ops.print_(self)` fail.
What compiles: `print(self.training)`, `print(self.fc)` (a sub-Cell attribute), `print(f"{self}")`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import names
from .helpers.base import FunctionContext, cacheable

PRINT_SELF = Rule(
    "MS1006",
    "print-self-cell",
    Group.FAILS,
    title="`print(self)` of a Cell in compiled code",
    message=(
        "Graph mode cannot print the Cell `{name}` itself (at every level); print its "
        "attributes or Tensors instead, or print the Cell outside `construct`."
    ),
    why=(
        "The Cell object is not a graph value: passing it to `print` leaves an object the "
        "backend cannot handle."
    ),
    remedy="Print `self.<attr>` values or Tensors, or `print(net)` from Python code.",
    mindspore_says="RuntimeError: Illegal type in the graph: AbstractScalar(Type: External, ...)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    args = ctx.fn.node.args.args
    if cls is None or not cls.is_cell or not args or ctx.fn.node.decorator_list:
        return
    name = args[0].arg
    if any(n.id == name and isinstance(n.ctx, ast.Store) for n in ctx.of(ast.Name)):
        return
    for call in ctx.of(ast.Call):
        if not isinstance(call, ast.Call) or not _prints(ctx, call):
            continue
        for arg in call.args:
            if isinstance(arg, ast.Name) and arg.id == name:
                yield PRINT_SELF.finding(arg, name=name)


def _prints(ctx: FunctionContext, call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == "print":
        return calls_shared.builtin(ctx, "print")
    return names.callee(ctx.fn.module, func) == "mindspore.ops.print_"
