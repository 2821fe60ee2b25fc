"""MS1026: bytes-only operations on a bytes value in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (each ran in PyNative):
graph mode compiles a bytes constant as a String, so what only bytes have fails at every level:
`b'ab'.decode()`, `data.decode('utf-8')` with `data = b'ab'` ("'String' object has no
attribute 'decode'"), `b'ab'.hex()`, `int.from_bytes(b'\\x01\\x00', 'big')` ("cannot convert
'str' object to bytes") and `bytearray(b'ab')` ("string argument without an encoding").
`b'a' in b'abc'` and `b'ab' + b'c'` compile (str operations); `len()` of bytes is MS232's
(STRICT). An item of bytes (`data[0]`) is a one-character str in the graph where Python gives
an int, so arithmetic on it fails at every level: `x * data[0]` ("Failed calling Mul with
Mul()(input=Tensor, other=string)"), `data[1] + 1`, `data[0] - data[1]`, `range(data[0] - 96)`,
`int(data[0])` ("invalid literal for int() with base 10: 'a'"). `data[0] == 97` compiles (and
is False there), as does `ord(data[0:1])`.
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
    yield from _items_as_numbers(ctx)


_NUMBER_CASTS = frozenset({"int", "float"})


def _items_as_numbers(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`data[i]` of bytes used as a number: an operand of arithmetic, or `int()`/`float()`."""
    items: dict[int, ast.Subscript] = {
        id(s): s
        for s in ctx.of(ast.Subscript)
        if isinstance(s.ctx, ast.Load)
        and not isinstance(s.slice, ast.Slice)
        and _is_bytes(ctx, s.value)
    }
    if not items:
        return
    for op in ctx.of(ast.BinOp):
        sides = (op.left, op.right)
        item = next((side for side in sides if id(side) in items), None)
        if item is None:
            continue
        other = op.right if item is op.left else op.left
        if isinstance(op.op, ast.Mult) and not _not_int(ctx, other, items):
            continue  # `data[0] * 2` repeats the str: it compiles
        yield _item_finding(op, items[id(item)])
    for call in ctx.of(ast.Call):
        func = call.func
        if (
            isinstance(func, ast.Name)
            and func.id in _NUMBER_CASTS
            and len(call.args) == 1
            and id(call.args[0]) in items
            and calls_shared.builtin(ctx, func.id)
        ):
            yield _item_finding(call, items[id(call.args[0])])


def _not_int(ctx: FunctionContext, expr: ast.expr, items: dict[int, ast.Subscript]) -> bool:
    """What a str cannot be multiplied by: a Tensor, a float, another bytes item."""
    if id(expr) in items or ctx.types.is_tensor(expr):
        return True
    return isinstance(expr, ast.Constant) and type(expr.value) is float


def _item_finding(node: ast.expr, item: ast.Subscript) -> RawFinding:
    return BYTES_AS_STR.finding(node, text=ast.unparse(node), value=ast.unparse(item.value))


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
