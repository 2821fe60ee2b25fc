"""MS148, MS207, MS298: `functools` / `itertools` / `collections` / `json` functions in compiled
code.

Measured with MindSpore 2.10 on CPU. Graph mode has no translation of these modules: it runs
them through its Python fallback (`__call_func_str__`).

MS148 (LAX and STRICT): an `operator` function handed to `functools.reduce` (spelled so) or to
`itertools.starmap` fails, whatever the other arguments: `functools.reduce(operator.mul, (2, 3))`,
`functools.reduce(mul, x.shape, 1)` ("NameError: name '__input_0__' is not defined"),
`functools.reduce(operator.add, tensors)` and `starmap(operator.mul, pairs)` ("TypeError: 'int'
object is not callable"). What compiles at LAX: a bare `reduce(operator.mul, x.shape)` imported
from functools (graph mode evaluates its source text), `map(operator.add, a, b)` (graph mode's
own `map`), a user function calling `f(a, b)` with `f=operator.mul`, `sorted(...,
key=operator.itemgetter(0))`, `functools.reduce(lambda a, b: a * b, x.shape)`.

MS207 (STRICT only; LAX's fallback runs them): such a function given a value computed in the
graph (a Tensor, or a list/tuple holding one) fails ("the inputs should be constant, but found
variable"): `functools.reduce(lambda a, b: a + b, [x, 2 * x])` (with an initial value too),
`reduce(ops.add, xs)`, `itertools.accumulate/chain/islice/pairwise/zip_longest/starmap(xs)`,
`collections.deque(xs)`, `collections.OrderedDict(a=x)`, and a `collections.namedtuple` class
built from Tensors. A bare `reduce(...)` is evaluated as source text under STRICT: any name in
it holding a graph value fails it, `reduce(mul, x.shape)` too. With constants they compile
(`reduce(f, [1, 2, 3])`, `itertools.product([1, 2], [3, 4])`, `statistics.mean([1.0, 2.0])`,
`functools.reduce(lambda a, b: a * b, x.shape[1:], 1)`); `functools.partial(ops.add, x)` too.

Round 36 (`pm_`): MS148 also takes a builtin graph mode translates (`functools.reduce(max,
...)`, `itertools.starmap(pow / min / round, ...)` fail at both levels; `divmod` compiles).
MS207 also takes `typing.cast(Tensor, x)` (bare `cast(...)` evaluated as source text),
`logging.info('%s', x)` / `logger.warning(..., x)` given a graph value, `operator` functions graph
mode does not translate (`operator.iadd(x, 1)`, `operator.pow(x, 2)`, `operator.abs(x)`; `add`,
`mul`, `matmul`, `getitem`, ... are translated and compile), and a `math` function imported by
name (`from math import sqrt; sqrt(x.shape[-1])` fails; `math.sqrt(x.shape[-1])` compiles).

MS298 (STRICT only; round 35): `json.dumps` / `json.loads` called in compiled code fail under
STRICT whatever they are given: `json.dumps({'a': 1})`, `json.dumps([1, 2])`, `json.dumps(1)`,
`json.loads('{"a": 2}')`, `json.loads('3')`, and an unused `s = json.dumps([1])` ("When handling
script '__call_func_str__(__input_0__,) in graph mode', the inputs should be constant, but found
variable"). Compile at STRICT: `json.loads(...)` at module level or in `__init__` read in
`construct`, `re.sub('a', 'b', 'aa')`, `str([1, 2])`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.elements import Elements
from .helpers.module_values import module_calls

OPERATOR_TO_FALLBACK = Rule(
    "MS148",
    "operator-function-to-fallback",
    Group.FAILS,
    title="An `operator` function (or a builtin graph mode translates, `max`, `pow`, ...) passed "
    "to `functools.reduce` or `itertools.starmap`",
    message=(
        "`{call}` passes `{op}` to `{func}`, which graph mode runs through its Python fallback, "
        "where `{op}` is no longer callable and the compile fails at every level; pass a lambda "
        "(`{lam}`) instead."
    ),
    why=(
        "Graph mode translates the `operator` module's functions (and builtins such as `max`, "
        "`min`, `pow`, `round`) itself; handed to a function it runs in the Python fallback, "
        "they arrive as something that cannot be called (measured round 36: "
        "`functools.reduce(max, [1, 5, 2])`, `itertools.starmap(pow, pairs)` fail at LAX and "
        "STRICT; `divmod`, which graph mode does not translate, compiles)."
    ),
    remedy="Write the operation as a lambda: `functools.reduce(lambda a, b: a * b, seq)`.",
    mindspore_says="NameError: name '__input_0__' is not defined",
)

STDLIB_ON_GRAPH_VALUE = Rule(
    "MS207",
    "stdlib-function-on-graph-value-under-strict",
    Group.STRICT,
    title="A `functools` / `itertools` / `collections` function given graph values, under STRICT",
    message=(
        "`{func}` is run by graph mode's Python fallback, which STRICT allows only on constants, "
        "and `{arg}` is computed in the graph; write it with a `for` loop over the values (or "
        "use LAX)."
    ),
    why=(
        "Graph mode has no translation of these modules: it calls them through the Python "
        "fallback, which STRICT refuses for values computed in the graph."
    ),
    remedy="Combine the values with a `for` loop (`out = xs[0]; for v in xs[1:]: out = out + v`).",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,__input_1__,) in graph "
        "mode', the inputs should be constant, but found variable '__input_1__' to be nonconstant."
    ),
)

JSON_UNDER_STRICT = Rule(
    "MS298",
    "json-call-under-strict",
    Group.STRICT,
    title="`json.dumps` / `json.loads` called in compiled code, under STRICT",
    message=(
        "`{call}` runs only through graph mode's Python fallback, which jit_syntax_level=STRICT "
        "refuses even for constants; compute it at module level or in `__init__` (or use LAX)."
    ),
    why=(
        "Graph mode has no translation of the `json` module: it calls `json.dumps` / "
        "`json.loads` through the JIT Fallback, and STRICT has none, whatever the arguments."
    ),
    remedy="Parse or format the JSON outside compiled code and keep the result in an attribute.",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant, but found variable '__input_0__' to be nonconstant."
    ),
)

JSON_FUNCTIONS = frozenset({"json.dumps", "json.loads"})

FALLBACK_MODULES = ("functools.", "itertools.", "collections.", "heapq.", "bisect.")
# The calls this rule judges reach these packages only through an import of them.
REACHED_THROUGH = frozenset(
    {f.rstrip(".") for f in FALLBACK_MODULES}
    | {"operator", "typing", "logging", "math", "warnings"}
)
# `operator` functions graph mode's parser translates (MindSpore 2.10 `trope.py`); the others
# (`operator.abs`, `pow`, `iadd`, `concat`, ...) run in the Python fallback (measured round 36:
# `operator.iadd(x, 1)`, `operator.pow(x, 2)`, `operator.abs(x)` fail under STRICT).
OPERATOR_TRANSLATED = frozenset(
    {
        "add", "sub", "mul", "truediv", "floordiv", "mod", "eq", "ne", "lt", "gt", "le", "ge",
        "pos", "neg", "not_", "and_", "or_", "xor", "lshift", "rshift", "invert", "is_",
        "is_not", "contains", "matmul", "getitem", "setitem",
    }
)  # fmt: skip
GETTERS = frozenset({"itemgetter", "attrgetter", "methodcaller"})  # MS227's
LOG_FUNCTIONS = frozenset(
    {"debug", "info", "warning", "warn", "error", "critical", "exception", "log"}
)
# Calls of these modules graph mode handles itself (or that take no graph values).
HANDLED = frozenset(
    {"functools.partial", "functools.wraps", "collections.defaultdict", "collections.namedtuple"}
)
# Builtins graph mode's parser maps to functions of its own (`trope.py` / `resources.py` in
# MindSpore 2.10): passed to the Python fallback as values they cannot be called.
TRANSLATED_BUILTINS = frozenset(
    {"abs", "round", "max", "min", "sum", "pow", "len", "bool", "getattr", "hasattr"}
)
LAMBDAS = {
    "add": "lambda a, b: a + b",
    "mul": "lambda a, b: a * b",
    "sub": "lambda a, b: a - b",
    "truediv": "lambda a, b: a / b",
    "and_": "lambda a, b: a & b",
    "or_": "lambda a, b: a | b",
    "max": "lambda a, b: max(a, b)",
    "min": "lambda a, b: min(a, b)",
    "pow": "lambda a, b: a ** b",
}


def _fallback_function(ctx: FunctionContext, call: ast.Call) -> Optional[str]:
    func = call.func
    qualname = ctx.fn.module.qualname(func)
    if qualname is None:
        return None
    if qualname.startswith(FALLBACK_MODULES) and qualname not in HANDLED:
        return qualname
    head, _, last = qualname.rpartition(".")
    if head == "operator" and last not in OPERATOR_TRANSLATED and last not in GETTERS:
        return qualname
    if qualname in ("typing.cast", "warnings.warn") or (
        head == "logging" and last in LOG_FUNCTIONS
    ):
        return qualname
    if isinstance(func, ast.Attribute) and func.attr in LOG_FUNCTIONS and _logger(ctx, func.value):
        return f"logger.{func.attr}"
    if head == "math" and isinstance(func, ast.Name):
        return qualname  # `from math import sqrt`: STRICT evaluates `sqrt(...)` as source text
    return None


def _logger(ctx: FunctionContext, expr: ast.expr) -> bool:
    from .module_state import made_by

    return made_by(ctx, expr) == "logging.getLogger"


def _namedtuple_classes(ctx: FunctionContext) -> set[str]:
    """Module-level names bound to `collections.namedtuple(...)`."""
    return {
        name for name, called in module_calls(ctx.fn.module) if called == "collections.namedtuple"
    }


def _graph_value(ctx: FunctionContext, values: Elements, arg: ast.expr) -> bool:
    """`arg` is computed in the graph: a Tensor or a sequence holding one, or a comprehension
    (or a name bound once to one) whose items are calls given such a value (`[b(x) for b in
    self.branches]`: Cell outputs)."""
    if values.variable(arg):
        return True
    if isinstance(arg, ast.Name):
        bound = [
            a.value
            for a in ctx.of(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == arg.id for t in a.targets)
        ]
        arg = bound[0] if len(bound) == 1 else arg
    return (
        isinstance(arg, (ast.ListComp, ast.GeneratorExp))
        and isinstance(arg.elt, ast.Call)
        and any(values.variable(a) for a in arg.elt.args)
    )


def _translated_builtin(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A builtin graph mode's parser translates to its own function (its `convert_object_map`:
    `max`, `min`, `pow`, `round`, `abs`, `sum`, `len`, ...), not shadowed by the module."""
    return (
        isinstance(expr, ast.Name)
        and expr.id in TRANSLATED_BUILTINS
        and builtin(ctx, expr.id)
        and expr.id not in {n.id for n in ctx.of(ast.Name) if not isinstance(n.ctx, ast.Load)}
    )


def _takes_operator(func: str, call: ast.Call) -> bool:
    """Measured: `functools.reduce` fails given an `operator` function only when spelled as an
    attribute (a bare `reduce` imported from functools is evaluated as source text, where
    `operator.mul` resolves); `starmap` fails in both spellings."""
    if func == "functools.reduce":
        return isinstance(call.func, ast.Attribute)
    return func == "itertools.starmap"


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = ctx.of(ast.Call)
    if not calls or not names.imports_package(ctx.fn.module, REACHED_THROUGH):
        return
    values: Optional[Elements] = None
    named: Optional[set[str]] = None
    for call in calls:
        func = _fallback_function(ctx, call)
        tuple_class = False
        if func is None and isinstance(call.func, ast.Name):
            if named is None:
                named = _namedtuple_classes(ctx)
            if call.func.id in named:
                func, tuple_class = call.func.id, True
        if func is None:
            continue
        args = [*call.args, *(k.value for k in call.keywords)]
        if _takes_operator(func, call):
            op = next(
                (
                    a
                    for a in args
                    if isinstance(a, (ast.Name, ast.Attribute))
                    and (
                        (ctx.fn.module.qualname(a) or "").startswith("operator.")
                        or _translated_builtin(ctx, a)
                    )
                ),
                None,
            )
            if op is not None:
                short = (ctx.fn.module.qualname(op) or "").removeprefix("operator.")
                yield OPERATOR_TO_FALLBACK.finding(
                    op,
                    call=ast.unparse(call),
                    op=ast.unparse(op),
                    func=func,
                    lam=LAMBDAS.get(short, "lambda a, b: ..."),
                )
                continue
        if values is None:
            values = Elements(ctx.types, ctx.fn.node, ctx.lines)
        # A bare name (`reduce(...)` from `from functools import reduce`) makes STRICT evaluate
        # the call's source text: any name in it holding a graph value is refused, `x` of
        # `x.shape` too (measured); `functools.reduce(...)` gets the values themselves.
        script = isinstance(call.func, ast.Name) and not tuple_class
        arg = next(
            (
                a
                for a in args
                if _graph_value(ctx, values, a) or (script and values.names_variable(a))
            ),
            None,
        )
        if arg is not None:
            yield STDLIB_ON_GRAPH_VALUE.finding(call, func=func, arg=ast.unparse(arg))


def check_json(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS298: `json.dumps` / `json.loads` in compiled code."""
    if not names.imports_package(ctx.fn.module, frozenset({"json"})):
        return
    for call in ctx.of(ast.Call):
        if ctx.fn.module.qualname(call.func) in JSON_FUNCTIONS:
            yield JSON_UNDER_STRICT.finding(call, call=names.short(call))
