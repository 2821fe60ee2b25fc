"""MS1097: a list attribute of the Cell appended to in compiled code, then read past the
length `__init__` gave it: an item the graph's list does not have.

Measured with MindSpore 2.10 on CPU, LAX and STRICT alike, against PyNative (round 35): with
`self.buf = []` in `__init__`, `self.buf.append(x); return self.buf[0] * 2` fails to compile
("For primitive:'list_getitem', cannot get item by index from an empty sequence"), as do
`self.buf[-1]`, `ops.stack(self.buf)` after two appends ("For 'Stack', the 'len of input_x'
must be int and must >= 1"), `ops.concat(self.buf)`, the append made in a helper method
`construct` calls before stacking, and `self.vals = [1]; self.vals.append(2); self.vals[1]`
("index should be in range[-1, 1), but got 1"). Graph mode reads the attribute as the list
`__init__` built; the append does not grow it. PyNative runs them all. Compiling (left alone):
an index the original list has (`self.buf = [t0]; self.buf.append(x); self.buf[0]`), a local
list appended and stacked, and only appending (MS302 warns). `extend`/`insert` into an empty
list then `self.buf[0]` compile at LAX (only STRICT fails), so only `append` is read.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.walk import of_type

LIST_ATTRIBUTE_READ_PAST_INIT = Rule(
    "MS1097",
    "list-attribute-read-past-init",
    Group.FAILS,
    title="A list attribute appended to in compiled code, then read past its original length",
    message=(
        "`{read}` reads {what} of `self.{name}`, which compiled code appended to, but graph mode "
        "reads `self.{name}` as the {length}-item list `__init__` built (the append does not "
        "grow it), so the compile fails; collect the values in a local list instead."
    ),
    why=(
        "Graph mode treats a list attribute as a constant of the compiled graph: "
        "`self.buf.append(x)` in `construct` does not change what `self.buf` reads afterwards. "
        "Measured: `self.buf = []` in `__init__`, then `self.buf.append(x); self.buf[0]` fails "
        '("cannot get item by index from an empty sequence"), `ops.stack(self.buf)` too.'
    ),
    remedy=(
        "Build a local list in `construct` (`buf = []; buf.append(x); ops.stack(buf)`), or "
        "return the values instead of keeping them on the Cell."
    ),
    mindspore_says=(
        "ValueError: For primitive:'list_getitem', cannot get item by index from an empty sequence."
    ),
)

_JOINS = frozenset({"stack", "concat", "cat", "hstack", "vstack"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell:
        return
    calls = ctx.of(ast.Call)
    appends: dict[str, list[ast.AST]] = {}
    for call in calls:
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        if func.attr == "append" and (name := names.self_attribute(func.value)) is not None:
            appends.setdefault(name, []).append(call)
        elif (method := names.self_attribute(func)) is not None:
            found = cls.find_method(method)  # `self.keep(x)` appending in a helper
            if found is not None and found[1] is not ctx.fn.node:
                for name in _appended_in(found[1]):
                    appends.setdefault(name, []).append(call)
    if not appends:
        return
    for name, sites in appends.items():
        length = _init_length(ctx, name)
        if length is None:
            continue
        first = min((getattr(s, "end_lineno", 0), getattr(s, "end_col_offset", 0)) for s in sites)
        for read, what in _reads(ctx, name, length):
            if (read.lineno, read.col_offset) >= first:
                yield LIST_ATTRIBUTE_READ_PAST_INIT.finding(
                    read,
                    related=[ctx.related(sites[0], "appended here")],
                    read=names.short(read),
                    what=what,
                    name=name,
                    length=length,
                )
                break


def _appended_in(fn: ast.AST) -> set[str]:
    return {
        name
        for call in of_type(fn, ast.Call)
        if isinstance(call.func, ast.Attribute)
        and call.func.attr == "append"
        and (name := names.self_attribute(call.func.value)) is not None
    }


def _init_length(ctx: FunctionContext, name: str) -> Optional[int]:
    """The length of `self.<name> = [...]`, the class's only binding of it, when nothing but
    compiled code's appends changes it (no method call on it in `__init__`)."""
    cls = ctx.fn.cls
    held = cls.attr(name) if cls is not None else None
    if cls is None or held is None or not isinstance(held.node, ast.List):
        return None
    if any(isinstance(e, ast.Starred) for e in held.node.elts):
        return None
    if len(cls.attribute_stores(name)) != 1:
        return None
    init = cls.own_method("__init__")
    if init is not None and name in {
        names.self_attribute(c.func.value)
        for c in of_type(init, ast.Call)
        if isinstance(c.func, ast.Attribute)
    }:
        return None
    return len(held.node.elts)


def _reads(ctx: FunctionContext, name: str, length: int) -> Iterator[tuple[ast.expr, str]]:
    """`self.<name>[k]` with a constant `k` past `length`; `ops.stack(self.<name>)` of an
    originally empty list."""
    for sub in ctx.of(ast.Subscript):
        if not isinstance(sub.ctx, ast.Load) or names.self_attribute(sub.value) != name:
            continue
        index = sub.slice
        negative = isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub)
        inner = index.operand if isinstance(index, ast.UnaryOp) else index
        if not (isinstance(inner, ast.Constant) and type(inner.value) is int):
            continue
        k = -inner.value if negative else inner.value
        if k >= length or k < -length:
            yield sub, f"item {k}"
    if length:
        return
    for call in ctx.of(ast.Call):
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _JOINS
            and len(call.args) >= 1
            and names.self_attribute(call.args[0]) == name
            and names.is_ops_call(names.callee(ctx.fn.module, func))
        ):
            yield call, "every item"
