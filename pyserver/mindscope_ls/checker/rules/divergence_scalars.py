"""MS319: a Python int raised to a negative int power is 0 in graph mode. MS320: a Python
float computed in the graph and returned has float32 precision. MS322: an f-string's format
spec is ignored in compiled code.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative: `2 ** -1`,
`n ** -1` with `n = x.shape[-1]` and `self.d ** -1` with `self.d = 4` gave the int 0 in
GRAPH_MODE (graph mode's scalar power keeps int ** int an int), where Python gives the float
0.5 / 0.25, so `x * n ** -1` is all zeros. A float on either side (`n ** -0.5`,
`n ** -1.0`, `2.0 ** -1`) gives the same float in both modes. The builtin `pow(4, -1)` and
`pow(x.shape[0], -1)` gave 0 the same way (PyNative: 0.25, 1/3), and so did an exponent a
local holds (`k = -1; 4 ** k`, `pow(2, k)`).

MS320, measured the same way: `sum((0.1, 0.2, 0.3))` returned 0.6000000238418579 (PyNative
0.6000000000000001), `x.shape[1] // 0.1` 30.0 for 29.0 (graph mode floors the float32
quotient), and `str(x.shape[1] / 7)` '0.4285714328289032' for '0.42857142857142855'. A float
literal or float attribute is float32 too when a Cell's output also holds a Tensor (`return x,
0.1` gave 0.10000000149011612; `return 0.1` alone, a dict value and `@jit` outputs gave 0.1),
and beyond float32's range it is inf / 0.0 in any output (`1e39`, `1e-50`). `pow(2, 0.5)` is
`2 ** 0.5` (1.4142135381698608 in GRAPH_MODE), and `float("inf")` is read as its value.
Round 33 (`dv_`): the same for `sum` of a local tuple or list (`ratios = (0.1, 0.2);
sum(ratios)`, `sum(vals) / len(vals)`) or of a repeated list (`sum([0.1] * 10)`), and for the
names a shape is unpacked to (`h, w = x.shape; h / w` with a (1, 3) input gave
0.3333333432674408); `h / w` of a (2, 4) input agrees.
Round 35 (`in_`): the same for a number the caller passes: `return a * 3` with `net(x, 0.1)`,
`net(x, mutable(0.1))` or a default `a=0.1` gave 0.30000001192092896, `n / 3` with `net(x, 1)`
0.3333333432674408; `a * 2` with 0.5, `a * 3` with 1, `n / 2` with 3 and `x * (a * 3)` agree.
"""

from __future__ import annotations

import ast
import math
import struct
from collections.abc import Callable, Iterator
from typing import Any, Optional

from ..incremental.memo import NodeMemo
from ..model import Group, RawFinding
from ..rule import Rule, node_range
from .calls_shared import builtin
from .helpers import module_values, names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract, shapes
from .helpers.walk import of_type as walk_of
from .mutable_scalars import mutable_argument

INT_NEGATIVE_POWER = Rule(
    "MS319",
    "int-negative-power",
    Group.DIVERGES,
    title="A Python int raised to a negative int power is 0 in graph mode",
    message=(
        "`{text}` raises an int to a negative int power: graph mode keeps it an int (0), "
        "PyNative gives the float {value}; write `{base} ** {exponent}.0` or `1 / {base_p}`."
    ),
    why=(
        "Graph mode computes `int ** int` as an int even for a negative exponent, so `2 ** -1` "
        "is 0 where Python gives 0.5 (measured: `x * x.shape[-1] ** -1` was all zeros in "
        "GRAPH_MODE, `x / 4` in PyNative)."
    ),
    remedy="Make the exponent (or the base) a float: `n ** -1.0`, or divide: `1 / n`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    pows = powers(ctx)
    for node, left, right in pows:
        exponent = _negative_int(ctx, right)
        if exponent is None:
            size = _negated_size(ctx, right)
            if size is not None and is_python_int(ctx, left):
                base = ast.unparse(left)
                base_p = base if isinstance(left, (ast.Name, ast.Constant)) else f"({base})"
                message = (
                    f"`{ast.unparse(node)}` raises an int to a negative int power: graph mode "
                    "keeps it an int (0), PyNative gives a float; write "
                    f"`float({base}) ** -{size}` or `1 / {base_p} ** {size}`."
                )
                yield RawFinding(INT_NEGATIVE_POWER.code, message, node_range(node), [], None)
            continue
        if not is_python_int(ctx, left) and not _int_parameter(ctx, left):
            continue
        text = ast.unparse(node)
        base = ast.unparse(left)
        base_p = base if isinstance(left, (ast.Name, ast.Constant)) else f"({base})"
        value = _value(left, exponent)
        yield INT_NEGATIVE_POWER.finding(
            node,
            text=text,
            value=value,
            base=base_p,
            exponent=ast.unparse(right) if not isinstance(right, ast.Name) else str(exponent),
            base_p=base_p if exponent == -1 else f"{base_p} ** {-exponent}",
        )


def powers(ctx: FunctionContext) -> list[tuple[ast.expr, ast.expr, ast.expr]]:
    """Every `base ** exponent` and builtin `pow(base, exponent)`: (node, base, exponent)."""
    found: list[tuple[ast.expr, ast.expr, ast.expr]] = [
        (b, b.left, b.right) for b in ctx.of(ast.BinOp) if isinstance(b.op, ast.Pow)
    ]
    found.extend((c, c.args[0], c.args[1]) for c in _pow_calls(ctx))
    return found


def _pow_calls(ctx: FunctionContext) -> list[ast.Call]:
    """The builtin `pow(base, exponent)` calls of two positional arguments."""
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c, ast.Call)
        and isinstance(c.func, ast.Name)
        and c.func.id == "pow"
        and len(c.args) == 2
        and not c.keywords
        and not any(isinstance(a, ast.Starred) for a in c.args)
    ]
    return calls if calls and builtin(ctx, "pow") else []


def _negative_int(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    if isinstance(expr, ast.Name):  # `k = -1` bound once, then `4 ** k` (measured: 0 too)
        bound = receivers.only_binding(ctx, expr.id)
        return _negative_int(ctx, bound) if isinstance(bound, ast.UnaryOp) else None
    if (
        isinstance(expr, ast.UnaryOp)
        and isinstance(expr.op, ast.USub)
        and isinstance(expr.operand, ast.Constant)
        and type(expr.operand.value) is int
        and expr.operand.value > 0
    ):
        return -expr.operand.value
    return None


def _int_parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A parameter every call of the function's entry point in the module passes an int
    literal (not 0 or +-1) or `mutable()` of one (round 31, measured at LAX and STRICT:
    `@ms.jit def f(x, d): return x * d ** -1` called with `d = 4` or `mutable(4)` gave 0,
    PyNative 0.25)."""
    if not isinstance(expr, ast.Name):
        return False
    from .mutable_scalars import mutable_argument, parameters_passed

    def int_literal(value: ast.expr) -> bool:
        inner = mutable_argument(ctx, value)
        value = inner if inner is not None else value
        return (
            isinstance(value, ast.Constant)
            and type(value.value) is int
            and value.value not in (0, 1, -1)
        )

    return expr.id in parameters_passed(ctx, int_literal)


def _negated_size(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[str]:
    """`-x.shape[i]` / `-len(v)` (a size, so the exponent is negative), directly or through a
    local bound once to it: the size's text. Round 31, measured at LAX and STRICT: `2 ** -m`,
    `pow(2, -m)` and `e = -m; 2 ** e` with `m = x.shape[1] = 4` gave 0 (PyNative 0.0625);
    `2.0 ** -m` agrees. An exponent whose sign depends on the sizes (`2 ** (1 - m)`) is left."""
    if isinstance(expr, ast.Name) and depth < 3:
        bound = receivers.only_binding(ctx, expr.id)
        return None if bound is None else _negated_size(ctx, bound, depth + 1)
    if not (isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub)):
        return None
    operand = expr.operand
    if isinstance(operand, ast.Name) and depth < 3:
        bound = receivers.only_binding(ctx, operand.id)
        if bound is not None and names.is_static_size(bound):
            return operand.id
        return None
    return ast.unparse(operand) if names.is_static_size(operand) else None


def is_python_int(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """An int literal (not 0 or 1), `x.shape[i]`, `len(...)`, `int(t)` of a Tensor, a local
    bound once to one of those, or `self.d` that `__init__` binds to an int literal only."""
    if isinstance(expr, ast.Constant):
        return type(expr.value) is int and expr.value not in (0, 1, -1)
    if names.is_static_size(expr):
        return True
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "int"
        and len(expr.args) == 1
        and not expr.keywords
        and ctx.types.is_tensor(expr.args[0])
        and builtin(ctx, "int")
    ):
        return True  # `int(t)`: an int graph mode reads from the Tensor (round 31: `k ** -1` is 0)
    if isinstance(expr, ast.Name) and depth < 3:
        bound = [
            a.value
            for a in ctx.of(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == expr.id for t in a.targets)
        ]
        others = [n for n in ctx.of(ast.Name) if n.id == expr.id and isinstance(n.ctx, ast.Store)]
        if len(bound) == 1 and len(others) == 1:
            return is_python_int(ctx, bound[0], depth + 1)
        return False
    attr = names.self_attribute(expr)
    if attr is not None and ctx.fn.cls is not None:
        return _int_attribute(ctx.fn.cls.node, attr)
    value = abstract(ctx).of(expr)
    return value is not None and value.kind == "scalar" and value.dtype == "int"


def _int_attribute(cls: ast.ClassDef, attr: str) -> bool:
    """Every `self.<attr> = ...` of the class binds an int literal."""
    values = [
        node.value
        for node in walk_of(cls, ast.Assign)
        for t in node.targets
        if names.self_attribute(t) == attr
    ]
    writes = [
        node for node in walk_of(cls, ast.AugAssign) if names.self_attribute(node.target) == attr
    ]
    return (
        bool(values)
        and not writes
        and all(
            isinstance(v, ast.Constant) and type(v.value) is int and v.value not in (0, 1)
            for v in values
        )
    )


def _value(base: ast.expr, exponent: int) -> str:
    if isinstance(base, ast.Constant) and type(base.value) is int:
        return repr(base.value**exponent)
    return "(a fraction)"


FLOAT32_SCALAR = Rule(
    "MS320",
    "float-scalar-float32",
    Group.DIVERGES,
    title="A Python float computed in compiled code and returned has float32 precision",
    message=(
        "`{text}` is a Python float computed in the graph, in float32: it returns {graph} in "
        "GRAPH_MODE where PyNative returns {pynative}; return a Tensor "
        "(`ms.tensor({text}, ms.float32)`) or compute it outside the compiled code."
    ),
    why=(
        "Graph mode computes arithmetic on Python floats (and reads float attributes of the "
        "Cell) in float32, and returns the float32 value as a Python float: `0.1 * 3` returned "
        "0.30000001192092896 in GRAPH_MODE, 0.30000000000000004 in PyNative; `x.shape[0] / 3` "
        "returned 0.6666666865348816 for 0.6666666666666666. Used in Tensor arithmetic only, it "
        "gives the same float32 Tensor in both modes."
    ),
    remedy="Compute the number outside the compiled code, or return it as a float32 Tensor.",
    mindspore_says="(compiles; result differs from PyNative)",
)

INT_SAMPLES = (3, 7)  # a shape or length: values whose quotients are inexact in float32
TENSOR_SAMPLE = 0.1  # float(t) / t.item() of a float32 Tensor: a float32-exact value
FLOAT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv, ast.Mod)


def check_float_returns(ctx: FunctionContext) -> Iterator[RawFinding]:
    returns = ctx.of(ast.Return)
    if not returns or not _entry(ctx):
        return
    cell = not any(names.is_jit(ctx.fn.module, d) for d in ctx.fn.node.decorator_list)
    for ret in returns:
        parts = list(_returned_parts(ret.value))
        # A Cell's output holding a Tensor converts even float literals to float32 (measured:
        # `return x, 0.1` gave 0.10000000149011612; `return 0.1` alone and `@jit` gave 0.1).
        with_tensor = cell and any(ctx.types.is_tensor(p) for p in parts)
        for part in parts:
            if _text_call(part):  # `str(v)`: the float32 value's digits
                part = part.args[0]  # type: ignore[attr-defined]
            expr = _binding(ctx, part, ret) if isinstance(part, ast.Name) else part
            if expr is None:
                continue
            held = held_float(ctx, expr)
            if held is not None:
                graph = _f32(held)
                if graph == held or not (with_tensor or math.isinf(graph) or graph == 0.0):
                    continue  # out of float32's range it is inf / 0.0 in every output
                found: Optional[tuple[float, float]] = (graph, held)
            else:
                found = _diverging(ctx, expr)
            if found is None:
                continue
            graph, pynative = found
            yield FLOAT32_SCALAR.finding(
                expr, text=ast.unparse(expr), graph=repr(graph), pynative=repr(pynative)
            )


def _returned_parts(value: Optional[ast.expr]) -> Iterator[ast.expr]:
    """A returned value and the items of the tuples and lists it writes out."""
    if isinstance(value, (ast.Tuple, ast.List)):
        for item in value.elts:
            yield from _returned_parts(item)
    elif value is not None:
        yield value


def held_float(ctx: FunctionContext, expr: ast.expr) -> Optional[float]:
    """A float literal (`0.1`, `-1e39`), or the literal a float attribute of the Cell holds."""
    sign = 1.0
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        sign, expr = -1.0, expr.operand
    if isinstance(expr, ast.Constant) and type(expr.value) is float:
        return sign * expr.value
    constant = _math_constant(ctx, expr)
    if constant is not None:  # `return x, math.pi` gave 3.1415927410125732 (round 34)
        return sign * constant
    attr = names.self_attribute(expr)
    if attr is not None and ctx.fn.cls is not None:
        held = _float_attribute(ctx.fn.cls.node, attr)
        return None if held is None else sign * held
    return None


def _entry(ctx: FunctionContext) -> bool:
    """A function whose return leaves the graph: `@jit`, or the `construct` of a Cell that no
    other class of the module builds as a sub-Cell."""
    node = ctx.fn.node
    module = ctx.fn.module
    if any(names.is_jit(module, d) for d in node.decorator_list):
        return True
    cls = ctx.fn.cls
    if node.name != "construct" or cls is None or not cls.is_cell:
        return False
    tree = module.tree
    if tree is None:
        return False
    return _built_by_classes(tree).get(cls.node.name, 0) <= (
        cls.node.name in _called_names(cls.node)
    )


# The names a class body calls, kept on its node: this check is not cacheable, and every
# `construct` with a `return` asked it of every class of the module on every keystroke.
_CALLED: NodeMemo[frozenset[str]] = NodeMemo()


# How many classes of the module call each name, kept on the module's tree: asked by every
# `construct` of a check.
_BUILT: NodeMemo[dict[str, int]] = NodeMemo()


def _built_by_classes(tree: ast.Module) -> dict[str, int]:
    def compute() -> dict[str, int]:
        counts: dict[str, int] = {}
        for cls in walk_of(tree, ast.ClassDef):
            for name in _called_names(cls):
                counts[name] = counts.get(name, 0) + 1
        return counts

    return _BUILT.get(tree, None, compute)


def _called_names(cls: ast.ClassDef) -> frozenset[str]:
    def compute() -> frozenset[str]:
        calls = walk_of(cls, ast.Call)
        return frozenset(c.func.id for c in calls if isinstance(c.func, ast.Name))

    return _CALLED.get(cls, None, compute)


def _binding(ctx: FunctionContext, name: ast.Name, at: ast.AST) -> Optional[ast.expr]:
    """The one value a local is bound to, before `at`."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name.id and isinstance(n.ctx, ast.Store)]
    if len(stores) != 1:
        return None
    for aug in ctx.fn.node.body:
        # `f += 0.1` of an input, once, in the function's own body (round 36, `ar_`): the input's
        # number and the operation (`return f` gave 0.30000001192092896 for `net(x, 0.2)`)
        if (
            isinstance(aug, ast.AugAssign)
            and aug.target is stores[0]
            and (aug.lineno, aug.col_offset) < (at.lineno, at.col_offset)  # type: ignore[attr-defined]
        ):
            before = ast.Name(id=name.id, ctx=ast.Load())
            before.aug_input = True  # type: ignore[attr-defined]
            return ast.copy_location(ast.BinOp(left=before, op=aug.op, right=aug.value), aug)
    for assign in ctx.of(ast.Assign):
        if (
            len(assign.targets) == 1
            and assign.targets[0] is stores[0]
            and (assign.lineno, assign.col_offset) < (at.lineno, at.col_offset)  # type: ignore[attr-defined]
        ):
            return assign.value
    return None


def _diverging(ctx: FunctionContext, expr: ast.expr) -> Optional[tuple[float, float]]:
    """The (graph, PyNative) values of a float expression of Python numbers that differ, with
    shapes and lengths sampled; None when it is not such an expression or they agree."""
    if not (
        isinstance(expr, ast.BinOp)
        or _sum_items(expr, ctx) is not None
        or _number_call(expr) is not None
        or _pow_call(expr)
        or (isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.BinOp))
        or _float64_float(ctx, expr)
    ):
        return None
    for sample in INT_SAMPLES:
        try:
            evaluated = evaluate(ctx, expr, sample, 0, inputs=True)
        except (ArithmeticError, ValueError, TypeError, OverflowError):
            return None
        if evaluated is None:
            return None
        wide, narrow, is_float = evaluated
        if not is_float or isinstance(wide, complex):
            return None
        if float(narrow) != wide:
            return float(narrow), wide
    return None


def evaluate(
    ctx: FunctionContext,
    expr: ast.expr,
    sample: int,
    depth: int,
    *,
    spread: bool = False,
    tensors: bool = True,
    inputs: bool = False,
) -> Optional[tuple[float, float, bool]]:
    """(Python's value, graph mode's float32 value, whether it is a float). With `spread`, each
    shape item or length gets its own sample (`m / n` is not 1.0); without `tensors`, a
    Tensor's number (`t.item()`, known only at run time) is not evaluated."""
    if depth > 8:
        return None
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        v = float(expr.value)  # type: ignore[arg-type]
        return v, v, isinstance(expr.value, float)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = evaluate(
            ctx, expr.operand, sample, depth + 1, spread=spread, tensors=tensors, inputs=inputs
        )
        return None if inner is None else (-inner[0], -inner[1], inner[2])
    if isinstance(expr, ast.Attribute) and expr.attr in ("size", "ndim"):
        if not ctx.types.is_tensor(expr.value):
            return None
        shape = shapes(ctx).of(expr.value)  # `x.size / 3` (round 34: 1.3333333730697632)
        if shape is None:
            return float(sample), float(sample), False
        v = float(len(shape) if expr.attr == "ndim" else math.prod(shape))
        return v, v, False
    if names.is_static_size(expr):
        dim = _static_dim(ctx, expr)  # the module's one input shape, else a sample
        v = float(dim if dim is not None else sample + (_offset(expr) if spread else 0))
        return v, v, False
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        v_const = _math_constant(ctx, expr)
        if v_const is not None:
            return v_const, _f32(v_const), True
    attr = names.self_attribute(expr)
    if attr is not None and ctx.fn.cls is not None:
        held = _float_attribute(ctx.fn.cls.node, attr)
        return None if held is None else (held, _f32(held), True)
    if isinstance(expr, ast.Call) and _pow_call(expr):  # `pow(2, 0.5)` is `2 ** 0.5` (measured)
        expr = ast.copy_location(ast.BinOp(expr.args[0], ast.Pow(), expr.args[1]), expr)
    text = _float_text(expr)
    if text is not None:  # `float("inf")`
        return text, _f32(text), True
    math_fn = _math_call(ctx, expr)
    if math_fn is not None:  # `math.sqrt(2)`: run by Python on the value graph mode holds
        fn, math_args = math_fn
        found_args = []
        for arg in math_args:
            inner = evaluate(
                ctx, arg, sample, depth + 1, spread=spread, tensors=tensors, inputs=inputs
            )
            if inner is None:
                return None
            found_args.append(inner)
        return (
            float(fn(*(a[0] for a in found_args))),
            float(fn(*(a[1] for a in found_args))),
            True,
        )
    called = _number_call(expr)
    if called is not None:  # `max(0.1 * n, 0.2)`, `abs(..)`, `float(..)`: float32 too (measured)
        return _number_builtin(ctx, called, sample, depth, spread, tensors)
    if isinstance(expr, ast.Call) and _tensor_number(expr):
        if not tensors:
            return None
        if _integer_item(ctx, expr):
            return float(sample), float(sample), False  # `t.item()` of an int32 `t`: an int
        if _integer_item(ctx, expr.args[0] if expr.args else expr):
            return float(sample), float(sample), True  # `float(t.item())` of it: exact
        if _float64_float(ctx, expr):
            return TENSOR_SAMPLE, _f32(TENSOR_SAMPLE), True
        v = _f32(TENSOR_SAMPLE)
        return v, v, True
    if isinstance(expr, ast.Name):
        if getattr(expr, "aug_input", False):  # the input before its one `+=` (`_binding`)
            return _input_number(ctx, expr.id, augmented=True) if inputs else None
        bound = _binding(ctx, expr, expr)
        unpacked = _unpacked_shape_item(ctx, expr) if bound is None else None
        if unpacked is not None:  # `h, w = x.shape`: the module's shape, else a sample
            at, dim = unpacked
            v = float(dim if dim >= 0 else sample + (at if spread else 0))
            return v, v, False
        if bound is None:
            return _input_number(ctx, expr.id) if inputs else None
        return evaluate(
            ctx, bound, sample, depth + 1, spread=spread, tensors=tensors, inputs=inputs
        )
    items = _sum_items(expr, ctx)
    if items is not None:  # `sum((0.1, 0.2, 0.3))`: Python adds in double, graph mode in float32
        total: tuple[float, float, bool] = (0.0, 0.0, False)
        for item in items:
            found = evaluate(
                ctx, item, sample, depth + 1, spread=spread, tensors=tensors, inputs=inputs
            )
            if found is None:
                return None
            is_float = total[2] or found[2]
            narrow = _f32(_f32(total[1]) + _f32(found[1])) if is_float else total[1] + found[1]
            total = (total[0] + found[0], narrow, is_float)
        return total
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, FLOAT_OPS):
        left = evaluate(
            ctx, expr.left, sample, depth + 1, spread=spread, tensors=tensors, inputs=inputs
        )
        right = evaluate(
            ctx, expr.right, sample, depth + 1, spread=spread, tensors=tensors, inputs=inputs
        )
        if left is None or right is None:
            return None
        is_float = left[2] or right[2] or isinstance(expr.op, ast.Div)
        if isinstance(expr.op, ast.Pow) and not is_float:
            if 0 <= right[0] <= 64 and abs(left[0]) ** right[0] < 2.0**53:
                return left[0] ** right[0], left[0] ** right[0], False  # an int: `n ** 2 / 7`
            return None  # int ** -int: MS319's; beyond a double: MS345's
        if isinstance(expr.op, ast.Pow) and _sampled(ctx, expr, sample, depth):
            return None  # `d ** -0.5` of a shape: exact for the usual powers of two
        wide = _apply(expr.op, left[0], right[0])
        if not is_float:
            return wide, wide, False
        if isinstance(expr.op, ast.FloorDiv):  # measured: `3 // 0.1` is 30.0 in graph mode
            narrow = float(math.floor(_f32(_f32(left[1]) / _f32(right[1]))))
        elif isinstance(expr.op, ast.Mod):  # measured: `3 % 0.1` is 0.0, `3 % -0.7` -0.5
            a, b = _f32(left[1]), _f32(right[1])
            narrow = _f32(a - _f32(math.floor(_f32(a / b)) * b))
        else:
            narrow = _f32(_apply(expr.op, _f32(left[1]), _f32(right[1])))
        return wide, narrow, True
    return None


def _input_number(
    ctx: FunctionContext, name: str, augmented: bool = False
) -> Optional[tuple[float, float, bool]]:
    """(Python's value, graph mode's float32 value, whether it is a float) of an input of the
    entry point that every call in the module passes the same number for (`net(x, 0.1)`,
    `net(x, mutable(0.1))`), or leaves at its number default (`a=0.1`); the function never
    rebinds it. Measured (round 35, `in_`): `return a * 3` with `net(x, 0.1)` gave
    0.30000001192092896 in GRAPH_MODE, `n / 3` with `net(x, 1)` 0.3333333432674408."""
    fn = ctx.fn.node
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    defaults: dict[str, Optional[ast.expr]] = {a.arg: None for a in [*positional, *args.kwonlyargs]}
    for arg, default in zip(positional[len(positional) - len(args.defaults) :], args.defaults):
        defaults[arg.arg] = default
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults):
        defaults[arg.arg] = kw_default
    if name not in defaults or name == "self" or ctx.fn.cls is None:
        return None  # (an `@ms.jit` function compiles in PyNative too: both modes agree)
    if ctx.types.is_tensor(ast.Name(id=name, ctx=ast.Load())):
        return None  # a Tensor input: no number to read (and no module-wide dependency taken)
    stores = sum(n.id == name and isinstance(n.ctx, ast.Store) for n in ctx.of(ast.Name))
    if stores > (1 if augmented else 0):
        return None
    entry = module_values.entry_point(ctx.types, fn)
    if entry is None:
        return None
    module = ctx.fn.module
    for line in module_values.call_lines(module, entry):
        module_values.note_read(ctx.lines, line)
    params = module_values.ordered_parameters(fn, skip_self=ctx.fn.cls is not None)
    passed = (module_values.argument_values(module, entry, params) or {}).get(name)
    if not passed:
        return None
    numbers = set()
    for value in passed:
        if value is None:
            value = defaults[name]
        number = _number_literal(ctx, value)
        if number is None:
            return None
        numbers.add(number)
    if len(numbers) != 1:
        return None
    found = numbers.pop()
    if isinstance(found, float):
        return found, _f32(found), True
    return float(found), float(found), False


def _number_literal(ctx: FunctionContext, value: Optional[ast.expr]) -> Optional[float]:
    """The int or float a call writes out (`0.1`, `-3`, `mutable(0.1)`), else None."""
    if value is None:
        return None
    inner = mutable_argument(ctx, value)
    if inner is not None:
        value = inner
    sign = 1
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        sign, value = -1, value.operand
    number = value.value if isinstance(value, ast.Constant) else None
    if isinstance(number, (int, float)) and not isinstance(number, bool):
        return sign * number
    return None


def _sum_items(expr: ast.expr, ctx: Optional[FunctionContext] = None) -> Optional[list[ast.expr]]:
    """The items of `sum((a, b, ...))` / `sum([a, b, ...])` without a start value; with `ctx`
    also of a local bound once to one (`ratios = (0.1, 0.2); sum(ratios)`) and of a repeated
    list (`sum([0.1] * 10)`; round 33, `dv_`: 1.0000001192092896 in GRAPH_MODE where
    PyNative gave 0.9999999999999999)."""
    held = names.builtin_argument(expr, "sum")
    if held is None:
        return None
    if ctx is not None and isinstance(held, ast.Name):
        bound = _binding(ctx, held, expr)
        if bound is None:
            return None
        held = bound
    if (
        ctx is not None
        and isinstance(held, ast.BinOp)
        and isinstance(held.op, ast.Mult)
        and isinstance(held.left, ast.List)
        and isinstance(held.right, ast.Constant)
        and type(held.right.value) is int
        and 0 < held.right.value <= 64
        and not any(isinstance(e, ast.Starred) for e in held.left.elts)
    ):
        return list(held.left.elts) * held.right.value
    if isinstance(held, (ast.Tuple, ast.List)) and not any(
        isinstance(e, ast.Starred) for e in held.elts
    ):
        return list(held.elts)
    return None


def _unpacked_shape_item(ctx: FunctionContext, name: ast.Name) -> Optional[tuple[int, int]]:
    """(position, static dim or -1) of `name` bound once by unpacking a Tensor's shape
    (`h, w = x.shape`); None for anything else."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name.id and isinstance(n.ctx, ast.Store)]
    if len(stores) != 1:
        return None
    for assign in ctx.of(ast.Assign):
        if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Tuple):
            continue
        elts = assign.targets[0].elts
        at = next((i for i, e in enumerate(elts) if e is stores[0]), None)
        if at is None:
            continue
        value = assign.value
        if not (
            isinstance(value, ast.Attribute)
            and value.attr == "shape"
            and ctx.types.is_tensor(value.value)
        ):
            return None
        shape = shapes(ctx).of(value.value)
        dim = shape[at] if shape is not None and len(shape) == len(elts) else None
        return at, dim if isinstance(dim, int) else -1
    return None


def _number_builtin(
    ctx: FunctionContext,
    called: tuple[str, list[ast.expr]],
    sample: int,
    depth: int,
    spread: bool,
    tensors: bool,
) -> Optional[tuple[float, float, bool]]:
    """`abs` / `float` / `max` / `min` of evaluated arguments: Python compares the doubles,
    graph mode the float32 values."""
    name, args = called
    values: list[tuple[float, float, bool]] = []
    for arg in args:
        one = evaluate(ctx, arg, sample, depth + 1, spread=spread, tensors=tensors)
        if one is None:
            return None
        values.append(one)
    if name == "abs":
        return abs(values[0][0]), abs(values[0][1]), values[0][2]
    if name == "float":
        return values[0][0], values[0][1], True
    pick = max if name == "max" else min
    python = pick(values, key=lambda v: v[0])
    graph = pick(values, key=lambda v: v[1])
    return python[0], graph[1], python[2]


def _text_call(expr: ast.expr) -> bool:
    """`str(v)` / `repr(v)` / `"...{}...".format(v)` of one value (measured: the float32
    value's digits; `%` formatting and a format spec keep Python's)."""
    if not (isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords):
        return False
    func = expr.func
    if isinstance(func, ast.Name):
        return func.id in ("str", "repr")
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "format"
        and isinstance(func.value, ast.Constant)
        and isinstance(func.value.value, str)
        and func.value.value.count("{") == 1
        and "{}" in func.value.value
    )


def _pow_call(expr: ast.expr) -> bool:
    """The builtin `pow(a, b)` of two arguments."""
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "pow"
        and len(expr.args) == 2
        and not expr.keywords
        and not any(isinstance(a, ast.Starred) for a in expr.args)
    )


def _float_text(expr: ast.expr) -> Optional[float]:
    """`float("inf")`, `float("-inf")`, `float("1.5")`: a float from a str literal."""
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "float"
        and len(expr.args) == 1
        and not expr.keywords
        and isinstance(expr.args[0], ast.Constant)
        and isinstance(expr.args[0].value, str)
    ):
        return None
    try:
        value = float(expr.args[0].value)
    except ValueError:
        return None
    return None if math.isnan(value) else value


# `math` functions of floats that graph mode runs in Python on its (double) arguments: the
# result is a double, and arithmetic on it is float32 (round 31, measured at LAX and STRICT:
# `math.sqrt(2) * 2` returned 2.8284270763397217, `math.log(10) / 3`, `math.exp(0.5) + 1`,
# `math.cos(1) * 2` and `math.sqrt(n) / 2` likewise; `math.sqrt(2)` alone is exact).
MATH_FLOATS: dict[str, Callable[..., float]] = {
    name: getattr(math, name)
    for name in (
        "sqrt",
        "exp",
        "log",
        "log2",
        "log10",
        "sin",
        "cos",
        "tan",
        "atan",
        "tanh",
        "erf",
    )
}


def _math_call(
    ctx: FunctionContext, expr: ast.expr
) -> Optional[tuple[Callable[..., float], list[ast.expr]]]:
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in MATH_FLOATS
        and not expr.keywords
        and 1 <= len(expr.args) <= 2
        and not any(isinstance(a, ast.Starred) for a in expr.args)
    ):
        return None
    if len(expr.args) == 2 and expr.func.attr != "log":
        return None
    if ctx.fn.module.qualname(expr.func) != f"math.{expr.func.attr}":
        return None
    return MATH_FLOATS[expr.func.attr], list(expr.args)


def _number_call(expr: ast.expr) -> Optional[tuple[str, list[ast.expr]]]:
    """`abs(e)`, `float(e)` of a Python expression, `max(a, b, ...)` / `min(...)` of two or
    more: the builtin's name and its arguments."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and not expr.keywords):
        return None
    name, args = expr.func.id, expr.args
    if any(isinstance(a, ast.Starred) for a in args):
        return None
    if (
        name in ("abs", "float")
        and len(args) == 1
        and isinstance(args[0], (ast.BinOp, ast.UnaryOp))
    ):
        return name, list(args)
    if name in ("max", "min") and len(args) >= 2:
        return name, list(args)
    return None


def _static_dim(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    """`x.shape[i]` of a Tensor whose static shape the module gives (every call passes one)."""
    if not (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and ctx.types.is_tensor(expr.value.value)
    ):
        return None
    index = expr.slice
    sign = 1
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        sign, index = -1, index.operand
    if not (isinstance(index, ast.Constant) and type(index.value) is int):
        return None
    shape = shapes(ctx).of(expr.value.value)
    at = sign * index.value
    if shape is None or not -len(shape) <= at < len(shape):
        return None
    return shape[at]


def _offset(expr: ast.expr) -> int:
    """A shape item's own offset from the sample (`x.shape[0]` and `x.shape[1]` differ)."""
    return sum(map(ord, ast.unparse(expr))) % 5


def _sampled(ctx: FunctionContext, expr: ast.BinOp, sample: int, depth: int) -> bool:
    """Whether an operand of `expr` depends on a shape or a length."""
    for side in (expr.left, expr.right):
        here = evaluate(ctx, side, sample, depth + 1)
        other = evaluate(ctx, side, sample + 1, depth + 1)
        if here is None or other is None or here[0] != other[0]:
            return True
    return False


def _f32(value: Any) -> float:
    """`value` rounded to float32: past its range an infinity, as graph mode gives (measured:
    `1e39` and `x.shape[0] * 1e30 * 1e10` returned inf); a complex raises TypeError."""
    if isinstance(value, complex):
        raise TypeError("complex")
    try:
        return float(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def _apply(op: ast.operator, a: Any, b: Any) -> Any:
    if isinstance(op, ast.Add):
        return a + b
    if isinstance(op, ast.Sub):
        return a - b
    if isinstance(op, ast.Mult):
        return a * b
    if isinstance(op, ast.Div):
        return a / b
    if isinstance(op, ast.FloorDiv):
        return a // b
    if isinstance(op, ast.Mod):
        return a % b
    return a**b


MATH_CONSTANTS = {"math.pi": math.pi, "math.e": math.e, "math.tau": math.tau, "math.inf": math.inf}


def _math_constant(ctx: FunctionContext, expr: ast.expr) -> Optional[float]:
    """`math.pi`, `math.e`, `math.tau`, `math.inf`."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return None
    return MATH_CONSTANTS.get(ctx.fn.module.qualname(expr) or "")


def _float64_float(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`float(t)` of a float64 Tensor: float32 in graph mode (round 34, `sc_`: `float(t)` of
    `Tensor(0.1, ms.float64)` returned 0.10000000149011612, PyNative 0.1; `t.item()` of it
    returned 0.1 in both modes)."""
    tensor = names.builtin_argument(expr, "float")
    if tensor is None or not ctx.types.is_tensor(tensor):
        return False
    return abstract(ctx, module=True).dtype(tensor) == "float64"


def _tensor_number(call: ast.Call) -> bool:
    """`float(t)` / `t.item()`: a float32 Tensor's value as a Python float."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "float" and len(call.args) == 1:
        return not isinstance(call.args[0], ast.Constant)
    return isinstance(func, ast.Attribute) and func.attr == "item" and not call.args


def _integer_item(ctx: FunctionContext, call: ast.expr) -> bool:
    """`t.item()` of a Tensor the source gives an integer or bool dtype: a Python int (measured:
    `n = t.item(); n + 1` of an int32 `t` is 4 in both modes, `float(t.item()) + 1` of an int64
    `t` 2.0 in both)."""
    func = call.func if isinstance(call, ast.Call) else None
    if not (isinstance(func, ast.Attribute) and func.attr == "item"):
        return False
    tensor = func.value
    dtype = abstract(ctx, module=True).dtype(tensor) if ctx.types.is_tensor(tensor) else None
    if dtype is None and _integer_reduction(tensor):
        # `x.sum().item()` of an int32 `x`: an int (round 34: `v = -x.sum().item(); v % 3`
        # returned 2 in both modes)
        inner = tensor.func.value  # type: ignore[attr-defined]
        dtype = abstract(ctx, module=True).dtype(inner) if ctx.types.is_tensor(inner) else None
    return dtype is not None and dtype.startswith(("int", "uint", "bool"))


def _integer_reduction(expr: ast.expr) -> bool:
    """`x.sum()`, `x.max()`, `x.min()` without arguments: the dtype of `x` (ints stay ints)."""
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("sum", "max", "min")
        and not expr.args
        and not expr.keywords
    )


def _float_attribute(cls: ast.ClassDef, attr: str) -> Optional[float]:
    """The float literal every `self.<attr> = ...` of the class binds, if one."""
    values = [
        node.value
        for node in walk_of(cls, ast.Assign)
        for t in node.targets
        if names.self_attribute(t) == attr
    ]
    if any(names.self_attribute(n.target) == attr for n in walk_of(cls, ast.AugAssign)):
        return None
    found = {v.value for v in values if isinstance(v, ast.Constant) and type(v.value) is float}
    return found.pop() if len(found) == 1 and len(values) == 1 else None


FORMAT_SPEC_IGNORED = Rule(
    "MS322",
    "fstring-format-spec-ignored",
    Group.DIVERGES,
    title="An f-string's format spec is ignored in compiled code",
    message=(
        "`{text}` has the format spec `:{spec}`, which graph mode ignores (it writes the value "
        "as `str` would); use `{instead}` instead."
    ),
    why=(
        "Graph mode builds an f-string from the `str` of each value and drops the format spec: "
        "`f\"{{0.5:.2f}}\"` gave '0.5' in GRAPH_MODE, '0.50' in PyNative, and "
        "`f\"{{n:04d}}\"` gave '3' for '0003'. `str.format` and `%` formatting keep it "
        "(`\"{{:.2f}}\".format(1 / 3)` gave '0.33' in both modes)."
    ),
    remedy='Format with `"{:.2f}".format(v)` (or `%`), which graph mode runs as Python does.',
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check_format_specs(ctx: FunctionContext) -> Iterator[RawFinding]:
    for joined in ctx.of(ast.JoinedStr):
        for part in joined.values:
            if not isinstance(part, ast.FormattedValue) or part.format_spec is None:
                continue
            spec = _spec_text(part.format_spec)
            if spec is None or not spec:
                continue
            value = ast.unparse(part.value)
            nested = any(isinstance(p, ast.FormattedValue) for p in part.format_spec.values)  # type: ignore[attr-defined]
            instead = f'format({value}, f"{spec}")' if nested else f'"{{:{spec}}}".format({value})'
            yield FORMAT_SPEC_IGNORED.finding(
                part, text=ast.unparse(joined), spec=spec, instead=instead
            )


def _spec_text(spec: ast.expr) -> Optional[str]:
    """The format spec as written (`.2f`, or `>{width}` with a nested field: measured in round
    36, `f'{k:>{w}}'` gave '3' and `f'{r:.{p}f}'` '0.5', the nested spec ignored as well)."""
    if not isinstance(spec, ast.JoinedStr):
        return None
    texts: list[str] = []
    for part in spec.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            texts.append(part.value)
        elif isinstance(part, ast.FormattedValue) and part.format_spec is None:
            texts.append("{" + ast.unparse(part.value) + "}")
        else:
            return None
    return "".join(texts)
