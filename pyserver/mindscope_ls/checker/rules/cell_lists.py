"""MS186-MS187: growing or reversing a CellList / SequentialCell attribute in compiled code.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`): in the graph a CellList or
SequentialCell attribute is a tuple of its Cells, so `self.blocks.append(Block())` in construct
fails at every level ("'Tuple' object has no attribute 'append'"; under STRICT "cannot get
attributes append or the Tuple[] object has no attribute"); SequentialCell's own `append`
is compiled and fails inside (LAX: "name 'cell' is not defined"; STRICT: `self._cells` must be
a Parameter to assign its items). PyNative appends the Cell. `reversed(self.ups)` fails at
every level too (LAX: "Unsupported element type[unknown] to set element data type for
KernelTensor", no line named; STRICT: "the inputs should be constant", naming the call).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

CELL_LIST_GROWN = Rule(
    "MS186",
    "cell-list-grown-in-graph",
    Group.FAILS,
    title="Appending to a CellList or SequentialCell in compiled code",
    message=(
        "`self.{name}` is a {kind}: compiled code cannot add Cells to it with `.{method}()` "
        "(the graph holds the Cells it had when compiling); add them in `__init__`."
    ),
    why=(
        "Graph mode turns a CellList or SequentialCell attribute into a tuple of the Cells it "
        "held when compiling; a tuple has no `append`, `extend` or `insert`."
    ),
    remedy=(
        "Build every Cell in `__init__` (a CellList of the largest size, used up to a constant "
        "count), or grow the list before calling the network."
    ),
    mindspore_says="AttributeError: 'Tuple' object has no attribute 'append'",
)
CELL_LIST_REVERSED = Rule(
    "MS187",
    "cell-list-reversed",
    Group.FAILS,
    title="`reversed()` of a CellList or SequentialCell in compiled code",
    message=(
        "`reversed(self.{name})` cannot be compiled: graph mode does not reverse a {kind} "
        "(LAX fails to build its elements, STRICT needs constant inputs); iterate it by index "
        "(`for i in range(len(self.{name}) - 1, -1, -1)`) or keep a reversed CellList built in "
        "`__init__`."
    ),
    why=(
        "A CellList or SequentialCell attribute is a sequence of Cells in the graph, and "
        "`reversed()` of it is not one of the forms graph mode translates: LAX hands it to its "
        "Python fallback, which cannot return Cells into the graph; STRICT refuses it."
    ),
    remedy=(
        "Index it backwards with a constant range, or build the reversed order in `__init__` "
        "(`nn.CellList(list(reversed(blocks)))`)."
    ),
    mindspore_says=(
        "RuntimeError: Unsupported element type[unknown] to set element data type for "
        "KernelTensor. (STRICT: When handling script 'reversed(self.ups) in graph mode', the "
        "inputs should be constant)"
    ),
)
GROWING = frozenset({"append", "extend", "insert"})
LISTS = {"mindspore.nn.CellList": "CellList", "mindspore.nn.SequentialCell": "SequentialCell"}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name) and func.id == "reversed" and len(call.args) == 1:
            held = receivers.self_attr(ctx, call.args[0])
            if held is not None and held.kind == "cell" and held.class_qualname in LISTS:
                name = receivers.self_attr_name(call.args[0])
                kind = LISTS[held.class_qualname]
                yield CELL_LIST_REVERSED.finding(call, name=name, kind=kind)
            continue
        if not (isinstance(func, ast.Attribute) and func.attr in GROWING):
            continue
        held = receivers.self_attr(ctx, func.value)
        if held is None or held.kind != "cell" or held.class_qualname not in LISTS:
            continue
        name = receivers.self_attr_name(func.value)
        yield CELL_LIST_GROWN.finding(
            call, name=name, kind=LISTS[held.class_qualname], method=func.attr
        )
