"""MS152, MS154, MS163, MS220 (and MS117 for dict reads): subscripts graph mode cannot compile.

Graph mode resolves a constant index into a tuple, list, str or dict written out while
compiling: one outside the sequence, one that is not an int, or a missing key fails at every
level. None and numbers cannot be indexed. Under STRICT a Tensor may index a sequence only when
everything is a constant (a tuple only when it holds functions). Measured with MindSpore 2.10
on CPU (`generated/subscripts`). Containers whose content the source does not show, or that the
function may change (a list or dict used other than by reading items), are never reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding
from ..rule import Rule
from . import objects, unpacking
from .helpers import instances, names, receivers, shared_values, strs
from .helpers.abstract import MUTABLE, Abstract, Value
from .helpers.base import FunctionContext, cacheable
from .helpers.shapes import Shape, index_problem
from .operators_operands import object_class

CONSTANT_INDEX = Rule(
    "MS152",
    "constant-index-invalid",
    Group.FAILS,
    title="Constant index out of range, not an int, or a missing key",
    message="`{text}`: {problem}; the graph cannot be built.",
    why=(
        "Graph mode resolves a constant index into a tuple, list or str, and a constant key "
        "of a dict, while compiling: an index outside the sequence, one that is not an int, "
        "or a key the dict lacks fails at every syntax level (where Python would fail only "
        "when the line runs)."
    ),
    remedy=(
        "Index within the sequence's length with an int (`v[-1]` for the last element), or "
        "use `d.get(key, default)`."
    ),
    mindspore_says="IndexError: TupleGetItem evaluator index should be in range[-3, 3), but got 5.",
)

NOT_SUBSCRIPTABLE = Rule(
    "MS154",
    "not-subscriptable",
    Group.FAILS,
    title="Indexing None, a number or an object without `__getitem__`",
    message="`{text}`: {kind} cannot be indexed; index the sequence or Tensor itself.",
    why=(
        "Graph mode evaluates indexing of Python values with Python's semantics: None, "
        "numbers and objects whose class defines no `__getitem__` have no items, at every "
        "syntax level."
    ),
    remedy="Index the tuple, list, dict or Tensor the value was meant to be.",
    mindspore_says="TypeError: 'NoneType' object is not subscriptable",
)

TENSOR_INDEX_UNDER_STRICT = Rule(
    "MS220",
    "tensor-index-on-sequence-under-strict",
    Group.STRICT,
    title="A Tensor indexing a tuple, list or str, under STRICT",
    message=(
        "Indexing a {kind} with a Tensor {why} under jit_syntax_level=STRICT; index with a "
        "Python int or `ms.mutable(int)`, or stack the elements into a Tensor."
    ),
    why=(
        "Under STRICT, a Tensor index into a tuple is compiled only when the tuple holds "
        "functions (a switch between them); a list or str is indexed by the Python fallback, "
        "which STRICT runs only on constants."
    ),
    remedy=(
        "Index with a Python int or `ms.mutable(int)`, or `ops.stack` the elements into a "
        "Tensor and index that."
    ),
    mindspore_says=(
        "TypeError: When JIT_SYNTAX_LEVEL is STRICT, using Tensor index to get value from tuple "
        "requires that all elements in tuple should be function but got tuple abstract"
    ),
)

STR_ITEM_ASSIGNMENT = Rule(
    "MS163",
    "str-item-assignment",
    Group.FAILS,
    title="Assigning an item of a str",
    message="`{text}`: a str cannot be changed item by item; build a new str instead.",
    why=(
        "Strings are immutable in graph mode as in Python: the compiler evaluates the write "
        "with Python's semantics and rejects it at every syntax level."
    ),
    remedy="Build a new str (`v = 'z' + v[1:]`), or keep the characters in a list.",
    mindspore_says="TypeError: 'str' object does not support item assignment",
)

SEQUENCES = frozenset({"tuple", "list"})
CALLABLE_KINDS = frozenset({"function", "cell"})
Index = Union[int, float, str]


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    nodes: list[ast.Subscript] = ctx.of(ast.Subscript)
    if not nodes:
        return
    values = shared_values.abstract(ctx)
    shapes = _LazyShapes(ctx)
    for node in nodes:
        if isinstance(node.slice, ast.Slice):
            if isinstance(node.ctx, ast.Load):
                yield from _tensor_slice(ctx, values, node, node.slice)
            continue
        if isinstance(node.ctx, ast.Load):
            yield from _read(ctx, values, shapes, node)
        elif isinstance(node.ctx, ast.Store):
            yield from _write(ctx, values, shapes, node)


class _LazyShapes:
    """Static shapes, asked of the function's shared ones only when a Tensor or shape is
    indexed."""

    def __init__(self, ctx: FunctionContext) -> None:
        self.ctx = ctx

    def of(self, expr: ast.expr) -> Optional[Shape]:
        return shared_values.shapes(self.ctx).of(expr)


def _write(
    ctx: FunctionContext, values: Abstract, shapes: _LazyShapes, node: ast.Subscript
) -> Iterator[RawFinding]:
    """`v[i] = ...`: into a str (immutable), or outside a Tensor's or written-out list's size."""
    target = values.of(node.value)
    if target is None:
        return
    text = ast.unparse(node)
    if target.kind == "str":
        yield STR_ITEM_ASSIGNMENT.finding(node, text=text)
    elif target.kind == "tensor":
        shape = shapes.of(node.value)
        problem = index_problem(shape, node.slice) if shape is not None else None
        if problem:
            yield CONSTANT_INDEX.finding(node, text=text, problem=problem)
    elif target.kind == "list" and target.items and _unchanged(ctx, node.value, writes=True):
        problem = _index_problem(ctx, node, target, node.slice)
        if problem:
            yield CONSTANT_INDEX.finding(node, text=text, problem=problem)


def _read(
    ctx: FunctionContext, values: Abstract, shapes: _LazyShapes, node: ast.Subscript
) -> Iterator[RawFinding]:
    target = values.of(node.value)
    if target is None and ctx.types.is_tensor(node.slice):
        target = _self_sequence(ctx, node.value)
    if target is None:
        cls = object_class(ctx, node.value)
        if cls is not None and "__getitem__" not in instances.attributes(cls):
            kind = f"a {cls.name} object (its class defines no `__getitem__`)"
            yield NOT_SUBSCRIPTABLE.finding(node, text=ast.unparse(node), kind=kind)
        return
    index = node.slice
    text = ast.unparse(node)
    if target.kind in ("None", "scalar") and isinstance(node.value, ast.Constant):
        # only a literal: a local bound to None is often indexed under an `is not None` test
        kind = "None" if target.kind == "None" else f"a Python {target.dtype or 'number'}"
        yield NOT_SUBSCRIPTABLE.finding(node, text=text, kind=kind)
        return
    if target.kind == "dict":
        if ctx.types.is_tensor(index):
            if not objects.constant_key(ctx, index):
                yield objects.TENSOR_DICT_KEY.finding(index)
            return
        key = _constant(index)
        missing = isinstance(key, str) and target.keys is not None and key not in target.keys
        if missing and _unchanged(ctx, node.value):
            yield CONSTANT_INDEX.finding(node, text=text, problem=f"the dict has no key {key!r}")
        return
    if target.kind == "tensor":
        # A parameter the types take for a Tensor may be a dict (`output["logits"]`): only one
        # whose dtype or shape the source shows is surely a Tensor.
        shape = shapes.of(node.value)
        if target.dtype is None and shape is None:
            return
        key = _constant(index)
        if isinstance(key, (float, str)) and not isinstance(key, bool):
            kind = "a float" if isinstance(key, float) else "a str"
            problem = f"a Tensor is indexed by ints, slices, None, `...` or Tensors, not by {kind}"
            yield CONSTANT_INDEX.finding(node, text=text, problem=problem)
        elif shape is not None:
            wrong = index_problem(shape, index)
            if wrong:
                yield CONSTANT_INDEX.finding(node, text=text, problem=wrong)
        return
    if target.kind == "tuple" and _is_shape(ctx, node.value) and _constant(index) is not None:
        yield from _shape_index(shapes, node, text)
        return
    if target.kind not in (*SEQUENCES, "str"):
        return
    if ctx.types.is_tensor(index):
        why = _tensor_index_fails(ctx, target, node.value, index)
        if why:
            yield TENSOR_INDEX_UNDER_STRICT.finding(node, kind=target.kind, why=why)
        return
    problem = _index_problem(ctx, node, target, index)
    if problem and (target.kind == "tuple" or _unchanged(ctx, node.value)):
        yield CONSTANT_INDEX.finding(node, text=text, problem=problem)


def _shape_index(shapes: _LazyShapes, node: ast.Subscript, text: str) -> Iterator[RawFinding]:
    """`x.shape[i]` with `i` outside the rank of a Tensor whose shape the source fixes."""
    assert isinstance(node.value, ast.Attribute)
    shape = shapes.of(node.value.value)
    key = _constant(node.slice)
    if shape is None or not isinstance(key, int) or isinstance(key, bool):
        return
    rank = len(shape)
    if not -rank <= key < rank:
        problem = f"the shape has {rank} elements, so the index must be in [{-rank}, {rank})"
        yield CONSTANT_INDEX.finding(node, text=text, problem=problem)


def _index_problem(
    ctx: FunctionContext, node: ast.Subscript, target: Value, index: ast.expr
) -> str:
    """What is wrong with a constant index into a sequence whose length the source shows."""
    if target.kind == "str":
        if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            return ""
        size = len(node.value.value)
        if isinstance(index, ast.Call) and names.callee(ctx.fn.module, index.func) in MUTABLE:
            return "a str is indexed by a constant int, not by `ms.mutable(...)`"
        key = _constant(index)
        if isinstance(key, bool):
            return "a str is indexed by an int, not a bool"
    else:
        if target.items is None:
            return ""
        size = len(target.items)
        key = _constant(index)
    if isinstance(key, float):
        return "an index must be an int"
    if isinstance(key, int) and not isinstance(key, bool) and not -size <= key < size:
        noun = f"{size} element" + ("" if size == 1 else "s")
        return f"the {target.kind} has {noun}, so the index must be in [{-size}, {size})"
    return ""


def _constant(index: ast.expr) -> Optional[Index]:
    if isinstance(index, ast.Constant) and isinstance(index.value, (int, float, str)):
        return index.value
    if (
        isinstance(index, ast.UnaryOp)
        and isinstance(index.op, ast.USub)
        and isinstance(index.operand, ast.Constant)
        and isinstance(index.operand.value, (int, float))
        and not isinstance(index.operand.value, bool)
    ):
        return -index.operand.value
    return None


def _unchanged(
    ctx: FunctionContext, target: ast.expr, writes: bool = False, depth: int = 0
) -> bool:
    """A literal, or a local the function only reads items of (and, with `writes`, sets items
    of: a list keeps its length, where a dict would gain keys): nothing adds or removes any."""
    if not isinstance(target, ast.Name):
        return isinstance(target, (ast.List, ast.Dict, ast.Tuple, ast.Constant))
    loads = [n for n in ctx.of(ast.Name) if n.id == target.id and isinstance(n.ctx, ast.Load)]
    reads = [
        s
        for s in ctx.of(ast.Subscript)
        if isinstance(s.value, ast.Name)
        and s.value.id == target.id
        and (isinstance(s.ctx, ast.Load) or (writes and _item_write(s)))
    ]
    returned = [n for n in _returned(ctx) if n.id == target.id]
    if len(loads) != len(reads) + len(returned):
        return False
    # `merged = base`: the same dict under another name, which may be changed through it
    # (`base.update(extra)`, measured: compiles)
    aliased = [
        a.value
        for a in ctx.of(ast.Assign)
        if isinstance(a.value, ast.Name)
        and a.value.id != target.id
        and any(isinstance(t, ast.Name) and t.id == target.id for t in a.targets)
    ]
    if aliased and depth >= 3:
        return False  # a chain of aliases (or a cycle): not followed further
    return all(_unchanged(ctx, alias, writes, depth + 1) for alias in aliased)


def _returned(ctx: FunctionContext) -> Iterator[ast.Name]:
    """Names returned as they are (`return v`, `return x, v`): a use that changes nothing."""
    for ret in ctx.of(ast.Return):
        value = ret.value
        for item in value.elts if isinstance(value, ast.Tuple) else [value]:
            if isinstance(item, ast.Name):
                yield item


def _item_write(node: ast.Subscript) -> bool:
    """`v[i] = ...` keeps the list's length (a slice write may not)."""
    return isinstance(node.ctx, ast.Store) and not isinstance(node.slice, ast.Slice)


def _is_shape(ctx: FunctionContext, expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Attribute) and expr.attr == "shape" and ctx.types.is_tensor(expr.value)
    )


def _tensor_slice(
    ctx: FunctionContext, values: Abstract, node: ast.Subscript, index: ast.Slice
) -> Iterator[RawFinding]:
    """`seq[t:]`, `seq[:t]`, `seq[::t]` with a Tensor bound. Measured under STRICT: a str, or a
    tuple/list holding a Tensor, fails ("the primitive 'SequenceSlice' does not support the
    following argument types"; a str: "the inputs should be constant"); a tuple or list of
    numbers compiles (folded), and so does a list of 0-d Tensors only (`[a.mean(), b.mean()]`);
    LAX compiles all of them. Items that may be 0-d (a reduction, a Tensor indexed by an int)
    leave the slice alone unless another item is not."""
    bounds = (index.lower, index.upper, index.step)
    if not any(
        b is not None and ctx.types.is_tensor(b) and not _constant_tensor(ctx, b) for b in bounds
    ):
        return
    target = values.of(node.value)
    if target is not None and target.kind not in (*SEQUENCES, "str"):
        return
    holds_tensor = target is not None and (
        target.kind == "str"
        or (
            any(v is not None and v.kind == "tensor" for v in target.items or ())
            and not_all_0d(ctx, values, node.value)
        )
    )
    if holds_tensor:
        assert target is not None
        why = "as a slice bound fails (SequenceSlice takes ints)"
        yield TENSOR_INDEX_UNDER_STRICT.finding(node, kind=target.kind, why=why)
    elif target is None and strs.is_str(ctx, values, node.value):  # `self.tag[t:]`
        why = "as a slice bound fails (a str is sliced on constants only)"
        yield TENSOR_INDEX_UNDER_STRICT.finding(node, kind="str", why=why)


def not_all_0d(ctx: FunctionContext, values: Abstract, seq: ast.expr) -> bool:
    """The written-out tuple/list `seq` (or the one display a local is bound to) holds a Tensor
    item that is not a reduction without axis nor indexed by an int: not all 0-d."""
    if isinstance(seq, ast.Name):
        bound = receivers.only_binding(ctx, seq.id)
        seq = bound if bound is not None else seq
    if not isinstance(seq, (ast.Tuple, ast.List)):
        return False
    return any(
        ctx.types.is_tensor(e)
        and not unpacking.zero_d(values, e)
        and not (isinstance(e, ast.Subscript) and not isinstance(e.slice, ast.Slice))
        for e in seq.elts
    )


def _self_sequence(ctx: FunctionContext, expr: ast.expr) -> Optional[Value]:
    """A `self.<attr>` that `__init__` assigns a written-out tuple or list of number constants
    or of Tensors made there, or a `ParameterTuple`, as a value (measured under STRICT, round
    33: `self.sizes[i]` of `[1, 2, 3]` or `(1, 2, 3)`, `self.ws[i]` of a list of `Tensor(...)`,
    `self.ps[i]` of a ParameterTuple fail with a Tensor `i`; LAX compiles them)."""
    held = receivers.self_attr(ctx, expr)
    cls = ctx.fn.cls
    if held is None or cls is None or cls.attr_varies(names.self_attribute(expr) or ""):
        return None
    node = held.node
    if isinstance(node, ast.Call):
        qualname = names.callee(cls.module, node.func) or ""
        if qualname.rsplit(".", 1)[-1] == "ParameterTuple" and qualname.startswith("mindspore"):
            return Value("tuple", items=(Value("tensor"),))
        return None
    if not isinstance(node, (ast.Tuple, ast.List)) or not node.elts:
        return None
    kind = "tuple" if isinstance(node, ast.Tuple) else "list"
    items: list[Value] = []
    for e in node.elts:
        if isinstance(e, ast.Constant) and type(e.value) in (int, float, bool):
            items.append(Value("scalar", type(e.value).__name__))
        elif (
            isinstance(e, ast.Call)
            and (names.callee(cls.module, e.func) or "") in names.TENSOR_FACTORIES
        ):
            items.append(Value("tensor"))
        elif isinstance(e, ast.Call) and _object_call(ctx, e):
            # round 37 (`jc_`): objects of workspace classes (`[Cfg(1), Cfg(2)]`, plain or
            # `@jit_class`, list or tuple) fail as well with a Tensor index
            items.append(Value("object"))
        else:
            return None
    return Value(kind, items=tuple(items))


def _object_call(ctx: FunctionContext, call: ast.Call) -> bool:
    cls = ctx.fn.cls
    if cls is None or not isinstance(call.func, (ast.Name, ast.Attribute)):
        return False
    info = ctx.classes.resolve(cls.module.qualname(call.func))
    return info is not None and not info.is_cell


def _tensor_index_fails(
    ctx: FunctionContext, target: Value, index_of: ast.expr, index: ast.expr
) -> str:
    """Why STRICT cannot index `target` with the Tensor `index` ("" when it can, or when the
    source does not show enough)."""
    items = target.items
    if target.kind == "tuple":
        if _is_shape(ctx, index_of):
            return "fails: a shape holds ints, not functions"
        if target.op:
            # measured (round 37): `ops.split(...)`, `chunk`, `unbind`, `topk`, `meshgrid` and
            # `x.split(...)` results indexed by a Tensor fail under STRICT; LAX compiles them
            return f"fails: a {target.op}() result holds Tensors, not functions"
        if not items or any(v is None for v in items):
            return ""
        if all(v is not None and v.kind in CALLABLE_KINDS for v in items):
            return ""
        return "fails unless the tuple holds functions"
    # A list or str: the fallback indexes it, on constants only.
    if target.kind == "list" and items is None:
        return ""
    constant_items = target.kind == "str" or all(
        v is not None and v.kind in ("scalar", "str") for v in items or ()
    )
    if constant_items and _constant_tensor(ctx, index):
        return ""
    return "runs in the Python fallback, which needs constants"


def _constant_tensor(ctx: FunctionContext, index: ast.expr) -> bool:
    """`Tensor(1, ms.int32)`: built from a literal (and a dtype), folded when compiled."""
    if ctx.types.is_constant_tensor(index):
        return True
    return (
        isinstance(index, ast.Call)
        and bool(index.args)
        and isinstance(index.args[0], (ast.Constant, ast.Tuple, ast.List))
        and all(isinstance(a, (ast.Attribute, ast.Constant)) for a in index.args[1:])
        and names.callee(ctx.fn.module, index.func) in names.TENSOR_FACTORIES
    )
