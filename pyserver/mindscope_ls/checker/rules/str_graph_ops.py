"""MS1021, MS1022, MS1024, MS243: a str given to `map()`, repeated / indexed / sliced by a variable
integer, or formatted from one and used as a key or compared.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (each ran in PyNative):
- `list(map(ord, 'ab'))`, `sum(map(ord, self.name))`, `for v in map(ord, s)` with `s = 'ab'`,
  `map(lambda c: c + '!', 'ab')` fail at every level ("Map can only be applied to list, tuple,
  but got String"), and `map(f, 'ab', (1, 2))` too ("The types of arguments in Map must be
  consistent"): MS1021. `map(ord, ('a', 'b'))`, `zip('ab', (1, 2))` and `sorted('ba')` compile.
- `'ab' * n`, `n * 'ab'`, `'-' * (n + 1)` with `n = mutable(3)` or `n = int(x.sum())` fail at
  every level ("string_mul requires the input to be a string and an integer, but got ab and
  ValueAny"); `self.name[i]`, `self.name[n - 1]` likewise ("string_getitem ... ValueAny"):
  MS1022. `'-' * x.shape[0]`, `'-' * self.k` (an int attribute) and `self.name[i]` in a `for`
  over `range(3)` compile: those integers are constants when compiled. Inside a builtin the
  graph does not translate (`ord(self.name[i])`), LAX runs the whole call in Python and it
  compiles; STRICT fails there (needs constants).
- A str formatted from such an integer (`f'k{i}'`, `'{}'.format(n)`) or picked by it from a
  tuple of strs (`('a', 'b')[i]`) is a variable String: `d[f'k{i}']`, `self.cfg[name]`,
  `d.get(name, 0)`, `getattr(self, f'k{i}')` fail at every level ("dict_getitem evaluator key
  only supports string, number, ... but got ValueAny"; getattr: "Cast failed"), and so do
  `f'{i}' == '3'`, `f'{i}' != '2'`, `'{}'.format(n) == '6'` (`string_eq`), `f'{i}' in '123'`
  (`string_in`): MS1024. `'k%d' % i`
  and `str(i)` as keys, `f'k{i}' in d` and `print(f'{i}')` compile at LAX (the fallback makes
  a Python str), and `d[f'k{i}']` in a `for` over `range(2)` compiles (a constant there).
- `self.name[:n]`, `self.name[n:]` with such an `n` compile at LAX (the fallback slices) and
  fail under STRICT ("the inputs should be constant, but found variable '__stop__'"): MS243.
  `self.name[:2]` and `[1, 2, 3][:n]` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import builtins, calls_shared
from .helpers import receivers, strs
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract
from .mutable_scalars import through_mutable_parameters, variable_int

MAP_OVER_STR = Rule(
    "MS1021",
    "map-over-str",
    Group.FAILS,
    title="`map()` over a str",
    message=(
        "`{text}` maps over the str `{arg}`, and graph mode's `map` takes only lists and "
        "tuples; map over a tuple of characters (`tuple('ab')` outside compiled code) or use "
        "a comprehension."
    ),
    why=(
        "Graph mode compiles `map()` to its own `Map` operation, which applies a function to "
        "the items of lists and tuples only; a str is a single String value in the graph."
    ),
    remedy="Map over a tuple of strs (`('a', 'b')`), or compute the result outside the Cell.",
    mindspore_says="RuntimeError: Map can only be applied to list, tuple, but got String.",
)

STR_BY_VARIABLE_INT = Rule(
    "MS1022",
    "str-by-variable-int",
    Group.FAILS,
    title=(
        "A str repeated or indexed (or a tuple of strs indexed or sliced) by an integer "
        "computed in the graph"
    ),
    message=(
        "`{text}` {what} `{string}` by `{number}`, an integer graph mode only knows "
        "when it runs (`mutable()` or read from a Tensor), and graph strs need a constant; "
        "use a constant integer or build the str outside compiled code."
    ),
    why=(
        "Graph mode builds strs at compile time: `string_mul` and `string_getitem` take a "
        "constant integer, and a `mutable()` number or one read from a Tensor is a variable "
        "scalar (ValueAny) there."
    ),
    remedy="Use a constant integer (a shape entry, an attribute), or build the str outside.",
    mindspore_says=(
        "RuntimeError: string_mul requires the input to be a string and an integer, but got ab "
        "and ValueAny."
    ),
)


VARIABLE_STR_KEY = Rule(
    "MS1024",
    "variable-str-key",
    Group.FAILS,
    title="A str made from an integer computed in the graph, used as a key or compared",
    message=(
        "`{text}` {what} the str `{string}`, which is made from `{number}`, an integer graph "
        "mode only knows when it runs, so the str is not a constant; pick the key by constant "
        "positions (a `for` over a `range`) or keep Tensors indexed by the integer."
    ),
    why=(
        "Graph mode folds strs at compile time: a str formatted from (or picked by) a "
        "`mutable()` number or one read from a Tensor has no value there, and dict lookups, "
        "`getattr` and `==` on strs need one."
    ),
    remedy=(
        "Index a tuple of Tensors (or a Tensor) by the integer instead of a dict by a str, or "
        "loop over constant positions."
    ),
    mindspore_says=(
        "RuntimeError: dict_getitem evaluator key only supports string, number, type, none, "
        "constant tensor and tuple, but got ValueAny"
    ),
)


STR_SLICE_BY_VARIABLE_STRICT = Rule(
    "MS243",
    "str-slice-by-variable-strict",
    Group.STRICT,
    title="A str sliced by an integer computed in the graph, under STRICT",
    message=(
        "`{text}` slices the str `{string}` at `{number}`, an integer graph mode only knows "
        "when it runs, which only LAX's Python fallback can do; under jit_syntax_level=STRICT "
        "slice at constant positions or keep the default LAX level."
    ),
    why=(
        "Graph strs are constants; LAX hands a slice with a variable bound to its Python "
        "fallback, and STRICT, which has none, needs constant bounds."
    ),
    remedy="Slice at constant positions, or use the default LAX level.",
    mindspore_says=(
        "ValueError: When handling script '__py_exec_index0_getitem__(__input_key_0__,"
        "slice(__start__,__stop__,__step__),) in graph mode', the inputs should be constant, "
        "but found variable '__stop__' to be nonconstant."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _maps(ctx)
    yield from _variable_numbers(ctx, frozenset())


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The same through a parameter every caller passes `mutable(k)` for
    (`Net()(x, mutable(1))`, then `s[m]`: measured, the same errors at both levels)."""
    yield from through_mutable_parameters(ctx, lambda params: _variable_numbers(ctx, params))


def _variable_numbers(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    yield from _repeats(ctx, params)
    yield from _indexes(ctx, params)
    yield from _picks(ctx, params)
    yield from _variable_strs(ctx, params)


def _variable_str(
    ctx: FunctionContext, expr: ast.expr, params: frozenset[str], depth: int = 0
) -> Optional[ast.expr]:
    """The variable integer a str is made from (`f'k{i}'`, `'{}'.format(n)`, `('a', 'b')[i]`,
    directly or through a local bound once to it), else None."""
    if depth > 4:
        return None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return None if bound is None else _variable_str(ctx, bound, params, depth + 1)
    if isinstance(expr, ast.JoinedStr):
        return next(
            (
                v.value
                for v in expr.values
                if isinstance(v, ast.FormattedValue) and variable_int(ctx, v.value, params)
            ),
            None,
        )
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "format"
        and isinstance(expr.func.value, ast.Constant)
        and isinstance(expr.func.value.value, str)
    ):
        every = [*expr.args, *(k.value for k in expr.keywords)]
        return next((a for a in every if variable_int(ctx, a, params)), None)
    if (
        isinstance(expr, ast.Subscript)
        and _strs(ctx, expr.value)
        and variable_int(ctx, expr.slice, params)
    ):
        return expr.slice
    return None


def _slice(
    ctx: FunctionContext, sub: ast.Subscript, bounds: ast.Slice, params: frozenset[str]
) -> Iterator[RawFinding]:
    number = next(
        (
            b
            for b in (bounds.lower, bounds.upper, bounds.step)
            if b and variable_int(ctx, b, params)
        ),
        None,
    )
    if number is not None and strs.is_str(ctx, abstract(ctx), sub.value):
        yield STR_SLICE_BY_VARIABLE_STRICT.finding(
            sub, text=ast.unparse(sub), string=ast.unparse(sub.value), number=ast.unparse(number)
        )


def _strs(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A tuple/list display of str constants, or `self.<attr>` `__init__` sets to one."""
    if isinstance(expr, ast.Attribute):
        held = receivers.self_attr(ctx, expr)
        if held is None:
            return False
        node: Optional[ast.AST] = held.node
    else:
        node = expr
    return (
        isinstance(node, (ast.Tuple, ast.List))
        and bool(node.elts)
        and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    )


def _variable_strs(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    if not ctx.of(ast.JoinedStr, ast.Subscript, ast.Call):
        return
    uses: list[tuple[ast.expr, ast.expr, str]] = []  # (reported node, the str, what it does)
    subs: list[ast.Subscript] = ctx.of(ast.Subscript)
    for sub in subs:
        if isinstance(sub.ctx, ast.Load) and not ctx.types.is_tensor(sub.value):
            uses.append((sub, sub.slice, "looks up"))
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name) and func.id == "getattr" and len(call.args) >= 2:
            if calls_shared.builtin(ctx, "getattr"):
                uses.append((call, call.args[1], "gets the attribute named by"))
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "get"
            and call.args
            and not ctx.types.is_tensor(func.value)
        ):
            uses.append((call, call.args[0], "looks up"))
    compares: list[ast.Compare] = ctx.of(ast.Compare)
    values = None
    for compare in compares:
        if len(compare.ops) != 1:
            continue
        if isinstance(compare.ops[0], (ast.Eq, ast.NotEq)):
            for side in (compare.left, compare.comparators[0]):
                uses.append((compare, side, "compares"))
        elif isinstance(compare.ops[0], (ast.In, ast.NotIn)):
            values = values or abstract(ctx)
            if strs.is_str(ctx, values, compare.comparators[0]):  # in a dict it compiles
                uses.append((compare, compare.left, "searches a str for"))
    seen: set[int] = set()
    for node, string, what in uses:
        if id(node) in seen or isinstance(string, (ast.Constant, ast.Slice, ast.Tuple)):
            continue
        number = _variable_str(ctx, string, params)
        if number is not None:
            seen.add(id(node))
            yield VARIABLE_STR_KEY.finding(
                node,
                text=ast.unparse(node),
                what=what,
                string=ast.unparse(string),
                number=ast.unparse(number),
            )


def _maps(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name)
        and c.func.id == "map"
        and len(c.args) >= 2
        and not c.keywords
        and not any(isinstance(a, ast.Starred) for a in c.args)
    ]
    if not calls or not calls_shared.builtin(ctx, "map"):
        return
    values = abstract(ctx)
    for call in calls:
        arg = next((a for a in call.args[1:] if strs.is_str(ctx, values, a)), None)
        if arg is not None:
            yield MAP_OVER_STR.finding(call, text=ast.unparse(call), arg=ast.unparse(arg))


def _in_fallback(ctx: FunctionContext) -> set[int]:
    """Ids of the nodes inside a call of a builtin the graph does not translate: LAX runs such
    a call whole in Python (measured: `ord(self.name[i])` compiles at LAX)."""
    if ctx.level == SyntaxLevel.STRICT:
        return set()
    inside: set[int] = set()
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name) and builtins.needs_constant_under_strict(func.id):
            inside.update(id(n) for n in ast.walk(call))
    return inside


class _GraphStrs:
    """Whether an expression is a str the graph itself handles (outside LAX's fallback calls);
    the fallback nodes and the function's values are computed on first need."""

    def __init__(self, ctx: FunctionContext) -> None:
        self.ctx = ctx
        self._skipped: Optional[set[int]] = None
        self._values: Optional[Abstract] = None

    def is_str(self, node: ast.AST, string: ast.expr) -> bool:
        if self._skipped is None:
            self._skipped = _in_fallback(self.ctx)
        if id(node) in self._skipped:
            return False
        if self._values is None:
            self._values = abstract(self.ctx)
        return strs.is_str(self.ctx, self._values, string)


def _by_variable(node: ast.expr, what: str, string: ast.expr, number: ast.expr) -> RawFinding:
    return STR_BY_VARIABLE_INT.finding(
        node,
        text=ast.unparse(node),
        what=what,
        string=ast.unparse(string),
        number=ast.unparse(number),
    )


def _repeats(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    graph_strs = _GraphStrs(ctx)
    for op in ctx.of(ast.BinOp):
        if not isinstance(op.op, ast.Mult):
            continue
        for string, number in ((op.left, op.right), (op.right, op.left)):
            if graph_strs.is_str(op, string) and variable_int(ctx, number, params):
                yield _by_variable(op, "repeats the str", string, number)
                break


def _indexes(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    graph_strs = _GraphStrs(ctx)
    for sub in ctx.of(ast.Subscript):
        if isinstance(sub.ctx, ast.Load) and isinstance(sub.slice, ast.Slice):
            yield from _slice(ctx, sub, sub.slice, params)
            continue
        if not isinstance(sub.ctx, ast.Load) or isinstance(sub.slice, ast.Tuple):
            continue
        if variable_int(ctx, sub.slice, params) and graph_strs.is_str(sub, sub.value):
            yield _by_variable(sub, "indexes the str", sub.value, sub.slice)


def _picks(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    """A tuple or list of str constants indexed or sliced by a variable integer, whose result
    is then used (compared, counted, printed): no CPU kernel takes a sequence of strs. Unused
    or only returned, it compiles (returned, it fails for an integer read from a Tensor but
    not for a `mutable()` one); as a dict key, attribute name or compared, it is MS1024's."""
    found: list[tuple[ast.Subscript, ast.expr]] = []
    for sub in ctx.of(ast.Subscript):
        if not isinstance(sub.ctx, ast.Load) or not _str_items(ctx, sub.value):
            continue
        bounds = sub.slice
        every = (
            [b for b in (bounds.lower, bounds.upper, bounds.step) if b is not None]
            if isinstance(bounds, ast.Slice)
            else [bounds]
        )
        number = next((b for b in every if variable_int(ctx, b, params)), None)
        if number is not None:
            found.append((sub, number))
    if not found:
        return
    parents = {id(c): p for p in ast.walk(ctx.fn.node) for c in ast.iter_child_nodes(p)}
    for sub, number in found:
        if _used(ctx, sub, parents):
            what = "slices" if isinstance(sub.slice, ast.Slice) else "indexes"
            yield _by_variable(sub, f"{what} the strs of", sub.value, number)


def _str_items(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`_strs`, or a local bound once to such a display."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _strs(ctx, bound)
    return _strs(ctx, expr)


# `d[...]`, `getattr(o, ...)`, `d.get(...)`, `== 'b'`: MS1024's
_KEY_USES = (ast.Subscript, ast.Call, ast.Compare)


def _parent(node: ast.AST, parents: dict[int, ast.AST]) -> Optional[ast.AST]:
    """The node's parent, through the tuples and lists that hold it (`return x, s`)."""
    parent = parents.get(id(node))
    while isinstance(parent, (ast.Tuple, ast.List)):
        parent = parents.get(id(parent))
    return parent


def _used(ctx: FunctionContext, node: ast.expr, parents: dict[int, ast.AST]) -> bool:
    parent = _parent(node, parents)
    if parent is None or isinstance(parent, (ast.Return, ast.Expr, ast.Compare)):
        return False
    if isinstance(parent, ast.Subscript) and parent.slice is node:
        return False
    if isinstance(parent, ast.Call) and node in parent.args and not _counted(parent):
        return False
    if isinstance(parent, ast.Assign):
        if len(parent.targets) != 1 or not isinstance(parent.targets[0], ast.Name):
            return False
        name = parent.targets[0].id
        return any(
            n.id == name
            and isinstance(n.ctx, ast.Load)
            and (
                not isinstance(_parent(n, parents), (ast.Return, *_KEY_USES))
                or _counted(parents.get(id(n)))
            )
            for n in ctx.of(ast.Name)
        )
    return True


def _counted(node: Optional[ast.AST]) -> bool:
    """`len(v)` or `print(v)`, which need the value itself."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("len", "print")
    )
