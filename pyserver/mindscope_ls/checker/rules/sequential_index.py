"""MS1032: a SequentialCell attribute indexed by a number known only when the graph runs.

Measured with MindSpore 2.10 on CPU (PyNative picks the Cell): `self.seq[int(x.sum()) % 2](x)`,
`self.seq[t.item()](x)` and `self.seq[i % 2](x)` with `i` a Python int counted in a `while` on a
Tensor condition (which makes it a run-time scalar) fail at every level: graph mode indexes a
SequentialCell in its Python fallback, which cannot run a Cell's graph (LAX: "Nested execution
during JIT execution for 'Dense.construct' is not supported", no line named; STRICT:
"__py_exec_index0_getitem__(...) ... the inputs should be constant", at the item). A CellList
indexed the same way compiles, but calls its first Cell whatever the index (round 37, MS3031),
and a SequentialCell indexed by a constant or a `for`/`while` counter over Python ints.
Round 37: `i = mutable(1); self.seq[i](x)` fails alike (LAX: "Nested execution", STRICT: the
inputs should be constant); a CellList indexed so calls its first Cell (MS3031).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import cell_apis
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .joins import counted_in

SEQUENTIAL_RUNTIME_INDEX = Rule(
    "MS1032",
    "sequential-runtime-index",
    Group.FAILS,
    title="A SequentialCell indexed by a number known only when the graph runs",
    message=(
        "`{item}` indexes the SequentialCell `self.{name}` with {why}, which graph mode hands "
        "to its Python fallback, where the Cell cannot run: it fails at every level; index with "
        "a constant, or pick between the Cells' results with a Tensor index or condition."
    ),
    why=(
        "Graph mode indexes a SequentialCell at run time only through its Python fallback, "
        "which cannot call a Cell's graph (a CellList indexed so compiles, but calls its "
        "first Cell: MS3031)."
    ),
    remedy=(
        "Index with a constant (a `for` over `range(n)`), or compute the Cells' results and "
        "pick one with a Tensor condition (`ops.select`)."
    ),
    mindspore_says=(
        "RuntimeError: Nested execution during JIT execution for 'Dense.construct' is not "
        "supported when 'Net.construct' compile and execute."
    ),
)
_SEQUENTIAL = "mindspore.nn.SequentialCell"


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None:
        return
    subscripts: list[ast.Subscript] = ctx.of(ast.Subscript)
    loops: Optional[list[ast.While]] = None
    for item in subscripts:
        if not isinstance(item.ctx, ast.Load) or isinstance(item.slice, ast.Slice):
            continue
        held = receivers.self_attr(ctx, item.value)
        if held is None or held.kind != "cell" or held.class_qualname != _SEQUENTIAL:
            continue
        why = None
        if receivers.runtime_scalar(ctx, item.slice):
            why = "a number read from a Tensor"
        elif cell_apis.mutable_int(ctx, item.slice):
            why = "a `mutable()` int"
        else:
            if loops is None:
                loops = [w for w in ctx.of(ast.While) if ctx.types.is_condition(w.test)]
            counter = _loop_counter(item, loops)
            if counter is not None:
                why = f"`{counter}`, counted in a `while` on a Tensor condition"
        if why is not None:
            name = receivers.self_attr_name(item.value)
            yield SEQUENTIAL_RUNTIME_INDEX.finding(item, item=ast.unparse(item), name=name, why=why)


def _loop_counter(item: ast.Subscript, loops: list[ast.While]) -> Optional[str]:
    """A name the index reads that a Tensor-conditioned `while` around the item counts."""
    read = {n.id for n in ast.walk(item.slice) if isinstance(n, ast.Name)}
    for loop in loops:
        end = loop.end_lineno or loop.lineno
        if not loop.lineno < item.lineno <= end:
            continue
        for name in sorted(read):
            if counted_in(loop, name):
                return name
    return None
