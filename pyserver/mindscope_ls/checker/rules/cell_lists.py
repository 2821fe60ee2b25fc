"""MS186-MS187: growing or reversing a CellList / SequentialCell attribute in compiled code.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`): in the graph a CellList or
SequentialCell attribute is a tuple of its Cells, so `self.blocks.append(Block())` in construct
fails at every level ("'Tuple' object has no attribute 'append'"; under STRICT "cannot get
attributes append or the Tuple[] object has no attribute"); SequentialCell's own `append`
is compiled and fails inside (LAX: "name 'cell' is not defined"; STRICT: `self._cells` must be
a Parameter to assign its items). PyNative appends the Cell. `reversed(self.ups)` fails at
every level too (LAX: "Unsupported element type[unknown] to set element data type for
KernelTensor", no line named; STRICT: "the inputs should be constant", naming the call).
So does `zip(self.blocks, reversed(seq))` of a CellList and a `reversed()` object (a U-Net
decoder's `zip(self.ups, reversed(skips))`), whichever argument comes first and inside
`enumerate` too: the zip goes to the Python fallback with the CellList in it (LAX: the same
"Unsupported element type[unknown]" for numbers, "Default/Cast-op0 does not support this kernel
data type" for Tensors, no line named; STRICT: "the inputs should be constant" for the zip or
the `reversed`). So does `zip(self.blocks, tuple(reversed(skips)))` (or `list(...)`) when
`skips` holds graph Tensors (LAX: "Cast-op0 does not support this kernel data type"). A
SequentialCell zipped that way compiles, and so do `seq[::-1]` and `tuple(reversed(seq))` of
numbers (measured on 2.10, CPU; PyNative runs them all). A local `cl = nn.CellList()` made in
construct and appended to fails the same way (LAX: no line named; STRICT: at the `append`).
A CellList or CellDict read anywhere inside `reversed()` / `sorted()` goes to the fallback too
and fails at every level: `reversed(range(len(self.blocks)))` (a U-Net decoder's countdown),
`sorted(self.heads)`, `sorted(self.heads.keys())` (LAX: "Unsupported element type[unknown]";
STRICT: "found variable 'self.blocks'", at the call). `reversed(range(len(self.seq)))` of a
SequentialCell, `range(len(self.blocks) - 1, -1, -1)` and `sorted()` of a plain dict compile.
Round 34 (`cl_`, measured the same way): `any()`, `all()`, `dict()` and `type()` go to the same
fallback: `any(isinstance(l, nn.ReLU) for l in self.layers)`, `all([len(self.layers) > 1,
True])`, `any(... for l in self.heads.values())`, `dict(self.heads)`, `dict(self.heads.items())`,
`type(self.heads["a"]).__name__` fail at both levels; the same over a SequentialCell
(`type(self.seq[0])`, `any(... for l in self.seq)`), `isinstance(l, nn.ReLU)` in a `for` over a
CellList, `type(self.act)` of a sub-Cell attribute and `max(len(self.layers), 1)` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.elements import Elements

CELL_LIST_GROWN = Rule(
    "MS186",
    "cell-list-grown-in-graph",
    Group.FAILS,
    title="Appending to a CellList or SequentialCell (or popping a CellDict) in compiled code",
    message=(
        "`{owner}` is a {kind}: compiled code cannot {change} it with `.{method}()` "
        "(the graph holds the Cells it had when compiling); {advice}."
    ),
    why=(
        "Graph mode turns a CellList or SequentialCell attribute into a tuple of the Cells it "
        "held when compiling; a tuple has no `append`, `extend` or `insert`. A CellDict "
        "becomes a dict of them that `pop` cannot take Cells out of."
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
    title=(
        "`reversed()` of a CellList or SequentialCell, a CellList zipped with `reversed()`, or "
        "a CellList/CellDict read inside `reversed()`/`sorted()`/`any()`/`all()`/`dict()`/"
        "`type()`, in compiled code"
    ),
    message=(
        "`{call}` cannot be compiled: graph mode {problem} (LAX fails to build its elements, "
        "STRICT needs constant inputs); {advice}."
    ),
    why=(
        "A CellList or SequentialCell attribute is a sequence of Cells in the graph, and "
        "`reversed()` of it is not one of the forms graph mode translates: LAX hands it to its "
        "Python fallback, which cannot return Cells into the graph; STRICT refuses it. A "
        "`zip` of a CellList and a `reversed()` object goes to the same fallback."
    ),
    remedy=(
        "Index it backwards with a constant range, or build the reversed order in `__init__` "
        "(`nn.CellList(list(reversed(blocks)))`); to pair a CellList with a sequence in "
        "reverse, reverse the sequence with a slice (`zip(self.ups, skips[::-1])`)."
    ),
    mindspore_says=(
        "RuntimeError: Unsupported element type[unknown] to set element data type for "
        "KernelTensor. (STRICT: When handling script 'reversed(self.ups) in graph mode', the "
        "inputs should be constant)"
    ),
)
GROWING = frozenset({"append", "extend", "insert"})
LISTS = {"mindspore.nn.CellList": "CellList", "mindspore.nn.SequentialCell": "SequentialCell"}
GROW_ADVICE = "add them in `__init__`"
CELL_DICT = "mindspore.nn.CellDict"  # `pop` fails (LAX: no line named; STRICT: at the call)
CELL_LIST = "mindspore.nn.CellList"  # zipped with reversed(): a SequentialCell compiles
# Builtins graph mode runs in its Python fallback, and the containers that fail there when read
# inside their argument (`reversed(range(len(self.seq)))` of a SequentialCell compiles).
FALLBACK_CALLS = frozenset({"reversed", "sorted", "any", "all", "dict", "type"})
IN_FALLBACK = {"mindspore.nn.CellList": "CellList", "mindspore.nn.CellDict": "CellDict"}
FALLBACK_ADVICE = {
    "reversed": "count down with `range(len(self.{name}) - 1, -1, -1)` instead",
    "sorted": "sort the keys once in `__init__` (`self.order = sorted(...)`) and loop over that",
    "any": "work the answer out once in `__init__` and keep it in an attribute",
    "all": "work the answer out once in `__init__` and keep it in an attribute",
    "dict": "index the CellDict itself (`self.{name}[key]`)",
    "type": "test the class once in `__init__` and keep the answer in an attribute",
}


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
                yield CELL_LIST_REVERSED.finding(
                    call,
                    call=f"reversed(self.{name})",
                    problem=f"does not reverse a {kind}",
                    advice=(
                        f"iterate it by index (`for i in range(len(self.{name}) - 1, -1, -1)`) "
                        "or keep a reversed CellList built in `__init__`"
                    ),
                )
                continue
        if isinstance(func, ast.Name) and func.id in FALLBACK_CALLS and len(call.args) == 1:
            inside = _container_inside(ctx, call.args[0])
            if inside is not None:
                name, kind = inside
                yield CELL_LIST_REVERSED.finding(
                    call,
                    call=ast.unparse(call),
                    problem=(
                        f"hands `{func.id}()` to its Python fallback with the {kind} "
                        f"`self.{name}` in it, which cannot hold Cells"
                    ),
                    advice=FALLBACK_ADVICE[func.id].format(name=name),
                )
            continue
        if isinstance(func, ast.Name) and func.id == "zip":
            found = _zipped_reversed(ctx, call)
            if found is not None:
                rev, name = found
                seq = ast.unparse(rev.args[0]) if len(rev.args) == 1 else "seq"
                yield CELL_LIST_REVERSED.finding(
                    rev,
                    call=ast.unparse(call),
                    problem=(
                        f"hands a `zip` of the CellList `self.{name}` and a `reversed()` object "
                        "to its Python fallback, which cannot hold Cells"
                    ),
                    advice=f"reverse with a slice instead (`{seq}[::-1]`)",
                )
            continue
        if isinstance(func, ast.Attribute) and func.attr == "pop":
            held = receivers.self_attr(ctx, func.value)
            if held is not None and held.kind == "cell" and held.class_qualname == CELL_DICT:
                name = receivers.self_attr_name(func.value)
                yield CELL_LIST_GROWN.finding(
                    call,
                    owner=f"self.{name}",
                    kind="CellDict",
                    method="pop",
                    change="take Cells out of",
                    advice=f"index it (`self.{name}[key]`) and leave it whole",
                )
            continue
        if not (isinstance(func, ast.Attribute) and func.attr in GROWING):
            continue
        local = _local_cell_list(ctx, func.value)
        if local is not None:
            yield CELL_LIST_GROWN.finding(
                call,
                owner=local,
                kind="CellList",
                method=func.attr,
                change="add Cells to",
                advice=GROW_ADVICE,
            )
            continue
        held = receivers.self_attr(ctx, func.value)
        if held is None or held.kind != "cell" or held.class_qualname not in LISTS:
            continue
        name = receivers.self_attr_name(func.value)
        yield CELL_LIST_GROWN.finding(
            call,
            owner=f"self.{name}",
            kind=LISTS[held.class_qualname],
            method=func.attr,
            change="add Cells to",
            advice=GROW_ADVICE,
        )


def _local_cell_list(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """A local bound only to `nn.CellList(...)` made in the compiled function (measured on
    2.10: `cl = nn.CellList(); cl.append(nn.ReLU())` fails like an attribute's append)."""
    if not isinstance(expr, ast.Name):
        return None
    bound = receivers.only_binding(ctx, expr.id)
    if not isinstance(bound, ast.Call):
        return None
    return expr.id if names.callee(ctx.fn.module, bound.func) == CELL_LIST else None


def _container_inside(ctx: FunctionContext, expr: ast.expr) -> Optional[tuple[str, str]]:
    """(name, kind) of a CellList/CellDict attribute read inside `expr` (`range(len(self.blocks))`,
    `self.heads.keys()`, `self.heads` itself)."""
    for node in ast.walk(expr):
        if not isinstance(node, ast.Attribute):
            continue
        held = receivers.self_attr(ctx, node)
        if held is not None and held.kind == "cell" and held.class_qualname in IN_FALLBACK:
            name = receivers.self_attr_name(node)
            if name is not None:
                return name, IN_FALLBACK[held.class_qualname]
    return None


def _zipped_reversed(ctx: FunctionContext, call: ast.Call) -> Optional[tuple[ast.Call, str]]:
    """`zip(self.<CellList>, reversed(...))` (either order): the `reversed(...)` call and the
    CellList's name."""
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    name = None
    for arg in call.args:
        held = receivers.self_attr(ctx, arg)
        if held is not None and held.kind == "cell" and held.class_qualname == CELL_LIST:
            name = receivers.self_attr_name(arg)
            break
    if name is None:
        return None
    for arg in call.args:
        if _reversed_call(arg):
            return arg, name  # type: ignore[return-value]
        converted = names.sequence_conversion(arg)
        if converted is not None and _reversed_call(converted):
            inner: ast.Call = converted  # type: ignore[assignment]
            # `tuple(reversed(seq))` of numbers is folded and compiles; of graph Tensors the
            # zip still fails at LAX ("Cast-op0 does not support this kernel data type").
            if inner.args and Elements(ctx.types, ctx.fn.node, ctx.lines).variable(inner.args[0]):
                return inner, name
    return None


def _reversed_call(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "reversed"
        and not expr.keywords
    )


def zipped_reversed_calls(ctx: FunctionContext) -> frozenset[int]:
    """The ids of the `reversed(...)` calls MS187 reports zipped with a CellList (MS206 leaves
    them to it)."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    found = set()
    for call in calls:
        if isinstance(call.func, ast.Name) and call.func.id == "zip":
            pair = _zipped_reversed(ctx, call)
            if pair is not None:
                found.add(id(pair[0]))
    return frozenset(found)
