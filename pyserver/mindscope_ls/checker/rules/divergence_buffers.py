"""MS321, MS323, MS366: item writes that graph mode does not keep.

MS321: an item write to a Tensor the graph takes from outside (not a Parameter) is lost.

Measured with MindSpore 2.10 on CPU, against PyNative: in `construct`, `self.count[0] += 1` or
`self.mask[0] = 0.0` on a Tensor attribute made with `Tensor(...)` (not a `Parameter`) compiles
at LAX, and the call computes with the written value, but the attribute keeps its old values:
the next call starts again from them (a counter returned 1 and 1 where PyNative returned 1 and
2) and the caller reads the old `net.mask`. STRICT refuses the write (`self.count should be
initialized as a 'Parameter'`). `CACHE[1] = 2.0` on a module-level Tensor in an `@ms.jit`
function is lost the same way, at both levels. A `Parameter` attribute, or a local copy
(`m = self.mask * 1; m[0] = 0.0`), behaves as in PyNative.

MS366: a slice, mask or Ellipsis write into a Parameter attribute is lost.

Measured the same way (MindSpore 2.10, CPU, LAX and STRICT alike, against PyNative), with
`self.p = Parameter(...)` written in `construct` or a method it calls and `net.p` read after the
call: `self.p[0:2] = 0.0`, `self.p[:] = x`, `self.p[::2] = 3.0`, `self.p[:n] = 0.0`,
`self.p[i:i + 1] = ...` in a loop, `self.p[...] = x`, `self.p[None] = x`, `self.p[True] = x`,
`self.p[x > 1.5] = 0.0`, `self.p[1:] += 1.0`, `self.p[self.p > 0] *= 2.0`, and on a 2-D
Parameter `self.p[0:1] = ...`, `self.p[0, :] = 0.0` and `self.p[1, 1:] = 0.0` leave the
Parameter as it was (the call itself computes with the written value; the next call starts
from the old one), while PyNative writes it. Kept in both modes (left alone): an int index
(`self.p[0] = v`, `self.p[-1]`, `self.p[i]` in a loop, `self.p[0] += 1`), a Tensor or list of
ints (`self.p[idx]`, `self.p[[0, 2]]`), and tuples `self.p[0, 1]`, `self.p[:, 0]`,
`self.p[:, 1:]`, `self.p[0:1, 0]`, `self.p[1, ...]`, `self.p[..., 0]`, `self.p[:, [0, 2]]`.
Through a local bound once to the Parameter (`q = self.p; q[0:2] = 0.0`) alike (measured).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext

BUFFER_WRITE_LOST = Rule(
    "MS321",
    "tensor-buffer-write-lost",
    Group.DIVERGES,
    title="An item write to a Tensor attribute or module-level Tensor is lost in graph mode",
    message=(
        "`{write}` writes into {what}, which is not a Parameter: graph mode writes a copy, so "
        "{target} keeps its old values after the call (PyNative changes it); make it a "
        "`Parameter` or work on a local copy."
    ),
    why=(
        "Graph mode takes a Tensor the Cell or the module holds (not a Parameter) as a "
        "constant input: `t[i] = v` inside the graph builds a new Tensor, and the attribute "
        "itself is never written. Measured: a `self.count[0] += 1` counter returned 1 on every "
        "call in GRAPH_MODE (PyNative 1, 2, ...); STRICT refuses the write."
    ),
    remedy=(
        "Hold state in a `Parameter` (`self.count = Parameter(Tensor(...), name='count', "
        "requires_grad=False)`), or copy into a local and return the result."
    ),
    mindspore_says="(compiles at LAX; result differs from PyNative)",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    writes = [
        node
        for node in ctx.of(ast.Assign, ast.AugAssign)
        if any(isinstance(t, ast.Subscript) for t in _targets(node))
    ]
    if not writes:
        return
    for node in writes:
        for target in _targets(node):
            if not isinstance(target, ast.Subscript):
                continue
            found = _held_tensor(ctx, target.value)
            if found is None:
                continue
            what, text, attribute = found
            if attribute and ctx.level == SyntaxLevel.STRICT:
                continue  # STRICT refuses the write: not a divergence
            yield BUFFER_WRITE_LOST.finding(
                node, write=names.short(node), what=what, target=f"`{text}`"
            )
            break


def _targets(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, ast.AugAssign):
        return [node.target]
    return []


def _held_tensor(ctx: FunctionContext, expr: ast.expr) -> Optional[tuple[str, str, bool]]:
    attr = names.self_attribute(expr)
    if attr is not None:
        cls = ctx.fn.cls
        held = cls.attr(attr) if cls is not None and cls.is_cell else None
        if held is None or held.kind != "const_tensor":
            return None
        return f"the Tensor attribute `self.{attr}`", f"self.{attr}", True
    name = expr.id if isinstance(expr, ast.Name) else None
    if name is not None and not _local(ctx, name) and _module_tensor(ctx, name):
        return f"the module-level Tensor `{name}`", name, False
    return None


def _local(ctx: FunctionContext, name: str) -> bool:
    fn = ctx.fn.node
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if name in params:
        return True
    return any(n.id == name and isinstance(n.ctx, ast.Store) for n in ctx.of(ast.Name))


def _module_tensor(ctx: FunctionContext, name: str) -> bool:
    tree = ctx.fn.module.tree
    if tree is None:
        return False
    values = [
        s.value
        for s in tree.body
        if isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    return (
        len(values) == 1
        and isinstance(values[0], ast.Call)
        and names.callee(ctx.fn.module, values[0].func) in names.TENSOR_FACTORIES
    )


CONTAINER_ITEM_WRITE_UNSEEN = Rule(
    "MS323",
    "attribute-item-write-unseen",
    Group.DIVERGES,
    title="An item write to a dict or list attribute of the Cell is not kept across calls",
    message=(
        "`{write}` writes an item of the {kind} `self.{name}` in compiled code: graph mode "
        "reads `self.{name}` as the constant it compiled with, so {effect} (PyNative keeps the "
        "write); keep the value in a Parameter, or return it."
    ),
    why=(
        "At LAX the graph takes a dict or list attribute of the Cell as a compile-time "
        "constant: an item write inside `construct` is either lost or not seen by the next call. "
        "Measured: `self.stats['n'] += 1` returned 1 on every call in GRAPH_MODE (PyNative 1, "
        "2); `self.counts[0] += 1` left `counts[0]` at 0; `self.last['shape'] = 3` left "
        "`self.last` empty; `self.cache['scale'] = 2.0` was kept, but the next call still read "
        "1.0. STRICT refuses the write (MS211)."
    ),
    remedy=(
        "Keep changing numbers in a Parameter updated with `ops.assign`, or compute them in "
        "`construct` and return them to the caller."
    ),
    mindspore_says="(compiles at LAX; result differs from PyNative)",
)


def check_containers(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT or ctx.fn.cls is None or not ctx.fn.cls.is_cell:
        return  # STRICT refuses the write (MS211)
    for node in ctx.of(ast.Assign, ast.AugAssign):
        for target in _targets(node):
            if not isinstance(target, ast.Subscript):
                continue
            name = names.self_attribute(target.value)
            if name is None:
                continue
            kind = receivers.kind_of(ctx, target.value)
            if kind not in (receivers.DICT, receivers.LIST):
                continue
            read_back = isinstance(node, ast.AugAssign) or _reads(ctx, name, node)
            effect = (
                "the next call reads the old value again"
                if read_back
                else "the caller may not see the write"
            )
            yield CONTAINER_ITEM_WRITE_UNSEEN.finding(
                node, write=names.short(node), kind=kind, name=name, effect=effect
            )
            break


def _reads(ctx: FunctionContext, name: str, write: ast.stmt) -> bool:
    """Whether the compiled function reads `self.<name>` outside the write itself."""
    inside = {id(n) for n in ast.walk(write)}
    return any(
        names.self_attribute(n) == name and isinstance(n.ctx, ast.Load) and id(n) not in inside
        for n in ctx.of(ast.Attribute)
    )


PARAMETER_SLICE_WRITE_LOST = Rule(
    "MS366",
    "parameter-slice-write-lost",
    Group.DIVERGES,
    title="A slice, mask or Ellipsis write into a Parameter attribute is lost in graph mode",
    message=(
        "`{write}` writes the Parameter `self.{name}` through {index}: graph mode computes "
        "with the written value but leaves `self.{name}` as it was (PyNative changes it); "
        "build the new value and store it with `ops.assign(self.{name}, ...)`."
    ),
    why=(
        "Graph mode keeps an item write into a Parameter only for some index forms: an int "
        "(`self.p[0] = v`), a Tensor or list of ints, and tuples like `[:, 0]` are written "
        "back, while a slice (`self.p[0:2] = v`, `self.p[:] = x`), a bool mask "
        "(`self.p[x > 0] = 0`), `...`, `None`, or `[i, a:b]` on a 2-D Parameter only change "
        "a copy. Measured: `self.p[0:2] = 0.0` left `net.p` at its old values after the "
        "call in GRAPH_MODE, LAX and STRICT; PyNative wrote it."
    ),
    remedy=(
        "Compute the new value in a local (`v = self.p * 1; v[0:2] = 0.0`, or `ops.where`) "
        "and write it with `ops.assign(self.p, v)`."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)


def check_parameter_slices(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell:
        return
    if any(names.is_jit(ctx.fn.module, d) for d in ctx.fn.node.decorator_list):
        return  # an `@jit` method is compiled in PyNative too: both modes agree
    for node in ctx.of(ast.Assign, ast.AugAssign):
        for target in _targets(node):
            if not isinstance(target, ast.Subscript):
                continue
            name = names.self_attribute(target.value)
            if name is None and isinstance(target.value, ast.Name):
                # `q = self.p` then `q[0:2] = v`: the Parameter itself in PyNative
                bound = receivers.only_binding(ctx, target.value.id)
                name = names.self_attribute(bound) if bound is not None else None
            if name is None:
                continue
            held = cls.attr(name)
            if held is None or held.kind != "tensor" or held.class_qualname not in names.PARAMETER:
                continue
            index = _lost_index(target.slice)
            if index is None or (isinstance(node, ast.AugAssign) and index == "a bool mask"):
                continue  # `p[mask] op= v` fails to run instead (MS1010)
            yield PARAMETER_SLICE_WRITE_LOST.finding(
                node, write=names.short(node), name=name, index=index
            )
            break


def _lost_index(index: ast.expr) -> Optional[str]:
    """How `index` is described when graph mode does not write a Parameter through it."""
    if isinstance(index, ast.Slice):
        return "a slice"
    if isinstance(index, ast.Constant):
        if index.value is Ellipsis:
            return "`...`"
        if index.value is None or isinstance(index.value, bool):
            return f"`{index.value}`"
        return None
    if _is_mask(index):
        return "a bool mask"
    if (
        isinstance(index, ast.Tuple)
        and len(index.elts) == 2
        and names.is_int_literal(index.elts[0])
        and isinstance(index.elts[1], ast.Slice)
    ):
        return "an int and a slice"
    return None


def _is_mask(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Compare):
        return True
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Invert):
        return _is_mask(expr.operand)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.BitAnd, ast.BitOr)):
        return _is_mask(expr.left) and _is_mask(expr.right)
    return False
