"""MS333: `v = d.pop(key)` of a Tensor value at LAX: graph mode unpacks the Tensor's rows.

Measured with MindSpore 2.10 on CPU against PyNative, with `d = {"a": x, "b": 2 * x}` and `x` of
shape (2, 3): graph mode expects `dict.pop` to give a `(dict, value)` pair and unpacks whatever it
gets, so a popped Tensor is split into its rows: `v = d.pop("a")` gives `v = x[1]` and rebinds
`d` to `x[0]` (PyNative: `v = x`, `d = {"b": 2 * x}`). `d.pop("a")` as a statement followed by
`len(d)` gives 3 (the row's length); a missing key's default (`d.pop("b", 3 * x)`) is split the
same way; `dict(a=x, b=y)` too. No error at LAX (STRICT has no `dict.pop`: MS121). What fails
instead is MS121's: the dict read by key afterwards, a dict comprehension, a number popped.
A pop inside an expression (`return d.pop("b") + m`) is not unpacked: it agreed with PyNative
once and failed once ("TupleGetItem, input[0] should be Sequence, but got Dictionary"), so it is
left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import objects
from .helpers import shared_values
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import loads_after

DICT_POP_TENSOR_ROWS = Rule(
    "MS333",
    "dict-pop-tensor-rows",
    Group.DIVERGES,
    title="`v = d.pop(key)` of a Tensor value: graph mode splits the Tensor into its rows",
    message=(
        "`{call}` pops a Tensor, which graph mode unpacks as a `(dict, value)` pair: {what} "
        "(PyNative: the whole Tensor); read it with `{name}[{key}]` and build the dict without "
        "the key instead."
    ),
    why=(
        "Graph mode's `dict.pop` hands back the value where the parser expects a `(dict, value)` "
        "pair, so a Tensor value is unpacked into its first two rows (measured on 2.10: "
        "`v = d.pop('a')` gave `x[1]` and rebound `d` to `x[0]`)."
    ),
    remedy=(
        "Read the value with `d[key]` (or `d.get(key, default)`) and build a new dict of the "
        "other keys: `rest = {k: v for k, v in d.items() if k != key}`."
    ),
    mindspore_says="(compiles at LAX; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return  # STRICT has no dict.pop at all: MS121
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute)
        and c.func.attr == "pop"
        and isinstance(c.func.value, ast.Name)
        and 1 <= len(c.args) <= 2
        and not c.keywords
    ]
    if not calls:
        return
    fn = ctx.fn.node
    dicts = objects.dict_names(fn)
    values = shared_values.abstract(ctx)
    for call in calls:
        assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        name = call.func.value.id
        display = dicts.get(name)
        if display is None or isinstance(display, ast.DictComp):
            continue  # a comprehension's pop fails (MS121)
        value = objects.popped(values, display, call)
        if value is None or value.kind != "tensor" or not objects.rebinds_dict(fn, call):
            continue
        if objects.read_by_key_after(fn, name, call):
            continue  # fails: MS121
        assigned = not isinstance(_statement(fn, call), ast.Expr)
        if not assigned and loads_after(fn, name, call) is None:
            continue  # `d.pop(k)` whose dict is never read again changes nothing seen
        if objects.dead_pop(fn, name, call):
            continue  # `v = d.pop(k)`, neither read again: dropped as dead code
        what = (
            f"the value gets the Tensor's second row and `{name}` its first"
            if assigned
            else f"`{name}` is rebound to the Tensor's first row"
        )
        yield DICT_POP_TENSOR_ROWS.finding(
            call, call=ast.unparse(call), what=what, name=name, key=ast.unparse(call.args[0])
        )


def _statement(fn: ast.AST, call: ast.Call) -> ast.stmt | None:
    for node in ast.walk(fn):
        if isinstance(node, (ast.Assign, ast.Expr)) and node.value is call:
            return node
    return None
