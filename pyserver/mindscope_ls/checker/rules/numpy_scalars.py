"""MS1049, MS1050, MS260, MS297, MS1106: NumPy scalars (and arrays as operands) in compiled code.

Measured with MindSpore 2.10 on CPU in a Cell's `construct` (a helper method and a module
function it calls alike), PyNative running every program:

- MS1049: graph mode turns a NumPy scalar it meets into its own number (`Float32`, `Int64`),
  which has none of NumPy's attributes: `np.float32(2).item()`, `np.int64(3).item()`,
  `np.float64(2.0).item()`, `np.sum(np.ones(3)).item()`, `np.sqrt(4.0).item()`,
  `np.mean([1.0, 3.0]).item()`, `np.ones((2, 2))[0, 1].item()`, `TABLE[1].item()` of a module
  ndarray, `EPS.item()` of a module `np.float32`, `self.eps.item()` set in `__init__`,
  `np.float32(2).astype(np.float16)`, `.dtype.itemsize`, `.ndim`, `.tolist()` and
  `np.argmax(a).astype(np.int32)` all fail at LAX ("AttributeError: 'Float' object has no
  attribute 'item'", no line named) and STRICT. Compile: the ndarray's own methods
  (`np.array([2.0]).item()`, `np.ones(3).max()`, `np.array([1.0, 2.0]).tolist()`), and at LAX
  what a Python number also has (`.real`, `.is_integer()`: STRICT-only failures, MS240).
- MS1050: a `np.int32` / `np.uint32` scalar is not converted at all: the graph holds it as an
  `External` Python object, which no graph operation takes. `range(np.int32(2))`,
  `range(0, N)` of a module `N = np.int32(2)`, `range(SIZES[0])` of an int32 ndarray,
  `x.reshape(np.int32(3), 2)`, `x.reshape((n, 2))`, `x.view(...)`, `x.transpose(n, 0)`,
  `x.sum(axis=n)`, `x.mean(n)`, `ops.reshape(x, (n, 2))`, `ops.tile(x, (n, 1))`,
  `ops.zeros((n, 3))`, `ops.ones(n)`, `ops.squeeze(x, n)`, `ops.mul(x, n)` and `self.n` set to
  `np.int32(3)` all fail at both levels ("For 'make_range', the 0th input should be a int
  scalar but got AbstractScalar(Type: External ...", "Failed calling Reshape with
  ... tuple<External, int>"). Compile: `np.int64`, `np.int16`, `np.int8` and `np.uint8`
  scalars there, `int(np.int32(3))`, `np.int32(2) > 1`, `3 * np.int32(2)`; at LAX also
  `x + np.int32(2)` and `(x, y)[np.int32(1)]` (the Python fallback).
- MS260: those two (a Tensor operator with an int32 NumPy scalar, a tuple or list indexed by
  one) fail under STRICT ("the inputs should be constant, but found variable").
- MS297 (round 35): an ndarray as the LEFT operand of a Tensor operator. PyNative runs it (NumPy
  converts the Tensor and returns an ndarray); LAX runs it through the Python fallback;
  STRICT fails ("When handling script '__input_key_0__ * __input_key_1__ in graph mode', the
  inputs should be constant"): `np.array([...], np.float32) + x`, `- x`, `* x`, `/ x`, `** x`,
  `> x`, `== x`, `np.ones(3) * x`, `np.array(2.0, np.float32) * x`, `a / x` of a local
  `a = np.full(...)`, `a += x` after `a = np.zeros(3, np.float32)`, `self.a * x` of an
  ndarray set in `__init__`, `arr + x[0]`. Compile at
  STRICT: `x * Tensor(self.a)`, `Tensor(a) * x`, `np.float32(2.0) * x` and `np.sum([...]) * x`
  (NumPy scalars on the left: graph numbers; PyNative returns an ndarray for them, a divergence
  left unruled), `np.ones(3) * np.ones(3)` wrapped in `Tensor`,
  `x * len(np.ones(3))`. (`x + ndarray`, the ndarray on the right, fails in PyNative.)
- MS1106 (round 35): `ndarray @ x` fails at every level ("Failed calling MatMulExt with
  \"input=External\""), while PyNative runs it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import number_methods_strict
from .calls_shared import builtin
from .helpers import module_values, names
from .helpers.base import FunctionContext
from .helpers.receivers import assigned_once, only_binding

NUMPY_SCALAR_ATTRIBUTE = Rule(
    "MS1049",
    "numpy-scalar-attribute",
    Group.FAILS,
    title="An attribute of a NumPy scalar read in compiled code",
    message=(
        "`{text}` reads `.{attr}` of a NumPy scalar, which graph mode turns into its own "
        "number without NumPy's attributes (fails at every level, PyNative runs it); use the "
        "number itself (`{value}`) or `float(...)` / `int(...)` of it."
    ),
    why=(
        "Graph mode converts a NumPy scalar it reads (`np.float32(2)`, an element of an "
        "ndarray, a NumPy reduction of constants) into a graph number (`Float32`, `Int64`), "
        "which has no `item`, `astype`, `dtype`, `tolist` or `ndim`."
    ),
    remedy=(
        "Use the scalar directly (it already is a number in the graph), or compute the value "
        "outside compiled code and pass it in."
    ),
    mindspore_says="AttributeError: 'Float' object has no attribute 'item'",
)

NUMPY_INT32_SCALAR = Rule(
    "MS1050",
    "numpy-int32-scalar-argument",
    Group.FAILS,
    title=(
        "A `np.int32` / `np.uint32` scalar given to `range()`, an `ops` function or a Tensor method"
    ),
    message=(
        "`{value}` is a NumPy {kind} scalar, which graph mode keeps as an opaque Python object "
        "(`External`) that `{target}` cannot take (fails at every level, PyNative runs it); "
        "convert it with `int(...)` or use a Python int."
    ),
    why=(
        "MindSpore converts Python ints and `np.int64` scalars to graph integers, but not "
        "`np.int32` / `np.uint32` ones: they reach the graph as `External` objects, which "
        "`range`, shapes, axes and operator inputs reject."
    ),
    remedy="Wrap the value in `int(...)`, or build it as a Python int / `np.int64`.",
    mindspore_says=(
        "TypeError: For 'make_range', the 0th input should be a int scalar but got "
        "AbstractScalar(Type: External, Value: PythonObject(type: <class 'numpy.int32'>, "
        "value: 2), Shape: NoShape)"
    ),
)

NUMPY_INT32_UNDER_STRICT = Rule(
    "MS260",
    "numpy-int32-scalar-under-strict",
    Group.STRICT,
    title="A `np.int32` scalar in Tensor arithmetic or as a sequence index, under STRICT",
    message=(
        "`{value}` is a NumPy {kind} scalar, which graph mode keeps as a Python object: `{text}` "
        "then runs through the Python fallback, which jit_syntax_level=STRICT does not have; "
        "convert it with `int(...)`."
    ),
    why=(
        "A `np.int32` / `np.uint32` scalar reaches the graph as an `External` object; LAX "
        "evaluates the operator or the index in Python, STRICT cannot."
    ),
    remedy="Wrap the value in `int(...)`, or use the default LAX level.",
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ + __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_1__' to be nonconstant."
    ),
)

NUMPY_ARRAY_LEFT_OPERAND = Rule(
    "MS297",
    "numpy-array-left-operand-under-strict",
    Group.STRICT,
    title="A NumPy array on the left of a Tensor operator, under STRICT",
    message=(
        "`{value}` is a NumPy array: `{text}` with a Tensor on the right runs through the "
        "Python fallback, which jit_syntax_level=STRICT does not have; wrap the array in "
        "`Tensor(...)` or put the Tensor on the left."
    ),
    why=(
        "Graph mode keeps an ndarray as a Python object; an operator whose left operand is one "
        "is evaluated by the JIT Fallback at LAX (PyNative lets NumPy defer to the Tensor), "
        "and STRICT has no fallback."
    ),
    remedy="Write `Tensor(arr) * x` (or `x * Tensor(arr)`), or create the Tensor in `__init__`.",
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ * __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_1__' to be nonconstant."
    ),
)

NUMPY_ARRAY_MATMUL = Rule(
    "MS1106",
    "numpy-array-matmul-tensor",
    Group.FAILS,
    title="A NumPy array `@` a Tensor in compiled code",
    message=(
        "`{text}` multiplies the NumPy array `{value}` by a Tensor with `@`: graph mode passes "
        "the array to MatMul as a Python object, which it refuses (fails at every level, "
        "PyNative runs it); wrap the array in `Tensor(...)`."
    ),
    why=(
        "An ndarray reaches the graph as an `External` object; `@` maps to MatMul, whose "
        "inputs must be Tensors, and no fallback rescues it."
    ),
    remedy="Write `Tensor(arr) @ x`, or create the Tensor in `__init__`.",
    mindspore_says=(
        'TypeError: Failed calling MatMulExt with "input=External". The valid calling should '
        'be: "input=<Tensor>, other=<Tensor>".'
    ),
)

_FLOAT_TYPES = frozenset(
    {"float16", "float32", "float64", "half", "single", "double", "float_", "longdouble"}
)
_INT32_TYPES = frozenset({"int32", "uint32", "intc", "uintc"})
_INT_TYPES = frozenset({"int8", "int16", "int64", "uint8", "uint16", "uint64", "int_", "intp"})
# reductions of constants (not Tensors), without an axis, give a scalar
_REDUCTIONS = frozenset(
    {
        "sum",
        "mean",
        "max",
        "min",
        "amax",
        "amin",
        "prod",
        "std",
        "var",
        "median",
        "argmax",
        "argmin",
        "average",
        "ptp",
        "nansum",
        "nanmean",
    }
)
# elementwise functions: a scalar of a Python number literal
_UNARY = frozenset(
    {"sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "abs", "floor", "ceil"}
)
# NumPy-only attributes (a Python number has none of them); `.real`, `.is_integer()` compile at
# LAX (measured) and are left to MS240 under STRICT
_NUMPY_ATTRS = frozenset({"item", "tolist", "astype", "dtype", "ndim"})
# shape-like arrays: an element is a scalar of the array's dtype
_ARRAY_FACTORIES = frozenset({"array", "asarray", "ones", "zeros", "full", "arange", "empty"})


def _numpy_name(ctx: FunctionContext, func: ast.expr) -> Optional[str]:
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return None
    qualname = ctx.fn.module.qualname(func)
    if qualname is None or not qualname.startswith("numpy."):
        return None
    rest = qualname[len("numpy.") :]
    return rest if "." not in rest else None


def _literal_data(expr: ast.expr) -> bool:
    """Numbers, or (nested) lists and tuples of them."""
    if isinstance(expr, (ast.List, ast.Tuple)):
        return bool(expr.elts) and all(_literal_data(e) for e in expr.elts)
    return names.is_number_literal(expr)


class _Scalars:
    """Which expressions of one compiled function are NumPy scalars, and of what kind."""

    def __init__(self, ctx: FunctionContext):
        self.ctx = ctx
        self.module = ctx.fn.module
        self._bound: dict[str, Optional[ast.expr]] = {}
        self._own: Optional[set[str]] = None

    def kind(self, expr: ast.expr, depth: int = 0) -> Optional[str]:
        """'float', 'int' or 'int32' for a NumPy scalar, else None."""
        if depth > 4:
            return None
        if isinstance(expr, ast.Call):
            return self._call(expr, depth)
        if isinstance(expr, ast.Subscript):
            return self._element(expr, depth)
        if isinstance(expr, ast.Name):
            bound = self._binding(expr.id)
            return self.kind(bound, depth + 1) if bound is not None else None
        attr = names.self_attribute(expr)
        if attr is not None:
            bound = self._init_value(attr)
            return self.kind(bound, depth + 1) if bound is not None else None
        return None

    def _binding(self, name: str) -> Optional[ast.expr]:
        if name not in self._bound:
            self._bound[name] = self._find_binding(name)
        return self._bound[name]

    def _find_binding(self, name: str) -> Optional[ast.expr]:
        if self._own is None:
            self._own = _own_names(self.ctx)
        if name in self._own:
            return only_binding(self.ctx, name)
        assign = module_values.global_binding(self.module, name)
        if assign is None or len(assign.targets) != 1:
            return None
        return assign.value

    def _init_value(self, attr: str) -> Optional[ast.expr]:
        key = "self." + attr
        if key not in self._bound:
            self._bound[key] = self._find_init_value(attr)
        return self._bound[key]

    def _find_init_value(self, attr: str) -> Optional[ast.expr]:
        cls = self.ctx.fn.cls
        if cls is None:
            return None
        found: list[ast.expr] = []
        for info in cls.lineage():
            for method in info.node.body:
                if not isinstance(method, ast.FunctionDef):
                    continue
                for node in ast.walk(method):
                    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                        if any(names.self_attribute(t) == attr for t in targets):
                            if method.name != "__init__" or not isinstance(node, ast.Assign):
                                return None
                            found.append(node.value)
        return found[0] if len(found) == 1 else None

    def _call(self, call: ast.Call, depth: int) -> Optional[str]:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "astype" and call.args:
            # `arr.astype(np.int32)` keeps an ndarray an ndarray: not a scalar
            return None
        name = _numpy_name(self.ctx, func)
        if name is None or (call.keywords and name not in _REDUCTIONS):
            return None
        if name in _FLOAT_TYPES:
            return "float" if len(call.args) == 1 and self._number_arg(call.args[0]) else None
        if name in _INT32_TYPES:
            return "int32" if len(call.args) == 1 and self._number_arg(call.args[0]) else None
        if name in _INT_TYPES:
            return "int" if len(call.args) == 1 and self._number_arg(call.args[0]) else None
        if name in _REDUCTIONS:
            if len(call.args) != 1 or call.keywords:
                return None
            if not self._constant_array(call.args[0], depth):
                return None
            return "int" if name in ("argmax", "argmin") else "float"
        if name in _UNARY and len(call.args) == 1 and names.is_number_literal(call.args[0]):
            return "float"
        return None

    def _number_arg(self, expr: ast.expr) -> bool:
        """A Python number that is not read from a Tensor: a literal, a shape item."""
        if names.is_number_literal(expr):
            return True
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute):
            return expr.value.attr == "shape"
        return False

    def _constant_array(self, expr: ast.expr, depth: int) -> bool:
        """An ndarray (or list) built from literals: what a NumPy reduction folds to a scalar."""
        if _literal_data(expr):
            return True
        array = self._array(expr, depth)
        return array is not None

    def _array(self, expr: ast.expr, depth: int) -> Optional[tuple[int, str]]:
        """(rank, 'float'/'int'/'int32') of an ndarray built from literals in the source."""
        if depth > 4:
            return None
        if isinstance(expr, ast.Name):
            bound = self._binding(expr.id)
            return self._array(bound, depth + 1) if bound is not None else None
        attr = names.self_attribute(expr)
        if attr is not None:
            bound = self._init_value(attr)
            return self._array(bound, depth + 1) if bound is not None else None
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "astype" and len(expr.args) == 1:
            inner = self._array(func.value, depth + 1)
            dtype = self._dtype(expr.args[0])
            if inner is None or dtype is None:
                return None
            return inner[0], dtype
        name = _numpy_name(self.ctx, func)
        if name not in _ARRAY_FACTORIES or not expr.args:
            return None
        dtype_expr = names.keyword(expr, "dtype")
        data = expr.args[0]
        if name in ("array", "asarray"):
            if not _literal_data(data):
                return None
            rank = _rank(data)
            if dtype_expr is None and len(expr.args) > 1:
                dtype_expr = expr.args[1]
            default = "float" if _has_float(data) else "int"
        elif name == "arange":
            if not all(names.is_number_literal(a) for a in expr.args[:3] if a is not dtype_expr):
                return None
            rank = 1
            default = "float" if any(_has_float(a) for a in expr.args[:3]) else "int"
        else:
            if name == "full":
                if len(expr.args) < 2:
                    return None
                if dtype_expr is None and len(expr.args) > 2:
                    dtype_expr = expr.args[2]
            elif dtype_expr is None and len(expr.args) > 1:
                dtype_expr = expr.args[1]
            if names.is_number_literal(data):
                rank = 1
            elif isinstance(data, (ast.Tuple, ast.List)) and all(
                names.is_number_literal(e) for e in data.elts
            ):
                rank = len(data.elts)
            else:
                return None
            default = "float"
        if dtype_expr is None:
            return rank, default
        dtype = self._dtype(dtype_expr)
        return (rank, dtype) if dtype is not None else None

    def _dtype(self, expr: ast.expr) -> Optional[str]:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            name: Optional[str] = expr.value
        else:
            name = _numpy_name(self.ctx, expr)
        if name in _FLOAT_TYPES:
            return "float"
        if name in _INT32_TYPES:
            return "int32"
        if name in _INT_TYPES:
            return "int"
        return None

    def _element(self, sub: ast.Subscript, depth: int) -> Optional[str]:
        array = self._array(sub.value, depth + 1)
        if array is None:
            return None
        index = sub.slice
        items = index.elts if isinstance(index, ast.Tuple) else [index]
        if len(items) != array[0] or not all(names.is_int_literal(i) for i in items):
            return None
        return array[1]


def _rank(data: ast.expr) -> int:
    rank = 0
    while isinstance(data, (ast.List, ast.Tuple)) and data.elts:
        rank += 1
        data = data.elts[0]
    return rank


def _has_float(data: ast.expr) -> bool:
    if isinstance(data, (ast.List, ast.Tuple)):
        return any(_has_float(e) for e in data.elts)
    if isinstance(data, ast.UnaryOp):
        data = data.operand
    return isinstance(data, ast.Constant) and isinstance(data.value, float)


def _own_names(ctx: FunctionContext) -> set[str]:
    """The names the function binds itself (parameters, stores) or declares global."""
    fn = ctx.fn.node
    own: set[str] = set()
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = fn.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        own.update(a.arg for a in every if a is not None)
    stores: list[ast.Name] = ctx.of(ast.Name)
    own.update(n.id for n in stores if not isinstance(n.ctx, ast.Load))
    declared: list[ast.Global | ast.Nonlocal] = ctx.of(ast.Global, ast.Nonlocal)
    for node in declared:
        own.update(node.names)
    return own


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if not names.imports_package(module, frozenset({"numpy"})):
        return
    scalars = _Scalars(ctx)
    yield from _attributes(ctx, scalars)
    if any(module.mentions(word) for word in _INT32_TYPES):
        yield from _int32_arguments(ctx, scalars)
    yield from _array_left_operands(ctx, scalars)


def _array_left_operands(ctx: FunctionContext, scalars: _Scalars) -> Iterator[RawFinding]:
    """MS297 / MS1106: `ndarray OP tensor`, the ndarray on the left."""
    pairs: list[tuple[ast.AST, ast.expr, ast.expr, bool]] = []
    for binop in ctx.of(ast.BinOp):
        pairs.append((binop, binop.left, binop.right, isinstance(binop.op, ast.MatMult)))
    for cmp in ctx.of(ast.Compare):
        if len(cmp.comparators) == 1 and not isinstance(
            cmp.ops[0], (ast.In, ast.NotIn, ast.Is, ast.IsNot)
        ):
            pairs.append((cmp, cmp.left, cmp.comparators[0], False))
    for aug in ctx.of(ast.AugAssign):
        # `a = np.zeros(3); a += x`: the ndarray is the left operand too (measured)
        if isinstance(aug.target, ast.Name):
            bound = _augmented_array(ctx, aug.target.id)
            if bound is not None and bound.lineno < aug.lineno:
                pairs.append((aug, bound, aug.value, isinstance(aug.op, ast.MatMult)))
    for node, left, right, matmul in pairs:
        if not isinstance(left, (ast.Call, ast.Name, ast.Attribute)):
            continue
        if not ctx.types.is_tensor(right) or scalars._array(left, 0) is None:
            continue
        rule = NUMPY_ARRAY_MATMUL if matmul else NUMPY_ARRAY_LEFT_OPERAND
        shown = node.target if isinstance(node, ast.AugAssign) else left
        value = names.short(shown)
        yield rule.finding(node, value=value, text=names.short(node))


def _augmented_array(ctx: FunctionContext, name: str) -> Optional[ast.expr]:
    """The one `name = value` of a name otherwise changed only by augmented assignments."""
    value = assigned_once(ctx, name)
    if value is None:
        return None
    augs: list[ast.AugAssign] = ctx.of(ast.AugAssign)
    own_augs = {id(a.target) for a in augs}
    stores: list[ast.Name] = ctx.of(ast.Name)
    others = [
        n for n in stores if n.id == name and isinstance(n.ctx, ast.Store) and id(n) not in own_augs
    ]
    return value if len(others) == 1 else None


def _attributes(ctx: FunctionContext, scalars: _Scalars) -> Iterator[RawFinding]:
    attrs: list[ast.Attribute] = ctx.of(ast.Attribute)
    for node in attrs:
        if not isinstance(node.ctx, ast.Load):
            continue
        if node.attr in _NUMPY_ATTRS:
            if scalars.kind(node.value) is not None:
                yield NUMPY_SCALAR_ATTRIBUTE.finding(
                    node, text=names.short(node), attr=node.attr, value=names.short(node.value)
                )
        elif node.attr in number_methods_strict.NUMBER_ATTRIBUTES:
            # MS240 (widened): measured `np.float32(2).real`, `np.float64(2.0).is_integer()`
            # fail under STRICT like a Python number's (LAX runs them)
            kind = scalars.kind(node.value)
            if kind is not None and number_methods_strict.number_kind(ctx, node.value) is None:
                yield number_methods_strict.NUMBER_ATTRIBUTE_UNDER_STRICT.finding(
                    node,
                    text=ast.unparse(node),
                    attr=node.attr,
                    kind="int" if kind.startswith("int") else "float",
                    number=ast.unparse(node.value),
                )


def _int32_arguments(ctx: FunctionContext, scalars: _Scalars) -> Iterator[RawFinding]:
    reported: set[int] = set()
    for call in ctx.of(ast.Call):
        target = _taking_target(ctx, call)
        if target is None:
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            items = arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]
            for item in items:
                if id(item) in reported or scalars.kind(item) != "int32":
                    continue
                reported.add(id(item))
                yield NUMPY_INT32_SCALAR.finding(
                    item, value=names.short(item), kind="int32/uint32", target=target
                )
    for binop in ctx.of(ast.BinOp):
        for side, other in ((binop.left, binop.right), (binop.right, binop.left)):
            if id(side) in reported or not ctx.types.is_tensor(other):
                continue
            if scalars.kind(side) == "int32":
                reported.add(id(side))
                yield NUMPY_INT32_UNDER_STRICT.finding(
                    binop, value=names.short(side), kind="int32/uint32", text=names.short(binop)
                )
    for sub in ctx.of(ast.Subscript):
        if not isinstance(sub.value, (ast.Tuple, ast.List)) or id(sub.slice) in reported:
            continue
        if scalars.kind(sub.slice) == "int32":
            reported.add(id(sub.slice))
            yield NUMPY_INT32_UNDER_STRICT.finding(
                sub, value=names.short(sub.slice), kind="int32/uint32", text=names.short(sub)
            )


def _taking_target(ctx: FunctionContext, call: ast.Call) -> Optional[str]:
    """What a call is, when its arguments must be graph numbers: `range`, an `ops`/`mint`
    function, or a method of a Tensor."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "range":
        return "range()" if builtin(ctx, "range") else None
    if isinstance(func, ast.Attribute):
        if ctx.types.is_tensor(func.value):
            return f"Tensor.{func.attr}"
        qualname = ctx.fn.module.qualname(func)
        if qualname is not None and qualname.startswith(("mindspore.ops.", "mindspore.mint.")):
            return qualname.replace("mindspore.", "", 1)
    return None
