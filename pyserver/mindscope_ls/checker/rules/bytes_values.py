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
is False there), as does `ord(data[0:1])`. An int looked up in bytes (`97 in data`) fails
too: "'in <string>' requires string as left operand, not int" (naming no line).

MS392 (warning): the same String compiles where Python's bytes give another result. Measured
in a Cell's construct at LAX and STRICT (a `@jit` function compiles in PyNative as well):
`return x, b'ab'` and `return x, self.tag` returned `'ab'` / `'v1'` (PyNative `b'ab'`),
`(b'a', 1)` `('a', 1)`; `f"{self.tag}"` and `str(b'ab')` gave `v1` / `ab` (PyNative `b'v1'`,
`b'ab'`); `b == 'ab'` was True and `b != 'ab'` False (PyNative the reverse);
`isinstance(b, bytes)` False; `b[0] == 97` False. What agreed: `b'a' in b'abc'`,
`self.tag == b'v1'`, `len(b)` at LAX, `b'ab' + b'c'` used as a str, and an `if` whose test
(through `not`/`and`/`or`) compares `self.tag == 'v1'` with the attribute on the left: the
parser folds that with the Python value (False, as in PyNative), while `'v1' == self.tag`, an
IfExp, a `while` test and an assigned comparison see the str.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .decorated_helpers import compiled_by_jit
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import global_binding, parameters
from .helpers.receivers import only_binding, self_attr, self_attr_name

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
        if value is not None and is_bytes(ctx, value):
            yield BYTES_AS_STR.finding(call, text=ast.unparse(call), value=ast.unparse(value))
    yield from _items_as_numbers(ctx)
    compares: list[ast.Compare] = ctx.of(ast.Compare)
    for compare in compares:
        if (
            len(compare.ops) == 1
            and isinstance(compare.ops[0], (ast.In, ast.NotIn))
            and isinstance(compare.left, ast.Constant)
            and type(compare.left.value) is int
            and is_bytes(ctx, compare.comparators[0])
        ):
            yield BYTES_AS_STR.finding(
                compare, text=ast.unparse(compare), value=ast.unparse(compare.comparators[0])
            )


_NUMBER_CASTS = frozenset({"int", "float"})


def _items_as_numbers(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`data[i]` of bytes used as a number: an operand of arithmetic, or `int()`/`float()`."""
    items: dict[int, ast.Subscript] = {
        id(s): s
        for s in ctx.of(ast.Subscript)
        if isinstance(s.ctx, ast.Load)
        and not isinstance(s.slice, ast.Slice)
        and is_bytes(ctx, s.value)
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


def is_bytes(ctx: FunctionContext, expr: ast.expr, depth: int = 0, module: bool = False) -> bool:
    """A bytes literal, a local bound only to one (`b'a' + b'b'` too), or `self.<attr>`; with
    `module`, also a module-level name bound once to one that the function never binds."""
    if depth > 4:
        return False
    if isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        if bound is None and module and not _bound_here(ctx, expr.id):
            binding = global_binding(ctx.fn.module, expr.id)
            bound = binding.value if binding is not None else None
        return bound is not None and is_bytes(ctx, bound, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return is_bytes(ctx, expr.left, depth + 1) and is_bytes(ctx, expr.right, depth + 1)
    if isinstance(expr, ast.Attribute):  # `self.magic` the class sets to a bytes constant
        held = self_attr(ctx, expr)
        node = held.node if held is not None else None
        return isinstance(node, ast.Constant) and isinstance(node.value, bytes)
    return isinstance(expr, ast.Constant) and isinstance(expr.value, bytes)


BYTES_AS_STR_DIVERGES = Rule(
    "MS392",
    "bytes-as-str-diverges",
    Group.DIVERGES,
    title="A bytes value returned, formatted, compared or type-tested in a Cell's graph",
    message=(
        "`{text}` {what}: graph mode compiles `{value}` as a str, so this gives {graph} where "
        "PyNative gives {pynative}; keep bytes out of the Cell or work with the decoded str."
    ),
    why=(
        "Graph mode has no bytes type: a bytes constant becomes a str, so a Cell returns `'ab'` "
        "for `b'ab'`, an f-string or `str()` writes `ab`, `b == 'ab'` is True, "
        "`isinstance(b, bytes)` is False and an item is a one-character str (`b[0] == 97` is "
        "False)."
    ),
    remedy=(
        "Decode the bytes outside the Cell and pass or keep the str (`self.tag = 'v1'`), or "
        "compare with bytes only (`b == b'ab'` of an attribute)."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

_EQUALITY = (ast.Eq, ast.NotEq)


def check_divergence(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS392, in a Cell's construct and what it calls (a `@jit` function compiles in PyNative
    too, so the two modes agree there)."""
    if not _has_bytes(ctx) or compiled_by_jit(ctx):
        return
    folded = _folded_tests(ctx)
    candidates = [
        *ctx.of(ast.Return),
        *ctx.of(ast.FormattedValue),
        *ctx.of(ast.Call),
        *ctx.of(ast.Compare),
    ]
    for node in candidates:
        if id(node) in folded:
            continue
        found = _diverging(ctx, node)
        if found is not None:
            value, what, graph, pynative = found
            yield BYTES_AS_STR_DIVERGES.finding(
                node,
                text=_short(node),
                what=what,
                value=ast.unparse(value),
                graph=graph,
                pynative=pynative,
            )


def _diverging(ctx: FunctionContext, node: ast.AST) -> Optional[tuple[ast.expr, str, str, str]]:
    if isinstance(node, ast.Return):
        if ctx.fn.node.name != "construct" or ctx.fn.cls is None or not ctx.fn.cls.is_cell:
            return None
        if node.value is None:
            return None
        outputs = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        for out in outputs:
            value = _returned_bytes(ctx, out)
            if value is not None:
                return value, "returns bytes from construct", "a str", "bytes"
        return None
    if isinstance(node, ast.FormattedValue):
        if node.format_spec is None and is_bytes(ctx, node.value):
            return node.value, "formats bytes", "the text without `b'...'`", "`b'...'`"
        return None
    if isinstance(node, ast.Call):
        func = node.func
        if not isinstance(func, ast.Name) or len(node.args) < 1 or node.keywords:
            return None
        arg = node.args[0]
        if (
            func.id == "str"
            and len(node.args) == 1
            and calls_shared.builtin(ctx, "str")
            and is_bytes(ctx, arg)
        ):
            return arg, "converts bytes to str", "the text without `b'...'`", "`b'...'`"
        if (
            func.id == "isinstance"
            and len(node.args) == 2
            and isinstance(node.args[1], ast.Name)
            and node.args[1].id == "bytes"
            and calls_shared.builtin(ctx, "isinstance")
            and is_bytes(ctx, arg)
        ):
            return arg, "tests for bytes", "False", "True"
        return None
    if isinstance(node, ast.Compare):
        if len(node.ops) != 1 or not isinstance(node.ops[0], _EQUALITY):
            return None
        left, right = node.left, node.comparators[0]
        for one, other in ((left, right), (right, left)):
            if is_bytes(ctx, one, module=True) and _is_str_constant(other):
                return one, "compares bytes with a str", "equal values", "unequal ones"
            if (
                isinstance(one, ast.Subscript)
                and not isinstance(one.slice, ast.Slice)
                and is_bytes(ctx, one.value)
                and isinstance(other, ast.Constant)
                and type(other.value) is int
            ):
                return one.value, "compares an item of bytes with an int", "a str item", "an int"
    return None


def _folded_tests(ctx: FunctionContext) -> set[int]:
    """Compares with a `self.<attr>` on the left that an `if` tests, through `not` / `and` /
    `or`: measured, the parser evaluates those with the Python attribute, so
    `if self.tag == "MS"` is False as in PyNative; `"MS" == self.tag`, IfExp, `while` and an
    assigned comparison still see the str."""
    folded: set[int] = set()
    ifs: list[ast.If] = ctx.of(ast.If)
    pending: list[ast.expr] = [branch.test for branch in ifs]
    while pending:
        test = pending.pop()
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            pending.append(test.operand)
        elif isinstance(test, ast.BoolOp):
            pending.extend(test.values)
        elif isinstance(test, ast.Compare) and self_attr_name(test.left) is not None:
            folded.add(id(test))
    return folded


_BYTES_LITERAL = re.compile(r"(?<![\w.])(?:[bB][rR]?|[rR][bB])['\"]")
_SCANNED: dict[int, tuple[str, bool]] = {}


def _has_bytes(ctx: FunctionContext) -> bool:
    """The module's text holds a bytes literal (one scan per module text)."""
    source = ctx.fn.module.source or ""
    seen = _SCANNED.get(id(source))
    if seen is None or seen[0] is not source:
        if len(_SCANNED) > 64:
            _SCANNED.clear()
        seen = (source, _BYTES_LITERAL.search(source) is not None)
        _SCANNED[id(source)] = seen
    return seen[1]


def _bound_here(ctx: FunctionContext, name: str) -> bool:
    if name in parameters(ctx.fn.node):
        return True
    stored: list[ast.Name] = ctx.of(ast.Name)
    return any(n.id == name and not isinstance(n.ctx, ast.Load) for n in stored)


def _returned_bytes(ctx: FunctionContext, out: ast.expr) -> Optional[ast.expr]:
    """`out` itself, or an item of a tuple or list display it is (or a local bound once to
    one), when that is bytes."""
    if is_bytes(ctx, out, module=True):
        return out
    if isinstance(out, ast.Name):
        bound = only_binding(ctx, out.id)
        out = bound if bound is not None else out
    if isinstance(out, (ast.Tuple, ast.List)):
        return next((e for e in out.elts if is_bytes(ctx, e, module=True)), None)
    return None


def _is_str_constant(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str)


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."
