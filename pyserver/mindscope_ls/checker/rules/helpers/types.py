"""A light inference of which names in a compiled function hold Tensors: the names any binding
gives a Tensor, then, for a name bound more than once, the bindings that reach each read
(`reaching.py`): `x = x.shape` makes the later reads of `x` a tuple's, not a Tensor's."""

from __future__ import annotations

import ast
from typing import Any, Optional

from ...index.module import FunctionNode, ModuleInfo
from . import names
from .classes import ClassInfo
from .reaching import Reaching, reaching
from .walk import of_type

NON_TENSOR_COMPARE = (ast.Is, ast.IsNot, ast.In, ast.NotIn)
SCALAR_BUILTINS = frozenset({"len", "int", "float", "bool", "str", "isinstance", "range", "type"})


_BINOP = "_mindscope_binop_tensor"  # (inference token, answer) on a BinOp node


class TensorTypes:
    """Answers "is this expression a Tensor?" inside one compiled function."""

    def __init__(
        self,
        module: ModuleInfo,
        func: FunctionNode,
        cls: Optional[ClassInfo],
        tensor_params: frozenset[str],
    ):
        self.module = module
        self.cls = cls
        self.names: set[str] = set(tensor_params)
        self._flow: Optional[Reaching] = reaching(func)
        self._optional = _none_defaults(func)
        args = func.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        # the bindings (ids of their Name or arg nodes) that give a Tensor
        self.tensor_defs: set[int] = {
            id(a) for a in every if a is not None and a.arg in tensor_params
        }
        self._token: Optional[object] = None  # no answers kept while names are inferred
        self._sequences: dict[str, list[ast.expr]] = {}
        self._infer(func)
        self._token = object()

    @classmethod
    def known(
        cls,
        module: ModuleInfo,
        owner: Optional[ClassInfo],
        tensor_names: frozenset[str],
        func: Optional[FunctionNode] = None,
        tensor_defs: frozenset[int] = frozenset(),
    ) -> TensorTypes:
        """Types whose Tensor names (and bindings) were inferred before (with the same module
        names, class and parameters): no inference runs again."""
        types = cls.__new__(cls)
        types.module, types.cls, types.names = module, owner, set(tensor_names)
        types._flow = reaching(func) if func is not None else None
        types._optional = _none_defaults(func) if func is not None else frozenset()
        types.tensor_defs = set(tensor_defs)
        types._sequences = {}  # only read while inferring
        types._token = object()
        return types

    def _infer(self, func: FunctionNode) -> None:
        self._sequences = _plain_bindings(func)
        body: list[ast.AST] = of_type(func, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)
        comps: list[ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp] = of_type(
            func, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp
        )
        for comp in comps:
            body.extend(comp.generators)  # comprehension nodes carry no position
        for _ in range(3):  # loops can use a name before its (lexically later) assignment
            before = (len(self.names), len(self.tensor_defs))
            for node in body:
                self._learn(node)
            if (len(self.names), len(self.tensor_defs)) == before:
                break

    def _learn(self, node: ast.AST) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self._bind(target, node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                # `x += v` holds a Tensor when `v` is one, or `x` was one before
                if self.is_tensor(node.value) or (
                    node.target.id in self.names and self._reaches_tensor(node.target)
                ):
                    self._add(node.target)
            else:
                self._bind(node.target, node.value)
        elif isinstance(node, (ast.For, ast.comprehension)):
            iterable = node.iter
            if isinstance(node.target, ast.Name) and self._iterates_tensors(iterable):
                self._add(node.target)

    def _iterates_tensors(self, iterable: ast.expr) -> bool:
        if self.is_tensor(iterable):
            return True
        if isinstance(iterable, (ast.Tuple, ast.List)) and iterable.elts:
            return all(self.is_tensor(e) for e in iterable.elts)
        if isinstance(iterable, ast.Name):
            # `parts = [a, b]` / `outs = [head(x) for head in self.heads]`, then `for p in parts`
            values = self._sequences.get(iterable.id)
            return bool(values) and all(self._tensor_sequence(v) for v in values or ())
        return False

    def _tensor_sequence(self, value: Optional[ast.expr]) -> bool:
        """A list/tuple display of Tensors, or a list comprehension making Tensors (calling each
        Cell of a CellList / SequentialCell attribute counts)."""
        if isinstance(value, (ast.Tuple, ast.List)):
            return bool(value.elts) and all(self.is_tensor(e) for e in value.elts)
        if not isinstance(value, ast.ListComp) or len(value.generators) != 1:
            return False
        if self.is_tensor(value.elt):
            return True
        generator, elt = value.generators[0], value.elt
        if not (
            isinstance(elt, ast.Call)
            and isinstance(elt.func, ast.Name)
            and isinstance(generator.target, ast.Name)
            and elt.func.id == generator.target.id
            and self.cls is not None
        ):
            return False
        attr = names.self_attribute(generator.iter)
        held = self.cls.attr(attr) if attr is not None else None
        return held is not None and held.kind == "cell" and held.class_qualname in CELL_LISTS

    def _binop_is_tensor(self, expr: ast.BinOp) -> bool:
        """Kept on the node, with this inference's token: rules ask about every operator of a
        long `a + b + ... + z`, and each answer walks the chain below it (cubic without it)."""
        token = self._token
        held = expr.__dict__.get(_BINOP)
        if held is not None and token is not None and held[0] is token:
            return bool(held[1])
        found = self.is_tensor(expr.left) or self.is_tensor(expr.right)
        if token is not None:
            expr.__dict__[_BINOP] = (token, found)
        return found

    def _bind(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Name):
            if self.is_tensor(value):
                self._add(target)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for sub_target, sub_value in zip(target.elts, value.elts):
                    self._bind(sub_target, sub_value)
            elif self.is_tensor(value) or self._returns_tensors(value):
                # A Cell may return (Tensor, cache dict / state tuple / None), as nn.LSTM and
                # real models do: only its first output is surely a Tensor.
                elements = target.elts[:1] if self._is_cell_call(value) else target.elts
                for element in elements:
                    if isinstance(element, ast.Name):
                        self._add(element)

    def _add(self, target: ast.Name) -> None:
        """`target` (a Name being stored) binds a Tensor."""
        self.names.add(target.id)
        self.tensor_defs.add(id(target))

    def _reaches_tensor(self, read: ast.Name) -> bool:
        """A read of a name some binding gives a Tensor: unless every binding that reaches this
        read gives a Python value (`x = x.shape`, `n = len(x)`, `y = [y]`, a parameter that
        is not a Tensor, save one defaulting to None: `mask=None` is mostly given a Tensor),
        it may hold that Tensor. A binding of unknown value (a helper's
        result) keeps the answer every binding gives. Always, when the name is not followed
        (bound once, read in a nested scope)."""
        flow = self._flow
        defs = flow.of(read) if flow is not None else None
        if flow is None or defs is None or not defs.isdisjoint(self.tensor_defs):
            return True
        return not all(
            (d in flow.params and d not in self._optional)
            or d in flow.counters
            or python_value(flow.values.get(d))
            for d in defs
        )

    def _is_cell_call(self, value: ast.expr) -> bool:
        if not isinstance(value, ast.Call):
            return False
        func = value.func
        if isinstance(func, ast.Name):
            return func.id in self.names
        attr = names.self_attribute(func)
        held = self.cls.attr(attr) if attr is not None and self.cls is not None else None
        return held is not None and held.kind == "cell"

    def _returns_tensors(self, value: ast.expr) -> bool:
        """Calls that return a tuple of Tensors, e.g. `ops.split(x)` or `self.lstm(x)`."""
        if not isinstance(value, ast.Call):
            return False
        return self._is_tensor_call(value)

    def is_tensor(self, expr: Optional[ast.expr]) -> bool:
        """True when `expr` certainly evaluates to a (non-constant) Tensor."""
        # By exact class (the parser makes no subclasses): asked ~12,000 times per cold check
        # of a 3,000-line file, it was a chain of `isinstance` calls.
        kind = expr.__class__
        node: Any = expr
        if kind is ast.Name:
            return node.id in self.names and self._reaches_tensor(node)
        if kind is ast.Attribute:
            return self._is_tensor_attribute(node)
        if kind is ast.Call:
            return self._is_tensor_call(node)
        if kind is ast.BinOp:
            return self._binop_is_tensor(node)
        if kind is ast.UnaryOp:
            return self.is_tensor(node.operand)
        if kind is ast.Compare:
            if any(isinstance(op, NON_TENSOR_COMPARE) for op in node.ops):
                return False
            return any(self.is_tensor(e) for e in [node.left, *node.comparators])
        if kind is ast.BoolOp:
            return any(self.is_tensor(v) for v in node.values)
        if kind is ast.Subscript:
            return self.is_tensor(node.value)
        if kind is ast.IfExp:
            return self.is_tensor(node.body) or self.is_tensor(node.orelse)
        return False

    def is_condition(self, expr: Optional[ast.expr]) -> bool:
        """True when a branch test is decided at run time: a Tensor, `bool(t)`, `not t`, ..."""
        if expr is None:
            return False
        if (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "bool"
            and len(expr.args) == 1
        ):
            return self.is_condition(expr.args[0])
        if isinstance(expr, ast.UnaryOp):
            return self.is_condition(expr.operand)
        if isinstance(expr, ast.BoolOp):
            return any(self.is_condition(v) for v in expr.values)
        return self.is_tensor(expr)

    def is_runtime_test(self, expr: Optional[ast.expr]) -> bool:
        """`is_condition`, or a test on a Python scalar read from a Tensor (`t.item() > 0`,
        `int(t.sum()) > 0`): measured on 2.10, graph mode keeps that scalar a variable, so
        both paths are compiled and joined as for a Tensor condition (at LAX and STRICT)."""
        if expr is None:
            return False
        if self.is_condition(expr):
            return True
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            return self.is_runtime_test(expr.operand)
        if isinstance(expr, ast.BoolOp):
            return any(self.is_runtime_test(v) for v in expr.values)
        if isinstance(expr, ast.Compare):
            return any(self._tensor_scalar(e) for e in [expr.left, *expr.comparators])
        return self._tensor_scalar(expr)

    def _tensor_scalar(self, expr: ast.expr) -> bool:
        """`t.item()`, `int(t)`, `float(t)`, `bool(t)` of a Tensor not built from literals."""
        if not isinstance(expr, ast.Call) or expr.keywords:
            return False
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "item" and not expr.args:
            source = func.value
        elif (
            isinstance(func, ast.Name)
            and func.id in ("int", "float", "bool")
            and len(expr.args) == 1
            and func.id not in self.module.functions
        ):
            source = expr.args[0]
        else:
            return False
        return self.is_tensor(source) and not self.is_constant_tensor(source)

    def is_constant_tensor(self, expr: ast.expr) -> bool:
        """`Tensor(1)`, `ms.tensor([1, 2])`: a Tensor built from literals, folded when compiled."""
        if not isinstance(expr, ast.Call):
            return False
        if any(not isinstance(kw.value, (ast.Attribute, ast.Constant)) for kw in expr.keywords):
            return False
        if names.callee(self.module, expr.func) not in names.TENSOR_FACTORIES:
            return False
        return all(_is_literal(arg) for arg in expr.args)

    def _is_tensor_attribute(self, expr: ast.Attribute) -> bool:
        if expr.attr in names.NON_TENSOR_ATTRS:
            return False
        if isinstance(expr.value, ast.Name) and expr.value.id == "self" and self.cls is not None:
            attr = self.cls.attr(expr.attr)
            return attr is not None and attr.kind == "tensor"
        return expr.attr in ("T", "mT", "H", "real", "imag") and self.is_tensor(expr.value)

    def _is_tensor_call(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Call):  # ops.ReduceSum()(x)
            qualname = names.callee(self.module, func)
            return names.is_primitive_class(qualname) and not names.returns_non_tensor(qualname)
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if isinstance(receiver, ast.Name) and receiver.id == "self" and self.cls is not None:
                attr = self.cls.attr(func.attr)
                return (
                    attr is not None
                    and attr.kind == "cell"
                    and not names.returns_non_tensor(attr.class_qualname)
                )
            if self.is_tensor(receiver):
                return func.attr not in names.NON_TENSOR_METHODS
        if isinstance(func, ast.Name) and func.id in SCALAR_BUILTINS:
            return False
        qualname = names.callee(self.module, func)
        if qualname is not None and qualname.rsplit(".", 1)[-1] in names.PASS_THROUGH_OPS:
            # `ops.stop_gradient(x.shape)`, `ops.depend(3, x)`: their first argument, unchanged;
            # a value of unknown kind (a sub-Cell's output) is taken for the Tensor it usually is
            return bool(call.args) and (
                self.is_tensor(call.args[0]) or not _evidently_static(call.args[0])
            )
        if qualname in names.TENSOR_FACTORIES or names.is_ops_call(qualname):
            return True
        return isinstance(func, ast.Name) and func.id in self.names  # a Cell held in a local


PYTHON_CALLS = SCALAR_BUILTINS | {"tuple", "list", "dict"}
CELL_LISTS = frozenset({"mindspore.nn.CellList", "mindspore.nn.SequentialCell"})


def _plain_bindings(func: FunctionNode) -> dict[str, list[ast.expr]]:
    """The values of locals bound only by `name = value` (no parameter, loop target, augmented
    assignment or unpacking), each a list or tuple display or a list comprehension."""
    stores: dict[str, int] = {}
    for node in of_type(func, ast.Name):
        if not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
    found: dict[str, list[ast.expr]] = {}
    for assign in of_type(func, ast.Assign):
        target = assign.targets[0]
        if len(assign.targets) == 1 and isinstance(target, ast.Name):
            found.setdefault(target.id, []).append(assign.value)
    params = {a.arg for a in [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]}
    return {
        name: values
        for name, values in found.items()
        if name not in params
        and stores.get(name) == len(values)
        and all(isinstance(v, (ast.List, ast.Tuple, ast.ListComp)) for v in values)
    }


def _none_defaults(func: FunctionNode) -> frozenset[int]:
    """ids of the parameters whose default is None (`attention_mask=None`)."""
    return frozenset(id(a) for a in names.none_default_parameters(func))


def python_value(expr: Optional[ast.expr]) -> bool:
    """`expr` is surely no Tensor: a literal, a display, an f-string, a lambda, `x.shape`
    (and its items), `len(...)`, `int(...)`, arithmetic of those."""
    if expr is None:
        return False
    if isinstance(
        expr,
        (
            ast.Constant,
            ast.Tuple,
            ast.List,
            ast.Dict,
            ast.Set,
            ast.JoinedStr,
            ast.Lambda,
            ast.ListComp,
            ast.DictComp,
            ast.SetComp,
        ),
    ):
        return True
    if isinstance(expr, ast.Attribute):
        return expr.attr in names.NON_TENSOR_ATTRS
    if isinstance(expr, ast.Subscript):
        value = expr.value
        return isinstance(value, ast.Attribute) and value.attr in names.NON_TENSOR_ATTRS
    if isinstance(expr, ast.Call):
        return isinstance(expr.func, ast.Name) and expr.func.id in PYTHON_CALLS
    if isinstance(expr, ast.BinOp):
        return python_value(expr.left) and python_value(expr.right)
    if isinstance(expr, ast.UnaryOp):
        return python_value(expr.operand)
    return False


def _is_literal(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_is_literal(e) for e in expr.elts)
    if isinstance(expr, ast.UnaryOp):
        return _is_literal(expr.operand)
    return False


_STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size"})
_STATIC_CALLS = frozenset({"len", "int", "float", "bool", "tuple", "list", "dict", "str"})


def _evidently_static(expr: ast.expr) -> bool:
    """A value written as a Python one: a constant, a display, `x.shape` (or an item of it),
    `len(...)`."""
    while isinstance(expr, ast.Subscript):
        expr = expr.value
    if isinstance(expr, (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.Set, ast.JoinedStr)):
        return True
    if isinstance(expr, ast.Attribute):
        return expr.attr in _STATIC_ATTRIBUTES
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in _STATIC_CALLS
    )
