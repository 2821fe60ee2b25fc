"""MS159, MS224: `for` loops over values that cannot be iterated, and str lengths.

Measured with MindSpore 2.10 (`generated/iteration/`): a `for` over None, a scalar, a 0-d
Tensor or an instance of a plain class without `__iter__`/`__getitem__` fails; under STRICT
`len()` of a str and a `for` over a str fail too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import describe, instance, missing_advice
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext
from .helpers.instances import lacks
from .unpacking import zero_d

ITERATE_NON_ITERABLE = Rule(
    "MS159",
    "iterate-non-iterable",
    Group.FAILS,
    title="A `for` loop over a value that cannot be iterated",
    message="`for` iterates over {what}, which is not iterable; {advice}.",
    why=(
        "Graph mode unrolls a `for` over the value's items: None, a scalar and a 0-d Tensor "
        "have none."
    ),
    remedy="Loop over a tuple, list, dict, range or a Tensor with at least one axis.",
    mindspore_says="TypeError: 'none' object is not iterable",
)

STR_LENGTH_UNDER_STRICT = Rule(
    "MS224",
    "str-length-under-strict",
    Group.STRICT,
    title="`len()` of a str or a `for` over a str in compiled code",
    message="{what} a str is not supported under jit_syntax_level=STRICT; {advice}.",
    why="Under STRICT a str has no `__len__` in the graph, so neither `len` nor `for` works on it.",
    remedy="Use a tuple of strs, or the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __len__ or the String object "
        "has no attribute: '__len__'."
    ),
)


def check_for(ctx: FunctionContext, values: Abstract, node: ast.For) -> Iterator[RawFinding]:
    if zero_d(values, node.iter):
        yield ITERATE_NON_ITERABLE.finding(
            node.iter, what="a 0-d Tensor", advice="loop over a Tensor with at least one axis"
        )
        return
    cls = instance(ctx, node.iter)
    if cls is not None:
        module = ctx.fn.module
        if lacks(module, cls, "__iter__") and lacks(module, cls, "__getitem__"):
            yield ITERATE_NON_ITERABLE.finding(
                node.iter, what=f"a `{cls.name}` object", advice=missing_advice(cls, "__iter__")
            )
        return
    known = values.of(node.iter)
    if known is None:
        return
    if known.kind in ("None", "scalar"):
        advice = "loop over `range(n)`" if known.kind == "scalar" else "loop over a tuple or list"
        yield ITERATE_NON_ITERABLE.finding(node.iter, what=describe(known), advice=advice)
    elif known.kind == "str":
        yield STR_LENGTH_UNDER_STRICT.finding(
            node.iter, what="A `for` over", advice="loop over a tuple of strs"
        )
