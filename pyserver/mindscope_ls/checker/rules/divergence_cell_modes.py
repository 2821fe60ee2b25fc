"""MS335, MS221: `self.set_train(...)` / `self.fc.to_float(...)` called in compiled code.

Measured with MindSpore 2.10 on CPU against PyNative: LAX compiles the call and drops it, so
the Cell keeps the mode it had when called. With `net.set_train()` then `self.set_train(False)`
in `construct`, a `Dropout` still drops in GRAPH_MODE (PyNative: the identity) and
`net.training` stays True afterwards (PyNative: False); `self.d.set_train(True)` on an
evaluating net leaves the Dropout off, `self.set_train(mode=False)`, a call under
`if self.training:` and one in a helper method `construct` calls (`self.bn.set_train(False)`,
a BatchNorm still using batch statistics) likewise. STRICT refuses the call (MS130: "if need
to modify a member attribute of a class with self._phase, the member attribute must be of the
Parameter type"). A Cell class of the workspace defining its own `set_train` is left alone.
A Cell is built evaluating (`training` False), so `set_train(False)` changes nothing unless
something put it in training first: that call is reported only when the module also calls
`set_train()` / `set_train(True)` outside it (the outputs agreed otherwise, measured). And a
mode matters only to layers that read it: the module must name a Dropout or BatchNorm layer or
read `.training` (without one, only the `training` flag differs).

`self.fc.to_float(ms.float16)` (or `self.to_float(...)`) in `construct` likewise: LAX drops
it, the Dense's output stays float32 (PyNative: float16), MS335 (reported for float16 and
bfloat16); STRICT refuses it ("if need to modify a member attribute of a class with
self._cell_init_args, the member attribute must be of the Parameter type"; `self.to_float`:
"The 'Net' object has no attribute '_cell_init_args'"), MS221, which MS130 does not cover.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

SET_TRAIN_DROPPED = Rule(
    "MS335",
    "set-train-in-graph-dropped",
    Group.DIVERGES,
    title="`Cell.set_train()` / `Cell.to_float()` called in compiled code at LAX",
    message=(
        "`{call}` does nothing in compiled code: LAX drops it, so `{cell}` keeps {what} where "
        "PyNative changes it; call `{method}` on the network before calling it."
    ),
    why=(
        "A Cell's mode and compute dtype are fixed when the graph is compiled; LAX compiles a "
        "`set_train` or `to_float` call in `construct` to nothing (STRICT refuses them: MS130, "
        "MS221), while PyNative runs it and changes what the Cell does from that call on."
    ),
    remedy=(
        "Set the mode or dtype outside compiled code (`net.set_train(False)` before calling "
        "`net`), or in `__init__` (`self.fc.to_float(ms.float16)`)."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

TO_FLOAT_STRICT = Rule(
    "MS221",
    "to-float-in-graph-strict",
    Group.STRICT,
    title="`Cell.to_float()` called in compiled code under STRICT",
    message=(
        "`{call}` in compiled code writes `{cell}`'s attributes that are not Parameters "
        "(`_cell_init_args`), which STRICT refuses; call it in `__init__` instead."
    ),
    why=(
        "`to_float` records the new dtype in plain attributes of the Cell; under STRICT, "
        "compiled code may modify only Parameter attributes (LAX compiles the call to nothing, "
        "MS335)."
    ),
    remedy="Call `to_float` in `__init__` or on the network before calling it.",
    mindspore_says=(
        "TypeError: In JIT strict mode, if need to modify a member attribute of a class with "
        "self._cell_init_args, the member attribute must be of the Parameter type."
    ),
)

# What reads a Cell's mode: without one of these in the module, the outputs agree.
MODE_READERS = re.compile(r"Dropout|BatchNorm|\.training\b")


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: a `set_train(False)` is judged by the module's other calls."""
    if ctx.level == SyntaxLevel.STRICT:
        return  # refused there: MS130
    calls = [
        call
        for call in ctx.of(ast.Call)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "set_train"
    ]
    # The cheap test first: searching the module's text for every function cost 46 ms a check.
    if not calls or not MODE_READERS.search(ctx.fn.module.source):
        return
    trained: Optional[bool] = None
    for call in calls:
        func = call.func
        assert isinstance(func, ast.Attribute)
        mode = _mode(call)
        if mode is None:
            continue
        if not mode:
            if trained is None:
                trained = _trained_elsewhere(ctx)
            if not trained:
                continue  # a Cell starts evaluating: switching it off changes nothing
        if receivers.kind_of(ctx, func.value) != receivers.CELL:
            continue
        info = receivers.workspace_class(ctx, func.value)
        if info is not None and info.find_method("set_train") is not None:
            continue  # the user's own method of that name
        yield SET_TRAIN_DROPPED.finding(
            call,
            call=ast.unparse(call),
            cell=ast.unparse(func.value),
            what="its mode (Dropout, BatchNorm act as before, `training` unchanged)",
            method="set_train",
        )


@cacheable
def check_to_float(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`self.fc.to_float(ms.float16)` in compiled code: dropped at LAX (MS335), refused by
    STRICT (MS221)."""
    for call in ctx.of(ast.Call):
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "to_float" and call.args):
            continue
        if receivers.kind_of(ctx, func.value) != receivers.CELL:
            continue
        info = receivers.workspace_class(ctx, func.value)
        if info is not None and info.find_method("to_float") is not None:
            continue  # the user's own method of that name
        cell = ast.unparse(func.value)
        yield TO_FLOAT_STRICT.finding(call, call=ast.unparse(call), cell=cell)
        dtype = ast.unparse(call.args[0]).rpartition(".")[2]
        if ctx.level != SyntaxLevel.STRICT and dtype in ("float16", "bfloat16"):
            yield SET_TRAIN_DROPPED.finding(
                call,
                call=ast.unparse(call),
                cell=cell,
                what=f"computing in float32 (its outputs stay float32, PyNative's {dtype})",
                method="to_float",
            )


def _mode(call: ast.Call) -> Optional[bool]:
    """The mode `set_train(...)` sets when written out (True by default), else None."""
    args = [*call.args, *(kw.value for kw in call.keywords if kw.arg == "mode")]
    if not args:
        return True
    if len(args) == 1 and isinstance(args[0], ast.Constant) and isinstance(args[0].value, bool):
        return args[0].value
    return None


def _trained_elsewhere(ctx: FunctionContext) -> bool:
    """The module calls `x.set_train()` / `x.set_train(True)` outside this function."""
    tree = ctx.fn.module.tree
    if tree is None:
        return False
    inside = {id(n) for n in ast.walk(ctx.fn.node)}
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "set_train"
        and id(node) not in inside
        and _mode(node) is not False
        for node in ast.walk(tree)
    )
