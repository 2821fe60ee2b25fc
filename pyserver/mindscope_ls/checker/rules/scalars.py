"""MS175-MS176: Python-level operations the graph evaluates with its own semantics.

- MS175: the graph computes Python ints as int64 (`ScalarMul`, `ScalarAdd`, ... in
  `libmindspore_core.so`), and checks each operation: "Overflow of the mul of two signed number"
  (also sum, sub, div, mod). Measured: `10 ** 10 * 10 ** 10` fails at LAX and STRICT, while
  PyNative's Python ints have no bound. Only operands the source fixes are judged: int literals
  and expressions of them, and locals bound once to such an expression. `int()` of a float
  literal and `abs()` of an int expression the source fixes are evaluated by Python while
  compiling, and a result beyond int64 cannot become a graph constant: "Unable to cast Python
  instance of type <class 'int'> to C++ type 'long'" (`int(1e20)`, `abs(-2 ** 63)`, measured at
  LAX and STRICT). An int power beyond int64 is cast to int64's minimum first (MS345), so
  `2 ** 63 - 1` and `2 ** 64 * 2` fail too (measured at LAX: "Overflow of the sub of two signed
  number x: -9223372036854775808, y: 1"), though their Python values may fit. Round 34
  (`sc_`): `sys.maxsize` is int64's maximum (`sys.maxsize + 1`, `-sys.maxsize - 2`,
  `(sys.maxsize + 10) % 7` fail; `sys.maxsize - 1`, `-sys.maxsize - 1` compile), and `<<` is
  checked too: `1 << 63` and `(1 << 64) - 1` fail with "Arithmetic left shift causes int64
  integer overflow", and `a = 1 << 62; a * 2` overflows the `*` (`a + 1` compiles).
- MS176: a `@classmethod` of the Cell called through `self` (`type(self)`, `self.__class__`,
  the class's name), or of another workspace class called through that class, an object of it
  held in `self.<attr>` or a local bound to one (round31 `ob_cm_*`: plain classes,
  `@jit_class`es and other Cells alike), is compiled as a plain function
  whose first parameter (`cls`) is not bound: "The parameters number of the function is 2, but
  the number of provided arguments is 1" (measured at LAX and STRICT; `@staticmethod` and plain
  methods compile). Round 34: reached through a local bound once to the method (`f = self.cm;
  f(x)`, `f = Net.cm`, `f = type(self).cm`) or `getattr(self, "cm")(x)` it fails alike.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo
from .helpers.receivers import only_binding, self_attr

INT64_OVERFLOW = Rule(
    "MS175",
    "int64-overflow",
    Group.FAILS,
    title="Python int arithmetic beyond int64",
    message=(
        "`{expr}` is {value}, beyond int64: graph mode computes Python ints as int64 and "
        "fails on overflow; use a float or a smaller value."
    ),
    why=(
        "Compiled code represents Python ints as 64-bit integers and checks each `+`, `-`, "
        "`*`, `/`, `%` for overflow when it folds them; Python's ints are unbounded."
    ),
    remedy="Compute with floats (`1e20`), or keep the value outside the compiled function.",
    mindspore_says=(
        "ValueError: For prim 'ScalarMul' Overflow of the mul of two signed number x: "
        "10000000000, y: 10000000000."
    ),
)

CLASSMETHOD_THROUGH_SELF = Rule(
    "MS176",
    "classmethod-in-graph",
    Group.FAILS,
    title="A `@classmethod` called in compiled code",
    message=(
        "`{name}` is a `@classmethod`, which graph mode compiles as a plain function without "
        "binding `{first}`; make it a `@staticmethod` or a regular method."
    ),
    why=(
        "The graph compiler resolves `self.m` (`type(self).m`, `Net.m`) to the function under "
        "the `classmethod` wrapper and calls it with the call's own arguments only, so its "
        "first parameter is missing."
    ),
    remedy="Use a `@staticmethod` (reading class constants by name) or a regular method.",
    mindspore_says=(
        "TypeError: The parameters number of the function is 2, but the number of provided "
        "arguments is 1."
    ),
)

INT64 = (-(2**63), 2**63 - 1)
CHECKED = (ast.Add, ast.Sub, ast.Mult, ast.LShift)
MAX_BITS = 4096  # never fold anything bigger (`10 ** 10 ** 10`)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _classmethods(ctx)
    yield from _converted(ctx)
    yield from _literals(ctx)
    ops: list[ast.BinOp] = ctx.of(ast.BinOp)
    if not ops:
        return
    constants = constant_int_locals(ctx)
    reported: set[int] = set()
    for node in ops:
        if not isinstance(node.op, CHECKED) or id(node) in reported:
            continue
        value = fold_int(node, constants)
        if value is not None and not INT64[0] <= value <= INT64[1]:
            left, right = fold_int(node.left, constants), fold_int(node.right, constants)
            if left is None or right is None:
                continue
            if not (INT64[0] <= left <= INT64[1] and INT64[0] <= right <= INT64[1]):
                continue  # an operand overflowed first: that one is reported
            reported.add(id(node))
            yield INT64_OVERFLOW.finding(node, expr=names.short(node), value=_magnitude(value))
    for node, value, cast in cast_power_overflows(ops, constants):
        if id(node) not in reported:
            yield INT64_OVERFLOW.finding(
                node,
                expr=names.short(node),
                value=f"{value} in graph mode (where `{names.short(cast)}` is cast to {INT64[0]})",
            )


def _literals(ctx: FunctionContext) -> Iterator[RawFinding]:
    """An int literal beyond int64 anywhere in the compiled function (round 31, measured at LAX
    and STRICT: `return 100000000000000000000`, `n < 10...0`, `0xFFFFFFFFFFFFFFFF`, even a
    local never read, and `-9223372036854775808`, whose literal is 2 ** 63, fail with "Unable
    to cast Python instance of type <class 'int'> to C++ type 'long'"; `9223372036854775807`
    compiles)."""
    for node in ctx.of(ast.Constant):
        value = node.value
        if type(value) is int and value > INT64[1]:
            yield INT64_OVERFLOW.finding(node, expr=names.short(node), value=_magnitude(value))


def graph_power(base: int, exponent: int) -> int:
    """Graph mode's `base ** exponent` of two ints: the double power cast to int64 (out of
    range: int64's minimum, measured for `2 ** 70`, `2 ** 63`, `3 ** 41`)."""
    try:
        value = math.pow(float(base), float(exponent))
    except OverflowError:
        return INT64[0]
    if not math.isfinite(value) or not -(2.0**63) <= value < 2.0**63:
        return INT64[0]
    return int(value)


def cast_power_overflows(
    ops: list[ast.BinOp], constants: dict[str, ast.expr]
) -> Iterator[tuple[ast.BinOp, int, ast.BinOp]]:
    """`+ - *` whose operand is an int power beyond int64, which graph mode casts to int64's
    minimum, so the operation overflows (measured: `2 ** 63 - 1` failed with "Overflow of the
    sub of two signed number x: -9223372036854775808, y: 1", `2 ** 64 * 2` alike; PyNative
    computes them): (the operation, the int graph mode gets, the power)."""
    for node in ops:
        if not isinstance(node.op, CHECKED):
            continue
        sides: list[int] = []
        cast: Optional[ast.BinOp] = None
        for side in (node.left, node.right):
            exact = fold_int(side, constants)
            if exact is None:
                break
            if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Pow):
                base, exponent = fold_int(side.left, constants), fold_int(side.right, constants)
                if base is not None and exponent is not None and exponent >= 0:
                    graph = graph_power(base, exponent)
                    if graph != exact and not INT64[0] <= exact <= INT64[1]:
                        cast, exact = side, graph
            if not INT64[0] <= exact <= INT64[1]:
                break
            sides.append(exact)
        if cast is None or len(sides) != 2:
            continue
        left, right = sides
        value = left + right if isinstance(node.op, ast.Add) else left - right
        if isinstance(node.op, ast.Mult):
            value = left * right
        if not INT64[0] <= value <= INT64[1]:
            yield node, value, cast


def _converted(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`int(<float literal>)`, `int(<str literal>)`, `abs(<int expression>)`, `sum()` of int
    expressions and the `math` functions of ints Python runs while compiling, beyond int64."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    constants: Optional[dict[str, ast.expr]] = None
    for call in calls:
        func = call.func
        if call.keywords:
            continue
        if isinstance(func, ast.Attribute):
            if func.attr not in _MATH_NAMES:
                continue
            if constants is None:
                constants = constant_int_locals(ctx)
            value = _math_int(ctx, call, constants)
        elif isinstance(func, ast.Name) and func.id == "sum" and builtin(ctx, "sum"):
            if constants is None:
                constants = constant_int_locals(ctx)
            value = _int_sum(call, constants)
        elif (
            not isinstance(func, ast.Name)
            or func.id not in ("int", "abs")
            or len(call.args) != 1
            or not builtin(ctx, func.id)
        ):
            continue
        elif func.id == "int":
            value = _int_text(call.args[0])
            number = _float_literal(call.args[0])
            if number is not None and math.isfinite(number):
                value = int(number)
        else:
            folded = fold_int(call.args[0], {})
            value = None if folded is None else abs(folded)
        if value is not None and not INT64[0] <= value <= INT64[1]:
            yield INT64_OVERFLOW.finding(call, expr=names.short(call), value=_magnitude(value))


# `math` functions of ints Python runs while compiling, and the largest first argument folded
_MATH_INTS = {"math.factorial": 1000, "math.comb": 10000, "math.perm": 10000}
_MATH_NAMES = frozenset({"factorial", "comb", "perm", "lcm", "prod"})


def _math_int(
    ctx: FunctionContext, call: ast.Call, constants: dict[str, ast.expr]
) -> Optional[int]:
    """`math.factorial(21)`, `math.comb(100, 50)`, `math.perm(..)`, `math.lcm(..)`,
    `math.prod([..])` of ints the source fixes (round 34, `sc_`: beyond int64 they fail at LAX
    and STRICT with "Unable to cast Python instance of type <class 'int'> to C++ type 'long'",
    even inside `float(...)`; `math.factorial(20)` and `math.comb(30, 15)` compile)."""
    qualname = ctx.fn.module.qualname(call.func) or ""
    if qualname == "math.prod" and len(call.args) == 1:
        items = call.args[0]
        if not isinstance(items, (ast.List, ast.Tuple)):
            return None
        args = list(items.elts)
    elif qualname in _MATH_INTS or qualname == "math.lcm":
        args = list(call.args)
    else:
        return None
    values = [fold_int(a, constants) for a in args]
    if not values or any(v is None or v < 0 for v in values):
        return None
    ints = [v for v in values if v is not None]
    if qualname in _MATH_INTS and ints[0] > _MATH_INTS[qualname]:
        return None
    if sum(v.bit_length() for v in ints) > MAX_BITS:
        return None
    if qualname == "math.prod":
        return math.prod(ints)
    if qualname == "math.lcm":
        return math.lcm(*ints)
    try:
        if qualname == "math.factorial" and len(ints) == 1:
            return math.factorial(ints[0])
        if qualname == "math.comb" and len(ints) == 2:
            return math.comb(ints[0], ints[1])
        if qualname == "math.perm" and len(ints) in (1, 2):
            return math.perm(*ints)
    except ValueError:
        return None
    return None


def _int_sum(call: ast.Call, constants: dict[str, ast.expr]) -> Optional[int]:
    """`sum([a, b, ...])` of ints the source fixes (round 34: `sum([2 ** 62, 2 ** 62])` failed
    with "Overflow of the sum of two signed number"; `sum([2 ** 61, 2 ** 61])` compiles)."""
    if not 1 <= len(call.args) <= 2 or not isinstance(call.args[0], (ast.List, ast.Tuple)):
        return None
    items = [*call.args[0].elts, *call.args[1:]]
    values = [fold_int(item, constants) for item in items]
    if any(v is None or not INT64[0] <= v <= INT64[1] for v in values):
        return None
    return sum(v for v in values if v is not None)


def _int_text(expr: ast.expr) -> Optional[int]:
    """`int('99999999999999999999')`: Python converts the str while compiling (round 34:
    beyond int64 it fails with "Unable to cast Python instance")."""
    if not (isinstance(expr, ast.Constant) and isinstance(expr.value, str)):
        return None
    text = expr.value.strip()
    if not text.lstrip("+-").isdigit() or len(text) > 400:
        return None
    return int(text)


def _float_literal(expr: ast.expr) -> Optional[float]:
    sign = 1.0
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        sign = -1.0 if isinstance(expr.op, ast.USub) else 1.0
        expr = expr.operand
    if isinstance(expr, ast.Constant) and isinstance(expr.value, float):
        return sign * expr.value
    return None


def _magnitude(value: int) -> str:
    return f"about {'-' if value < 0 else ''}10**{len(str(abs(value))) - 1}"


def constant_int_locals(ctx: FunctionContext) -> dict[str, ast.expr]:
    """Locals the function binds once, by `name = <int expression of literals>`."""
    counts: dict[str, int] = {}
    for name in ctx.of(ast.Name):
        if not isinstance(name.ctx, ast.Load):
            counts[name.id] = counts.get(name.id, 0) + 1
    found: dict[str, ast.expr] = {}
    for assign in ctx.of(ast.Assign):
        target = assign.targets[0]
        if len(assign.targets) != 1 or not isinstance(target, ast.Name):
            continue
        if counts.get(target.id) == 1 and fold_int(assign.value, {}) is not None:
            found[target.id] = assign.value
    return found


def fold_int(expr: ast.expr, constants: dict[str, ast.expr], depth: int = 0) -> Optional[int]:
    """The int `expr` computes when the source fixes it (int literals, `-`, `+ - * // % **`)."""
    if depth > 20:
        return None
    if isinstance(expr, ast.Constant):
        value = expr.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(expr, ast.Name) and expr.id in constants:
        return fold_int(constants[expr.id], {}, depth + 1)
    if _sys_maxsize(expr):
        return INT64[1]
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("max", "min")
        and len(expr.args) >= 2
        and not expr.keywords
    ):  # `max(1 << 62, 3) * 2` (round 34: the `*` overflows)
        values = [fold_int(a, constants, depth + 1) for a in expr.args]
        if any(v is None for v in values):
            return None
        ints = [v for v in values if v is not None]
        return max(ints) if expr.func.id == "max" else min(ints)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        inner = fold_int(expr.operand, constants, depth + 1)
        return None if inner is None else (-inner if isinstance(expr.op, ast.USub) else inner)
    if not isinstance(expr, ast.BinOp):
        return None
    left = fold_int(expr.left, constants, depth + 1)
    right = fold_int(expr.right, constants, depth + 1)
    if left is None or right is None:
        return None
    if isinstance(expr.op, ast.Add):
        return left + right
    if isinstance(expr.op, ast.Sub):
        return left - right
    if isinstance(expr.op, ast.Mult):
        if left.bit_length() + right.bit_length() > MAX_BITS:
            return None
        return left * right
    if isinstance(expr.op, (ast.FloorDiv, ast.Mod)) and right != 0:
        return left // right if isinstance(expr.op, ast.FloorDiv) else left % right
    if isinstance(expr.op, ast.Pow) and right >= 0 and left.bit_length() * right <= MAX_BITS:
        return int(left**right)
    if isinstance(expr.op, ast.LShift) and 0 <= right <= MAX_BITS:
        return left << right
    return None


def _sys_maxsize(expr: ast.expr) -> bool:
    """`sys.maxsize`: int64's maximum on the 64-bit platforms MindSpore runs on (round 34,
    `sc_`: `sys.maxsize + 1` and `sys.maxsize * 2` failed with "Overflow of the sum of two
    signed number x: 9223372036854775807, y: 1" at LAX and STRICT; PyNative's ints grow)."""
    return (
        isinstance(expr, ast.Attribute)
        and expr.attr == "maxsize"
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "sys"
    )


def _classmethods(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    if not calls:
        return
    cls = ctx.types.cls
    args = ctx.fn.node.args.posonlyargs + ctx.fn.node.args.args
    own = cls is not None and bool(args) and args[0].arg == "self"
    module = ctx.fn.module
    # locals bound to a call of a class the module defines (the cheap test for `u.m()`)
    made = {
        a.targets[0].id
        for a in ctx.of(ast.Assign)
        if len(a.targets) == 1
        and isinstance(a.targets[0], ast.Name)
        and isinstance(a.value, ast.Call)
        and isinstance(a.value.func, ast.Name)
        and a.value.func.id in module.classes
    }
    for call in calls:
        func = _method_reference(ctx, call.func)
        if func is None:
            continue
        if own and cls is not None and _own_class(func.value, cls.node.name):
            if cls.attr(func.attr) is not None:
                continue  # an attribute set in `__init__` shadows the method
            owner: Optional[ClassInfo] = cls
        elif _may_hold_class(ctx, func.value, made):
            owner = _other_class(ctx, func.value)
            if owner is None or owner.attr(func.attr) is not None:
                continue
        else:
            continue
        found = owner.find_method(func.attr) if owner is not None else None
        if found is None:
            continue
        method = found[1]
        decorators = [d.id for d in method.decorator_list if isinstance(d, ast.Name)]
        if decorators != ["classmethod"]:
            continue
        params = method.args.posonlyargs + method.args.args
        first = params[0].arg if params else "cls"
        name = f"{ast.unparse(func.value)}.{func.attr}"
        yield CLASSMETHOD_THROUGH_SELF.finding(call, name=name, first=first)


def _method_reference(ctx: FunctionContext, func: ast.expr) -> Optional[ast.Attribute]:
    """The `obj.m` a call calls: written out, through a local bound once to it (`f = self.m;
    f(x)`), or `getattr(obj, "m")` with a constant name (measured on 2.10: a `@classmethod`
    reached these ways fails as `self.m(x)` does; `f = self.m` left uncalled compiles)."""
    if isinstance(func, ast.Attribute):
        return func
    if isinstance(func, ast.Name):
        bound = only_binding(ctx, func.id)
        return bound if isinstance(bound, ast.Attribute) else None
    if (
        isinstance(func, ast.Call)
        and isinstance(func.func, ast.Name)
        and func.func.id == "getattr"
        and len(func.args) == 2
        and not func.keywords
        and isinstance(func.args[1], ast.Constant)
        and isinstance(func.args[1].value, str)
        and func.args[1].value.isidentifier()
        and builtin(ctx, "getattr")
    ):
        return ast.Attribute(value=func.args[0], attr=func.args[1].value, ctx=ast.Load())
    return None


def _may_hold_class(ctx: FunctionContext, receiver: ast.expr, made: set[str]) -> bool:
    if isinstance(receiver, ast.Name):
        return receiver.id in ctx.fn.module.classes or receiver.id in made
    return isinstance(receiver, ast.Attribute) and names.self_attribute(receiver) is not None


def _other_class(ctx: FunctionContext, receiver: ast.expr) -> Optional[ClassInfo]:
    """The workspace class of `Cls` (a class the module defines, not rebound here), of
    `self.<attr>` set to `Cls(...)`, or of a local bound once to `Cls(...)` (measured on 2.10:
    `U.scale(x)`, `self.u.scale(x)`, `u.scale(x)` fail alike, for a plain class, a
    `@jit_class` and another Cell)."""
    module = ctx.fn.module
    if isinstance(receiver, ast.Name):
        if receiver.id in module.classes:
            if any(isinstance(n.ctx, ast.Store) and n.id == receiver.id for n in ctx.of(ast.Name)):
                return None
            return ctx.classes.resolve(module.qualname(receiver))
        bound = only_binding(ctx, receiver.id)
        if (
            isinstance(bound, ast.Call)
            and isinstance(bound.func, ast.Name)
            and bound.func.id in module.classes
        ):
            return ctx.classes.resolve(module.qualname(bound.func))
        return None
    held = self_attr(ctx, receiver)
    if held is None or held.kind != "object" or held.class_qualname is None:
        return None
    if ctx.fn.cls is not None and ctx.fn.cls.attr_varies(names.self_attribute(receiver) or ""):
        return None
    return ctx.classes.resolve(held.class_qualname)


def _own_class(receiver: ast.expr, class_name: str) -> bool:
    """`self`, `type(self)`, `self.__class__` (measured on 2.10: fails like `type(self)`) or
    the class's own name."""
    if isinstance(receiver, ast.Name):
        return receiver.id in ("self", class_name)
    if isinstance(receiver, ast.Attribute) and receiver.attr == "__class__":
        return isinstance(receiver.value, ast.Name) and receiver.value.id == "self"
    return (
        isinstance(receiver, ast.Call)
        and isinstance(receiver.func, ast.Name)
        and receiver.func.id == "type"
        and len(receiver.args) == 1
        and isinstance(receiver.args[0], ast.Name)
        and receiver.args[0].id == "self"
    )
