"""MS3045: an `ops`/`mint` arithmetic function given Python numbers only (no Tensor).

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 37, `mt_`): a
functional op whose operands are all Python numbers makes a Tensor of them itself. PyNative
turns a Python int (or bool) into an Int64 Tensor; graph mode makes it Int32, and a division
with an int operand Float64 where PyNative gives Float32:

- `ops.add(2, 3)`, `ops.sub`, `ops.subtract`, `ops.mul`, `ops.multiply`, `ops.maximum`,
  `ops.minimum`, `ops.pow`, `ops.floor_divide`, `ops.remainder` and `mint.add` / `sub` / `mul`
  / `maximum` / `minimum` / `pow` / `floor_divide` of two ints returned `Tensor(5, Int32)` where
  PyNative returned `Tensor(5, Int64)`; also with `x.shape[0]`, `len(x)`, `int(n)`, an int
  local, `True`, in a helper method, a module function, a sub-Cell and inside a comprehension.
  Beyond int32 the value differs too: `ops.add(2 ** 31 - 1, 1)` gave -2147483648,
  `ops.mul(100000, 100000)` 1410065408.
- `ops.div(7, 2)`, `ops.div(7, 2.0)`, `ops.div(7.0, 2)`, `ops.true_divide`, `ops.divide`,
  `mint.div` with an int operand gave `Tensor(3.5, Float64)` (PyNative Float32).
- Agree: a float pair (`ops.add(2.0, 3.0)`, `ops.div(7.0, 2.0)`), an int with a float outside a
  division (`ops.add(2, 0.5)`, `ops.mul(x.shape[0], 0.5)`), comparisons (`ops.greater(3, 2)`),
  a Tensor operand (`ops.add(Tensor(2), 3)`), and a result cast (`.astype(...)`) or combined
  with a Tensor by an operator (`ops.div(7, 2) * x`; with an int32 Tensor PyNative's promotion
  differs by the side: `i + ops.add(2, 3)` Int64, `ops.mul(2, 3) * i` Int32, not judged).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

FUNCTIONAL_OP_OF_NUMBERS = Rule(
    "MS3045",
    "functional-op-of-python-numbers",
    Group.DIVERGES,
    title="An `ops`/`mint` arithmetic function given only Python numbers",
    message=(
        "`{text}` gives `{op}` Python numbers only: graph mode makes them a {graph} Tensor where "
        "PyNative makes {pynative}; give a Tensor with the dtype you want "
        "(`{op}(Tensor({first}, ms.{want}), ...)`) or compute the number in Python."
    ),
    why=(
        "A functional op turns Python number operands into a Tensor itself. PyNative makes an int "
        "an Int64 Tensor; graph mode makes it Int32 (`ops.add(2, 3)` returned Tensor(5, Int32), "
        "PyNative Tensor(5, Int64), and `ops.mul(100000, 100000)` overflowed to 1410065408), and "
        "a division with an int operand Float64 (`ops.div(7, 2)`: Float64, PyNative Float32)."
    ),
    remedy=(
        "Pass a Tensor with an explicit dtype (`ops.add(Tensor(a, ms.int64), b)`), cast the "
        "result, or do the arithmetic on Python numbers (`a + b`) when a number is what you need."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

INT_OPS = frozenset(
    {
        "add",
        "sub",
        "subtract",
        "mul",
        "multiply",
        "maximum",
        "minimum",
        "pow",
        "floor_divide",
        "remainder",
    }
)
DIVISIONS = frozenset({"div", "true_divide", "divide"})
NAMES = INT_OPS | DIVISIONS
MODULES = ("mindspore.ops.", "mindspore.mint.")
# the keyword names of the two operands (`ops.add(input=2, other=3)`, `ops.pow(x, exponent=2)`)
OPERAND_KEYWORDS = (("input", "x"), ("other", "y", "exponent"))
NUMBER_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if (isinstance(c.func, ast.Attribute) and c.func.attr in NAMES)
        or (isinstance(c.func, ast.Name) and c.func.id in NAMES)
    ]
    if not calls:
        return
    values = abstract(ctx)
    for call in calls:
        qualname = ctx.fn.module.qualname(call.func) or ""
        op = qualname.rsplit(".", 1)[-1]
        if not qualname.startswith(MODULES) or op not in NAMES or qualname.count(".") != 2:
            continue
        operands = _operands(call)
        if operands is None:
            continue
        kinds = [_number(ctx, values, e) for e in operands]
        if None in kinds:
            continue
        if op in DIVISIONS:
            if "int" not in kinds:
                continue  # floats only: Float32 in both
            graph, pynative, want = "Float64", "a Float32 one", "float32"
        else:
            if "float" in kinds:
                continue  # promoted to Float32 in both
            graph, pynative, want = "Int32", "an Int64 one", "int64"
        if _hidden(ctx, call):
            continue
        yield FUNCTIONAL_OP_OF_NUMBERS.finding(
            call,
            text=ast.unparse(call),
            op=ast.unparse(call.func),
            graph=graph,
            pynative=pynative,
            first=ast.unparse(operands[0]),
            want=want,
        )


def _operands(call: ast.Call) -> Optional[tuple[ast.expr, ast.expr]]:
    """The two operands, positional or by keyword; None with anything else given
    (`rounding_mode=`, `alpha=`, `*args`)."""
    found: list[Optional[ast.expr]] = [None, None]
    if len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    for index, arg in enumerate(call.args):
        found[index] = arg
    for keyword in call.keywords:
        slot = next((i for i, ks in enumerate(OPERAND_KEYWORDS) if keyword.arg in ks), None)
        if slot is None or found[slot] is not None:
            return None
        found[slot] = keyword.value
    first, second = found
    if first is None or second is None:
        return None
    return first, second


def _number(ctx: FunctionContext, values: object, expr: ast.expr, depth: int = 0) -> Optional[str]:
    """'int' (bools too) or 'float' for a Python number the source shows; None otherwise."""
    if depth > 6 or ctx.types.is_tensor(expr):
        return None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            return _number(ctx, values, bound, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, NUMBER_OPS):
        sides = {
            _number(ctx, values, expr.left, depth + 1),
            _number(ctx, values, expr.right, depth + 1),
        }
        if None in sides:
            return None
        return "float" if "float" in sides or isinstance(expr.op, ast.Div) else "int"
    if isinstance(expr, ast.Constant):
        value = expr.value
        if isinstance(value, int):  # bools too
            return "int"
        return "float" if isinstance(value, float) else None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return _number(ctx, values, expr.operand, depth + 1)
    if _int_call(ctx, expr):
        return "int"
    found = values.of(expr)  # type: ignore[attr-defined]
    if found is None or found.kind != "scalar" or found.dtype not in ("int", "bool", "float"):
        return None
    return "float" if found.dtype == "float" else "int"


def _int_call(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`int(n)` of a Tensor's value, `len(x)`, `x.shape[0]`: ints graph mode computes."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        return expr.func.id in ("int", "len") and len(expr.args) == 1 and not expr.keywords
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and isinstance(expr.slice, ast.Constant)
        and isinstance(expr.slice.value, int)
        and ctx.types.is_tensor(expr.value.value)
    )


def _hidden(ctx: FunctionContext, call: ast.Call) -> bool:
    """The result's dtype is not seen: only a result returned (alone or in a returned tuple or
    list), or combined by `+`, `-`, `*`, ... with a Python int, shows it (directly or through a
    local bound once to it). Cast, compared, indexed with, given to another op, `/`, or
    combined with a Tensor or a float, it is not (measured: `ops.add(2, 3) / 2`,
    `ops.div(7, 2) * x`, `ops.add(2, 3).item()`, `ops.where(m, x, ops.add(1, 1))` agree)."""
    parents = _parents(ctx)
    return not _seen(ctx, parents, call, 0)


def _parents(ctx: FunctionContext) -> dict[int, ast.AST]:
    found: dict[int, ast.AST] = {}
    for node in ctx.nodes():
        for child in ast.iter_child_nodes(node):
            found[id(child)] = node
    return found


def _seen(ctx: FunctionContext, parents: dict[int, ast.AST], use: ast.expr, depth: int) -> bool:
    parent = parents.get(id(use))
    if parent is None or depth > 4:
        return False
    if isinstance(parent, ast.Return):
        return True
    if isinstance(parent, (ast.Tuple, ast.List)) and isinstance(
        parents.get(id(parent)), ast.Return
    ):
        return True
    if isinstance(parent, ast.BinOp) and not isinstance(parent.op, ast.Div):
        other = parent.right if parent.left is use else parent.left
        if ctx.types.is_tensor(other) or _number(ctx, abstract(ctx), other) != "int":
            return False
        return _seen(ctx, parents, parent, depth + 1)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        target = parent.targets[0]
        if not isinstance(target, ast.Name) or receivers.only_binding(ctx, target.id) is None:
            return False
        loads = [n for n in ctx.of(ast.Name) if n.id == target.id and isinstance(n.ctx, ast.Load)]
        return any(_seen(ctx, parents, n, depth + 1) for n in loads)
    return False
