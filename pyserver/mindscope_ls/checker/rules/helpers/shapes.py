"""Static shapes of Tensors in one compiled function, only where every shape is known.

A shape comes from a written-out Tensor (`elements.tensor_shape`), from an input every call in
the module passes the same written-out Tensor shape for, and from what shape-preserving code
derives from those: elementwise operators (broadcast), comparisons, casts and unary math,
full reductions (`x.sum()` is `()`), `.T`, `@` and constant indexing. Anything else is unknown
(None), and unknown never reports.
"""

from __future__ import annotations

import ast
from typing import Optional

from ...index.module import FunctionNode, ModuleInfo
from .abstract import _simple_bindings
from .elements import tensor_shape
from .helper_arguments import Lines, held_only, helper_sites, store_count
from .module_values import MAX_DEPTH as MAX_CALL_DEPTH
from .module_values import (
    argument_values,
    call_lines,
    entry_point_of,
    note_read,
    ordered_parameters,
    parameters,
    passed_expression,
)
from .types import TensorTypes
from .walk import of_type

Shape = tuple[int, ...]
MAX_DEPTH = 8
ELEMENTWISE = (
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.FloorDiv,
    ast.Mod,
    ast.Pow,
    ast.BitAnd,
    ast.BitOr,
    ast.BitXor,
)
# Tensor methods that keep their receiver's shape.
SAME_SHAPE = frozenset(
    {
        "astype",
        "to",
        "float",
        "int",
        "half",
        "bool",
        "abs",
        "neg",
        "exp",
        "log",
        "sqrt",
        "sin",
        "cos",
        "tanh",
        "sigmoid",
        "relu",
        "clone",
        "copy",
        "contiguous",
        "square",
        "floor",
        "ceil",
        "round",
    }
)
# Tensor methods that reduce to one element when called without arguments; but `norm`, their
# first argument (or `axis=`) names the axes reduced, which `keepdims` (`mean`: `keep_dims`)
# keeps as 1 (measured: `x.sum(keepdims=True)` of a (2, 3) `x` is (1, 1)).
FULL_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "all", "any", "norm"})
# Whose positional argument may select another overload (`x.max(1)`: values and indices;
# `x.norm(2)`: the order), so only their keyword forms are read.
POSITIONAL_DIM = frozenset({"max", "min", "norm"})


class Shapes:
    """The static shape of Tensor expressions of one compiled function."""

    def __init__(self, types: TensorTypes, fn: FunctionNode, lines: Optional[list[str]] = None):
        self.types = types
        self.fn = fn
        self.lines = lines
        self._single: Optional[dict[str, ast.expr]] = None
        self._inputs: Optional[dict[str, Optional[Shape]]] = None
        self._stores: Optional[set[str]] = None

    def of(self, expr: ast.expr, depth: int = 0) -> Optional[Shape]:
        if depth > MAX_DEPTH:
            return None
        if isinstance(expr, ast.Name):
            return self._name(expr.id, depth)
        if isinstance(expr, ast.BinOp):
            left, right = self._operand(expr.left, depth), self._operand(expr.right, depth)
            if left is None or right is None:
                return None
            if isinstance(expr.op, ast.MatMult):
                return matmul(left, right)
            return broadcast(left, right) if isinstance(expr.op, ELEMENTWISE) else None
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
            if isinstance(expr.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                return None
            left = self._operand(expr.left, depth)
            right = self._operand(expr.comparators[0], depth)
            return broadcast(left, right) if left is not None and right is not None else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd, ast.Invert)):
            return self.of(expr.operand, depth + 1)
        if isinstance(expr, ast.Attribute) and expr.attr == "T":
            inner = self.of(expr.value, depth + 1)
            return tuple(reversed(inner)) if inner is not None else None
        if isinstance(expr, ast.Subscript) and isinstance(expr.ctx, ast.Load):
            inner = self.of(expr.value, depth + 1)
            return indexed(inner, expr.slice) if inner is not None else None
        if isinstance(expr, ast.Call):
            return self._call(expr, depth)
        return None

    def _operand(self, expr: ast.expr, depth: int) -> Optional[Shape]:
        """A Python number counts as a 0-d operand of an elementwise operator."""
        if isinstance(expr, ast.Constant) and type(expr.value) in (int, float, bool):
            return ()
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.Constant):
            return self._operand(expr.operand, depth)
        return self.of(expr, depth + 1)

    def _call(self, call: ast.Call, depth: int) -> Optional[Shape]:
        func = call.func
        if isinstance(func, ast.Attribute) and self.types.is_tensor(func.value):
            if func.attr in SAME_SHAPE:
                return self.of(func.value, depth + 1)
            if func.attr in FULL_REDUCTIONS:
                inner = self.of(func.value, depth + 1)
                if inner is None or (call.args and func.attr in POSITIONAL_DIM):
                    return None
                return reduced(inner, call)
            return None
        return tensor_shape(call)

    def _name(self, name: str, depth: int) -> Optional[Shape]:
        if name in parameters(self.fn):
            return None if name in self._stored() else self._input(name)
        if self._single is None:
            bound = _simple_bindings(self.fn).items()
            self._single = {n: values[0] for n, values in bound if len(values) == 1}
        value = self._single.get(name)
        return self.of(value, depth + 1) if value is not None else None

    def _stored(self) -> set[str]:
        if self._stores is None:
            self._stores = {
                n.id for n in of_type(self.fn, ast.Name) if isinstance(n.ctx, ast.Store)
            }
        return self._stores

    def _input(self, name: str) -> Optional[Shape]:
        """An input's shape: the one every call of the function in the module passes."""
        if self._inputs is None:
            held = self.types.cls
            cls = held.node if held is not None else None
            entry = held is None or held.is_cell  # a plain class's methods are helpers only
            self._inputs = passed_shapes(self.types.module, cls, self.fn, self.lines, 0, entry)
        return self._inputs.get(name)


def passed_shapes(
    module: ModuleInfo,
    cls: Optional[ast.ClassDef],
    fn: FunctionNode,
    lines: Lines,
    depth: int,
    entry_ok: bool = True,
) -> dict[str, Optional[Shape]]:
    """Parameter -> the Tensor shape every call of `fn` passes, where all calls write one out:
    an entry point's calls in the module, or a helper's callers (a method called as
    `self.name(...)`, a nested function), whose own unrebound parameters are followed to their
    callers in turn. MindSpore compiles a helper with the arguments its call passes (measured:
    `construct` returning `self._body(x)` fails where the body written in `construct` does)."""
    if depth > MAX_CALL_DEPTH:
        return {}
    entry = entry_point_of(module, cls, fn) if entry_ok else None
    if entry is not None and cls is not None and held_only(module, cls):
        for line in call_lines(module, entry):  # the whole module: no call of the class
            note_read(lines, line)
        entry = None  # a sub-Cell: what its holder's calls pass
    if entry is not None:
        params = ordered_parameters(fn, skip_self=cls is not None)
        passed = argument_values(module, entry, params) or {}
        for line in call_lines(module, entry):
            note_read(lines, line)
        return {param: _agreed({_written(v) for v in values}) for param, values in passed.items()}
    sites, params, owner = helper_sites(module, cls, fn, lines)
    found: dict[str, set[Optional[Shape]]] = {p: set() for p in params} if sites else {}
    for call, caller in sites:
        for index, param in enumerate(params):
            expr = passed_expression(call, index, param)
            found[param].add(_shape_in(module, owner, caller, expr, lines, depth))
    return {param: _agreed(shapes) for param, shapes in found.items()}


def _shape_in(
    module: ModuleInfo,
    cls: Optional[ast.ClassDef],
    caller: FunctionNode,
    expr: Optional[ast.expr],
    lines: Lines,
    depth: int,
) -> Optional[Shape]:
    """The shape `expr` has in `caller`: a written-out Tensor, or the caller's own parameter
    (not rebound there) with the shape its callers pass."""
    if isinstance(expr, ast.Name) and expr.id in parameters(caller):
        if store_count(caller, expr.id):
            return None
        return passed_shapes(module, cls, caller, lines, depth + 1).get(expr.id)
    return _written(expr)


def _written(expr: Optional[ast.expr]) -> Optional[Shape]:
    return tensor_shape(expr) if expr is not None else None


def _agreed(shapes: set[Optional[Shape]]) -> Optional[Shape]:
    return shapes.pop() if len(shapes) == 1 else None


def size(shape: Shape) -> int:
    total = 1
    for dim in shape:
        total *= dim
    return total


def broadcast(a: Shape, b: Shape) -> Optional[Shape]:
    """NumPy's broadcast of two shapes; None when they do not broadcast."""
    out: list[int] = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y) if 0 not in (x, y) else 0)
    return tuple(reversed(out))


def matmul(a: Shape, b: Shape) -> Optional[Shape]:
    """The shape of `a @ b`, None when it is unknown or they do not fit (see `matmul_misfit`)."""
    if not a or not b or matmul_misfit(a, b) is not None:
        return None
    if len(a) == 1 and len(b) == 1:
        return ()
    if len(a) == 1:
        return (*b[:-2], b[-1])
    if len(b) == 1:
        return a[:-1]
    batch = broadcast(a[:-2], b[:-2])
    return (*batch, a[-2], b[-1]) if batch is not None else None


def matmul_misfit(a: Shape, b: Shape) -> Optional[tuple[int, int]]:
    """The two inner sizes of `a @ b` when they differ (the compile fails), else None."""
    if not a or not b:
        return None
    inner_a = a[-1]
    inner_b = b[0] if len(b) == 1 else b[-2]
    return (inner_a, inner_b) if inner_a != inner_b else None


def _index_items(index: ast.expr) -> list[ast.expr]:
    return list(index.elts) if isinstance(index, ast.Tuple) else [index]


def _int(expr: ast.expr) -> Optional[int]:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _int(expr.operand)
        return -inner if inner is not None else None
    return None


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _is_ellipsis(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is Ellipsis


def index_problem(shape: Shape, index: ast.expr) -> Optional[str]:
    """What is wrong with a constant index of a Tensor of `shape` (ints out of their dimension,
    more indices than dimensions), or None when nothing is, or the index is not constant."""
    items = _index_items(index)
    if not all(_plain(e) for e in items):
        return None
    real = [e for e in items if not _is_none(e) and not _is_ellipsis(e)]
    if len(real) > len(shape):
        return f"the Tensor has {len(shape)} dimensions but is indexed by {len(real)}"
    dims = _dims(items, len(shape), len(real))
    for item, dim in zip(real, dims):
        value = _int(item)
        if value is not None and not -shape[dim] <= value < shape[dim]:
            size_ = shape[dim]
            return f"index {value} is out of range for dimension {dim} of size {size_}"
    return None


def _plain(expr: ast.expr) -> bool:
    """An index item whose meaning the source fixes: an int, a constant slice, None, `...`."""
    if _int(expr) is not None or _is_none(expr) or _is_ellipsis(expr):
        return True
    if isinstance(expr, ast.Slice):
        parts = (expr.lower, expr.upper, expr.step)
        return all(p is None or _int(p) is not None for p in parts)
    return False


def _dims(items: list[ast.expr], rank: int, used: int) -> list[int]:
    """The dimension each non-None, non-`...` index item applies to."""
    dims: list[int] = []
    dim = 0
    for item in items:
        if _is_none(item):
            continue
        if _is_ellipsis(item):
            dim += rank - used
            continue
        dims.append(dim)
        dim += 1
    return dims


def indexed(shape: Shape, index: ast.expr) -> Optional[Shape]:
    """The shape of `t[index]` for a constant index that fits, else None."""
    items = _index_items(index)
    if not all(_plain(e) for e in items) or index_problem(shape, index) is not None:
        return None
    real = [e for e in items if not _is_none(e) and not _is_ellipsis(e)]
    out: list[int] = []
    dim = 0
    for item in items:
        if _is_none(item):
            out.append(1)
        elif _is_ellipsis(item):
            skip = len(shape) - len(real)
            out.extend(shape[dim : dim + skip])
            dim += skip
        elif isinstance(item, ast.Slice):
            bounds = [None if p is None else _int(p) for p in (item.lower, item.upper, item.step)]
            if bounds[2] == 0:
                return None
            out.append(len(range(*slice(*bounds).indices(shape[dim]))))
            dim += 1
        else:
            dim += 1
    out.extend(shape[dim:])
    return tuple(out)


def reduced(shape: Shape, call: ast.Call) -> Optional[Shape]:
    """The shape of `t.sum()`, `t.sum(axis=1)`, `t.mean(0, keep_dims=True)`,
    `t.max(axis=(0, 1), keepdims=True)` for `t` of `shape`: the axes reduced are dropped, or
    kept as 1 with `keepdims`/`keep_dims`. None for any other argument (the PyTorch-style
    `dim=` too: `t.max(dim=1)` gives values and indices)."""
    axis: Optional[ast.expr] = call.args[0] if call.args else None
    keep = False
    if len(call.args) > 1:
        return None
    for kw in call.keywords:
        if kw.arg == "axis" and axis is None:
            axis = kw.value
        elif kw.arg in ("keepdims", "keep_dims") and isinstance(kw.value, ast.Constant):
            keep = kw.value.value is True
        else:
            return None
    if axis is None or (isinstance(axis, ast.Constant) and axis.value is None):
        axes = set(range(len(shape)))
    else:
        items = axis.elts if isinstance(axis, ast.Tuple) else [axis]
        axes = set()
        for item in items:
            number = _int(item)
            if number is None or not -len(shape) <= number < len(shape):
                return None
            axes.add(number % len(shape))
    if keep:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


# Methods (and `ops` functions taking the Tensor first) whose result's shape follows from the
# receiver's and constant arguments: `rearranged` reads them.
REARRANGING = frozenset(
    {"reshape", "view", "expand_dims", "unsqueeze", "squeeze", "flatten", "ravel"}
)


def rearranged(shape: Shape, attr: str, args: list[ast.expr]) -> Optional[Shape]:
    """The shape of `t.<attr>(*args)` for `t` of `shape` (`reshape((1, -1))`, `reshape(1, 3)`,
    `expand_dims(0)`, `unsqueeze(-1)`, `squeeze()`, `squeeze(0)`, `flatten()`), None for any
    argument the source does not fix."""
    if attr in ("reshape", "view"):
        items = (
            args[0].elts if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)) else args
        )
        dims = [_int(item) for item in items]
        if not dims or any(d is None for d in dims) or dims.count(-1) > 1:
            return None
        known = [d for d in dims if d is not None and d != -1]
        if any(d < 0 for d in known):
            return None
        total, rest = size(shape), size(tuple(known))
        if -1 in dims:
            if rest == 0 or total % rest:
                return None
            return tuple(total // rest if d == -1 else d for d in dims if d is not None)
        return tuple(d for d in dims if d is not None) if rest == total else None
    if attr in ("expand_dims", "unsqueeze"):
        axis = _int(args[0]) if len(args) == 1 else None
        if axis is None or not -len(shape) - 1 <= axis <= len(shape):
            return None
        axis %= len(shape) + 1
        return (*shape[:axis], 1, *shape[axis:])
    if attr == "squeeze":
        if not args:
            return tuple(d for d in shape if d != 1)
        axis = _int(args[0]) if len(args) == 1 else None
        if axis is None or not -len(shape) <= axis < len(shape) or shape[axis] != 1:
            return None
        axis %= len(shape)
        return (*shape[:axis], *shape[axis + 1 :])
    if attr in ("flatten", "ravel") and not args:
        return (size(shape),)
    return None
