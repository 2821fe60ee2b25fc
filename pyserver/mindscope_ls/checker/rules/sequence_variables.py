"""MS1046, MS355: a list or dict used with a number graph mode only knows when it runs;
MS1047, MS356: the value of `l.pop()` used inside an expression.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative, the number being a
`mutable(k)` (a local, `-mutable(1)`, or a parameter every call passes `mutable(k)` for) or one
read from a Tensor (`int(x[0])`, `int(t.item())`):
- `l.pop(i)` of a local list fails at every level ("TypeError: Integer argument expected, but got
  ValueAny type value"): graph mode's `list.pop` needs a constant position. `l.pop()`,
  `l.pop(1)`, `l.pop(-2)`, `l.pop(x.shape[0] - 2)`, `l.pop(self.k)` and `l.pop(n)` of a parameter
  passed a plain int compile; so does `l.insert(i, v)` with such an `i` read back by `l[0]` or
  `len(l)` (stacking the list afterwards fails elsewhere). MS1046.
- `k in d` / `k not in d` of a dict in a Cell's `construct` or helper method compiles and is
  always False (`not in`: True), where PyNative finds the key: `if k in d` with
  `k = mutable(2)`, `k = int(x[1])`, `n in self.table` for a `mutable(2)` argument, and
  `int(x[1]) in d` each took the other branch. Look-alikes agree with PyNative: a constant key
  (`1 in d`, `x.shape[0] in d`, a parameter passed a plain int), `k in d.keys()`, `k in [1, 2]`
  and `k in (1, 2)`. Not reported in an `@ms.jit` function (PyNative compiles it as well). MS355.

`l.pop(...)` of a list used as a value other than the whole right side of an assignment gives a
`(list, item)` pair in graph mode (its parser's form of `pop`), not the item:
- `return l.pop()`, `return l.pop(0), x`, `z = (l.pop(), 1)`, `a, b = l.pop(), x`,
  `y = l.pop() * 2` (the pair repeated), `l.pop() == 2` (always False), `return l.pop()` of a
  helper whose caller does `y = self.pick(x)`: each compiled and gave something else than
  PyNative at LAX and STRICT, in a Cell's `construct`, a helper method and a module function it
  calls, for a local list and `self.items`. MS356 (a warning).
- `l.pop().sum()`, `ops.relu(l.pop())`, `l.pop() + x` (a Tensor), `ops.stack([l.pop(), x])` fail
  at every level ("'Tuple' object has no attribute 'sum'", "Failed calling ReLU with
  input=Tuple[List[Tensor], Tensor]", "For 'Stack', the element of 'input_x[0]' must be Tensor,
  but got type 'tuple'"): MS1047.
`v = l.pop()`, `v: Tensor = l.pop()`, `y += l.pop()`, `l.pop()` as a statement and either in a
Tensor `if` agree with PyNative.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import partial
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .decorated_helpers import compiled_by_jit
from .helpers import names, receivers
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext
from .helpers.shared_values import abstract
from .mutable_scalars import mutable_number, mutable_parameters, variable_int

LIST_POP_VARIABLE_INDEX = Rule(
    "MS1046",
    "list-pop-variable-index",
    Group.FAILS,
    title="`list.pop(i)` at a position known only when the graph runs",
    message=(
        "`{text}` pops at `{index}`, a number graph mode only knows when it runs (`mutable()` "
        "or read from a Tensor), and graph mode's `list.pop` needs a constant position; pop "
        "at a constant or select the item with Tensor ops (`ops.stack(l)[{index}]`)."
    ),
    why=(
        "Graph mode builds a list's items when compiling, so `list.pop` must know which item "
        "leaves; a `mutable()` number or one read from a Tensor is a variable of the graph."
    ),
    remedy=(
        "Pop at a constant position, or stack the items into a Tensor and index it with the "
        "variable (`ops.stack(l)[i]`)."
    ),
    mindspore_says=("TypeError: Integer argument expected, but got ValueAny type value: ValueAny"),
)

VARIABLE_KEY_IN_DICT = Rule(
    "MS355",
    "variable-key-in-dict",
    Group.DIVERGES,
    title="`k in d` of a dict with a key known only when the graph runs",
    message=(
        "`{text}` looks up `{key}`, a number graph mode only knows when it runs (`mutable()` or "
        "read from a Tensor), in a dict: a Cell's compiled code finds no such key, so this is "
        "always {always} there (PyNative looks it up); test a constant key, or "
        "`{key} in {seq}.keys()`."
    ),
    why=(
        "Graph mode looks a dict's keys up when compiling; a variable number matches none of "
        "them, so `in` gives False without an error (measured on 2.10: `mutable(2) in {1: a, "
        "2: b}` and `int(t) in d` were False in a Cell's `construct`, True in PyNative)."
    ),
    remedy="Test `k in d.keys()` or compare with the constant keys (`k == 1 or k == 2`).",
    mindspore_says="(compiles; result differs from PyNative)",
)


POP_PAIR_FAILS = Rule(
    "MS1047",
    "list-pop-pair-fails",
    Group.FAILS,
    title="`l.pop()` inside an expression given to a Tensor operation",
    message=(
        "`{text}` uses the value of `{pop}` inside an expression, where graph mode's `list.pop` "
        "gives the pair `(list, item)` rather than the item, {what}; pop into a local first "
        "(`v = {pop}`) and use `v`."
    ),
    why=(
        "Graph mode's parser builds `list.pop` as a `(list, item)` pair that only an "
        "assignment `v = l.pop()` unpacks; anywhere else the expression gets the pair."
    ),
    remedy="Assign the popped item to a local first (`v = l.pop()`), then use `v`.",
    mindspore_says="AttributeError: 'Tuple' object has no attribute 'sum'",
)

POP_PAIR_DIVERGES = Rule(
    "MS356",
    "list-pop-pair-value",
    Group.DIVERGES,
    title="`l.pop()` used as a value inside an expression (graph mode gives `(list, item)`)",
    message=(
        "`{text}` uses the value of `{pop}` inside an expression, where graph mode's "
        "`list.pop` gives the pair `(list, item)` rather than the item (PyNative: the item); "
        "pop into a local first (`v = {pop}`) and use `v`."
    ),
    why=(
        "Graph mode's parser builds `list.pop` as a `(list, item)` pair that only an "
        "assignment `v = l.pop()` unpacks; anywhere else (returned, in a tuple, multiplied, "
        "compared) the expression gets the pair (measured on 2.10: `return l.pop()` of "
        "`[1, 2, 3]` gave `([1, 2], 3)`)."
    ),
    remedy="Assign the popped item to a local first (`v = l.pop()`), then use `v`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


def check_pop_values(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable either: a pop at a variable position is MS1046's (the callers tell)."""
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute)
        and c.func.attr == "pop"
        and len(c.args) <= 1
        and not c.keywords
    ]
    if not calls:
        return
    parents = {
        id(child): node for node in ast.walk(ctx.fn.node) for child in ast.iter_child_nodes(node)
    }
    values = abstract(ctx)
    jit = None
    for call in calls:
        parent = parents.get(id(call))
        if parent is None or _unpacked(parent, call) or _nested(parents, call):
            continue
        if call.args and _variable(ctx, call.args[0]):
            continue  # fails: MS1046
        assert isinstance(call.func, ast.Attribute)
        if not _list(ctx, values, call.func.value):
            continue
        failing = _fails(ctx, parents, parent, call)
        pop = ast.unparse(call)
        at = parent if isinstance(parent, (ast.expr, ast.Return)) else call
        if failing is not None:
            yield POP_PAIR_FAILS.finding(call, text=ast.unparse(at), pop=pop, what=failing)
            continue
        if jit is None:
            jit = compiled_by_jit(ctx)
        if not jit:
            yield POP_PAIR_DIVERGES.finding(call, text=ast.unparse(at), pop=pop)


def _nested(parents: dict[int, ast.AST], node: ast.AST) -> bool:
    """Inside a comprehension or a lambda: not measured, left alone."""
    scopes = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
    outer = parents.get(id(node))
    while outer is not None:
        if isinstance(outer, scopes):
            return True
        outer = parents.get(id(outer))
    return False


def _unpacked(parent: ast.AST, call: ast.Call) -> bool:
    """`v = l.pop()`, `v: T = l.pop()`, `v += l.pop()`, `l.pop()` as a statement: graph mode
    hands the item over (measured)."""
    if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
        return parent.value is call
    return False


def _list(ctx: FunctionContext, values: Abstract, receiver: ast.expr) -> bool:
    if isinstance(receiver, ast.Name):
        return values.kind(receiver) == "list"
    held = receivers.self_attr(ctx, receiver)
    return held is not None and receivers.attr_kind(ctx, held) == receivers.LIST


def _fails(
    ctx: FunctionContext, parents: dict[int, ast.AST], parent: ast.AST, call: ast.Call
) -> Optional[str]:
    """How the pair fails where it is used, or None when it is only carried along."""
    if isinstance(parent, ast.Attribute):
        return f"which has no attribute `{parent.attr}`"
    if (
        isinstance(parent, ast.Call)
        and call in parent.args
        and (names.callee(ctx.fn.module, parent.func) or "").startswith("mindspore.")
    ):
        return "which a MindSpore operation refuses"
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Add, ast.Sub)):
        other = parent.right if parent.left is call else parent.left
        number = isinstance(other, ast.Constant) and type(other.value) in (int, float)
        if ctx.types.is_tensor(other) or number:
            return "to which a Tensor or a number cannot be added"
    if isinstance(parent, (ast.List, ast.Tuple)):
        outer = parents.get(id(parent))
        if (
            isinstance(outer, ast.Call)
            and parent in outer.args
            and (names.callee(ctx.fn.module, outer.func) or "").startswith("mindspore.")
        ):
            return "whose items a MindSpore operation refuses"
    return None


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: a parameter counts when every call of the entry point passes
    `mutable(k)` for it, which reads the callers."""
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute)
        and c.func.attr == "pop"
        and len(c.args) == 1
        and not c.keywords
    ]
    compares = [
        c for c in receivers.membership_tests(ctx) if _dict(ctx, c.comparators[0]) is not None
    ]
    if not calls and not compares:
        return
    variable = partial(_variable, ctx)
    values = abstract(ctx)
    for call in calls:
        assert isinstance(call.func, ast.Attribute)
        receiver = call.func.value
        if not isinstance(receiver, ast.Name) or values.kind(receiver) != "list":
            continue
        index = call.args[0]
        if not variable(index):
            continue
        yield LIST_POP_VARIABLE_INDEX.finding(
            call, text=ast.unparse(call), index=ast.unparse(index)
        )
    if compiled_by_jit(ctx):
        return  # PyNative compiles an `@ms.jit` function too: no difference to see
    for compare in compares:
        if not variable(compare.left):
            continue
        negated = isinstance(compare.ops[0], ast.NotIn)
        yield VARIABLE_KEY_IN_DICT.finding(
            compare,
            text=ast.unparse(compare),
            key=ast.unparse(compare.left),
            seq=_dict(ctx, compare.comparators[0]),
            always="True" if negated else "False",
        )


def _variable(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A number graph mode only knows when it runs: `mutable(k)`, read from a Tensor, or a
    parameter every call of the entry point passes `mutable(k)` for."""
    if isinstance(expr, ast.Starred):
        return False
    if variable_int(ctx, expr):
        return True
    if not ctx.fn.module.mentions("mutable"):
        return False
    params = ctx.shared.get(_PARAMS)
    if params is None:
        params = ctx.shared[_PARAMS] = mutable_parameters(ctx)
    assert isinstance(params, frozenset)
    return bool(params) and mutable_number(ctx, expr, params=params)


_PARAMS = "sequence_variables.mutable_parameters"


def _dict(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The source of `expr` when it is a dict: a local bound to dicts only, or `self.<attr>`
    the class sets to a dict display."""
    if isinstance(expr, ast.Name):
        return expr.id if abstract(ctx).kind(expr) == "dict" else None
    held = receivers.self_attr(ctx, expr)
    if held is not None and receivers.attr_kind(ctx, held) == receivers.DICT:
        return ast.unparse(expr)
    return None
