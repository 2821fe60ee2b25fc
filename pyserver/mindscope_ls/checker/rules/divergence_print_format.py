"""MS381: `print` in a Cell's compiled code writes some Python values differently.

Measured with MindSpore 2.10 on CPU (round 33, `dv_`), LAX and STRICT alike, the process's
stdout of GRAPH_MODE against PyNative: graph mode's `print` formats Python values itself.
A bool is written as an int (`print(True)` -> `1`, `print('training', self.training)` ->
`training` and `0` on two lines (MS3000: one line per argument), `print(n > 1)`,
`print(len(layers) > 1)`, `print(x.dtype == ms.float32)`,
`print(isinstance(x, Tensor))`, `print(not self.flag)`); a float as C's `%g` (`2.0` -> `2`,
`-0.0` -> `-0`, `1 / 3` -> `0.333333`, `0.1 * 3` -> `0.3`, `3.14159265` -> `3.14159`); a list
as a tuple (`[1, 2, 3]` -> `(1, 2, 3)`), a dict as the tuple of its values; a tuple or list
holding a str, None, a Tensor or another tuple is written item by item without brackets
(`('loss', 1.5)` -> `loss 1.5`, `['lr', 0.5, 3]` -> `lr 0.5 3`, `((1, 2), 3)` -> `1 2 3`,
`(x, y)` -> `1 2`), a tuple of floats in exponent form (`(1.5, 2.5)` ->
`( 1.50000000e+00, 2.50000000e+00)`). What prints the same: ints, strs, None, floats `%g`
writes as Python does (`0.5`, `0.001`, `1e-05`), a tuple of ints (`(1, 2, 3)`, `x.shape` of
two or more dims), a 0-d int Tensor, and an `@ms.jit` function (PyNative compiles it too).
Tensors with dimensions print as `Tensor(shape=..., value=...)` as well, which this rule
leaves alone. (Measured with the process's stdout: graph mode prints from C++, which
`contextlib.redirect_stdout` does not see.)
Round 36 (`sf_`): a one-item tuple loses its comma, `print((self.k,))` and `print(x.shape)` of
a 1-d Tensor wrote `(3)` (PyNative `(3,)`); a shape of two or more dims agrees. (Several
arguments are written one per line: MS3000.)
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared, fstring_texts
from .helpers import names, receivers, shared_values
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext

PRINT_FORMAT_DIFFERS = Rule(
    "MS381",
    "print-format-differs",
    Group.DIVERGES,
    title="`print` of a Python bool, float, list, dict or mixed tuple in compiled code",
    message=(
        "Graph mode's `print` writes {what} (PyNative writes {python}); format it yourself "
        "(`print(str(...))` of a str built outside the graph) if the text matters."
    ),
    why=(
        "Graph mode prints Python values with its own formatting: `print(True)` wrote 1 and "
        "`print([1, 2])` wrote (1, 2) in GRAPH_MODE where PyNative wrote True and [1, 2]."
    ),
    remedy="Print the value outside the compiled function, or pass a str built there.",
    mindspore_says="(compiles; prints differently from PyNative)",
)

COMPARES = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
BOOL_CALLS = frozenset({"isinstance", "hasattr", "callable", "issubclass"})
SIZE_ATTRS = frozenset({"shape", "ndim", "dtype", "size"})


def cell_prints(ctx: FunctionContext) -> list[ast.Call]:
    """The builtin `print` calls of a compiled function that is not a `jit` function (PyNative
    compiles those too, so both modes agree)."""
    if ctx.fn.level is not None or not ctx.fn.module.mentions("print"):
        return []
    prints = [c for c in ctx.of(ast.Call) if isinstance(c.func, ast.Name) and c.func.id == "print"]
    if not prints or not calls_shared.builtin(ctx, "print"):
        return []
    return prints


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    prints = cell_prints(ctx)
    if not prints:
        return
    values = shared_values.abstract(ctx, module=True)
    for call in prints:
        if call.keywords:
            continue
        for arg in call.args:
            found = _differs(ctx, values, arg)
            if found is not None:
                what, python = found
                yield PRINT_FORMAT_DIFFERS.finding(arg, what=what, python=python)
                break


def _differs(ctx: FunctionContext, values: Abstract, arg: ast.expr) -> Optional[tuple[str, str]]:
    if _python_bool(ctx, values, arg):
        return f"the bool `{ast.unparse(arg)}` as 1 or 0", "True or False"
    number = _float_value(ctx, arg)
    if number is not None:
        shown = f"{number:g}"
        if shown != repr(number):
            return f"`{ast.unparse(arg)}` as {shown}", repr(number)
        return None
    if fstring_texts.one_dim_shape(ctx, arg):
        return f"the one-item tuple `{ast.unparse(arg)}` without its comma, as `(n)`", "`(n,)`"
    held = _display(ctx, arg)
    if (
        isinstance(held, ast.Tuple)
        and len(held.elts) == 1
        and not isinstance(held.elts[0], ast.Starred)
        and not _python_bool(ctx, values, held.elts[0])  # `(True,)` fails: MS199's
    ):
        text = ast.unparse(held)
        return f"the one-item tuple {text} without its comma", text
    if isinstance(held, ast.List) and all(_is_int(e) for e in held.elts):
        text = ast.unparse(held)
        return f"the list {text} as a tuple (an empty one as a number)", text
    if (
        isinstance(held, ast.List)
        and held.elts
        and all(not isinstance(e, ast.Starred) and ctx.types.is_tensor(e) for e in held.elts)
    ):
        return "a list of Tensors item by item, without brackets", "the list"
    if isinstance(held, ast.Dict) and held.keys:
        return "a dict as the tuple of its values", "the dict"
    if (
        isinstance(held, ast.List)
        and held.elts
        and any(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in held.elts)
        and _tuple_flattened(ctx, values, held)
    ):
        text = ast.unparse(held)
        return f"the list {text} item by item, without brackets", text
    if isinstance(held, ast.Tuple) and held.elts and _tuple_flattened(ctx, values, held):
        text = ast.unparse(held)
        return f"the tuple {text} item by item, without brackets", text
    return None


def _display(ctx: FunctionContext, arg: ast.expr) -> Optional[ast.expr]:
    if isinstance(arg, ast.Name):
        bound = receivers.only_binding(ctx, arg.id)
        return bound if isinstance(bound, (ast.List, ast.Tuple, ast.Dict)) else None
    return arg if isinstance(arg, (ast.List, ast.Tuple, ast.Dict)) else None


def _is_int(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and type(expr.value) is int


def _tuple_flattened(
    ctx: FunctionContext, values: Abstract, held: Union[ast.Tuple, ast.List]
) -> bool:
    """A written-out tuple printed item by item (it holds a Tensor, another tuple, or a str /
    None after numbers of one type) or in exponent form (floats only); not one MS199 reports
    (numbers of two types before the first str)."""
    kinds: list[str] = []
    for elt in held.elts:
        if isinstance(elt, ast.Starred):
            return False
        if isinstance(elt, ast.Constant) and (elt.value is None or isinstance(elt.value, str)):
            kinds.append("text")
        elif isinstance(elt, ast.Constant) and type(elt.value) in (int, float, bool):
            kinds.append(type(elt.value).__name__)
        elif isinstance(elt, (ast.Tuple, ast.List)):
            kinds.append("nested")
        elif ctx.types.is_tensor(elt):
            kinds.append("tensor")
        else:
            return False
    if "tensor" in kinds or "nested" in kinds or set(kinds) == {"float"}:
        return True
    if "text" not in kinds:
        return False  # numbers alone: ints print as Python does, two types are MS199's
    prefix = kinds[: kinds.index("text")]
    return len(set(prefix)) <= 1


def _python_bool(ctx: FunctionContext, values: Abstract, arg: ast.expr) -> bool:
    if isinstance(arg, ast.Constant):
        return type(arg.value) is bool
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.Not):
        return _python_value(ctx, values, arg.operand)
    if isinstance(arg, ast.Compare):
        operands = [arg.left, *arg.comparators]
        return all(isinstance(op, COMPARES) for op in arg.ops) and all(
            _python_value(ctx, values, o) for o in operands
        )
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):
        return arg.func.id in BOOL_CALLS and calls_shared.builtin(ctx, arg.func.id)
    if isinstance(arg, ast.Attribute):
        return names.self_attribute(arg) == "training" or _bool_attribute(ctx, arg)
    if isinstance(arg, ast.Name):
        bound = receivers.only_binding(ctx, arg.id)
        return (
            bound is not None
            and not isinstance(bound, ast.Name)
            and (_python_bool(ctx, values, bound))
        )
    return False


def _python_value(ctx: FunctionContext, values: Abstract, expr: ast.expr, depth: int = 0) -> bool:
    """A Python value known at compile time (never a Tensor): a number or str literal, a
    Tensor's shape/ndim/dtype (or an item of its shape), `len(...)`, a `mindspore` dtype, a
    Cell attribute holding a Python number or bool."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float, str))
    if isinstance(expr, ast.Name) and depth == 0:
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _python_value(ctx, values, bound, 1)
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    if isinstance(expr, ast.Attribute) and expr.attr in SIZE_ATTRS:
        return ctx.types.is_tensor(expr.value)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len":
        return calls_shared.builtin(ctx, "len")
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        if expr.value.id in ("ms", "mindspore", "mstype") and expr.attr in DTYPES:
            return True
        if names.self_attribute(expr) is not None:
            if _bool_attribute(ctx, expr):
                return True
            value = values.of(expr)
            return value is not None and value.kind == "scalar"
    return False


DTYPES = frozenset(
    {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_"}
)


def _bool_attribute(ctx: FunctionContext, expr: ast.Attribute) -> bool:
    """`self.<name>` that the Cell's class assigns only bool literals."""
    return _attribute_constant(ctx, expr, bool) is not None


def _float_value(ctx: FunctionContext, arg: ast.expr) -> Optional[float]:
    """The value of a float the source fixes: a literal (or its negation), arithmetic on
    literals, a local bound once to one, or `self.<name>` the class assigns one literal."""
    if isinstance(arg, ast.Name):
        bound = receivers.only_binding(ctx, arg.id)
        return _folded(bound) if bound is not None else None
    if isinstance(arg, ast.Attribute):
        found = _attribute_constant(ctx, arg, float)
        return found if isinstance(found, float) else None
    return _folded(arg)


def _folded(expr: ast.expr) -> Optional[float]:
    value = _number(expr, 0)
    return value if isinstance(value, float) and math.isfinite(value) else None


def _number(expr: ast.expr, depth: int) -> Optional[float]:
    if depth > 4:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)):
        if isinstance(expr.value, bool):
            return None
        return expr.value
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _number(expr.operand, depth + 1)
        return -inner if inner is not None else None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        left, right = _number(expr.left, depth + 1), _number(expr.right, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(expr.op, ast.Div):
            return left / right if right else None
        if isinstance(expr.op, ast.Add):
            return left + right
        if isinstance(expr.op, ast.Sub):
            return left - right
        return left * right
    return None


def _attribute_constant(ctx: FunctionContext, expr: ast.Attribute, kind: type) -> Optional[object]:
    """The one literal of type `kind` the Cell's own class assigns to `self.<name>` (every
    store of it), else None."""
    name = names.self_attribute(expr)
    cls = ctx.types.cls
    if name is None or cls is None or cls.module is not ctx.fn.module:
        return None
    if any(b.attr(name) for b in cls.bases):
        return None
    found: list[object] = []
    for node in ast.walk(cls.node):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if names.self_attribute(target) != name:
                continue
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, ast.Constant) and type(value.value) is kind:
                found.append(value.value)
            else:
                return None
    return found[0] if len(set(found)) == 1 else None
