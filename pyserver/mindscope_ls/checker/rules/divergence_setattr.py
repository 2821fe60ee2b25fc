"""MS399: `setattr(self, "name", t)` of a graph Tensor in compiled code, then `self.name` read
back (LAX).

Measured with MindSpore 2.10 on CPU against PyNative (round 35): with `self.s =
Tensor(1.0, ms.float32)` set in `__init__`, `setattr(self, "s", x.sum()); return x * self.s`
returned x * 1 in GRAPH_MODE at LAX and x * 6 in PyNative (x of ones, shape (2, 3)); so did
`setattr(self, "s", self.s * 3)`. The same write spelled `self.s = x.sum()` agrees at LAX
(the attribute read afterwards is the new value), and so does `setattr(self, "s", 4)` of a
Python number, a setattr whose attribute is not read afterwards in compiled code (Python reads
the new value after the call), and reading another attribute. Under STRICT every such setattr
fails to compile (MS225), so this rule reports at LAX (and COMPATIBLE) only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .divergence_attribute_containers import attribute_read_after
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

SETATTR_TENSOR_STALE = Rule(
    "MS399",
    "setattr-tensor-then-read",
    Group.DIVERGES,
    title="`setattr(self, name, tensor)` in compiled code, the attribute read back",
    message=(
        "`{call}` stores a Tensor computed in the graph, but at LAX graph mode reads "
        "`self.{name}` afterwards as the value it had when the Cell was compiled: `{read}` "
        "below sees the old value (PyNative sees the new one); write `self.{name} = ...` "
        "instead, or keep the value in a local."
    ),
    why=(
        "A `setattr` on the Cell in compiled code is run through the JIT fallback, which does "
        "not rebind the attribute the rest of the graph reads; the plain assignment "
        "`self.s = ...` does. Measured: `setattr(self, 's', x.sum()); x * self.s` gave x * 1 "
        "(the old `self.s`) in GRAPH_MODE at LAX, x * 6 in PyNative."
    ),
    remedy="Assign the attribute directly (`self.s = x.sum()`) or use a local for the value.",
    mindspore_says="(compiles at LAX; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None or ctx.level == SyntaxLevel.STRICT:
        return
    for call in ctx.of(ast.Call):
        if not (
            isinstance(call.func, ast.Name)
            and call.func.id == "setattr"
            and len(call.args) == 3
            and not call.keywords
        ):
            continue
        owner, key, value = call.args
        if not (
            isinstance(owner, ast.Name)
            and owner.id == "self"
            and isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and _tensor(ctx, value)
        ):
            continue
        read = attribute_read_after(ctx, call, key.value)
        if read is None:
            continue
        yield SETATTR_TENSOR_STALE.finding(
            call,
            related=[ctx.related(read, "read here")],
            call=names.short(call),
            name=key.value,
            read=names.short(read),
        )


def _tensor(ctx: FunctionContext, value: ast.expr) -> bool:
    """A Tensor, or arithmetic on a Tensor attribute (`self.s * 3`, `self.s` written out as
    `Tensor(1.0)` in `__init__`)."""
    if receivers.tensor_or_parameter(ctx, value):
        return True
    if isinstance(value, ast.BinOp):
        return (
            any(
                (a := receivers.self_attr(ctx, side)) is not None
                and a.kind in ("tensor", "const_tensor")
                for side in (value.left, value.right)
            )
            or _tensor(ctx, value.left)
            or _tensor(ctx, value.right)
        )
    return False
