"""MS393: a list or dict attribute of the Cell emptied or changed in compiled code by
`pop()`, `clear()` or `dict.update()`, then read back in the same compiled function.

Measured with MindSpore 2.10 on CPU, LAX and STRICT alike, against PyNative (round 35): with
`self.vals = [1, 2, 3]` set in `__init__`, `v = self.vals.pop(); return x * v * len(self.vals)`
gave x * 9 in GRAPH_MODE (the popped value is right, 3, but the list read afterwards still has
three items) and x * 6 in PyNative; so did `self.vals.pop(0)` then `self.vals[0]` (1, not 2),
`pop()` then `sum(self.vals)`, a list of Tensors popped, the same in a helper method
`construct` calls, `self.vals.clear()` then a `for` over it or `len()` of it, `self.d.clear()`
then `len(self.d)`, and `self.d.update({"a": 4})` then `self.d["a"]` (1, not 4) or
`len(self.d)` after a new key. Graph mode reads the attribute as the value it had when the
Cell was compiled. Agreeing, so left alone: the popped value alone (`v = self.vals.pop()`,
nothing else read), `clear()` with no read after, `update()` then a key it did not write
(`self.d["b"]`), a local copy changed (`vals = list(self.vals); vals.pop()`), and
`self.vals.reverse()` at LAX. At LAX `self.vals.sort()` then `self.vals[0]` and
`self.vals.remove(2)` then `len(self.vals)` differ too (STRICT rejects both methods: MS203).
(`append`/`extend`/`insert` are MS302's.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

ATTRIBUTE_CONTAINER_CHANGED = Rule(
    "MS393",
    "attribute-container-changed-then-read",
    Group.DIVERGES,
    title="A list or dict attribute emptied or updated in compiled code, then read back",
    message=(
        "`{call}` changes the Cell's {kind} `self.{name}`, but graph mode reads `self.{name}` "
        "as the value it had when the Cell was compiled: `{read}` below still sees the old "
        "{kind} in GRAPH_MODE (PyNative sees the change)."
    ),
    why=(
        "Graph mode treats a list or dict attribute as a constant of the compiled graph; "
        "`pop()`, `clear()` and `update()` on it return their result but do not change what "
        "later reads of the attribute see. Measured: `v = self.vals.pop(); x * v * "
        "len(self.vals)` with `self.vals = [1, 2, 3]` gave x * 9 in GRAPH_MODE, x * 6 in "
        "PyNative."
    ),
    remedy=(
        "Work on a local copy (`vals = list(self.vals)`, `d = dict(self.d)`) and read the "
        "local afterwards, or keep the changing value out of compiled code."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

_METHODS = {"list": frozenset({"pop", "clear"}), "dict": frozenset({"clear", "update"})}
# LAX only: STRICT fails on these (MS203)
_LAX_LIST_METHODS = frozenset({"sort", "remove"})
_ALL = frozenset().union(*_METHODS.values(), _LAX_LIST_METHODS)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None:
        return
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute)
        and c.func.attr in _ALL
        and names.self_attribute(c.func.value) is not None
    ]
    if not calls:
        return
    for call in calls:
        func = call.func
        assert isinstance(func, ast.Attribute)
        name = names.self_attribute(func.value)
        kind = receivers.kind_of(ctx, func.value)
        if name is None or kind is None:
            continue
        lax_only = kind == "list" and func.attr in _LAX_LIST_METHODS
        if func.attr not in _METHODS.get(kind, ()) and not (
            lax_only and ctx.level != SyntaxLevel.STRICT
        ):
            continue
        read = attribute_read_after(
            ctx, call, name, _updated_keys(call) if func.attr == "update" else None
        )
        if read is None:
            continue
        yield ATTRIBUTE_CONTAINER_CHANGED.finding(
            call,
            related=[ctx.related(read, "read here")],
            call=names.short(call),
            kind=kind,
            name=name,
            read=names.short(read),
        )


def _updated_keys(call: ast.Call) -> Optional[set[object]]:
    """The constant keys `d.update({...})` writes; None when they are not all written out."""
    if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Dict):
        return None
    keys: set[object] = set()
    for key in call.args[0].keys:
        if not isinstance(key, ast.Constant):
            return None
        keys.add(key.value)
    return keys


def attribute_read_after(
    ctx: FunctionContext, call: ast.AST, name: str, keys: Optional[set[object]] = None
) -> Optional[ast.expr]:
    """The first read of `self.<name>` after `call`: with `keys`, only an item read at one of
    them, or the whole attribute (not an item at another key)."""
    end = (getattr(call, "end_lineno", 0) or 0, getattr(call, "end_col_offset", 0) or 0)
    parents: dict[int, ast.Subscript] = {}
    for sub in ctx.of(ast.Subscript):
        parents[id(sub.value)] = sub
    for node in ctx.of(ast.Attribute):
        if (
            not isinstance(node.ctx, ast.Load)
            or (node.lineno, node.col_offset) < end
            or names.self_attribute(node) != name
        ):
            continue
        if keys is not None:
            item = parents.get(id(node))
            if item is not None:
                index = item.slice
                if not (isinstance(index, ast.Constant) and index.value in keys):
                    continue
                return item
        return node
    return None
