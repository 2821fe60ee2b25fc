"""MS284: a str, tuple, list or dict dunder method called or read by name under STRICT.

Measured with MindSpore 2.10 on CPU (round 34, `du_`), each in `construct` against PyNative:
LAX runs them all through its Python fallback; STRICT fails ("In JIT strict mode, cannot get
attributes __contains__ or the Tuple[Int64*2] object has no attribute: '__contains__'") for
`__contains__`, `__add__`, `__mul__`, `__eq__`, `__ne__`, `__lt__`, `__iter__`, `__str__`,
`__hash__`, `__reversed__` and `__class__` of tuples, lists and dicts, and for every dunder
of a str, `__len__` and `__getitem__` included. The graph's own sequence methods compile:
`__len__` and `__getitem__` of a tuple, list or dict, `__setitem__` of a list or dict. The
operators themselves (`in`, `+`, `==`, `len()`, `s[0]`) are other rules' concern.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract
from .methods import receiver_value

DUNDER_UNDER_STRICT = Rule(
    "MS284",
    "dunder-method-strict",
    Group.STRICT,
    title="A dunder method of a str, tuple, list or dict named in compiled code under STRICT",
    message=(
        "The graph's {kind} has no `{attr}` under jit_syntax_level=STRICT (only LAX's Python "
        "fallback provides it); {advice}."
    ),
    why=(
        "Under STRICT a str, tuple, list or dict in the graph has only the methods MindSpore "
        "implements for it: `__len__` and `__getitem__` (and `__setitem__` of a list or dict) "
        "for sequences and dicts, none for a str; LAX falls back to Python for the rest."
    ),
    remedy="Write the operator (`in`, `+`, `==`, `len()`, indexing) instead of the method.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __contains__ or the "
        "Tuple[Int64*2] object has no attribute: '__contains__'."
    ),
)

# What the graph's containers have under STRICT (measured); a str has none.
GRAPH_DUNDERS = {
    "tuple": frozenset({"__len__", "__getitem__"}),
    "list": frozenset({"__len__", "__getitem__", "__setitem__"}),
    "dict": frozenset({"__len__", "__getitem__", "__setitem__"}),
    "str": frozenset(),
}
OPERATORS = {
    "__contains__": "`in`",
    "__add__": "`+`",
    "__mul__": "`*`",
    "__eq__": "`==`",
    "__ne__": "`!=`",
    "__lt__": "`<`",
    "__le__": "`<=`",
    "__gt__": "`>`",
    "__ge__": "`>=`",
    "__len__": "`len()`",
    "__getitem__": "indexing",
}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    attrs: list[ast.Attribute] = ctx.of(ast.Attribute)
    dunders = [
        a
        for a in attrs
        if a.attr.startswith("__") and a.attr.endswith("__") and isinstance(a.ctx, ast.Load)
    ]
    if not dunders:
        return
    values = abstract(ctx, module=True)  # a parameter every caller passes a tuple
    for node in dunders:
        value = receiver_value(ctx, values, node.value)
        if value is None or value.kind not in GRAPH_DUNDERS:
            continue
        if node.attr in GRAPH_DUNDERS[value.kind]:
            continue
        operator = OPERATORS.get(node.attr)
        advice = f"write {operator} instead" if operator else "compute it outside compiled code"
        yield DUNDER_UNDER_STRICT.finding(node, kind=value.kind, attr=node.attr, advice=advice)
