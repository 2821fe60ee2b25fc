"""MS150, MS151, MS153, MS161, MS182: operators between values graph mode cannot combine that way.

Graph mode evaluates an operator between two Python values (numbers, str, tuples, lists) at
compile time with Python's own semantics, so what Python rejects fails at every level (None is
the exception: `None + None` compiles). A Tensor combines with numbers and Tensors but not with
None or a str; two bool Tensors do not add, nor do float Tensors `&`. Measured with MindSpore
2.10 on CPU (`generated/operators`). Values whose kind the source does not show are never
reported.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator
from typing import Any, Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import instances, receivers, shared_values
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, cacheable
from .helpers.shapes import Shapes, matmul_misfit
from .operators_operands import (
    UNARY_DUNDERS,
    augmented,
    describe,
    list_extensions,
    object_class,
    object_operands,
)

PYTHON_OPERANDS = Rule(
    "MS150",
    "python-operands-mismatch",
    Group.FAILS,
    title="Operator between Python values that do not support it",
    message=(
        "`{op}` between a {left} and a {right} is rejected at compile time; convert one side "
        "first (e.g. `tuple(...)`, `list(...)`, `Tensor(...)`) or use another operator."
    ),
    why=(
        "Graph mode evaluates an operator between two Python values (numbers, str, tuples, "
        "lists) while compiling, with Python's own semantics: what Python "
        "rejects, the compiler rejects at every syntax level. `lst += v` runs as `lst + v`, "
        "so a list takes only a list there (Python extends it with any iterable)."
    ),
    remedy=(
        "Combine values of kinds the operator supports: concatenate a tuple with a tuple "
        "(`shape + (3,)`), turn numbers into a Tensor before arithmetic with a sequence."
    ),
    mindspore_says='TypeError: can only concatenate tuple (not "int") to tuple',
)

TENSOR_OPERAND = Rule(
    "MS151",
    "tensor-operand-none-or-str",
    Group.FAILS,
    title="Arithmetic between a Tensor and None or a str",
    message=(
        "`{op}` between a Tensor and {other} cannot be compiled; give the operator a number or "
        "a Tensor."
    ),
    why=(
        "A Tensor's arithmetic operators take Tensors, numbers and sequences of numbers. None "
        "or a str has no Tensor form: LAX finds no overload for the call, STRICT cannot run "
        "it in the Python fallback because the Tensor is not a constant."
    ),
    remedy=(
        "Check the value before the operation (`if bias is not None: x = x + bias`), or give "
        "a number instead of the str."
    ),
    mindspore_says='TypeError: Failed calling add with "add(None)".',
)

TENSOR_DTYPE_OPERATOR = Rule(
    "MS153",
    "operator-dtype-unsupported",
    Group.FAILS,
    title="Operator the Tensors' dtype does not support",
    message=(
        "`{op}` between {what} cannot be compiled: its kernel takes {takes}; cast first (`{cast}`)."
    ),
    why=(
        "Each Tensor operator runs one kernel whose signatures list the dtypes it takes, at "
        "every syntax level: Add, Sub, FloorMod and Pow take no bool Tensors (`*`, `/` and `//` "
        "do), and a Python bool added to a bool Tensor (`mask + True`) becomes one; the "
        "bitwise kernels of `&`, `|`, `^` take only bool and integer Tensors."
    ),
    remedy=(
        "Cast to a dtype the operator takes (`mask.astype(ms.int32) + other`), or use the "
        "operator meant (`a | b` for a logical or of masks, `ops.logical_and` for floats)."
    ),
    mindspore_says=(
        "TypeError: For primitive[Add], the input argument[x] must be a type of {Tensor[BFloat16],"
        " Tensor[Float16], Tensor[Float32], ...}, but got Tensor[Bool]."
    ),
)

MATMUL_OPERANDS = Rule(
    "MS161",
    "matmul-operands",
    Group.FAILS,
    title="`@` between values that are not two Tensors whose inner sizes fit",
    message="`@` {problem}; {hint}.",
    why=(
        "`@` runs MatMul, which takes two Tensors only (no number, tuple or list, at every "
        "syntax level), and whose last dimension of the left must equal the second-to-last of "
        "the right (the only one for a 1-D right side): shapes are checked while compiling."
    ),
    remedy=(
        "Multiply by a number with `*`; make a sequence a Tensor first; transpose or reshape "
        "so the inner sizes match (`x @ w.T`)."
    ),
    mindspore_says=(
        "RuntimeError: For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 3 and 2."
    ),
)

DICT_OPERATOR = Rule(
    "MS182",
    "dict-operator",
    Group.FAILS,
    title="Operator on a dict other than `+` of two dicts",
    message=(
        "`{op}` between a {left} and a {right} has no graph overload (only `+` of two dicts "
        "does); merge dicts with `{{**a, **b}}` or `a.update(b)`."
    ),
    why=(
        "Graph mode implements operators per type (multitype_ops): a Dictionary has an overload "
        "of `+` only, so Python's `a | b` and `a |= b` of two dicts (3.9+) fail at every level."
    ),
    remedy="Merge with a display (`{**a, **b}`), `a.update(b)` or `a + b`.",
    mindspore_says=(
        "TypeError: For operation 'bitwise_or', current input arguments types are "
        "<Dictionary, Dictionary>. The 1-th argument type 'Dictionary' is not supported now."
    ),
)

OPERATORS: dict[type[ast.operator], tuple[str, Callable[[object, object], object]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.FloorDiv: ("//", operator.floordiv),
    ast.Mod: ("%", operator.mod),
    ast.Pow: ("**", operator.pow),
    ast.BitAnd: ("&", operator.and_),
    ast.BitOr: ("|", operator.or_),
    ast.BitXor: ("^", operator.xor),
    ast.LShift: ("<<", operator.lshift),
    ast.RShift: (">>", operator.rshift),
    ast.MatMult: ("@", operator.matmul),
}
# Arithmetic a Tensor cannot do with None or a str, at every level (measured).
TENSOR_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
# What two bool Tensors cannot do (measured: `*`, `/`, `//` compile).
NOT_FOR_BOOLS = (ast.Add, ast.Sub, ast.Mod, ast.Pow)
# What a float Tensor cannot do with another Tensor (measured: the bitwise kernels).
NOT_FOR_FLOATS = (ast.BitAnd, ast.BitOr, ast.BitXor)
CHEAP = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv)
BOOL_SAFE = (ast.Mult, ast.Div, ast.FloorDiv)  # two bool Tensors may do these
# Shifts have no Tensor kernel at all (measured: int, bool and float Tensors, by an int too).
SHIFTS = (ast.LShift, ast.RShift)
# What two Python bools cannot do (measured: `True ^ True`, `True << True` fail).
BOOL_BITS = (ast.BitXor, ast.LShift, ast.RShift)
UNARY: dict[type[ast.unaryop], str] = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
UNARY_APPLY: dict[type[ast.unaryop], Callable[[Any], object]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Invert: operator.invert,
}
ORDERINGS: dict[type[ast.cmpop], str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
# A stand-in of each Python kind: Python's answer to `op` depends only on the kinds (non-zero
# numbers, so no ZeroDivisionError stands in for a type error). None has none: MindSpore's
# operators on None are its own (measured: `None + None` compiles).
STAND_INS: dict[tuple[str, Optional[str]], object] = {
    ("scalar", "int"): 2,
    ("scalar", "float"): 1.5,
    ("scalar", "bool"): True,
    ("str", None): "s",
    ("tuple", None): (1,),
    ("list", None): [1],
}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    nodes: list[ast.AST] = ctx.of(ast.BinOp, ast.UnaryOp, ast.Compare)
    runs = list(augmented(ctx))
    if ctx.of(ast.AugAssign):
        plain = shared_values.abstract(ctx)
        for aug, what in list_extensions(ctx, plain.of):
            yield PYTHON_OPERANDS.finding(aug, op="+=", left="list", right=what)
    if not nodes and not runs:
        return
    values = _Values(ctx)
    guarded = _none_guarded(ctx.of(ast.IfExp))
    for node in [*nodes, *runs]:
        side = guarded.get(id(node))
        if side is not None and getattr(_operand(values, side), "kind", None) == "None":
            continue  # the None operand is the one the test proves is not None here
        try:
            if isinstance(node, ast.BinOp):
                found = list(_binop(values, node))
            elif isinstance(node, ast.UnaryOp):
                found = list(_unary(values, node))
            elif isinstance(node, ast.Compare):
                found = list(_compare(values, node))
            else:
                continue
        except RecursionError:
            continue  # an operand nested too deep to judge is unknown: nothing to report
        yield from found


def _none_guarded(ifexps: list[ast.IfExp]) -> dict[int, ast.expr]:
    """Operators in the branch of `a if n is not None else b` (or `b if n is None else a`) where
    `n` is not None: the test is decided when compiling, so the other branch is never built
    (measured: mindone's AudioLDM2 `emb + aug_emb if aug_emb is not None else emb`, with
    `aug_emb = None`, compiles at LAX and STRICT). Maps each such operator to its `n` side."""
    guarded: dict[int, ast.expr] = {}
    for node in ifexps:
        test = node.test
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.IsNot))
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            continue
        branch = node.body if isinstance(test.ops[0], ast.IsNot) else node.orelse
        for n in ast.walk(branch):
            if isinstance(n, ast.BinOp):
                for side in (n.left, n.right):
                    if isinstance(side, ast.Name) and side.id == test.left.id:
                        guarded[id(n)] = side
    return guarded


def _cannot_fire(node: ast.BinOp) -> bool:
    """A cheap syntactic exit (most operators): arithmetic with a number literal on one side
    and a computed value (a call, an operator) on the other can hold no Python value these
    rules reject, and `*`, `/`, `//` only fail on a side that may be a Python value."""
    if not isinstance(node.op, CHEAP):
        return False
    sides = (node.left, node.right)
    if any(isinstance(s, ast.Constant) and type(s.value) in (int, float) for s in sides):
        return any(_computed(s) for s in sides)
    return isinstance(node.op, BOOL_SAFE) and all(_computed(s) for s in sides)


def _computed(expr: ast.expr) -> bool:
    if isinstance(expr, (ast.BinOp, ast.Compare)):
        return True
    return isinstance(expr, ast.Call) and not (
        isinstance(expr.func, ast.Name) and expr.func.id in ("len", "tuple", "list", "str")
    )


def _binop(values: _Values, node: ast.BinOp) -> Iterator[RawFinding]:
    if _cannot_fire(node):
        return
    symbol, apply = OPERATORS[type(node.op)]
    left, right = _operand(values, node.left), _operand(values, node.right)
    if isinstance(node.op, (ast.Add, ast.Sub)) and _may_be_bools(node, left, right):
        # `b + b`, `b - True` of a parameter the callers give a bool Tensor (round 37: fail at
        # every level, PyNative computes them): ask the module for a bare name's dtype. Only
        # then: reading the callers ties the function's findings to the whole file.
        left = _caller_dtype(values, node.left, left)
        right = _caller_dtype(values, node.right, right)
    if isinstance(node.op, (ast.Add, ast.Sub)) and _bool_tensor_and_bool(values, node, left, right):
        yield TENSOR_DTYPE_OPERATOR.finding(
            node,
            op=symbol,
            what="a bool Tensor and a Python bool",
            takes="numbers",
            cast="mask.astype(ms.int32)",
        )
        return
    if left is None or right is None:
        pair = object_operands(values.ctx, node, left, right)
        if pair is not None:
            yield PYTHON_OPERANDS.finding(node, op=symbol, left=pair[0], right=pair[1])
        return
    if isinstance(node.op, ast.MatMult) and "tensor" in (left.kind, right.kind):
        yield from _matmul(values, node, left, right)
        return
    if isinstance(node.op, (*SHIFTS, *NOT_FOR_FLOATS)) or "str" in (left.kind, right.kind):
        # the decision needs the Tensor's dtype: ask the module for a parameter's
        left = _operand(values, node.left, rich=True) or left
        right = _operand(values, node.right, rich=True) or right
    if left.kind == right.kind == "tensor":
        yield from _dtypes(node, symbol, left, right)
        return
    if "tensor" in (left.kind, right.kind):
        other = right if left.kind == "tensor" else left
        tensor = left if left.kind == "tensor" else right
        side = node.left if left.kind == "tensor" else node.right
        if not _certain(side, tensor) and (isinstance(node.op, SHIFTS) or other.kind == "str"):
            return  # a parameter taken for a Tensor may be an int or a str
        if isinstance(node.op, SHIFTS) or (
            isinstance(node.op, NOT_FOR_FLOATS) and other.kind == "scalar" and _floating(tensor)
        ):
            yield from _dtypes(node, symbol, tensor, tensor)
            return
        formats = isinstance(node.op, ast.Mod) and left.kind == "str"
        if left.kind == "None":
            return  # `None * x` compiles at LAX (measured as `n *= x`): only a right None fails
        if other.kind == "None" and _none_tested(values.ctx, node.right):
            return  # `x + b if b is not None else x` (mindone): the test guards it
        if isinstance(node.op, TENSOR_ARITHMETIC) and other.kind in ("None", "str") and not formats:
            what = "None" if other.kind == "None" else "a str"
            yield TENSOR_OPERAND.finding(node, op=symbol, other=what)
        return
    if isinstance(node.op, BOOL_BITS) and left.dtype == right.dtype == "bool":
        yield TENSOR_DTYPE_OPERATOR.finding(
            node, op=symbol, what="two Python bools", takes="ints", cast="int(flag)"
        )
        return
    if left.kind == "None" and right.kind == "scalar" and isinstance(node.op, ast.Add):
        yield PYTHON_OPERANDS.finding(node, op=symbol, left="None", right=_describe(right))
        return
    if isinstance(node.op, ast.Mod) and left.kind == "str":
        return  # `'%d' % n` formats: its answer depends on the text, not the kinds
    if "dict" in (left.kind, right.kind) and left.kind != "None" and right.kind != "None":
        # Of the binary operators only `+` has a Dictionary overload (multitype_ops: add_impl);
        # Python's `a | b` of two dicts fails at both levels (measured: "For operation
        # 'bitwise_or', current input arguments types are <Dictionary, Dictionary>").
        if not (isinstance(node.op, ast.Add) and left.kind == right.kind == "dict"):
            yield DICT_OPERATOR.finding(
                node, op=symbol, left=_describe(left), right=_describe(right)
            )
        return
    a, b = _stand_in(left), _stand_in(right)
    if a is _UNKNOWN or b is _UNKNOWN:
        return
    try:
        apply(a, b)
    except TypeError:
        yield PYTHON_OPERANDS.finding(node, op=symbol, left=_describe(left), right=_describe(right))
    except Exception:  # e.g. an overflow of the stand-ins: not a type error
        return


NOT_MATMUL = frozenset({"scalar", "tuple", "list", "str", "None"})


def _matmul(values: _Values, node: ast.BinOp, left: Value, right: Value) -> Iterator[RawFinding]:
    if left.kind == right.kind == "tensor":
        a, b = values.shapes.of(node.left), values.shapes.of(node.right)
        misfit = matmul_misfit(a, b) if a is not None and b is not None else None
        if misfit is not None:
            problem = f"of shapes {a} and {b}: the inner sizes {misfit[0]} and {misfit[1]} differ"
            yield MATMUL_OPERANDS.finding(node, problem=problem, hint="transpose or reshape one")
        return
    if "tensor" not in (left.kind, right.kind) or not {left.kind, right.kind} & NOT_MATMUL:
        return
    tensor_side = node.left if left.kind == "tensor" else node.right
    tensor = left if left.kind == "tensor" else right
    other = right if left.kind == "tensor" else left
    if not _certain(tensor_side, tensor) and values.shapes.of(tensor_side) is None:
        return  # a parameter taken for a Tensor may be something else
    what = _describe(other)
    article = "an" if what[0] in "aeiou" else "a"
    problem = f"between a Tensor and {article} {what} cannot be compiled: MatMul takes Tensors"
    hint = "use `*` to scale by a number" if other.kind == "scalar" else "make it a Tensor first"
    yield MATMUL_OPERANDS.finding(node, problem=problem, hint=hint)


INT = Value("scalar", "int")


class _Values:
    """The abstract values, asking the module (callers' dtypes, which costs a walk of the
    module's calls) only for a parameter-like name whose Tensor dtype the function leaves
    unknown: most operands never need it."""

    def __init__(self, ctx: FunctionContext) -> None:
        self.ctx = ctx
        self.types = ctx.types
        self.plain = shared_values.abstract(ctx)
        self._rich: Optional[Abstract] = None

    @property
    def shapes(self) -> Shapes:
        return shared_values.shapes(self.ctx)

    def of(self, expr: ast.expr, rich: bool = False) -> Optional[Value]:
        found = self.plain.of(expr)
        if not rich or found is None or found.kind != "tensor" or found.dtype:
            return found
        if not isinstance(expr, ast.Name):
            return found
        if self._rich is None:
            self._rich = shared_values.abstract(self.ctx, module=True)
        return self._rich.of(expr) or found


def _operand(values: _Values, expr: ast.expr, rich: bool = False) -> Optional[Value]:
    """The operand's value; also `x.shape[0]` and `len(v)`, ints the abstract values leave
    unknown."""
    found = values.of(expr, rich)
    if found is not None:
        return found
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, (ast.Constant, ast.UnaryOp)):
        inner = expr.value
        if isinstance(inner, ast.Attribute) and inner.attr == "shape":
            return INT if values.types.is_tensor(inner.value) else None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len":
        return INT if "len" not in values.types.module.functions else None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult)):
        both = (_operand(values, expr.left, rich), _operand(values, expr.right, rich))
        return INT if both == (INT, INT) else None
    return None


def _may_be_bools(node: ast.BinOp, left: Optional[Value], right: Optional[Value]) -> bool:
    """One bare name of a Tensor of unknown dtype on both sides (`b + b`), or such a name and
    a bool constant (`b - True`): what `_bool_tensor_and_bool` may judge once the callers give
    the dtype (measured forms; `x + residual` of two names is not asked)."""

    def unknown(expr: ast.expr, value: Optional[Value]) -> bool:
        return (
            isinstance(expr, ast.Name)
            and value is not None
            and value.kind == "tensor"
            and not value.dtype
        )

    def flag(expr: ast.expr) -> bool:
        return isinstance(expr, ast.Constant) and isinstance(expr.value, bool)

    a, b = unknown(node.left, left), unknown(node.right, right)
    if a and b:
        return getattr(node.left, "id", None) == getattr(node.right, "id", None)
    return (a and flag(node.right)) or (b and flag(node.left))


def _caller_dtype(values: _Values, expr: ast.expr, found: Optional[Value]) -> Optional[Value]:
    """A bare name taken for a Tensor of unknown dtype, with the dtype its callers give."""
    if (
        isinstance(expr, ast.Name)
        and found is not None
        and found.kind == "tensor"
        and not found.dtype
    ):
        return _operand(values, expr, rich=True) or found
    return found


def _bool_tensor_and_bool(
    values: _Values, node: ast.BinOp, left: Optional[Value], right: Optional[Value]
) -> bool:
    """`mask + True`, `True + mask`, `mask - flag`: a bool Tensor with a Python bool. Add and Sub
    have no bool kernel in graph mode, which makes the bool a bool Tensor (measured failing at
    LAX and STRICT: "For primitive[Add], the input argument[x] must be a type of {...}"), where
    PyNative computes them (a logical or). `True - mask` fails in PyNative too; `*`, `/`, `&`,
    `|`, `==` and a bool Tensor with an int (`mask + 1`) compile."""
    if left is not None and left.kind == "tensor" and left.dtype == "bool_":
        return _python_bool(values, node.right, right)
    if isinstance(node.op, ast.Add) and right is not None and right.kind == "tensor":
        return right.dtype == "bool_" and _python_bool(values, node.left, left)
    return False


def _python_bool(values: _Values, expr: ast.expr, value: Optional[Value], depth: int = 0) -> bool:
    """A Python bool: known as one, a comparison of Python numbers (`x.shape[0] > 2`), `bool(n)`
    or `not n` of one, or a name bound only to one of those."""
    if value is not None:
        return value.kind == "scalar" and value.dtype == "bool"
    if isinstance(expr, ast.Compare):
        operands = [expr.left, *expr.comparators]
        found = [_operand(values, e) for e in operands]
        return all(v is not None and v.kind == "scalar" for v in found)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        inner = _operand(values, expr.operand)
        return inner is not None and inner.kind == "scalar"
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "bool"
        and len(expr.args) == 1
        and not expr.keywords
        and "bool" not in values.types.module.functions
    ):
        inner = _operand(values, expr.args[0])
        return inner is not None and inner.kind == "scalar"
    if isinstance(expr, ast.Name) and depth < 3:
        bound = receivers.only_binding(values.ctx, expr.id)
        if bound is not None:
            return _python_bool(values, bound, _operand(values, bound), depth + 1)
    return False


def _none_tested(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A name the function tests with `is None` / `is not None` somewhere."""
    if not isinstance(expr, ast.Name):
        return False
    return any(
        isinstance(c.left, ast.Name)
        and c.left.id == expr.id
        and isinstance(c.ops[0], (ast.Is, ast.IsNot))
        and isinstance(c.comparators[0], ast.Constant)
        and c.comparators[0].value is None
        for c in ctx.of(ast.Compare)
    )


def _certain(expr: ast.expr, value: Value) -> bool:
    """A Tensor for sure: its dtype is known, or it is computed (not a bare name, which may be
    a parameter the types only take for a Tensor)."""
    return value.dtype is not None or not isinstance(expr, ast.Name)


def _floating(value: Value) -> bool:
    return value.dtype is not None and value.dtype.startswith(("float", "bfloat"))


def _unary(values: _Values, node: ast.UnaryOp) -> Iterator[RawFinding]:
    if isinstance(node.op, ast.Not):
        return  # `not` of anything but a Tensor of several elements compiles
    if _computed(node.operand) and not isinstance(node.operand, ast.Compare):
        return  # `-ops.relu(x)`, `-(a * b)`: a computed Tensor or number (cheap exit)
    symbol = UNARY[type(node.op)]
    value = _operand(values, node.operand)
    if value is None:
        cls = object_class(values.ctx, node.operand)
        if cls is not None and UNARY_DUNDERS[type(node.op)] not in instances.attributes(cls):
            yield PYTHON_OPERANDS.finding(
                node, op=symbol, left="unary operand", right=f"{cls.name} object"
            )
        return
    if value.kind == "tensor":
        if isinstance(node.op, ast.USub) and value.dtype == "bool_":
            yield TENSOR_DTYPE_OPERATOR.finding(
                node, op=symbol, what="a bool Tensor", takes="numbers", cast="~mask"
            )
        return
    if value.kind == "scalar" and value.dtype == "bool" and isinstance(node.op, ast.USub):
        yield TENSOR_DTYPE_OPERATOR.finding(
            node, op=symbol, what="a Python bool", takes="numbers", cast="-int(flag)"
        )
        return
    stand_in = None if value.kind == "None" else _stand_in(value)
    if stand_in is _UNKNOWN:
        return
    try:
        UNARY_APPLY[type(node.op)](stand_in)
    except TypeError:
        yield PYTHON_OPERANDS.finding(node, op=symbol, left="unary operand", right=_describe(value))


def _compare(values: _Values, node: ast.Compare) -> Iterator[RawFinding]:
    """`x < None`, `'a' > x`: ordering a Tensor against None or a str (`==` compiles)."""
    operands = [node.left, *node.comparators]
    for index, op in enumerate(node.ops):
        if type(op) not in ORDERINGS:
            continue
        pair = (_operand(values, operands[index]), _operand(values, operands[index + 1]))
        if any(v is None for v in pair):
            continue
        kinds = {v.kind for v in pair if v is not None}
        if "str" in kinds:  # the decision needs a Tensor's dtype: ask the module for it
            pair = (
                _operand(values, operands[index], rich=True) or pair[0],
                _operand(values, operands[index + 1], rich=True) or pair[1],
            )
        sides = zip(operands[index : index + 2], pair)
        if "str" in kinds and not all(_certain(e, v) for e, v in sides if v and v.kind == "tensor"):
            continue
        if "tensor" in kinds and kinds & {"None", "str"}:
            other = "None" if "None" in kinds else "a str"
            yield TENSOR_OPERAND.finding(node, op=ORDERINGS[type(op)], other=other)
            return


def _dtypes(node: ast.BinOp, symbol: str, left: Value, right: Value) -> Iterator[RawFinding]:
    if isinstance(node.op, SHIFTS):
        yield TENSOR_DTYPE_OPERATOR.finding(
            node, op=symbol, what="Tensors", takes="Python ints", cast="x * 2 ** n"
        )
    elif isinstance(node.op, NOT_FOR_BOOLS) and left.dtype == right.dtype == "bool_":
        yield TENSOR_DTYPE_OPERATOR.finding(
            node, op=symbol, what="two bool Tensors", takes="numbers", cast="a.astype(ms.int32)"
        )
    elif isinstance(node.op, NOT_FOR_FLOATS) and (_floating(left) or _floating(right)):
        yield TENSOR_DTYPE_OPERATOR.finding(
            node,
            op=symbol,
            what="float Tensors",
            takes="bool and integer Tensors",
            cast="a.astype(ms.int32)",
        )


_UNKNOWN = object()


def _stand_in(value: Value) -> object:
    return STAND_INS.get((value.kind, value.dtype if value.kind == "scalar" else None), _UNKNOWN)


_describe = describe
