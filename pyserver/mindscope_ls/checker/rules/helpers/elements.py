"""What a builtin's argument holds: its elements, whether a Tensor among them has more than one
element, whether a value is computed in the graph (not a compile-time constant).

MindSpore 2.10 takes the truth value of a Tensor only when it has one element (shape `()` or
`(1,)`), so `max`/`min`/`any`/`all`/`sorted`/`filter` over Tensors depend on their size. Shapes
are not in the source, so the answer is "surely several elements" or "don't know": a compiled
function's Tensor inputs and what elementwise code derives from them count as several elements
(batches and feature maps); full reductions (`x.sum()`, `ops.mean(x)`), indexing, Cell calls
(a loss Cell returns a scalar) and anything else count as unknown, and unknown never reports.
Where the module calls the function (`net(x)` after `x = Tensor(...)`), its inputs are what those
calls pass: several only when every call passes a written-out Tensor of several elements.
"""

from __future__ import annotations

import ast
from typing import Optional

from ...index.module import FunctionNode
from . import names
from .abstract import _simple_bindings
from .module_values import (
    argument_values,
    call_lines,
    entry_point,
    note_read,
    ordered_parameters,
    parameters,
)
from .types import TensorTypes
from .walk import of_type

# Tensor factories MindSpore folds into constants when their arguments are known when compiling
# (see `Elements._folded`).
FOLDED_FACTORIES = frozenset(
    {
        "mindspore.ops.ones",
        "mindspore.ops.zeros",
        "mindspore.ops.full",
        "mindspore.ops.fill",
        "mindspore.ops.arange",
        "mindspore.ops.ones_like",
        "mindspore.mint.ones",
    }
)


def _static_argument(expr: ast.expr, like: bool) -> bool:
    """A factory argument known when compiling: a literal, a dotted name (`ms.float32`,
    `self.n`), a `.shape`, or (for `ones_like`) a Tensor read by name."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_static_argument(e, False) for e in expr.elts)
    if isinstance(expr, ast.Attribute):
        return isinstance(expr.value, ast.Name) or _static_argument(expr.value, False)
    return like and isinstance(expr, ast.Name)


def _reads_only_targets(comp: ast.ListComp | ast.GeneratorExp) -> bool:
    targets = {n.id for g in comp.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    reads = [n.id for n in ast.walk(comp.elt) if isinstance(n, ast.Name)]
    return bool(reads) and all(r in targets for r in reads)


# Tensor methods and ops that reduce to one element when called without an axis; with one they
# may too (a 1-D input): both count as unknown.
REDUCTIONS = frozenset(
    {
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "all",
        "any",
        "amax",
        "amin",
        "norm",
        "std",
        "var",
        "median",
        "logsumexp",
        "argmax",
        "argmin",
        "count_nonzero",
        "dot",
        "item",
        "reduce_sum",
        "reduce_mean",
        "reduce_max",
        "reduce_min",
        "reduce_prod",
        "reduce_all",
        "reduce_any",
        "squeeze",
        "flatten",
        "numel",
        "size",
    }
)
# Tensor methods that, called with no argument, reduce every axis: one element.
FULL_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "all", "any"})
SEQUENCES = (ast.Tuple, ast.List)
MAX_DEPTH = 8  # how far a name is followed to its binding


class Elements:
    """Questions about the values one compiled function passes to builtins."""

    def __init__(self, types: TensorTypes, fn: FunctionNode, lines: Optional[list[str]] = None):
        self.types = types
        self.fn = fn
        self.lines = lines  # the file's lines: reading one notes it for the findings cache
        self._params = parameters(fn) - {"self", "cls"}
        self._passed: Optional[dict[str, list[Optional[ast.expr]]]] = None
        self._passed_read = False
        self._single: Optional[dict[str, ast.expr]] = None
        self._targets: Optional[dict[str, ast.expr]] = None

    def items(self, expr: ast.expr, depth: int = 0) -> Optional[list[ast.expr]]:
        """The element expressions of a written-out tuple/list (a comprehension: its element),
        following a local bound once; None when they are not written out."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(expr, SEQUENCES):
            if any(isinstance(e, ast.Starred) for e in expr.elts):
                return None
            return list(expr.elts)
        if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
            return [expr.elt]
        if isinstance(expr, ast.Name):
            bound = self._binding(expr.id)
            return self.items(bound, depth + 1) if bound is not None else None
        return None

    def several(self, expr: ast.expr, depth: int = 0) -> bool:
        """True when `expr` is surely a Tensor of more than one element (see the module doc)."""
        if depth > MAX_DEPTH:
            return False
        if isinstance(expr, ast.Name):
            if expr.id in self._params:
                return self.types.is_tensor(expr) and self._input_several(expr.id)
            bound = self._binding(expr.id)
            if bound is None:
                bound = self._iterated(expr.id)  # a comprehension's target
            return bound is not None and self.several(bound, depth + 1)
        if not self.types.is_tensor(expr) and not isinstance(expr, (ast.Compare, ast.BinOp)):
            return False
        if self.types.is_constant_tensor(expr):
            return False  # folded at compile time: leave it to MindSpore
        if isinstance(expr, ast.BinOp):
            return self.several(expr.left, depth + 1) or self.several(expr.right, depth + 1)
        if isinstance(expr, ast.UnaryOp):
            return self.several(expr.operand, depth + 1)
        if isinstance(expr, ast.Compare):
            return any(self.several(e, depth + 1) for e in [expr.left, *expr.comparators])
        if isinstance(expr, ast.Call):
            return self._several_call(expr, depth)
        return False

    def high_rank(self, expr: ast.expr) -> bool:
        """True when `expr` is an input every call of the function in the module passes as a
        written-out Tensor of two or more axes (`Tensor(np.array([[1.5]]))`): graph mode's
        `int()` / `float()` / `bool()` take shape () or (1,) only, even of one element."""
        if not (isinstance(expr, ast.Name) and expr.id in self._params):
            return False
        if not self.types.is_tensor(expr):
            return False
        passed = self._calls_pass()
        shapes = passed.get(expr.id) if passed is not None else None
        return bool(shapes) and all(
            v is not None and len(tensor_shape(v) or ()) >= 2 for v in shapes or ()
        )

    def scalar(self, expr: ast.expr, depth: int = 0) -> bool:
        """True when `expr` is surely a Tensor of one element: an input every call of the
        function in the module passes as a written-out one-element Tensor, a full reduction
        (`x.sum()`), or elementwise code over those and numbers."""
        if depth > MAX_DEPTH:
            return False
        if isinstance(expr, ast.Name):
            if expr.id in self._params:
                passed = self._calls_pass()
                shapes = passed.get(expr.id) if passed is not None else None
                return bool(shapes) and all(
                    v is not None and tensor_size(v) == 1 for v in shapes or ()
                )
            bound = self._binding(expr.id)
            return bound is not None and self.scalar(bound, depth + 1)
        if isinstance(expr, ast.BinOp):
            sides = [e for e in (expr.left, expr.right) if not isinstance(e, ast.Constant)]
            return bool(sides) and all(self.scalar(e, depth + 1) for e in sides)
        if isinstance(expr, ast.UnaryOp):
            return self.scalar(expr.operand, depth + 1)
        return (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Attribute)
            and expr.func.attr in FULL_REDUCTIONS
            and not expr.args
            and not expr.keywords
            and self.types.is_tensor(expr.func.value)
        )

    def variable(self, expr: ast.expr, depth: int = 0) -> bool:
        """True when `expr` is computed in the graph: a Tensor that is not a literal, or a
        written-out sequence holding one. (STRICT folds `sorted`/`reversed` of a `mutable(...)`
        of ints: measured, so `mutable` alone is not reported.)"""
        if depth > MAX_DEPTH:
            return False
        if isinstance(expr, ast.Name) and expr.id not in self._params:
            bound = self._binding(expr.id)
            if bound is not None and (self.types.is_constant_tensor(bound) or self._folded(bound)):
                return False
        if self.types.is_tensor(expr):
            return not self.types.is_constant_tensor(expr) and not self._folded(expr)
        if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
            if any(self.variable(g.iter, depth + 1) for g in expr.generators):
                return True
            # `t.sum() > 0 for t in (a, b)` of constant `a`, `b`: the element reads only the
            # loop's names, so it is as constant as what they iterate
            return self.variable(expr.elt, depth + 1) and not _reads_only_targets(expr)
        if isinstance(expr, ast.Name) and expr.id not in self._params:
            bound = self._binding(expr.id)
            if bound is None:
                bound = self._iterated(expr.id)
            if isinstance(bound, ast.List) and not bound.elts:
                return self._appended_variable(expr.id, depth)
            return bound is not None and self.variable(bound, depth + 1)
        items = self.items(expr, depth) if isinstance(expr, SEQUENCES) else None
        return items is not None and any(self.variable(e, depth + 1) for e in items)

    def folded_constant(self, expr: ast.expr) -> bool:
        """A Tensor MindSpore knows when compiling: built from literals or by a folded factory
        (`_folded`), written out or held by a local bound once to one."""
        if isinstance(expr, ast.Name) and expr.id not in self._params:
            bound = self._binding(expr.id)
            expr = bound if bound is not None else expr
        return self.types.is_constant_tensor(expr) or self._folded(expr)

    def _folded(self, expr: ast.expr) -> bool:
        """`ops.ones((3,), ms.float32)`, `ops.full(x.shape, 2.0)`, `ops.ones_like(x)`: a Tensor
        factory whose value MindSpore infers when it compiles, so STRICT's folding sees a
        constant (measured on 2.10: `sorted((a, a), key=...)` and `any(... for t in (a, a))`
        of such an `a` compile under STRICT; of `ops.eye(2, 2)`, `ops.ones(...) + 1` or `x`
        they fail)."""
        if not isinstance(expr, ast.Call):
            return False
        qualname = names.callee(self.types.module, expr.func)
        if qualname not in FOLDED_FACTORIES:
            return False
        like = qualname.endswith("_like")
        arguments = [*expr.args, *(k.value for k in expr.keywords)]
        return all(_static_argument(a, like) for a in arguments)

    def _appended_variable(self, name: str, depth: int) -> bool:
        """`feats = []` then `feats.append(x)` of a value computed in the graph (a U-Net's
        saved features): the list holds it."""
        calls: list[ast.Call] = of_type(self.fn, ast.Call)
        return any(
            isinstance(c.func, ast.Attribute)
            and c.func.attr in ("append", "insert")
            and isinstance(c.func.value, ast.Name)
            and c.func.value.id == name
            and c.args
            and self.variable(c.args[-1], depth + 1)
            for c in calls
        )

    def names_variable(self, expr: ast.expr) -> bool:
        """True when a name read in `expr` (`x` in `x.shape`) holds a value computed in the
        graph."""
        nodes = list(ast.walk(expr))
        # a comprehension's own names hold what it iterates, which the walk reads too
        targets = {
            t.id
            for c in nodes
            if isinstance(c, ast.comprehension)
            for t in ast.walk(c.target)
            if isinstance(t, ast.Name)
        }
        return any(
            isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)
            and n.id not in targets
            and self.variable(n)
            for n in nodes
        )

    def rows_several(self, expr: ast.expr, rows: int = 1, depth: int = 0) -> bool:
        """True when `expr` is surely a Tensor whose rows (what iterating it gives: graph mode
        iterates the first axis) have several elements each, e.g. one of shape (2, 3): its
        written-out shape, or every shape the module's calls pass for an input; and at least
        `rows` of them."""
        if depth > MAX_DEPTH or self.types.is_constant_tensor(expr):
            return False
        if isinstance(expr, ast.Name):
            if expr.id in self._params:
                passed = self._calls_pass()
                shapes = passed.get(expr.id) if passed is not None else None
                return bool(shapes) and all(
                    v is not None and _rows_several(tensor_shape(v), rows) for v in shapes or ()
                )
            bound = self._binding(expr.id)
            return bound is not None and self.rows_several(bound, rows, depth + 1)
        return _rows_several(tensor_shape(expr), rows)

    def _several_call(self, call: ast.Call, depth: int) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if isinstance(receiver, ast.Name) and receiver.id == "self":
                return False  # a Cell: a loss returns one element
            if func.attr in REDUCTIONS or not self.types.is_tensor(receiver):
                return False
            return self.several(receiver, depth + 1)
        qualname = names.callee(self.types.module, func)
        if not names.is_ops_call(qualname) or not qualname or not call.args:
            return False
        if qualname.rsplit(".", 1)[-1] in REDUCTIONS:
            return False
        return self.several(call.args[0], depth + 1)

    def _input_several(self, name: str) -> bool:
        """An input: several unless the module's calls of the function say otherwise."""
        passed = self._calls_pass()
        if passed is None or name not in passed:
            return True  # nobody in the file calls it: inputs are batches
        return all(v is not None and (tensor_size(v) or 0) > 1 for v in passed[name])

    def _calls_pass(self) -> Optional[dict[str, list[Optional[ast.expr]]]]:
        if not self._passed_read:
            self._passed_read = True
            module = self.types.module
            entry = entry_point(self.types, self.fn)
            if entry is not None:
                params = ordered_parameters(self.fn, skip_self=self.types.cls is not None)
                self._passed = argument_values(module, entry, params)
                for line in call_lines(module, entry):
                    note_read(self.lines, line)
            else:
                self._passed = self._through_construct()
        return self._passed

    def _through_construct(self) -> Optional[dict[str, list[Optional[ast.expr]]]]:
        """For a helper method `construct` calls once as `self.<name>(a, ...)`: what the
        module's calls of the Cell pass for each of its parameters that `construct` hands on
        by name (round 31: `int(t)` in `steps(self, t)`, given construct's 0-d `t`, compiles).
        None when that is not the shape of the code."""
        cls = self.types.cls
        if cls is None or cls.is_cell is False or self.fn.name == "construct":
            return None
        construct = next(
            (n for n in cls.node.body if isinstance(n, ast.FunctionDef) and n.name == "construct"),
            None,
        )
        if construct is None:
            return None
        sites = [
            c
            for c in of_type(construct, ast.Call)
            if isinstance(c.func, ast.Attribute)
            and c.func.attr == self.fn.name
            and isinstance(c.func.value, ast.Name)
            and c.func.value.id == "self"
        ]
        if len(sites) != 1 or sites[0].keywords:
            return None
        outer_types = TensorTypes.known(self.types.module, cls, frozenset(), construct)
        entry = entry_point(outer_types, construct)
        if entry is None:
            return None
        outer = ordered_parameters(construct, skip_self=True)
        outer_passed = argument_values(self.types.module, entry, outer)
        if outer_passed is None:
            return None
        for line in call_lines(self.types.module, entry):
            note_read(self.lines, line)
        found: dict[str, list[Optional[ast.expr]]] = {}
        own = ordered_parameters(self.fn, skip_self=True)
        for param, arg in zip(own, sites[0].args):
            if isinstance(arg, ast.Name) and arg.id in outer_passed:
                found[param] = outer_passed[arg.id]
        return found

    def _binding(self, name: str) -> Optional[ast.expr]:
        """The value of a local bound exactly once, by `name = value`."""
        if self._single is None:
            bound = _simple_bindings(self.fn).items()
            self._single = {n: values[0] for n, values in bound if len(values) == 1}
        return self._single.get(name)

    def _iterated(self, name: str) -> Optional[ast.expr]:
        """For a comprehension's target name iterating a written-out sequence whose elements
        all agree on being several-element Tensors: one of those elements."""
        if self._targets is None:
            # Judging a target's sequence may ask about a name that is itself a target (or bound
            # several times): that inner question sees no targets yet instead of recursing.
            self._targets = {}
            self._targets = self._comprehension_targets()
        return self._targets.get(name)

    def _comprehension_targets(self) -> dict[str, ast.expr]:
        found: dict[str, ast.expr] = {}
        for comp in of_type(self.fn, ast.comprehension):
            if not isinstance(comp.target, ast.Name):
                continue
            items = self.items(comp.iter)
            if items and all(self.several(e) for e in items):
                found[comp.target.id] = items[0]
        return found


ARRAY_MAKERS = frozenset({"ones", "zeros", "empty", "full", "rand", "randn", "normal", "uniform"})


def tensor_size(expr: ast.expr, depth: int = 0) -> Optional[int]:
    """How many elements a written-out value has: `Tensor(np.ones((2, 3)))` 6, `Tensor(1)` 1,
    `Tensor([1.0, 2.0])` 2, `ops.zeros((4,), ms.float32)` 4; None when it is not written out."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(expr, ast.UnaryOp):
        return tensor_size(expr.operand, depth + 1)
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float, bool)):
        return 1
    if isinstance(expr, SEQUENCES):
        sizes = [tensor_size(e, depth + 1) for e in expr.elts]
        return None if any(n is None for n in sizes) else sum(n or 0 for n in sizes)
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if isinstance(func, ast.Attribute) and last == "astype":
        return tensor_size(func.value, depth + 1)
    if last in ("Tensor", "tensor", "array", "asarray", "Parameter") and expr.args:
        return tensor_size(expr.args[0], depth + 1)
    if last in ARRAY_MAKERS:
        if last in ("rand", "randn") and all(isinstance(a, ast.Constant) for a in expr.args):
            dims = [a.value for a in expr.args]  # type: ignore[attr-defined]
            return _product(dims) if dims else 1
        size = next((k.value for k in expr.keywords if k.arg in ("shape", "size")), None)
        return _shape_size(size if size is not None else (expr.args[0] if expr.args else None))
    return None


def tensor_shape(expr: ast.expr, depth: int = 0) -> Optional[tuple[int, ...]]:
    """The shape of a written-out value: `Tensor(np.ones((2, 3)))` (2, 3), `Tensor(1)` (),
    `Tensor([[1.0, 2.0]])` (1, 2), `ops.zeros((4,), ms.float32)` (4,); None when not shown."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(expr, ast.UnaryOp):
        return tensor_shape(expr.operand, depth + 1)
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float, bool)):
        return ()
    if isinstance(expr, SEQUENCES):
        rows = {tensor_shape(e, depth + 1) for e in expr.elts}
        if len(rows) != 1 or None in rows:
            return None  # ragged, empty or unknown
        (row,) = rows
        assert row is not None
        return (len(expr.elts), *row)
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if isinstance(func, ast.Attribute) and last == "astype":
        return tensor_shape(func.value, depth + 1)
    if last in ("Tensor", "tensor", "array", "asarray", "Parameter") and expr.args:
        return tensor_shape(expr.args[0], depth + 1)
    if last in ARRAY_MAKERS and last not in ("rand", "randn"):
        size = next((k.value for k in expr.keywords if k.arg in ("shape", "size")), None)
        return _shape_of(size if size is not None else (expr.args[0] if expr.args else None))
    return None


def _shape_of(shape: Optional[ast.expr]) -> Optional[tuple[int, ...]]:
    if isinstance(shape, ast.Constant) and isinstance(shape.value, int):
        return (shape.value,)
    if isinstance(shape, SEQUENCES) and all(
        isinstance(e, ast.Constant) and type(e.value) is int for e in shape.elts
    ):
        return tuple(e.value for e in shape.elts)  # type: ignore[attr-defined]
    return None


def _rows_several(shape: Optional[tuple[int, ...]], rows: int) -> bool:
    if shape is None or len(shape) < 2 or shape[0] < rows:
        return False
    return (_product(list(shape[1:])) or 0) > 1


def _shape_size(shape: Optional[ast.expr]) -> Optional[int]:
    if isinstance(shape, ast.Constant) and isinstance(shape.value, int):
        return shape.value
    if isinstance(shape, SEQUENCES) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, int) for e in shape.elts
    ):
        return _product([e.value for e in shape.elts])  # type: ignore[attr-defined]
    return None


def _product(dims: list[object]) -> Optional[int]:
    total = 1
    for d in dims:
        if not isinstance(d, int) or isinstance(d, bool):
            return None
        total *= d
    return total
