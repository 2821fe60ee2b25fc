"""MS230-MS232: values STRICT cannot handle without LAX's Python fallback.

Measured with MindSpore 2.10 in a Cell's `construct` (`generated/errors/`; an `@ms.jit`
function is compiled at LAX whatever the context level, so these compile there):

- MS230: `Tensor(data)` is run by the fallback (`Tensor(input_data, dtype, ...)` as a script),
  which under STRICT needs constant inputs: `Tensor(x)`, `Tensor(x, ms.float16)`,
  `Tensor([x.sum(), x.mean()])`, `Tensor([x[0, 0], 1.0])` and nested lists or tuples holding
  one (`Tensor([[x[0, 0]], [x[1, 1]]])`, `ms.tensor(...)` alike) fail; `Tensor(x.shape)`,
  `Tensor(n)` of a shape-derived int and `Tensor([1.0, 2.0])` compile.
  Also a list, tuple or ndarray of constants that a Tensor condition chooses (`y = [1.0, 2.0]`
  / `[0.0, 0.0]` in the two branches of `if x.sum() > 0`, an `if` rebinding it, or a
  conditional expression): the join is a graph value, so `Tensor(y)`, `ms.tensor(y)` and
  `Tensor.from_numpy(y)` fail under STRICT; the same list on both paths, a condition on a
  shape, and numbers (`s = 2.0` / `3.0`, then `Tensor(s)`) compile (round 31).
- MS231: indexing a Tensor with a list the graph cannot fold (`x[[0, i]]` with a Tensor `i`,
  `x[ms.mutable([0, 1])]`) goes through the fallback's `all(isinstance(i, bool) for i in
  list_index)` (`_compile_utils.py`), which STRICT refuses; a tuple (`x[(0, i)]`) and a list
  of constants compile, a constant Tensor among them too (`i = Tensor(1, ms.int32);
  x[[0, i]]` is folded and compiles under STRICT).
- MS232: `list(s)` / `tuple(s)` of a str: STRICT has no `__len__` of a String object. A bytes
  value is compiled as a String object too, so `len(b'ab')` and `len(bytes(3))` fail likewise
  (measured at the `len`, STRICT only).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import assigned_any, builtin
from .helpers import names, receivers, shared_values, strs
from .helpers.abstract import MUTABLE
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import parameters
from .helpers.receivers import only_binding
from .mutable_scalars import mutable_parameters

TENSOR_OF_GRAPH_VALUE = Rule(
    "MS230",
    "tensor-of-graph-value-under-strict",
    Group.STRICT,
    title="`Tensor(...)` of a value computed in the graph, under STRICT",
    message=(
        "`Tensor({arg})` builds a Tensor from {what} computed in the graph, which "
        "jit_syntax_level=STRICT cannot do; {advice}."
    ),
    why=(
        "Inside compiled code `Tensor(data)` runs through the Python fallback, which under "
        "STRICT accepts only constants; a Tensor or a list holding one is a graph value."
    ),
    remedy=(
        "Use the value itself (`x`), `x.astype(dtype)` / `ops.cast`, or `ops.stack` of the "
        "elements; or use the default LAX level."
    ),
    mindspore_says=(
        "ValueError: When handling script 'Tensor(input_data, dtype, shape, init, const_arg, "
        "device) in graph mode', the inputs should be constant, but found variable "
        "'input_data' to be nonconstant."
    ),
)

INDEX_LIST_UNDER_STRICT = Rule(
    "MS231",
    "index-list-under-strict",
    Group.STRICT,
    title="A Tensor indexed by a list holding graph values, under STRICT",
    message=(
        "the index `{index}` is a list the compiler cannot fold ({what}), which "
        "jit_syntax_level=STRICT cannot handle; index with a tuple or a Tensor of indices."
    ),
    why=(
        "A list index is checked with a Python expression the graph runs through its fallback "
        "unless every element is a constant; STRICT has no fallback."
    ),
    remedy="Index with `ops.stack([...])` / a Tensor of indices, or a tuple of constants.",
    mindspore_says=(
        "ValueError: When handling script 'all(isinstance(i, bool) for i in list_index) in "
        "graph mode', the inputs should be constant, but found variable 'list_index' to be "
        "nonconstant."
    ),
)

SEQUENCE_OF_STR_UNDER_STRICT = Rule(
    "MS232",
    "sequence-of-str-under-strict",
    Group.STRICT,
    title="`list(s)` / `tuple(s)` of a str, `len()` of bytes, under STRICT",
    message=(
        "`{name}()` of a {what} needs its length, which jit_syntax_level=STRICT does not "
        "have for a String object; {advice}."
    ),
    why="Under STRICT a String object has no `__len__`, so it cannot be turned into a sequence.",
    remedy="Write the tuple of characters out, or use the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __len__ or the String object "
        "has no attribute: '__len__'."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    for call in ctx.of(ast.Call):
        func = call.func
        qualname = names.callee(module, func)
        if call.args and (
            qualname in names.TENSOR_FACTORIES
            or (qualname in _FROM_NUMPY and _branch_joined(ctx, call.args[0], call))
        ):
            what = _graph_value(ctx, call.args[0])
            if what is None and _branch_joined(ctx, call.args[0], call):
                what = (
                    "a list or array that a Tensor condition chooses",
                    "build both candidates as Tensors and choose with `ops.where` or `ops.select`",
                )
            if what is not None:
                yield TENSOR_OF_GRAPH_VALUE.finding(
                    call, arg=names.short(call.args[0]), what=what[0], advice=what[1]
                )
        elif isinstance(func, ast.Name) and func.id in ("list", "tuple") and len(call.args) == 1:
            # `list(self.name)` of a str attribute too (measured: fails under STRICT)
            values = shared_values.abstract(ctx)
            if strs.is_str(ctx, values, call.args[0]) and builtin(ctx, func.id):
                yield SEQUENCE_OF_STR_UNDER_STRICT.finding(
                    call, name=func.id, what="str", advice="write the characters out (`('a', 'b')`)"
                )
        elif _len_of_bytes(ctx, call):
            yield SEQUENCE_OF_STR_UNDER_STRICT.finding(
                call, name="len", what="bytes value", advice="keep the length as an int"
            )
    for sub in ctx.of(ast.Subscript):
        if not isinstance(sub.ctx, ast.Load) or not ctx.types.is_tensor(sub.value):
            continue
        problem = _unfoldable_list(ctx, sub.slice)
        if problem is not None:
            yield INDEX_LIST_UNDER_STRICT.finding(sub, index=names.short(sub.slice), what=problem)


def check_mutable_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`Tensor(n)` / `Tensor([n, 1])` in a Cell's method of a parameter every call of the Cell
    passes `mutable(k)` for (round 32: `Net()(mutable(3))` with `Tensor(x)`, `Tensor([x, 1])`
    or `ms.tensor(x, ms.float32)` in construct fails under STRICT with the same message;
    `Net()(3)` compiles, and so does an `@ms.jit` function given `mutable(3)`, compiled at
    LAX). It reads the callers, so it is not cacheable."""
    cls = ctx.fn.cls
    module = ctx.fn.module
    if cls is None or not cls.is_cell or not module.mentions("mutable"):
        return
    calls = [
        c
        for c in ctx.of(ast.Call)
        if c.args and names.callee(module, c.func) in names.TENSOR_FACTORIES
    ]
    if not calls:
        return
    params = mutable_parameters(ctx)
    if not params:
        return
    for call in calls:
        data = call.args[0]
        items = data.elts if isinstance(data, (ast.List, ast.Tuple)) else [data]
        if any(isinstance(e, ast.Name) and e.id in params for e in items):
            yield TENSOR_OF_GRAPH_VALUE.finding(
                call,
                arg=names.short(data),
                what="a `mutable()` number",
                advice="pass a Tensor, or a plain number, instead",
            )


_FROM_NUMPY = frozenset({"mindspore.Tensor.from_numpy", "mindspore.common.Tensor.from_numpy"})
_ARRAY_FACTORIES = frozenset(
    {"numpy.array", "numpy.asarray", "numpy.ones", "numpy.zeros", "numpy.full", "numpy.arange"}
)


def _branch_joined(ctx: FunctionContext, data: ast.expr, call: ast.Call) -> bool:
    """`data` names a list, tuple or ndarray of constants that differs on the two paths of a
    Tensor condition before `call`: the join is a graph value (measured under STRICT: `y =
    [0.0] * 3`-style lists or `np.ones(3)` / `np.zeros(3)` chosen by `if x.sum() > 0`, an
    `elif`-less `if` rebinding it, or a conditional expression, then `Tensor(y)`,
    `ms.tensor(y)`, `Tensor.from_numpy(y)` fail; the same list on both paths, and numbers
    (`Tensor(s)` of `s = 2.0` / `3.0`) compile)."""
    if not isinstance(data, ast.Name):
        return False
    name = data.id
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    assigns = [
        a
        for a in ctx.of(ast.Assign)
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name
    ]
    if not assigns or len(stores) != len(assigns) or name in parameters(ctx.fn.node):
        return False
    values: list[ast.expr] = []
    chosen = False
    for assign in assigns:
        value = assign.value
        if isinstance(value, ast.IfExp):
            if ctx.types.is_runtime_test(value.test):
                chosen = True
            values.extend((value.body, value.orelse))
        else:
            values.append(value)
    if not all(_constant_array(ctx, v) for v in values):
        return False
    if len({ast.dump(v) for v in values}) < 2:
        return False
    if chosen:
        return True
    at = (call.lineno, call.col_offset)
    for node in ctx.of(ast.If):
        if not ctx.types.is_runtime_test(node.test):
            continue
        if (node.end_lineno or 0, node.end_col_offset or 0) >= at:
            continue
        inside = {id(n) for stmt in [*node.body, *node.orelse] for n in ast.walk(stmt)}
        if any(id(a) in inside for a in assigns):
            return True
    return False


def _constant_array(ctx: FunctionContext, value: ast.expr) -> bool:
    if isinstance(value, (ast.List, ast.Tuple)):
        return bool(value.elts) and all(
            isinstance(e, ast.Constant) or _constant_array(ctx, e) for e in value.elts
        )
    if isinstance(value, ast.Call) and names.callee(ctx.fn.module, value.func) in _ARRAY_FACTORIES:
        return all(
            isinstance(a, (ast.Constant, ast.Attribute)) or _constant_array(ctx, a)
            for a in value.args
        )
    return False


def _len_of_bytes(ctx: FunctionContext, call: ast.Call) -> bool:
    func = call.func
    if not (isinstance(func, ast.Name) and func.id == "len" and len(call.args) == 1):
        return False
    return _bytes(ctx, call.args[0]) and builtin(ctx, "len")


def _bytes(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """A bytes literal, `bytes(...)`, or a local bound only to one of them."""
    if depth > 8:  # `L = L + [1]` of a `global L`: its only binding reads itself
        return False
    if isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        if bound is None:
            return False
        expr = bound
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, bytes)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):  # `b'ab' + b'c'` (measured)
        return _bytes(ctx, expr.left, depth + 1) or _bytes(ctx, expr.right, depth + 1)
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "bytes"
        and builtin(ctx, "bytes")
    )


def _graph_value(ctx: FunctionContext, data: ast.expr) -> Optional[tuple[str, str]]:
    if certain_tensor(ctx, data):
        return "a Tensor", "use the Tensor itself, or `.astype(dtype)` to change its dtype"
    if _holds_certain_tensor(ctx, data):
        return "a list holding Tensors", "use `ops.stack([...])` of the elements"
    # measured: `Tensor(n)`, `ms.tensor(n, ms.float32)`, `Tensor([n, 1])` with `n = int(t)`
    advice = "keep the value a Tensor (`t.astype(...)`, `t.reshape(...)`) instead of reading it"
    if receivers.runtime_scalar(ctx, data):
        return "a number read from a Tensor", advice
    if isinstance(data, (ast.List, ast.Tuple)) and any(
        receivers.runtime_scalar(ctx, e) for e in data.elts
    ):
        return "a list holding a number read from a Tensor", advice
    return None


def _holds_certain_tensor(ctx: FunctionContext, data: ast.expr) -> bool:
    """A list or tuple holding a graph Tensor, at any depth: `[x[0], 1.0]`, and nested,
    `[[x[0, 0]], [x[1, 1]]]` / `((x[0, 0],),)` (measured: fail under STRICT alike)."""
    if not isinstance(data, (ast.List, ast.Tuple)):
        return False
    return any(certain_tensor(ctx, e) or _holds_certain_tensor(ctx, e) for e in data.elts)


def certain_tensor(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A Tensor the graph computes, as far as the source shows without doubt: a Tensor
    parameter the function neither rebinds nor tests the type of (`if not
    ops.is_tensor(t): t = Tensor([t])` is the usual guard), and a method call, index or
    arithmetic on such a Tensor that gives a Tensor."""
    if isinstance(expr, ast.Name):
        return (
            expr.id in parameters(ctx.fn.node)
            and ctx.types.is_tensor(expr)
            and not assigned_any(ctx.fn.node, expr.id)
            and expr.id not in _type_tested(ctx)
        )
    if not ctx.types.is_tensor(expr):
        return False
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        return certain_tensor(ctx, expr.func.value)
    if isinstance(expr, ast.Subscript):
        return certain_tensor(ctx, expr.value)
    if isinstance(expr, ast.BinOp):
        return certain_tensor(ctx, expr.left) or certain_tensor(ctx, expr.right)
    return False


def _type_tested(ctx: FunctionContext) -> set[str]:
    """Names the function tests the type of: `isinstance(t, ...)`, `is_tensor(t)`, `type(t)`."""
    tested: set[str] = set()
    for call in ctx.of(ast.Call):
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in ("isinstance", "is_tensor", "type") and call.args:
            first = call.args[0]
            if isinstance(first, ast.Name):
                tested.add(first.id)
    return tested


def _folded_tensor(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`Tensor(1, ms.int32)`, or a local bound only to one: built from literals, folded to a
    constant when compiled, so a list holding it is a constant too (measured: `i = Tensor(1,
    ms.int32); x[[0, i]]` compiles under STRICT)."""
    if isinstance(expr, ast.Name):
        bound = only_binding(ctx, expr.id)
        if bound is None:
            return False
        expr = bound
    if ctx.types.is_constant_tensor(expr):
        return True
    # `Tensor(1, ms.int64)`, `Tensor(np.array(1))`: literal data, a dtype (measured: compile)
    if not (
        isinstance(expr, ast.Call)
        and len(expr.args) >= 1
        and names.callee(ctx.fn.module, expr.func) in names.TENSOR_FACTORIES
        and all(isinstance(a, (ast.Attribute, ast.Constant)) for a in expr.args[1:])
        and all(isinstance(k.value, (ast.Attribute, ast.Constant)) for k in expr.keywords)
    ):
        return False
    data = expr.args[0]
    if (
        isinstance(data, ast.Call)
        and names.callee(ctx.fn.module, data.func) in ("numpy.array", "numpy.asarray")
        and len(data.args) == 1
    ):
        data = data.args[0]
    return isinstance(data, ast.Constant) and isinstance(data.value, (int, bool))


def _unfoldable_list(ctx: FunctionContext, index: ast.expr) -> Optional[str]:
    if isinstance(index, ast.List) and any(
        ctx.types.is_tensor(e) and not _folded_tensor(ctx, e) for e in index.elts
    ):
        return "it holds a Tensor"
    if (
        isinstance(index, ast.Call)
        and names.callee(ctx.fn.module, index.func) in MUTABLE
        and index.args
        and isinstance(index.args[0], ast.List)
    ):
        return "a `mutable` list"
    return None
