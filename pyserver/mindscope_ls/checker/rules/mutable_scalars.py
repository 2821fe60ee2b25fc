"""MS1018, MS241: builtins graph mode lacks for a `mutable()` number.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative. `mutable(-1)` (or a
local bound to it) is a variable scalar in the graph, like a number read from a Tensor:
- `abs(mutable(-1))`, `abs(n)` with `n = mutable(-1)`, `abs(mutable(-1.5))`,
  `x * abs(mutable(-2))`, `round(mutable(2.5))`, `round(mutable(3))` fail at every level
  ("For Operator[Abs], input's type 'Int64' does not match expected type 'Tensor'"; `Round`
  likewise), and `round(mutable(2.567), 2)` too ("type NoneType doesn't define __round__
  method"): MS1018. `int()`, `float()`, `bool()`, `isinstance()` of one, `2 ** mutable(2)` and
  `abs()` / `round()` of constants compile.
- `math.floor(mutable(2.5))`, `math.ceil(n)`, `math.sqrt(mutable(4.0))` compile at LAX (the
  fallback runs them) and fail under STRICT ("the inputs should be constant, but found
  variable"): MS241, as MS204 for a number read from a Tensor. So do `str(n)` and `repr(n)`
  ("In JIT strict mode, cannot get attributes __str__ or the Int64 object").
The same for a parameter the callers pass `mutable(k)` for: `construct(self, x, n)` returning
`x * abs(n)` with `Net()(x, mutable(-2))`, and `round(r)` with `net(x, mutable(2.5))` failed at
every level; passing `-2` itself compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import module_values, names, receivers
from .helpers.abstract import MUTABLE
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

ABS_ROUND_OF_MUTABLE = Rule(
    "MS1018",
    "abs-round-of-mutable",
    Group.FAILS,
    title="`abs()` / `round()` of a `mutable()` number",
    message=(
        "`{text}` takes `{func}()` of the variable number `{arg}` (made by `mutable()`), which "
        "graph mode runs as the Tensor op `{op}` and refuses for a scalar; apply it to the "
        "constant before `mutable()` or use a Tensor."
    ),
    why=(
        "`mutable()` makes a Python number a variable scalar of the graph; graph mode's "
        "`abs` and `round` map to the `Abs` and `Round` operators, which take Tensors only."
    ),
    remedy="Apply `abs()` / `round()` before wrapping the number in `mutable()`, or use a Tensor.",
    mindspore_says=(
        "TypeError: For Operator[Abs], input's type 'Int64' does not match expected type 'Tensor'."
    ),
)

MATH_OF_MUTABLE_STRICT = Rule(
    "MS241",
    "math-of-mutable-strict",
    Group.STRICT,
    title="A `math` function, `str()` or `repr()` of a `mutable()` number under STRICT",
    message=(
        "`{text}` applies `{func}` to the variable number `{arg}` (made by `mutable()`), which "
        "only LAX's Python fallback runs; under jit_syntax_level=STRICT compute it before "
        "`mutable()` or with Tensor ops."
    ),
    why=(
        "Under STRICT there is no Python fallback: `math.*` functions, `str()` and `repr()` "
        "run at compile time on constants only, and a `mutable()` number is a variable."
    ),
    remedy="Compute the `math` function on the constant before `mutable()`, or use `ops.*`.",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant, but found variable '__input_0__' to be nonconstant."
    ),
)

_OPS = {"abs": "Abs", "round": "Round"}
# `str(n)` / `repr(n)` of a `mutable()` number: LAX's fallback formats it, STRICT has no
# `__str__` for an Int64 (measured, `str(n)` with `Net()(x, mutable(2))`)
_TEXT = ("str", "repr")


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _findings(ctx, frozenset())


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The same for a parameter every call of the entry point passes `mutable(k)` for
    (`Net()(x, mutable(-2))`); it reads the callers, so it is not cacheable."""
    if not ctx.fn.module.mentions("mutable"):
        return  # no `mutable(...)` anywhere in the file: the common case, on every keystroke
    params = mutable_parameters(ctx)
    if params:
        yield from _findings(ctx, params)


def _findings(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    """With `params`, only the calls whose argument is mutable through one of them."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        if not call.args or isinstance(call.args[0], ast.Starred) or call.keywords:
            continue
        arg = call.args[0]
        if params and (not mutable_number(ctx, arg, params=params) or mutable_number(ctx, arg)):
            continue  # not through a parameter, or `check` reports it already
        if not params and not mutable_number(ctx, arg):
            continue
        func = call.func
        if isinstance(func, ast.Name) and func.id in _OPS and len(call.args) <= 2:
            if calls_shared.builtin(ctx, func.id):
                yield ABS_ROUND_OF_MUTABLE.finding(
                    call,
                    text=ast.unparse(call),
                    func=func.id,
                    arg=ast.unparse(arg),
                    op=_OPS[func.id],
                )
            continue
        if isinstance(func, ast.Name) and func.id in _TEXT and calls_shared.builtin(ctx, func.id):
            yield MATH_OF_MUTABLE_STRICT.finding(
                call, text=ast.unparse(call), func=f"{func.id}()", arg=ast.unparse(arg)
            )
            continue
        qualname = ctx.fn.module.qualname(func)
        if qualname and qualname.startswith("math."):
            yield MATH_OF_MUTABLE_STRICT.finding(
                call, text=ast.unparse(call), func=qualname, arg=ast.unparse(arg)
            )


def mutable_parameters(ctx: FunctionContext) -> frozenset[str]:
    """The parameters every call of the function's entry point in the module passes
    `mutable(<number>)` for (and the function never rebinds)."""
    return parameters_passed(ctx, lambda v: mutable_number(ctx, v))


def parameters_passed(ctx: FunctionContext, accept: Callable[[ast.expr], bool]) -> frozenset[str]:
    """The parameters every call of the function's entry point in the module passes an
    argument `accept`s for (and the function never rebinds). It reads the callers: a rule
    using it is not cacheable."""
    entry = module_values.entry_point(ctx.types, ctx.fn.node)
    if entry is None:
        return frozenset()
    module = ctx.fn.module
    for line in module_values.call_lines(module, entry):
        module_values.note_read(ctx.lines, line)
    params = module_values.ordered_parameters(ctx.fn.node, skip_self=ctx.fn.cls is not None)
    passed = module_values.argument_values(module, entry, params)
    if not passed:
        return frozenset()
    stores = {n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store)}
    return frozenset(
        name
        for name, values in passed.items()
        if values and name not in stores and all(v is not None and accept(v) for v in values)
    )


def mutable_argument(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """`v` of `mutable(v)` (one argument, no keywords), else None."""
    if (
        isinstance(expr, ast.Call)
        and len(expr.args) == 1
        and not expr.keywords
        and names.callee(ctx.types.module, expr.func) in MUTABLE
    ):
        return expr.args[0]
    return None


def mutable_number(
    ctx: FunctionContext, expr: ast.expr, depth: int = 0, params: frozenset[str] = frozenset()
) -> bool:
    """`mutable(k)` of an int or float (a constant, a number the values know, or `self.k` the
    class sets to numbers only), directly, through a local bound once to it, or in arithmetic
    on one without a Tensor (`-n`, `n * 2`)."""
    if depth > 6:
        return False
    if isinstance(expr, ast.Name):
        if expr.id in params:
            return True
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and mutable_number(ctx, bound, depth + 1, params)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return mutable_number(ctx, expr.operand, depth + 1, params)
    if isinstance(expr, ast.BinOp):
        sides = (expr.left, expr.right)
        if any(ctx.types.is_tensor(side) for side in sides):
            return False
        return any(mutable_number(ctx, side, depth + 1, params) for side in sides)
    arg = mutable_argument(ctx, expr)
    if arg is None:
        return False
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, (ast.USub, ast.UAdd)):
        arg = arg.operand
    if isinstance(arg, ast.Constant):
        return type(arg.value) in (int, float)
    attr = names.self_attribute(arg)
    if attr is not None and ctx.fn.cls is not None:
        return _numeric_attribute(ctx.fn.cls.node, attr)
    value = abstract(ctx).of(arg)  # `mutable(self.shift)` of an int the class sets
    return value is not None and value.kind == "scalar" and value.dtype in ("int", "float")


def _numeric_attribute(cls: ast.ClassDef, attr: str) -> bool:
    """Every `self.<attr> = v` of the class binds an int/float literal or a parameter of its
    method whose default is one (`def __init__(self, shift=-1): self.shift = shift`)."""
    found = False
    for method in cls.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        defaults = {a.arg: d for a, d in names.parameter_defaults(method)}
        for node in ast.walk(method):
            if isinstance(node, ast.AugAssign) and names.self_attribute(node.target) == attr:
                return False
            if not isinstance(node, ast.Assign):
                continue
            if not any(names.self_attribute(t) == attr for t in node.targets):
                continue
            value: Optional[ast.expr] = node.value
            if isinstance(value, ast.Name):
                value = defaults.get(value.id)
            if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
                value = value.operand
            if not (isinstance(value, ast.Constant) and type(value.value) in (int, float)):
                return False
            found = True
    return found


def variable_int(
    ctx: FunctionContext, expr: ast.expr, params: frozenset[str] = frozenset()
) -> bool:
    """A number graph mode knows only when it runs: a `mutable()` number (or one of `params`,
    the parameters callers pass `mutable()` for) or one read from a Tensor (`int(t)`,
    `t.item()`), not a Tensor itself."""
    if ctx.types.is_tensor(expr):
        return False
    return mutable_number(ctx, expr, params=params) or receivers.runtime_scalar(ctx, expr)


def through_mutable_parameters(
    ctx: FunctionContext, find: Callable[[frozenset[str]], Iterable[RawFinding]]
) -> Iterator[RawFinding]:
    """What `find` reports once the parameters every caller passes `mutable(k)` for count as
    variable numbers, less what it reports without them (the rule's cacheable `check` says
    that). It reads the callers, so a rule registers it as a non-cacheable check."""
    if not ctx.fn.module.mentions("mutable"):
        return  # no `mutable(...)` anywhere in the file: the common case, on every keystroke
    params = mutable_parameters(ctx)
    if not params:
        return
    known = {(f.code, f.range) for f in find(frozenset())}
    yield from (f for f in find(params) if (f.code, f.range) not in known)
