"""MS1027, MS249: an item of a CellList, CellDict or SequentialCell attribute assigned in compiled
code.

Measured with MindSpore 2.10 on CPU (PyNative replaces the item):
- MS1027: `self.layers[0] = nn.Dense(3, 3)` of a CellList, `self.heads["cls"] = self.alt` of a
  CellDict (a new key too), a Cell built in `__init__` or in construct, fails at every level
  while parsing ("CellList or CellDict object ... is not support to do assign subscript", at
  the item). A local bound to the attribute (`blocks = self.layers; blocks[1] = act`) fails too
  (LAX: "Unsupported element type[unknown] to set element data type for KernelTensor", no line;
  STRICT: "__py_exec_index0_setitem__ ... the inputs should be constant").
- MS249: the same write to a SequentialCell attribute compiles at LAX (through the fallback,
  PyNative's result) and fails under STRICT ("When JIT_SYNTAX_LEVEL is not set to LAX self.seq
  should be initialized as a 'Parameter' in the '__init__' function").
Reading items (`self.layers[i](x)` with a loop index, a negative index, a slice), `len()`, and
`zip`/`enumerate` of these containers compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

CELL_CONTAINER_ITEM_WRITTEN = Rule(
    "MS1027",
    "cell-container-item-written",
    Group.FAILS,
    title="An item of a CellList or CellDict assigned in compiled code",
    message=(
        "`{target} = ...` replaces an item of the {kind} `self.{name}`, which graph mode cannot "
        "assign into at any level; build the {kind} with its final Cells in `__init__` and pick "
        "among them with a constant."
    ),
    why=(
        "Graph mode holds a CellList or CellDict as the fixed Cells it had when compiling; the "
        "parser refuses an item assignment to one (and a local bound to it hands the write to a "
        "fallback that cannot hold Cells)."
    ),
    remedy=(
        "Create every Cell in `__init__` and choose one in `construct` with a constant index or "
        "key (or a flag set in `__init__`); replace items outside compiled code."
    ),
    mindspore_says=(
        "TypeError: CellList or CellDict object CellList(...) is not support to do assign "
        "subscript."
    ),
)
SEQUENTIAL_ITEM_WRITTEN = Rule(
    "MS249",
    "sequential-item-written-strict",
    Group.STRICT,
    title="An item of a SequentialCell assigned in compiled code, under STRICT",
    message=(
        "`{target} = ...` replaces an item of the SequentialCell `self.{name}`: only LAX's "
        "Python fallback can do that, STRICT fails; replace it outside compiled code, or keep "
        "both Cells and pick one with a constant."
    ),
    why=(
        "Under STRICT compiled code can change a Cell's attributes only when they are "
        "Parameters; a SequentialCell's item write changes its held Cells."
    ),
    remedy=(
        "Create both Cells in `__init__` and choose with a constant flag, or replace the item "
        "before calling the network."
    ),
    mindspore_says=(
        "TypeError: When JIT_SYNTAX_LEVEL is not set to LAX self.seq should be initialized as a "
        "'Parameter' in the '__init__' function"
    ),
)
_FAILING = {"mindspore.nn.CellList": "CellList", "mindspore.nn.CellDict": "CellDict"}
_SEQUENTIAL = "mindspore.nn.SequentialCell"


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None:
        return
    for node in ctx.of(ast.Assign):
        for target in node.targets:
            for item in _items(target):
                found = _container(ctx, item.value)
                if found is None:
                    continue
                qualname, name, aliased = found
                text = ast.unparse(item)
                if qualname in _FAILING:
                    kind = _FAILING[qualname]
                    yield CELL_CONTAINER_ITEM_WRITTEN.finding(
                        item, target=text, kind=kind, name=name
                    )
                elif not aliased:
                    yield SEQUENTIAL_ITEM_WRITTEN.finding(item, target=text, name=name)


def _items(target: ast.expr) -> Iterator[ast.Subscript]:
    """The item targets of an assignment target (inside tuple/list unpacking too)."""
    if isinstance(target, ast.Subscript):
        yield target
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from _items(elt)


def _container(ctx: FunctionContext, expr: ast.expr) -> Optional[tuple[str, str, bool]]:
    """(class, attribute name, through a local) when `expr` is `self.<attr>` holding a
    CellList, CellDict or SequentialCell, or a local bound only to one."""
    aliased = False
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None:
            return None
        expr, aliased = bound, True
    held = receivers.self_attr(ctx, expr)
    name = receivers.self_attr_name(expr)
    if held is None or name is None or held.kind != "cell" or held.class_qualname is None:
        return None
    if held.class_qualname in _FAILING or held.class_qualname == _SEQUENTIAL:
        return held.class_qualname, name, aliased
    return None
