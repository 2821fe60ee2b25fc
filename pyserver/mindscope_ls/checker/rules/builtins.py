"""MS122-MS129, MS206: builtins and comprehensions given values the graph cannot handle.

What MindSpore 2.10 does with each builtin, by the kind of value it gets and the level, is stated
once in `SUPPORT` (from `graph/_parse/standard_method.py` and real compiles on CPU):
- `max`/`min` (`ms_max`): every Tensor among the values must have one element (`get_tensor_num`),
  at every level; `range` (`make_range`) needs int scalars; `map` (`C.Map`) lists or tuples.
- `int`/`float`/`bool` of a Tensor need one element, at every level.
- `filter` (`filter_`) takes each element's truth in the graph: Tensors fail at every level.
- `any`/`all`/`sorted` have no graph translation: LAX runs them in Python, where a Tensor of
  several elements has no truth value; STRICT folds them only over constants (MS206), as it
  does every builtin the facts table lists no translation for (`reversed`, `id`, `hash`, ...).
Comprehensions (`parser.py`): one `for` clause only; an `if` on a Tensor fails a list
comprehension at LAX (STRICT compiles it) and a dict comprehension at every level.
"""

from __future__ import annotations

import ast
import builtins as python_builtins
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import calls_shared, cell_lists, enumerate_iterators, mutable_scalars
from .helpers import names, receivers, shared_values
from .helpers.abstract import MUTABLE, Value
from .helpers.base import FunctionContext, cacheable
from .helpers.elements import Elements
from .helpers.shapes import Shape

SEVERAL_FOR_CLAUSES = Rule(
    "MS122",
    "comprehension-several-for",
    Group.FAILS,
    title="Comprehension with several `for` clauses",
    message=(
        "This {kind} has {count} `for` clauses and graph mode supports one; nest a loop or "
        "build the pairs first (e.g. with `zip`)."
    ),
    why="MindSpore's parser translates list, dict and generator comprehensions of one `for` only.",
    remedy=(
        "Write nested `for` loops that append to a list, or iterate over pairs built with "
        "`zip(...)` in a single `for`."
    ),
    mindspore_says=(
        "TypeError: The 'generators' supports 1 'comprehension' in ListComp/GeneratorExp, but got "
        "2 comprehensions."
    ),
)

RANGE_OF_TENSOR = Rule(
    "MS123",
    "range-of-tensor",
    Group.FAILS,
    title="`range()` of a Tensor",
    message=(
        "`range()` needs int scalars known when compiling and this argument is a Tensor; use "
        "`x.shape[...]`, `len(...)` or `int(t)`."
    ),
    why="The graph builds `range` from int scalars (`make_range`); a Tensor is not one.",
    remedy="Use a shape entry (`x.shape[0]`), `len(...)`, or convert with `int(t)` (LAX).",
    mindspore_says=(
        "TypeError: For 'make_range', the 0th input should be a int scalar but got "
        "AbstractTensor(shape: (), ...)."
    ),
)

MAP_OVER_TENSOR = Rule(
    "MS124",
    "map-over-tensor",
    Group.FAILS,
    title="`map()` over a Tensor",
    message=(
        "`map()` in graph mode applies only to lists and tuples, and this argument is a "
        "Tensor; apply the function to the Tensor itself or iterate `tuple(x)`."
    ),
    why="The graph's `map` (`C.Map`) takes lists and tuples only.",
    remedy="Apply the (elementwise) function to the whole Tensor, or map over a tuple of Tensors.",
    mindspore_says=(
        "RuntimeError: Map can only be applied to list, tuple, but got Tensor[Float32]."
    ),
)

MAX_MIN_OF_TENSORS = Rule(
    "MS125",
    "max-min-of-tensors",
    Group.FAILS,
    title="`max()` / `min()` over Tensors of several elements",
    message=(
        "`{name}()` compares its values by truth, and a Tensor with several elements has none; "
        "use `ops.maximum`/`ops.minimum` or `ops.stack(...).{name}(0)`."
    ),
    why=(
        "The graph's `max`/`min` accept Tensors of one element only (shape `()` or `(1,)`): "
        "larger Tensors have no single truth value."
    ),
    remedy="Use `ops.maximum(a, b)` / `ops.minimum(a, b)`, or stack the Tensors and reduce.",
    mindspore_says=(
        "ValueError: The truth value of an array with more than one element is ambiguous."
    ),
)

TRUTH_OF_TENSORS = Rule(
    "MS126",
    "truth-of-tensor-sequence",
    Group.FAILS,
    title="`any()` / `all()` / `sorted()` over Tensors of several elements",
    message=(
        "`{name}()` runs in Python (LAX's fallback, or STRICT's folding of constants), where a "
        "Tensor with several elements has no truth value; {advice}."
    ),
    why=(
        "`any`, `all` and `sorted` have no graph translation: LAX runs them in the interpreter, "
        "which needs each Tensor's truth value (or comparisons of Tensors)."
    ),
    remedy="Reduce with Tensor ops instead, e.g. `ops.stack(xs).any()` or `ops.sort(...)`.",
    mindspore_says=(
        "ValueError: The tensor should have only one element, but got 6, more than one element "
        "is ambiguous."
    ),
)

FILTER_OVER_TENSORS = Rule(
    "MS127",
    "filter-over-tensors",
    Group.FAILS,
    title="`filter()` over Tensors or a `mutable(...)` sequence",
    message=(
        "`filter()` keeps the elements whose predicate is true at compile time, and {what}; "
        "select with `ops.masked_select`/`ops.where` instead, or filter constants."
    ),
    why=(
        "The graph's `filter` decides which elements to keep while compiling; a predicate on a "
        "Tensor, or on the elements of a `mutable(...)` sequence (at LAX), is only known when "
        "the graph runs."
    ),
    remedy="Use `ops.where`/`ops.masked_select`, or filter a tuple of Python constants.",
    mindspore_says=(
        "ValueError: Only tensor which shape is () or (1,) can be converted to bool, but got "
        "tensor shape is (2, 3)."
    ),
)

COMPREHENSION_TENSOR_FILTER = Rule(
    "MS128",
    "comprehension-tensor-filter",
    Group.FAILS,
    title="Comprehension filtered by a Tensor condition",
    message=(
        "This {kind}'s `if` is a Tensor condition, so which elements it keeps is not known when "
        "compiling; select with `ops.where` or test a Python value."
    ),
    why=(
        "A comprehension's length must be known at compile time; an `if` on a Tensor decides "
        "it only when the graph runs (LAX rejects list comprehensions, every level dict ones; "
        "STRICT compiles a list comprehension but cannot `ops.stack` its result)."
    ),
    remedy="Keep every element and mask with `ops.where`, or filter on a Python constant.",
    mindspore_says="RuntimeError: The pointer[input_1] is null.",
)

SCALAR_OF_TENSOR = Rule(
    "MS129",
    "scalar-of-tensor",
    Group.FAILS,
    title="`int()` / `float()` / `bool()` of a Tensor of several elements (or of 2+ axes)",
    message=(
        "`{name}()` converts only a Tensor of shape () or (1,) in graph mode, and this one "
        "{shape}; reduce it first (e.g. `{name}(t.sum())`) or keep it a Tensor (`t.astype(...)`)."
    ),
    why=(
        "Converting a Tensor to a Python scalar (or taking its truth value) needs exactly one "
        "element, at every level; graph mode also refuses a one-element Tensor of two or more "
        "axes, shape (1, 1), which PyNative converts (round 32: `int(x)`, `float(x)`, `bool(x)` "
        'of an input of shape (1, 1) or (1, 1, 1) fail at LAX and STRICT, "Can not convert '
        "Tensor with more than one element to Scalar, while the data's shape is: (1, 1)\"; "
        "shape (1,) compiles)."
    ),
    remedy="Reduce the Tensor first (`x.sum()`, `x.any()`), or cast with `x.astype(ms.int32)`.",
    mindspore_says=(
        "ValueError: Can not convert Tensor with more than one element to Scalar, while the "
        "data's shape is : (2, 3)."
    ),
)

NEEDS_CONSTANT_UNDER_STRICT = Rule(
    "MS206",
    "builtin-needs-constant-under-strict",
    Group.STRICT,
    title="Builtin that STRICT runs only on constants, given a value computed in the graph",
    message=(
        "`{name}` has no graph translation, so jit_syntax_level=STRICT runs it only on constants "
        "and {what} is computed in the graph; use Tensor ops or the default LAX level."
    ),
    why=(
        "Under STRICT there is no Python fallback: a builtin without a graph translation "
        "(`any`, `all`, `sorted`, `reversed`, `id`, `hash`, `in` on a Tensor, ...) is folded at "
        "compile time, which needs constant inputs."
    ),
    remedy="Use Tensor ops (`t.any()`, `ops.sort`, `ops.reverse`), or use the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __str__ or the "
        "List[Tensor[Float32]*2] object has no attribute: '__str__'. (`any`, `sorted`, `id`, ...: "
        "ValueError: When handling script 'any(x) in graph mode', the inputs should be constant, "
        "but found variable 'x' to be nonconstant.)"
    ),
)


@dataclass(frozen=True)
class Limit:
    """What one builtin cannot take: `test` over its arguments, failing at `levels`."""

    rule: Rule
    test: str  # several: a Tensor of several elements among the values; first: the first one;
    # sorting: any one, when there are two or more; elements: any Tensor element; tensor: an
    # argument that is a Tensor; argument: the one argument, a Tensor of several elements
    args: slice  # which positional arguments hold the values
    levels: frozenset[SyntaxLevel]


EVERY_LEVEL = frozenset(SyntaxLevel)
FALLBACK_LEVELS = frozenset({SyntaxLevel.LAX, SyntaxLevel.COMPATIBLE})
ALL_ARGS, SECOND_ON = slice(None), slice(1, None)

SUPPORT: dict[str, Limit] = {
    "max": Limit(MAX_MIN_OF_TENSORS, "several", ALL_ARGS, EVERY_LEVEL),
    "min": Limit(MAX_MIN_OF_TENSORS, "several", ALL_ARGS, EVERY_LEVEL),
    "any": Limit(TRUTH_OF_TENSORS, "first", ALL_ARGS, FALLBACK_LEVELS),
    "all": Limit(TRUTH_OF_TENSORS, "first", ALL_ARGS, FALLBACK_LEVELS),
    "sorted": Limit(TRUTH_OF_TENSORS, "sorting", ALL_ARGS, FALLBACK_LEVELS),
    "filter": Limit(FILTER_OVER_TENSORS, "elements", SECOND_ON, EVERY_LEVEL),
    "range": Limit(RANGE_OF_TENSOR, "tensor", ALL_ARGS, EVERY_LEVEL),
    "map": Limit(MAP_OVER_TENSOR, "tensor", SECOND_ON, EVERY_LEVEL),
    "int": Limit(SCALAR_OF_TENSOR, "argument", ALL_ARGS, EVERY_LEVEL),
    "float": Limit(SCALAR_OF_TENSOR, "argument", ALL_ARGS, EVERY_LEVEL),
    "bool": Limit(SCALAR_OF_TENSOR, "argument", ALL_ARGS, EVERY_LEVEL),
}
# The tests a single Tensor argument can break through its rows (`filter` takes a Tensor's
# elements' truth otherwise: not measured for rows).
ROWS_TESTS = frozenset({"several", "first", "sorting"})
TRUTH_FIX = {
    "any": "use `ops.stack(...).any()` or `t.any()`",
    "all": "use `ops.stack(...).all()` or `t.all()`",
    "sorted": "sort a Tensor with `ops.sort`",
}
# Python classes that STRICT folds like functions (measured); MS204 owns a direct Tensor argument
# of `str`/`repr`/`type`, this rule a sequence holding one.
# `dict(...)` too: `dict(a=1, b=x)` and `dict(zip(keys, (x, y)))` fail STRICT ("the inputs should
# be constant"), `tuple(x)`/`list(d)` compile (measured). `set(x.shape)` too ("found variable
# 'x'"; `s = x.shape; set(s)`, `set([1, 2, 2])` and `frozenset(x.shape)` compile).
# `complex(x)`, `complex(x, x)`, `complex(float(x))` of a Tensor input too ("When handling
# script 'complex(x) in graph mode'"; `complex(1, 0)` compiles; LAX runs them all).
FOLDED_CLASSES = frozenset({"reversed", "type", "str", "dict", "set", "complex"})
STRICT_ONLY_ELSEWHERE = frozenset({"str", "repr", "type"})
# STRICT hands the call's source text to its interpreter, which refuses any name of a value
# computed in the graph (`sorted(x.shape)` fails, `n = x.shape[0]; sorted((n, 1))` compiles);
# `str` and `type` instead judge the value (`str(x.shape)` compiles).
BY_VALUE = frozenset({"str", "type"})
# ... but `str` of a `mutable(...)` sequence fails (measured: `cannot get attributes __str__ or
# the Tuple[Int64*2] object`), while `sorted`/`reversed` of one fold.
STR_OF_MUTABLE = frozenset({"str"})


# `max`/`min` of two or more values, some Tensors and some not, go to the Python fallback
# (`ms_max`: `_py_interpret("max(data)")`), which STRICT runs only on constants (measured:
# `max(x, 2)` fails STRICT, `max(x, y)` of Tensors compiles).
MIXED_FALLBACK = frozenset({"max", "min"})
# Builtins whose keyword arguments are values like the positional ones (`dict(a=x)`).
KEYWORD_VALUES = frozenset({"dict"})
# Builtins taking a `key=` function that graph mode accepts (`max(xs, key=f)` is MS171's).
KEY_FUNCTIONS = frozenset({"sorted"})


@cache
def _known(name: str) -> bool:
    """A builtin this rule has something to say about: the cheap test every call meets first."""
    return name in SUPPORT or name in OF_SCALARS or needs_constant_under_strict(name)


def needs_constant_under_strict(name: str) -> bool:
    """A Python builtin the graph has no translation of (the facts table), or a class STRICT
    folds the same way: STRICT runs it at compile time only."""
    if name in FOLDED_CLASSES:
        return True
    value = getattr(python_builtins, name, None)
    return inspect.isbuiltin(value) and not FACTS.builtin_native(name)


def evaluated_in_python(ctx: FunctionContext, node: ast.AST) -> bool:
    """`node` lies in a comprehension or lambda given to a builtin the graph does not translate
    (`any(n.endswith('s') for n in self.names)`): the call is run whole in Python (STRICT folds
    it, constants only), so what is inside is Python's, not the graph's (measured: `endswith`,
    `split`, `len()` of a str there compile under STRICT)."""
    for call in ctx.of(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Name) and needs_constant_under_strict(func.id)):
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if isinstance(arg, (ast.ListComp, ast.GeneratorExp, ast.Lambda)) and any(
                n is node for n in ast.walk(arg)
            ):
                return True
    return False


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    values = Elements(ctx.types, ctx.fn.node, ctx.lines)
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name)
        and _known(c.func.id)
        and (not c.keywords or c.func.id in KEYWORD_VALUES or _sort_key(c))
    ]
    hidden = _locals(ctx) if calls else set()
    builtin: dict[str, bool] = {}  # name -> not hidden by a local or a module-level name
    for call in calls:
        name = call.func.id  # type: ignore[attr-defined]
        if name not in builtin:
            builtin[name] = name not in hidden and not _imported(ctx, name)
        if builtin[name]:
            yield from _builtin(ctx, values, call, name)
    fromkeys = ctx.fn.module.mentions("fromkeys")
    for call in ctx.of(ast.Call) if fromkeys else ():
        if _fromkeys_of_tensor(ctx, call):
            yield NEEDS_CONSTANT_UNDER_STRICT.finding(
                call, name="dict.fromkeys()", what="the value it gives every key"
            )
    for compare in ctx.of(ast.Compare):
        yield from _contains(ctx, compare)
    comprehensions: list[ast.ListComp | ast.GeneratorExp | ast.DictComp] = ctx.of(
        ast.ListComp, ast.GeneratorExp, ast.DictComp
    )
    for comp in comprehensions:
        yield from _comprehension(ctx, comp)


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`max(n, 3)`, `divmod(n, 2)`, `chr(n)`, ... of a parameter every caller passes
    `mutable(k)` for (`Net()(x, mutable(2))`: measured, STRICT fails as for a local
    `n = mutable(2)`); it reads the callers, so it is not cacheable."""
    if not ctx.fn.module.mentions("mutable"):
        return
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name)
        and c.func.id in OF_SCALARS
        and not c.keywords
        and len(c.args) >= (1 if c.func.id in OF_ONE_SCALAR else 2)
        and calls_shared.builtin(ctx, c.func.id)
    ]
    if calls:
        yield from mutable_scalars.through_mutable_parameters(
            ctx, lambda params: _of_scalars(ctx, calls, params)
        )


def _of_scalars(
    ctx: FunctionContext, calls: list[ast.Call], params: frozenset[str]
) -> Iterator[RawFinding]:
    for call in calls:
        name = call.func.id  # type: ignore[attr-defined]
        if variable_number(ctx, call.args, name != "type", params):
            yield NEEDS_CONSTANT_UNDER_STRICT.finding(
                call, name=f"{name}()", what="a `mutable()` number"
            )


def _sort_key(call: ast.Call) -> bool:
    """`sorted(xs, key=f)`: measured to compile at LAX (the fallback sorts) and, like the call
    without a key, to need constant inputs under STRICT."""
    return (
        isinstance(call.func, ast.Name)
        and call.func.id in KEY_FUNCTIONS
        and all(k.arg in ("key", "reverse") for k in call.keywords)
    )


def _builtin(
    ctx: FunctionContext, values: Elements, call: ast.Call, name: str
) -> Iterator[RawFinding]:
    if call.keywords and _sort_key(call):
        if ctx.level in FALLBACK_LEVELS or not needs_constant_under_strict(name):
            return
        for arg in call.args:
            if (
                values.variable(arg)
                or values.names_variable(arg)
                or _names_mutable_number(ctx, arg)
            ):
                what = "this Tensor" if ctx.types.is_tensor(arg) else "a value it is given"
                yield NEEDS_CONSTANT_UNDER_STRICT.finding(call, name=f"{name}()", what=what)
                return
        return
    limit = SUPPORT.get(name)
    if name == "filter" and ctx.level not in FALLBACK_LEVELS:
        # STRICT keeps a filtered list of run-time length (measured), not a tuple
        fixed = _filter_fixed(ctx, call)
        if fixed is not None and _breaks(values, SUPPORT[name], call):
            what = "these elements are Tensors"
            yield FILTER_OVER_TENSORS.finding(fixed, what=what)
        return
    shaped = (
        limit is not None
        and limit.test == "argument"
        and ctx.level in limit.levels
        and _shape_refused(ctx, call)
    )
    # STRICT folds `any`/`all`/`sorted` of constants, and a folded Tensor of several elements
    # has no truth value there either (measured: `any(ops.zeros((2, 2)))` fails STRICT with
    # "The tensor should have only one element"; `sorted(ops.zeros((1, 4)))` compiles)
    folded = (
        limit is not None
        and limit.rule is TRUTH_OF_TENSORS
        and ctx.level not in limit.levels
        and _all_folded(values, call)
    )
    if (
        limit is not None
        and (ctx.level in limit.levels or folded)
        and (shaped or _breaks(values, limit, call))
    ):
        what = "these elements are Tensors"
        shape = "has several elements"
        if limit.test == "argument" and not values.several(call.args[0]):
            shape = "has two or more axes"
        yield limit.rule.finding(
            call, name=name, advice=TRUTH_FIX.get(name, ""), what=what, shape=shape
        )
        return
    if name == "filter" and ctx.level in FALLBACK_LEVELS and _filters_mutable(ctx, call):
        what = "the elements of a `mutable(...)` sequence are not constants"
        yield FILTER_OVER_TENSORS.finding(call, what=what)
        return
    if name in MIXED_FALLBACK and _mixed(ctx, values, call):
        what = "a Tensor it compares with a number"
        yield NEEDS_CONSTANT_UNDER_STRICT.finding(call, name=f"{name}()", what=what)
        return
    if name in OF_SCALARS and len(call.args) >= (1 if name in OF_ONE_SCALAR else 2):
        what = variable_number(ctx, call.args, name != "type")
        if what:
            yield NEEDS_CONSTANT_UNDER_STRICT.finding(call, name=f"{name}()", what=what)
            return
    if name == "slice":
        # `slice(0, x.shape[1] // 2)` names the Tensor: refused like `sorted(x.shape)`
        # (measured; `h = x.shape[1] // 2; slice(0, h)` compiles)
        if any(values.names_variable(arg) for arg in call.args):
            what = "a value it is given"
            yield NEEDS_CONSTANT_UNDER_STRICT.finding(call, name="slice()", what=what)
        return
    arguments = [*call.args, *(k.value for k in call.keywords)]
    if not needs_constant_under_strict(name) or not arguments:
        return
    if name == "reversed" and id(call) in cell_lists.zipped_reversed_calls(ctx):
        return  # zipped with a CellList: fails at every level, MS187's
    if name == "reversed" and id(call) in enumerate_iterators.reported_reversed_calls(ctx):
        return  # given to enumerate(): fails at every level, MS141's
    by_name = name not in BY_VALUE
    for arg in arguments:
        direct = ctx.types.is_tensor(arg)
        if name in STRICT_ONLY_ELSEWHERE and direct:
            return  # MS204 reports it
        if (
            values.variable(arg)
            or (by_name and values.names_variable(arg))
            or (by_name and _names_mutable_number(ctx, arg))
            or (name == "dict" and _dict_of_variables(ctx, values, arg))
            or (name in STR_OF_MUTABLE and _mutable(ctx, arg))
            or (name in ORDERS_KEYS and _dict_of_variables(ctx, values, arg))
            or (name in ORDERS_KEYS and _dynamic_mutable(ctx, arg))
            or _view_of_tensor_dict(ctx, values, arg)
        ):
            what = "this Tensor" if direct else "a value it is given"
            yield NEEDS_CONSTANT_UNDER_STRICT.finding(call, name=f"{name}()", what=what)
            return


# Measured on 2.10: `max(n, 3)`, `min(n, -n)`, `divmod(n, 3)` with `n = int(t)` fail STRICT
# ("When handling script 'max(data) in graph mode', the inputs should be constant"); LAX computes
# them; `max([n, 1])` (one list) compiles at both levels. The same with `n = mutable(7)` (also
# `divmod(9, n)`, `max(mutable(2.5), 1.0)`), and for one such number: `chr(n)`, `hex(n)`,
# `oct(n)`, `bin(n)`, `slice(0, n)`, `slice(0, 2, n)` (`int(t)` or `mutable()`), `type(n)` of a
# `mutable()` number (`type(int(t))` is MS204's). Of constants (`chr(self.k + 94)`,
# `divmod(self.k, 2)`, `slice(0, self.k - 2)`) they compile.
OF_ONE_SCALAR = frozenset({"chr", "hex", "oct", "bin", "slice", "type"})
OF_SCALARS = frozenset({"max", "min", "divmod"}) | OF_ONE_SCALAR


def _names_mutable_number(ctx: FunctionContext, arg: ast.expr) -> bool:
    """`arg` names a `mutable()` number (measured under STRICT: `sorted(range(n), reverse=True)`,
    `reversed(range(n))` with `n = mutable(3)` fail; their sources name a variable)."""
    return any(
        isinstance(n, ast.Name) and mutable_scalars.mutable_number(ctx, n) for n in ast.walk(arg)
    )


def _runtime_number(ctx: FunctionContext, arg: ast.expr) -> bool:
    return not ctx.types.is_tensor(arg) and receivers.runtime_scalar(ctx, arg)


def variable_number(
    ctx: FunctionContext, args: list[ast.expr], read: bool, params: frozenset[str] = frozenset()
) -> str:
    """What makes one of `args` a number the graph computes (for the message), else ''
    (`params`: parameters the callers pass `mutable()` for)."""
    for arg in args:
        if isinstance(arg, ast.Starred) or ctx.types.is_tensor(arg):
            continue
        if read and receivers.runtime_scalar(ctx, arg):
            return "a number read from a Tensor"
        if mutable_scalars.mutable_number(ctx, arg, params=params):
            return "a `mutable()` number"
    return ""


def _view_of_tensor_dict(ctx: FunctionContext, values: Elements, arg: ast.expr) -> bool:
    """`d.keys()` / `d.values()` / `d.items()` of a local written-out dict holding a Tensor
    computed in the graph: the view is a graph value even when the keys are constants
    (measured on 2.10: `sorted(d.keys())` fails STRICT, "the inputs should be constant";
    `list(d.keys())` compiles; `reversed(list(d.keys()))` fails like `sorted(d.keys())`)."""
    arg = names.sequence_conversion(arg) or arg
    if not (
        isinstance(arg, ast.Call)
        and not arg.args
        and isinstance(arg.func, ast.Attribute)
        and arg.func.attr in ("keys", "values", "items")
        and isinstance(arg.func.value, ast.Name)
    ):
        return False
    return _dict_of_variables(ctx, values, arg.func.value)


def _dict_of_variables(ctx: FunctionContext, values: Elements, arg: ast.expr) -> bool:
    """A local bound once to a written-out dict holding a Tensor computed in the graph:
    `dict(d)` and `dict(**d)` of it fail STRICT ("When handling script 'dict(**d) in graph
    mode', the inputs should be constant"), and compile at LAX with the same values as
    PyNative (measured on 2.10)."""
    if not isinstance(arg, ast.Name):
        return False
    bound = receivers.only_binding(ctx, arg.id)
    return isinstance(bound, ast.Dict) and any(
        v is not None and values.types.is_tensor(v) and values.variable(v) for v in bound.values
    )


def _filters_mutable(ctx: FunctionContext, call: ast.Call) -> bool:
    """`filter(pred, mutable(...))`: LAX builds the kept list by appending under a predicate
    known only at run time, and fails (measured: `The pointer[data_abs] is null` in
    ListAppend); STRICT compiles it."""
    return len(call.args) == 2 and _mutable(ctx, call.args[1])


def _mixed(ctx: FunctionContext, values: Elements, call: ast.Call) -> bool:
    """The values compared (two or more arguments, or the one written-out tuple or list) hold
    a Tensor computed in the graph and a Python number: a literal, or a name or `self.<attr>`
    known to hold one (`min(self.decay, x)`, `max((0.0, x))`). `ms_max` hands any mix of
    Tensors and non-Tensors to `_py_interpret("max(data)")`, which STRICT runs only on
    constants (measured: `min(self.decay, x)` and `min((self.decay, x))` fail STRICT, LAX
    computes what PyNative does; `min(x, y)` of Tensors and `min(self.decay, 0.5)` compile)."""
    args = call.args
    if any(isinstance(a, ast.Starred) for a in args):
        return False
    if len(args) == 1:
        items = values.items(args[0])
        if items is None or any(isinstance(a, ast.Starred) for a in items):
            return False
        args = list(items)
    if len(args) < 2:
        return False
    if not any(values.types.is_tensor(a) and values.variable(a) for a in args):
        return False
    abstract = shared_values.abstract(ctx, module=True)
    return any(_number(a) or _shape_int(a) or _number_value(abstract.of(a)) for a in args)


def _shape_int(expr: ast.expr) -> bool:
    """An int read off a shape: `x.shape[0]`, `x.ndim`, `len(x.shape)` (measured:
    `max(x.shape[0], t)` and `min(t, x.shape[1])` with a Tensor `t` fail STRICT as a literal
    does)."""
    if isinstance(expr, ast.Subscript):
        value = expr.value
        return (
            isinstance(value, ast.Attribute)
            and value.attr == "shape"
            and isinstance(expr.slice, (ast.Constant, ast.UnaryOp))
        )
    if isinstance(expr, ast.Attribute):
        return expr.attr == "ndim"
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "len"
        and len(expr.args) == 1
        and isinstance(expr.args[0], ast.Attribute)
        and expr.args[0].attr == "shape"
    )


def _number_value(value: Optional[Value]) -> bool:
    return value is not None and value.kind == "scalar" and value.dtype in ("int", "float")


def _number(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp):
        expr = expr.operand
    return (
        isinstance(expr, ast.Constant)
        and isinstance(expr.value, (int, float))
        and not isinstance(expr.value, bool)
    )


# `sorted(d)` / `reversed(d)` of a local dict holding a Tensor computed in the graph, and of
# a `mutable([...], True)` list, fail STRICT ("When handling script 'sorted(d) in graph mode',
# the inputs should be constant"); of a dict of numbers, `list(d)` and `sorted(d.values())` of
# numbers compile (measured on 2.10, round 33).
ORDERS_KEYS = frozenset({"sorted", "reversed"})


def _dynamic_mutable(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`mutable([...], True)` / `mutable(..., dynamic_len=True)` (or a local bound once to
    it): a list of run-time length."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        expr = bound if bound is not None else expr
    if not (isinstance(expr, ast.Call) and names.callee(ctx.fn.module, expr.func) in MUTABLE):
        return False
    flag = expr.args[1] if len(expr.args) > 1 else names.keyword(expr, "dynamic_len")
    return isinstance(flag, ast.Constant) and flag.value is True


def _fromkeys_of_tensor(ctx: FunctionContext, call: ast.Call) -> bool:
    """`dict.fromkeys(keys, v)` with `v` a Tensor or a written-out tuple or list holding one:
    STRICT folds the call and refuses it (measured on 2.10: "When handling script
    '__call_func_str__(...)' ... the inputs should be constant"); of a number, None or
    `x.shape[0]` it compiles, and LAX compiles them all."""
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and func.attr == "fromkeys"
        and isinstance(func.value, ast.Name)
        and func.value.id == "dict"
        and len(call.args) == 2
        and not call.keywords
    ):
        return False
    value = call.args[1]
    if isinstance(value, (ast.Tuple, ast.List)):
        return any(ctx.types.is_tensor(e) for e in value.elts)
    return ctx.types.is_tensor(value)


def _mutable(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`ms.mutable(...)` (or a local bound once to it): a sequence that is not a constant."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        expr = bound if bound is not None else expr
    return isinstance(expr, ast.Call) and names.callee(ctx.fn.module, expr.func) in MUTABLE


def _shape_refused(ctx: FunctionContext, call: ast.Call) -> bool:
    """`int(t)` / `float(t)` / `bool(t)` of a Tensor of two or more axes, which graph mode
    refuses even with one element (measured, round 32)."""
    if len(call.args) != 1 or call.keywords:
        return False
    return multi_axis_shape(ctx, call.args[0]) is not None


def multi_axis_shape(ctx: FunctionContext, tensor: ast.expr) -> Optional[Shape]:
    """The shape of a Tensor of the graph (not a constant one) that the source fixes
    (`helpers/shapes.py`) to two or more axes (`x[0:1, 0:1]`, `x.sum(keepdims=True)`)."""
    types = ctx.types
    if not types.is_tensor(tensor) or types.is_constant_tensor(tensor):
        return None
    shape = shared_values.shapes(ctx).of(tensor)
    return shape if shape is not None and len(shape) >= 2 else None


def _breaks(values: Elements, limit: Limit, call: ast.Call) -> bool:
    args = call.args[limit.args]
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if limit.test == "tensor":
        return any(values.types.is_tensor(a) for a in args)
    if limit.test == "argument":
        return len(args) == 1 and (values.several(args[0]) or values.high_rank(args[0]))
    if len(args) == 1:
        items = values.items(args[0])
        if items is None:
            # One Tensor: graph mode iterates its first axis, so its rows are the values.
            rows = 2 if limit.test == "sorting" else 1  # sorting one row compares nothing
            return limit.test in ROWS_TESTS and values.rows_several(args[0], rows)
    else:
        items = list(args)
    if not items:
        return False
    if limit.test == "first":
        return values.several(items[0])
    if limit.test == "sorting":
        return len(items) >= 2 and any(values.several(e) for e in items)
    if limit.test == "elements":
        return any(values.types.is_tensor(e) for e in items)
    return any(values.several(e) for e in items)


def _all_folded(values: Elements, call: ast.Call) -> bool:
    """Every value the call's one argument holds is a Tensor known when compiling."""
    if len(call.args) != 1:
        return False
    items = values.items(call.args[0])
    items = items if items is not None else [call.args[0]]
    return bool(items) and all(values.folded_constant(e) for e in items)


def _contains(ctx: FunctionContext, compare: ast.Compare) -> Iterator[RawFinding]:
    """`a in t` with a Tensor `t`: STRICT folds `in` on a Tensor only when both are constants."""
    for op, right in zip(compare.ops, compare.comparators):
        if not isinstance(op, (ast.In, ast.NotIn)):
            continue  # the cheap test first: most comparisons are not `in`
        if ctx.types.is_tensor(right) and not ctx.types.is_constant_tensor(right):
            word = "in" if isinstance(op, ast.In) else "not in"
            yield NEEDS_CONSTANT_UNDER_STRICT.finding(
                compare, name=f"`{word}` on a Tensor", what="this Tensor"
            )
            return


def _comprehension(
    ctx: FunctionContext, comp: ast.ListComp | ast.GeneratorExp | ast.DictComp
) -> Iterator[RawFinding]:
    kind = _KINDS[type(comp)]
    if len(comp.generators) > 1:
        yield SEVERAL_FOR_CLAUSES.finding(comp, kind=kind, count=len(comp.generators))
        return
    if isinstance(comp, ast.GeneratorExp):
        return  # not measured
    if (
        isinstance(comp, ast.ListComp)
        and ctx.level not in FALLBACK_LEVELS
        and not _stacked(ctx, comp)
    ):
        # STRICT compiles a list comprehension filtered by a Tensor (measured), but not
        # `ops.stack` of its result ("'TensorType' object is not subscriptable")
        return
    test = _tensor_test(ctx, comp.generators[0])
    if test is not None:
        yield COMPREHENSION_TENSOR_FILTER.finding(comp, kind=kind)


_KINDS = {
    ast.ListComp: "list comprehension",
    ast.GeneratorExp: "generator expression",
    ast.DictComp: "dict comprehension",
}


STACKING = frozenset({"stack", "concat", "cat", "hstack", "vstack"})


def _filter_fixed(ctx: FunctionContext, call: ast.Call) -> Optional[ast.AST]:
    """Where `filter(...)`'s result (or `list(filter(...))`) needs a length known when
    compiling: the `tuple()` it is given to (MindSpore names that line), or the filter when
    it is stacked. STRICT compiles the filtered list itself, indexed, iterated, measured or
    returned (measured on 2.10; `tuple(filter(...))` fails with "Kernel select failed",
    `ops.stack(list(filter(...)))` with "'TensorType' object is not subscriptable"); LAX
    fails on all of these."""
    used = _stacked_by(ctx, call, TO_TUPLE)
    if used is not None:
        return used if _named(used, TO_TUPLE) else call
    calls: list[ast.Call] = ctx.of(ast.Call)
    for outer in calls:
        if _named(outer, frozenset({"list"})) and outer.args[:1] == [call]:
            used = _stacked_by(ctx, outer, TO_TUPLE)
            if used is not None:
                return used if _named(used, TO_TUPLE) else call
    return None


def _named(call: ast.Call, builtins: frozenset[str]) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id in builtins


TO_TUPLE = frozenset({"tuple"})


def _stacked(ctx: FunctionContext, comp: ast.ListComp) -> bool:
    """The comprehension's list, directly or through a local bound only to it, is the first
    argument of `ops.stack`/`ops.concat` (...)."""
    return _stacked_by(ctx, comp) is not None


def _stacked_by(
    ctx: FunctionContext, comp: ast.expr, builtins: frozenset[str] = frozenset()
) -> Optional[ast.Call]:
    """The call of `ops.stack`/`ops.concat` (...) or of one of `builtins` whose first argument
    is `comp`'s value, directly or through a local bound only to it."""
    held: Optional[str] = None
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        target = assign.targets[0]
        if assign.value is comp and len(assign.targets) == 1 and isinstance(target, ast.Name):
            held = target.id
    if held is not None and receivers.only_binding(ctx, held) is not comp:
        held = None
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        if not call.args:
            continue
        first = call.args[0]
        if not (first is comp or (isinstance(first, ast.Name) and first.id == held)):
            continue
        if _named(call, builtins):
            return call
        qualname = names.callee(ctx.fn.module, call.func)
        if names.is_ops_call(qualname) and (qualname or "").rsplit(".", 1)[-1] in STACKING:
            return call
    return None


def _tensor_test(ctx: FunctionContext, generator: ast.comprehension) -> Optional[ast.expr]:
    found = next((t for t in generator.ifs if ctx.types.is_condition(t)), None)
    if found is not None or not generator.ifs:
        return found
    held = _tensor_targets(ctx, generator)
    return next((t for t in generator.ifs if held and _reads_values(t, held)), None)


# Reads of a Tensor that are Python values when compiled: a test on them is folded.
STATIC_READS = frozenset({"shape", "ndim", "dtype", "size"})


def _tensor_targets(ctx: FunctionContext, generator: ast.comprehension) -> set[str]:
    """Targets of `for k, v in d.items()` / `for v in d.values()` over a local dict whose values
    are all Tensors, and of `for k, v in zip(names, vals)` over a local list of Tensors, which
    the types do not follow into the comprehension (measured on 2.10: `{k: v for k, v in
    d.items() if v.sum() > 0}` fails at LAX and STRICT, as over `range()`)."""
    source, target = generator.iter, generator.target
    if not (isinstance(source, ast.Call) and not source.keywords):
        return set()
    func = source.func
    if isinstance(func, ast.Attribute) and func.attr in ("items", "values") and not source.args:
        if not _all_tensors(ctx, func.value, ast.Dict):
            return set()
        if func.attr == "values":
            return {target.id} if isinstance(target, ast.Name) else set()
        pair = target.elts if isinstance(target, ast.Tuple) else []
        return {pair[1].id} if len(pair) == 2 and isinstance(pair[1], ast.Name) else set()
    if isinstance(func, ast.Name) and func.id == "zip" and isinstance(target, ast.Tuple):
        if len(target.elts) != len(source.args) or not calls_builtin(ctx, "zip"):
            return set()
        return {
            t.id
            for t, arg in zip(target.elts, source.args)
            if isinstance(t, ast.Name) and _all_tensors(ctx, arg, (ast.List, ast.Tuple))
        }
    return set()


def calls_builtin(ctx: FunctionContext, name: str) -> bool:
    return name not in _locals(ctx) and not _imported(ctx, name)


def _all_tensors(
    ctx: FunctionContext, expr: ast.expr, kinds: type[ast.expr] | tuple[type[ast.expr], ...]
) -> bool:
    """`expr` is a local bound once to a written-out dict / list whose values are all Tensors."""
    if not isinstance(expr, ast.Name):
        return False
    bound = receivers.only_binding(ctx, expr.id)
    if not isinstance(bound, kinds):
        return False
    values = bound.values if isinstance(bound, ast.Dict) else getattr(bound, "elts", [])
    return bool(values) and all(v is not None and ctx.types.is_tensor(v) for v in values)


def _reads_values(test: ast.expr, held: set[str]) -> bool:
    """`test` computes on a held Tensor's values (`v.sum() > 0`, `v.max().item() > 1`), not
    only on what is known when compiling (`v.shape[0] > 1`, `v is None`, `len(v)`)."""
    if isinstance(test, ast.Compare) and any(
        isinstance(op, (ast.Is, ast.IsNot)) for op in test.ops
    ):
        return False
    for node in ast.walk(test):
        if isinstance(node, ast.Attribute) and node.attr in STATIC_READS:
            return False
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        if call and node.func.id in ("len", "isinstance"):  # type: ignore[attr-defined]
            return False
    return any(
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in held
        and node.attr not in STATIC_READS
        for node in ast.walk(test)
    ) or (
        isinstance(test, ast.Compare)
        and any(isinstance(n, ast.Name) and n.id in held for n in [test.left, *test.comparators])
    )


def _imported(ctx: FunctionContext, name: str) -> bool:
    """A module-level def, class or import of that name hides the builtin."""
    return ctx.fn.module.qualname(ast.Name(id=name, ctx=ast.Load())) != name


def _locals(ctx: FunctionContext) -> set[str]:
    """Names the function binds (parameters included), which hide builtins of the same name."""
    args = ctx.fn.node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    found = {a.arg for a in every if a is not None}
    found.update(n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store))
    return found
