"""MS1117: a method only `OrderedDict` / `Counter` have, called in compiled code.

Measured with MindSpore 2.10 on CPU (round 36, `dc_`), PyNative runs them: graph mode turns a
`collections.OrderedDict`, `Counter` or `defaultdict` into its own plain dict, which has none of
their own methods, so `d.move_to_end("a")`, `c.most_common(1)`, `c.elements()` and
`d.popitem(last=False)` and a defaultdict's `d.default_factory` fail at every level (LAX:
"AttributeError: 'Dictionary' object has no attribute 'move_to_end'", "dict.popitem() takes no
keyword arguments"; STRICT: "cannot get attributes move_to_end or the Dictionary[...] object has
no attribute"), on a local built in the graph. What compiles: the dict methods (`keys()`,
`items()`, `d["a"]`, `popitem()` without arguments at LAX), and the same methods of an attribute
`__init__` built (`self.od.move_to_end("a")`, `self.c.most_common(1)`: the Python object).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.receivers import only_binding

COLLECTION_METHOD = Rule(
    "MS1117",
    "collections-dict-method",
    Group.FAILS,
    title="A method only `OrderedDict` / `Counter` have, called in compiled code",
    message=(
        "`{call}` uses `{method}` of the {kind} `{name}`, but graph mode turns it into a plain "
        "dict that has no such method or attribute and fails at every level; {remedy}."
    ),
    why=(
        "Graph mode converts `OrderedDict`, `Counter` and `defaultdict` to its own dict type, "
        "which implements only plain dict methods (and `popitem()` without arguments)."
    ),
    remedy=(
        "Compute the result in `__init__` (outside the graph), or rebuild it with plain dict "
        "operations (a new dict in the wanted order, `max(c, key=c.get)` for the most common)."
    ),
    mindspore_says="AttributeError: 'Dictionary' object has no attribute 'move_to_end'",
)

_KINDS = {
    "collections.OrderedDict": "OrderedDict",
    "collections.Counter": "Counter",
    "collections.defaultdict": "defaultdict",
}
_METHODS = frozenset(
    {"move_to_end", "most_common", "elements", "subtract", "total", "default_factory"}
)
_REMEDY = "use plain dict operations, or compute it in `__init__`"
_REMEDIES = {
    "move_to_end": "build a new dict in the wanted order instead",
    "most_common": "use `max(c, key=c.get)` or compute it in `__init__`",
}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if not names.imports_package(ctx.fn.module, frozenset({"collections"})):
        return
    calls = {id(c.func): c for c in ctx.of(ast.Call)}
    for attribute in ctx.of(ast.Attribute):
        if not isinstance(attribute.ctx, ast.Load) or not isinstance(attribute.value, ast.Name):
            continue
        call = calls.get(id(attribute))
        if attribute.attr == "popitem":
            if call is None or not call.keywords:
                continue
        elif attribute.attr not in _METHODS:
            continue
        kind = _collection_kind(ctx, attribute.value)
        if kind is None:
            continue
        node = call if call is not None else attribute
        yield COLLECTION_METHOD.finding(
            node,
            call=ast.unparse(node),
            method=attribute.attr,
            kind=kind,
            name=attribute.value.id,
            remedy=_REMEDIES.get(attribute.attr, _REMEDY),
        )


def _collection_kind(ctx: FunctionContext, name: ast.Name) -> Optional[str]:
    """The collection a local bound once in the graph is built as (not an attribute: the
    Python object `__init__` built keeps its methods, through the fallback: measured, compiles)."""
    bound = only_binding(ctx, name.id)
    if isinstance(bound, ast.Call):
        return _KINDS.get(str(ctx.fn.module.qualname(bound.func)))
    return None
