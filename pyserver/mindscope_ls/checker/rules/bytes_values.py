"""MS1026: bytes-only operations on a bytes value in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (each ran in PyNative):
graph mode compiles a bytes constant as a String, so what only bytes have fails at every level:
`b'ab'.decode()`, `data.decode('utf-8')` with `data = b'ab'` ("'String' object has no
attribute 'decode'"), `b'ab'.hex()`, `int.from_bytes(b'\\x01\\x00', 'big')` ("cannot convert
'str' object to bytes") and `bytearray(b'ab')` ("string argument without an encoding").
`b'a' in b'abc'` and `b'ab' + b'c'` compile (str operations); `len()` of bytes is MS232's
(STRICT).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers.base import FunctionContext, cacheable
from .helpers.receivers import only_binding, self_attr

BYTES_AS_STR = Rule(
    "MS1026",
    "bytes-as-str",
    Group.FAILS,
    title="A bytes-only operation on a bytes value in compiled code",
    message=(
        "`{text}` needs real bytes, but graph mode compiles `{value}` as a str; decode or "
        "convert it outside compiled code (or write the str / int it stands for)."
    ),
    why=(
        "Graph mode has no bytes type: a bytes constant becomes a String value, which has no "
        "`decode`/`hex` and which `int.from_bytes` and `bytearray` refuse."
    ),
    remedy="Use the decoded str or the int itself, or convert outside the Cell.",
    mindspore_says="AttributeError: 'String' object has no attribute 'decode'",
)

_METHODS = frozenset({"decode", "hex"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        value = _bytes_operand(ctx, call)
        if value is not None and _is_bytes(ctx, value):
            yield BYTES_AS_STR.finding(call, text=ast.unparse(call), value=ast.unparse(value))


def _bytes_operand(ctx: FunctionContext, call: ast.Call) -> ast.expr | None:
    """The operand that must be bytes: `v` of `v.decode()`, `int.from_bytes(v, ...)`,
    `bytearray(v)`."""
    func = call.func
    if isinstance(func, ast.Attribute):
        if func.attr in _METHODS:
            return func.value
        if (
            func.attr == "from_bytes"
            and isinstance(func.value, ast.Name)
            and func.value.id == "int"
            and call.args
            and calls_shared.builtin(ctx, "int")
        ):
            return call.args[0]
        return None
    if (
        isinstance(func, ast.Name)
        and func.id == "bytearray"
        and len(call.args) == 1
        and calls_shared.builtin(ctx, "bytearray")
    ):
        return call.args[0]
    return None


def _is_bytes(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """A bytes literal, a local bound only to one (`b'a' + b'b'` too), or `self.<attr>`."""
    if depth > 4:
        return False
    if isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        return bound is not None and _is_bytes(ctx, bound, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _is_bytes(ctx, expr.left, depth + 1) and _is_bytes(ctx, expr.right, depth + 1)
    if isinstance(expr, ast.Attribute):  # `self.magic` the class sets to a bytes constant
        held = self_attr(ctx, expr)
        node = held.node if held is not None else None
        return isinstance(node, ast.Constant) and isinstance(node.value, bytes)
    return isinstance(expr, ast.Constant) and isinstance(expr.value, bytes)
