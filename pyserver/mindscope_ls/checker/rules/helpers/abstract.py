"""Abstract values close to MindSpore's own: what an expression is, as far as the source shows.

A `Value` is a Tensor (with its dtype when known), a Python scalar (with its type), a str,
None, or a tuple / list / dict (with its element values or keys when written out). `None` as an
answer means unknown: the join rules then say nothing. Dtypes follow MindSpore 2.10 on CPU, as
measured (`docs/checker-accuracy.md`): `argmax` gives int64, `argmin` int32, comparisons bool.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from ...index.module import FunctionNode
from . import cell_returns, names
from .dtype_keeping import KEEPS_DTYPE_METHODS, KEEPS_DTYPE_OPS
from .helper_arguments import held_only, helper_dtypes, helper_signatures, helper_values
from .instances import init_argument_values
from .module_values import (
    argument_dtypes,
    argument_signatures,
    argument_values,
    call_lines,
    entry_point,
    global_binding,
    note_read,
    ordered_parameters,
    parameters,
    passed_expression,
    table,
    tensor_dtype,
)
from .reaching import reaching
from .types import TensorTypes
from .walk import of_type

DTYPES = frozenset(
    {
        "bool_",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    }
)
ALIASES = {"float": "float32", "half": "float16", "double": "float64", "int": "int32"}
DTYPE_MODULES = ("mindspore.", "mindspore.common.dtype.")
# Methods (and `ops.` functions of the same name) whose result has a fixed dtype.
FIXED_DTYPE = {
    "argmax": "int64",
    "argmin": "int32",
    # Measured on 2.10: each of these, joined after a Tensor `if` with a float32 Tensor, fails
    # with "Type Join Failed: dtype1 = Bool/Int32/Int64/Float16" (comparisons and tests give
    # bool; the dtype-named methods cast).
    **dict.fromkeys(
        (
            "equal",
            "not_equal",
            "eq",
            "ne",
            "greater",
            "greater_equal",
            "gt",
            "ge",
            "less",
            "less_equal",
            "lt",
            "le",
            "logical_and",
            "logical_or",
            "logical_not",
            "logical_xor",
            "isnan",
            "isinf",
            "isfinite",
            "isclose",
            "bool",
            "any",
            "all",
        ),
        "bool_",
    ),
    "int": "int32",
    "long": "int64",
    "half": "float16",
    "double": "float64",
}
# Methods that keep a floating receiver's dtype (an integer one may widen, e.g. `sum` to int64).
SAME_FLOAT_DTYPE = frozenset({"sum", "mean", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid"})
# `ops.sqrt(t)` / `t.sqrt()` and `reciprocal` of an int, uint or bool Tensor give float32, of a
# float one its dtype (measured on CPU, PyNative and graph alike; `exp`, `log`, `rsqrt`, `sin`
# of an int32 Tensor fail in both modes).
TO_FLOAT32 = frozenset({"sqrt", "reciprocal"})


def to_float_dtype(base: Optional[str]) -> Optional[str]:
    """The dtype `sqrt`/`reciprocal` gives for a Tensor of dtype `base`."""
    if base is None:
        return None
    return base if base.startswith(("float", "bfloat")) else "float32"


# MindSpore's layers whose output is float32 when built without `dtype=` (their Parameters
# are float32 and a float32 input is the only one they take): the positional arguments before
# `dtype`.
FLOAT32_LAYERS = {"Dense": 6, "Conv1d": 9, "Conv2d": 9, "Conv3d": 9, "Embedding": 4}
# Multi-output ops: a tuple, not a Tensor.
TUPLE_OPS = frozenset({"topk", "sort", "split", "unique", "chunk", "unbind", "meshgrid"})
KEEPS_INT = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


@dataclass(frozen=True)
class Value:
    kind: str  # tensor, scalar, str, None, tuple, list, dict, cell, function
    dtype: Optional[str] = None  # a Tensor's dtype, a scalar's Python type (int/float/bool)
    items: Optional[tuple[Optional[Value], ...]] = None  # tuple/list elements when written out
    keys: Optional[frozenset[str]] = None  # a dict's keys when all are string literals
    op: Optional[str] = None  # the multi-output op a tuple came from (`topk`)

    def describe(self) -> str:
        if self.op:
            return f"{self.op}() result"
        if self.kind == "tensor" and self.dtype:
            return f"{self.dtype.rstrip('_')} Tensor"
        if self.kind == "scalar" and self.dtype:
            return self.dtype
        return self.kind


FLOWING = "<flow>"  # in `_resolving` while a binding's value is read
NONE = Value("None")
CELL = Value("cell")
UNKNOWN_TENSOR = Value("tensor")  # a Tensor of a dtype the source does not fix
FUNCTION = Value("function")
MUTABLE = frozenset({"mindspore.mutable", "mindspore.common.mutable"})


class Abstract:
    """The abstract value of expressions in one compiled function.

    With `lines` (the rule context's lines), what the module says is used too: module-level
    names bound once, and the dtypes an entry point's callers in the module pass it; each line
    read that way is read from `lines`, so cached findings are tied to the whole text. With
    `signature`, the parameters get those dtypes (one of `signatures()`) instead."""

    def __init__(
        self,
        types: TensorTypes,
        fn: FunctionNode,
        lines: Optional[list[str]] = None,
        signature: Optional[dict[str, str]] = None,
    ):
        self.types = types
        self._signature = signature
        self.fn = fn
        self.lines = lines
        self._names: dict[str, Optional[Value]] = {}
        self._resolving: set[str] = set()
        self._flowing: set[int] = set()  # bindings whose value is being read (cycle guard)
        self._assumed: dict[frozenset[int], Value] = {}  # loop-carried values being checked
        self._bindings: Optional[dict[str, list[ast.expr]]] = None
        self._stored: Optional[set[str]] = None
        self._arguments: Optional[dict[str, str]] = None
        self._passed: Optional[dict[str, list[Optional[ast.expr]]]] = None
        self._operators: dict[int, tuple[ast.expr, Optional[Value]]] = {}
        # `self.a(...)` -> the sub-Cell's `construct` it calls (asked for its None and its dtype)
        self._constructs: dict[int, tuple[ast.Call, Optional[ast.FunctionDef]]] = {}

    def of(self, expr: Optional[ast.expr]) -> Optional[Value]:
        if not isinstance(expr, ast.BinOp) or self._resolving:
            return self._of(expr)
        # An operator's value once per node: rules ask about each operator of a long sum,
        # and each answer reads the chain below it. Not while a name is being resolved,
        # whose cycle guard makes answers partial.
        held = self._operators.get(id(expr))
        if held is not None and held[0] is expr:
            return held[1]
        found = self._of(expr)
        self._operators[id(expr)] = (expr, found)
        return found

    def _of(self, expr: Optional[ast.expr]) -> Optional[Value]:
        cls = expr.__class__
        if cls is ast.Name or cls is ast.BinOp:
            # What the tests below come to for these two (most asked): none of them holds.
            return self._named_or_tensor(expr)  # type: ignore[arg-type]
        if expr is None:
            return NONE
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.Constant):
            # -1, +2.0; `not None` / `not 's'` is a bool, not its operand's kind
            expr = ast.Constant(True) if isinstance(expr.op, ast.Not) else expr.operand
        if isinstance(expr, ast.Constant):
            return _constant(expr.value)
        if isinstance(expr, (ast.Tuple, ast.List)):
            kind = "tuple" if isinstance(expr, ast.Tuple) else "list"
            if any(isinstance(e, ast.Starred) for e in expr.elts):
                return Value(kind)
            return Value(kind, items=tuple(self.of(e) for e in expr.elts))
        if isinstance(expr, ast.Dict):
            keys = [k.value for k in expr.keys if isinstance(k, ast.Constant)]
            text = [k for k in keys if isinstance(k, str)]
            return Value("dict", keys=frozenset(text) if len(text) == len(expr.keys) else None)
        if isinstance(expr, ast.DictComp):
            return Value("dict")
        if isinstance(expr, ast.Attribute) and expr.attr == "shape":
            return Value("tuple")
        if (
            isinstance(expr, ast.Subscript)
            and isinstance(expr.value, ast.Attribute)
            and expr.value.attr == "shape"
            and isinstance(expr.slice, ast.Constant)
            and type(expr.slice.value) is int
            and self.types.is_tensor(expr.value.value)
        ):
            # `x.shape[0]`: a Python int when compiled (measured on 2.10: joined with a Tensor
            # after a Tensor `if`, "Type Join Failed")
            return Value("scalar", "int")
        if isinstance(expr, ast.JoinedStr):
            return Value("str")
        if isinstance(expr, ast.Lambda):
            return FUNCTION
        if isinstance(expr, ast.Attribute) and self._self_cell(expr):
            return CELL
        if isinstance(expr, ast.Attribute) and self.lines is not None:
            held = self._self_number(expr)
            if held is not None:
                return held
        if isinstance(expr, ast.Call) and self._mutable(expr):
            return self.of(expr.args[0])
        if isinstance(expr, ast.IfExp):
            # Both paths agree (`None if t else None`): the join is that value; else unknown
            # here (the join rules judge a disagreement).
            body = self.of(expr.body)
            if body is not None and body == self.of(expr.orelse):
                return body
        op = self._tuple_op(expr)
        if op is not None:
            return Value("tuple", op=op)
        if isinstance(expr, ast.Call) and self._returns_none(expr):
            return NONE
        return self._named_or_tensor(expr)

    def _named_or_tensor(self, expr: ast.expr) -> Optional[Value]:
        if isinstance(expr, ast.Name):
            known = self._flowed(expr) or self._name(expr.id)
            if known is not None:
                return known
        if self.types.is_tensor(expr):
            return Value("tensor", self.dtype(expr))
        return None

    def kind(self, expr: Optional[ast.expr]) -> Optional[str]:
        """The kind `expr` has on every path even where its values differ (dicts of other keys
        are both dicts): through conditional expressions and each binding of a local."""
        if isinstance(expr, ast.IfExp):
            body = self.kind(expr.body)
            return body if body == self.kind(expr.orelse) else None
        if isinstance(expr, ast.Name) and expr.id not in self._resolving:
            if self._bindings is None:
                self._bindings = _simple_bindings(self.fn)
            bound = self._bindings.get(expr.id)
            if bound:
                self._resolving.add(expr.id)
                try:
                    kinds = {self.kind(v) for v in bound}
                finally:
                    self._resolving.discard(expr.id)
                return kinds.pop() if len(kinds) == 1 else None
        value = self.of(expr)
        return value.kind if value is not None else None

    def dtype(self, expr: ast.expr) -> Optional[str]:
        """The dtype of a Tensor expression when the source fixes it, else None."""
        if isinstance(expr, ast.Name):
            known = self._name(expr.id)
            return known.dtype if known is not None and known.kind == "tensor" else None
        if isinstance(expr, ast.Compare):
            return "bool_" if self.types.is_tensor(expr) else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            return self.dtype(expr.operand)
        if isinstance(expr, ast.BinOp):
            return self._binop(expr)
        if isinstance(expr, ast.Call):
            return self._call(expr)
        if isinstance(expr, ast.Subscript) and self.types.is_tensor(expr.value):
            return self.dtype(expr.value)  # indexing keeps the dtype
        return None

    def _binop(self, expr: ast.BinOp) -> Optional[str]:
        return binop_dtype(self.of(expr.left), self.of(expr.right), expr.op)

    def _call(self, call: ast.Call) -> Optional[str]:
        func = call.func
        qualname = names.callee(self.types.module, func)
        method = func.attr if isinstance(func, ast.Attribute) else None
        receiver = func.value if isinstance(func, ast.Attribute) else None
        op = qualname.rsplit(".", 1)[-1] if names.is_ops_call(qualname) and qualname else None
        layer = self._layer(func)
        if layer is not None:
            return layer
        sub_cell = self._sub_cell(call)
        if sub_cell is not None:
            return sub_cell
        if method in ("astype", "to") and call.args and receiver is not None:
            return _dtype_name(self.types, call.args[0])
        if op == "cast" and len(call.args) >= 2:
            return _dtype_name(self.types, call.args[1])
        if len(call.args) >= 2 and self._cast_primitive(func):
            return _dtype_name(self.types, call.args[1])
        if op in FIXED_DTYPE or (
            method in FIXED_DTYPE and receiver is not None and self.types.is_tensor(receiver)
        ):
            return FIXED_DTYPE[op or method or ""]
        if qualname in names.TENSOR_FACTORIES or op in ("ones", "zeros", "full"):
            position = 2 if op == "full" else 1
            if len(call.args) > position or any(k.arg == "dtype" for k in call.keywords):
                return _dtype_argument(self.types, call, position)
            # none written: MindSpore's default (`Tensor([1, 2])` int64, `ops.ones(s)` float32,
            # `Tensor(np.zeros(s))` float64; measured joined at a Tensor `if`)
            return tensor_dtype(call)
        if op in KEEPS_DTYPE_OPS and call.args and self.types.is_tensor(call.args[0]):
            return self.dtype(call.args[0])
        if op in TO_FLOAT32 and len(call.args) == 1 and self.types.is_tensor(call.args[0]):
            return to_float_dtype(self.dtype(call.args[0]))
        if method in TO_FLOAT32 and receiver is not None and self.types.is_tensor(receiver):
            return to_float_dtype(self.dtype(receiver)) if not call.args else None
        if receiver is not None and method is not None and self.types.is_tensor(receiver):
            base = self.dtype(receiver)
            if base is not None and (
                method in KEEPS_DTYPE_METHODS
                or (method in SAME_FLOAT_DTYPE and base.startswith(("float", "bfloat")))
            ):
                return base
        return None

    def _cast_primitive(self, func: ast.expr) -> bool:
        """`ops.Cast()(x, dt)` built in place or `self.cast(x, dt)` with `self.cast = ops.Cast()`
        (round 37, measured: joined with another dtype by a Tensor `if`, both fail like
        `ops.cast`)."""
        if isinstance(func, ast.Call):
            qualname = names.callee(self.types.module, func) or ""
            return qualname.startswith("mindspore.ops.") and qualname.endswith(".Cast")
        cls = self.types.cls
        name = names.self_attribute(func)
        if cls is None or name is None or cls.attr_varies(name):
            return False
        attr = cls.attr(name)
        held = (attr.class_qualname if attr is not None else None) or ""
        return held.startswith("mindspore.ops.") and held.endswith(".Cast")

    def _layer(self, func: ast.expr) -> Optional[str]:
        """float32 for `self.fc(x)` where `self.fc` is one of MindSpore's layers with float32
        Parameters (`nn.Dense(4, 3)`, no `dtype=`): its output takes their dtype."""
        cls = self.types.cls
        name = names.self_attribute(func)
        if cls is None or name is None or cls.attr_varies(name):
            return None
        attr = cls.attr(name)
        if attr is None or attr.kind != "cell" or not isinstance(attr.node, ast.Call):
            return None
        qualname = attr.class_qualname or ""
        layer = qualname.rsplit(".", 1)[-1]
        if not qualname.startswith("mindspore.nn.") or layer not in FLOAT32_LAYERS:
            return None
        made = attr.node
        if len(made.args) > FLOAT32_LAYERS[layer] or any(
            k.arg in (None, "dtype") for k in made.keywords
        ):
            return None
        return "float32"

    def _sub_cell(self, call: ast.Call) -> Optional[str]:
        """The dtype `self.a(x)` gives when `self.a` is a Cell of a class this module defines:
        what its own `construct` returns for these arguments (`cell_returns`)."""
        construct = self._sub_construct(call)
        if construct is None:
            return None
        found = cell_returns.returned_dtype(self.types.module, construct, call, self._tensor_dtype)
        return found[0] if found is not None else None

    def _sub_construct(self, call: ast.Call) -> Optional[ast.FunctionDef]:
        """The `construct` of the Cell `self.a` that `self.a(...)` calls, when its class is one
        this module defines. Read only with the module's lines: it and the `__init__` line
        are noted for the findings cache (once: the same lines for every later ask)."""
        held = self._constructs.get(id(call))
        if held is not None and held[0] is call:
            return held[1]
        found = self._find_construct(call)
        self._constructs[id(call)] = (call, found)
        return found

    def _find_construct(self, call: ast.Call) -> Optional[ast.FunctionDef]:
        cls = self.types.cls
        name = names.self_attribute(call.func)
        if self.lines is None or cls is None or name is None or cls.attr_varies(name):
            return None
        attr = cls.attr(name)
        made = attr.node if attr is not None and attr.kind == "cell" else None
        if not isinstance(made, ast.Call) or not isinstance(made.func, ast.Name):
            return None
        sub = self.types.module.classes.get(made.func.id)
        body = sub.body if sub is not None else []
        construct = next(
            (s for s in body if isinstance(s, ast.FunctionDef) and s.name == "construct"), None
        )
        if construct is not None:
            self._read(construct)
            self._read_line(made.lineno)
        return construct

    def _returns_none(self, call: ast.Call) -> bool:
        """`self.a(x)` of a sub-Cell whose `construct` gives None on every path (measured on
        2.10: joined with a Tensor by a Tensor `if`, it fails under STRICT as `None` does)."""
        construct = self._sub_construct(call)
        return construct is not None and cell_returns.returns_none(construct)

    def _tensor_dtype(self, expr: ast.expr) -> Optional[str]:
        return self.dtype(expr) if self.types.is_tensor(expr) else None

    def _tuple_op(self, expr: ast.expr) -> Optional[str]:
        """The multi-output op `expr` calls (`ops.topk(...)`, `x.sort()`), if any."""
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        qualname = names.callee(self.types.module, func)
        if names.is_ops_call(qualname) and qualname and qualname.rsplit(".", 1)[-1] in TUPLE_OPS:
            op = qualname.rsplit(".", 1)[-1]
            return None if op == "unique" and _single_unique(qualname, expr) else op
        if (
            isinstance(func, ast.Attribute)
            and func.attr in TUPLE_OPS
            and self.types.is_tensor(func.value)
        ):
            return None if func.attr == "unique" and _single_unique(None, expr) else func.attr
        return None

    def _flowed(self, read: ast.Name) -> Optional[Value]:
        """The value the bindings reaching `read` agree on, when each is `name = value`
        (`y = [y]` then `y + 1`: a list here whatever `y` was before)."""
        flow = reaching(self.fn)
        defs = flow.of(read)
        if defs is None:
            return None
        key = frozenset(defs)
        if key in self._assumed:
            return self._assumed[key]  # a read of a loop-carried value inside its own loop
        if any((d not in flow.values and d not in flow.params) or d in self._flowing for d in defs):
            return None
        if any(d in flow.params for d in defs) and self._param_values() is None:
            return None
        self._flowing |= defs
        self._resolving.add(FLOWING)  # answers met under the cycle guard are not kept
        try:
            values = {self._reached(flow.values, d) for d in defs}
            known = {v for v in values if v is not None and v != UNKNOWN_TENSOR}
            if len(known) == 1 and len(values) > 1:
                # A loop-carried value (`x = x * 2` in a loop reading the parameter `x`): the
                # bindings that read the value itself are unknown above. Assume the value the
                # others agree on for reads that meet this same set of bindings, and keep it
                # only when every binding then gives it (a fixed point of the loop).
                self._assumed[key] = next(iter(known))
                try:
                    values = {self._reached(flow.values, d) for d in defs}
                finally:
                    del self._assumed[key]
        finally:
            self._flowing -= defs
            self._resolving.discard(FLOWING)
        return values.pop() if len(values) == 1 else None

    def _reached(self, bound: dict[int, ast.expr], binding: int) -> Optional[Value]:
        """The value a reaching binding gives: its `name = value`, or for a parameter the
        Tensor dtype the entry point's callers pass (None when they do not agree)."""
        if binding in bound:
            return self.of(bound[binding])
        return (self._param_values() or {}).get(binding)

    def _param_values(self) -> Optional[dict[int, Value]]:
        """Parameter `ast.arg` id -> the Tensor its callers pass, read only with the module's
        lines (the call sites are then tied to the cached findings)."""
        if self.lines is None:
            return None
        dtypes = self._argument_dtypes()
        args = self.fn.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        found = {id(a): Value("tensor", dtypes[a.arg]) for a in every if a.arg in dtypes}
        for a, default in names.parameter_defaults(self.fn):
            if a.arg not in dtypes:
                value = self._entry_value(a.arg, default)
                if value is not None:
                    found[id(a)] = value
        return found

    def _entry_value(self, name: str, default: Optional[ast.expr]) -> Optional[Value]:
        """The Python value (a number, str, None, tuple, list, dict) an entry point's
        parameter holds on entry when every call of it in the module writes one out of the
        same kind, or leaves it at its default (round 36, `ar_`: `construct(self, x, y=None)`
        called `net(x)` holds None; `net(x, 2)` an int). Read for a parameter the body rebinds
        (the reaching bindings); none when the module has no call of the entry point."""
        entry = self._entry()
        found = table(self.types.module) if entry is not None else None
        sites = found.calls.get(entry) if found is not None and entry is not None else None
        if not sites:
            return None
        params = ordered_parameters(self.fn, skip_self=self.types.cls is not None)
        if name not in params:
            return None
        index = params.index(name)
        values: set[Optional[Value]] = set()
        for call, _ in sites:
            if any(isinstance(a, ast.Starred) for a in call.args) or any(
                k.arg is None for k in call.keywords
            ):
                return None
            written = passed_expression(call, index, name)
            value = _scope_free(written if written is not None else default)
            if value is None or value.kind == "tensor":
                return None
            values.add(value)
        return values.pop() if len(values) == 1 else None

    def parameter(self, name: str) -> Optional[Value]:
        """The Tensor the entry point's callers pass for parameter `name` (its value on entry,
        whatever the body rebinds it to later), or None."""
        if self.lines is None or name not in parameters(self.fn):
            return None
        dtype = self._argument_dtypes().get(name)
        return Value("tensor", dtype) if dtype is not None else None

    def entry_value(self, name: str) -> Optional[Value]:
        """What parameter `name` holds on entry: the callers' Tensor (`parameter`), or the
        Python value every call writes out or leaves at its default (`_entry_value`)."""
        found = self.parameter(name)
        if found is not None or self.lines is None:
            return found
        default = next((d for a, d in names.parameter_defaults(self.fn) if a.arg == name), None)
        return self._entry_value(name, default)

    def _name(self, name: str) -> Optional[Value]:
        """The value every binding of a local gives, when they all agree (flow-insensitive: a
        name bound twice to different values is unknown)."""
        if name in self._names:
            return self._names[name]
        if name in self._resolving:
            return None
        self._resolving.add(name)
        try:
            found = self._agreed(name)
        finally:
            self._resolving.discard(name)
        self._names[name] = found
        return found

    def _agreed(self, name: str) -> Optional[Value]:
        if self._bindings is None:
            self._bindings = _simple_bindings(self.fn)
        simple = self._bindings.get(name)
        if not simple:
            return self._loop_constant(name) or self._unbound(name)
        values = {self.of(v) for v in simple}
        return values.pop() if len(values) == 1 else None

    def _loop_constant(self, name: str) -> Optional[Value]:
        """The number a `for` target takes on every pass, when each binding of `name` is the
        target of `for name in (1, 2, 3)` (numbers of one type) or `for name in range(...)`:
        the loop is unrolled, so the target is a Python number when compiled (measured on
        2.10: `for s in (1, 2): if t: return s` then `return x` fails to join, "dtype1 = Int64,
        dtype2 = Any")."""
        stores = [
            n for n in of_type(self.fn, ast.Name) if n.id == name and n.ctx.__class__ is ast.Store
        ]
        loops = [(loop, _target_position(loop.target, name)) for loop in of_type(self.fn, ast.For)]
        found_loops = [(loop, at) for loop, at in loops if at is not None]
        if not stores or len(found_loops) != len(stores):
            return None
        found: set[Optional[Value]] = set()
        for loop, at in found_loops:
            items = self._target_items(loop.iter, at)
            if items is None:
                return None
            found |= items
        value = found.pop() if len(found) == 1 else None
        return value if value is not None and value.kind == "scalar" else None

    def _target_items(self, items: ast.expr, at: int) -> Optional[set[Optional[Value]]]:
        """The values the target's part `at` takes over `items` (-1: the whole target):
        a tuple or list of constants, `range(...)`, and (for a tuple target, `for i, r in ...`)
        `enumerate(...)` / `zip(...)` of those, or a tuple of tuples of constants (measured on
        2.10: `for i, r in enumerate((1, 2)): if t: return r` fails to join like `for r in`)."""
        if isinstance(items, ast.Call) and isinstance(items.func, ast.Name) and not items.keywords:
            builtin = items.func.id not in self.types.module.functions
            if items.func.id == "range" and builtin and at == -1:
                return {Value("scalar", "int")}
            if items.func.id == "enumerate" and builtin and len(items.args) == 1 and at in (0, 1):
                return (
                    {Value("scalar", "int")} if at == 0 else self._target_items(items.args[0], -1)
                )
            if items.func.id == "zip" and builtin and 0 <= at < len(items.args):
                return self._target_items(items.args[at], -1)
            return None
        if not isinstance(items, (ast.Tuple, ast.List)) or not items.elts:
            return None
        if at == -1:
            return {_constant(e.value) if isinstance(e, ast.Constant) else None for e in items.elts}
        found: set[Optional[Value]] = set()
        for e in items.elts:
            if not isinstance(e, (ast.Tuple, ast.List)) or at >= len(e.elts):
                return None
            part = e.elts[at]
            found.add(_constant(part.value) if isinstance(part, ast.Constant) else None)
        return found

    def _unbound(self, name: str) -> Optional[Value]:
        """A name the function never binds: a parameter an entry point's callers give a Tensor
        of one dtype, or a module-level function or Cell."""
        if self.lines is None:
            return None
        if self._stored is None:
            self._stored = {
                n.id for n in of_type(self.fn, ast.Name) if isinstance(n.ctx, ast.Store)
            }
        if name in self._stored:
            return None
        if name in parameters(self.fn):
            dtype = self._argument_dtypes().get(name)
            if dtype is not None:
                return Value("tensor", dtype)
            return None if name in self.types.names else self._passed_value(name)
        module = self.types.module
        if name in module.functions:
            return FUNCTION
        bound = global_binding(module, name)
        if bound is None:
            return None
        self._read(bound)
        value = bound.value
        if isinstance(value, ast.Lambda):
            return FUNCTION
        if isinstance(value, ast.Call) and names.is_cell_qualname(names.callee(module, value)):
            return CELL
        return None

    def _argument_dtypes(self) -> dict[str, str]:
        if self._arguments is None:
            self._arguments = {}
            entry = self._entry()
            module = self.types.module
            if (
                entry is not None
                and self._signature is None
                and self.lines is not None
                and self.types.cls is not None
                and held_only(module, self.types.cls.node)
            ):
                # a sub-Cell: what its holder's calls pass (no call of the class to read; the
                # answer already hangs on the whole module, which `call_lines` notes)
                for line in call_lines(module, entry):
                    self._read_line(line)
                self._arguments = helper_dtypes(module, self._owner(), self.fn, self.lines)
            elif entry is not None:
                params = ordered_parameters(self.fn, skip_self=self.types.cls is not None)
                self._arguments = (
                    dict(self._signature)
                    if self._signature is not None
                    else argument_dtypes(module, entry, params)
                )
                for line in call_lines(module, entry):
                    self._read_line(line)
            elif self._signature is not None:
                self._arguments = dict(self._signature)
            elif self.lines is not None:  # a helper: what its calls in compiled code pass
                self._arguments = helper_dtypes(module, self._owner(), self.fn, self.lines)
        return self._arguments

    def passed_dicts(self, name: str) -> Optional[list[ast.Dict]]:
        """The dict displays every call of this entry point in the module writes out for
        parameter `name` (`net(x, {"a": x})`), when each call writes one; else None."""
        if name not in parameters(self.fn) or self._unbound(name) != Value("dict"):
            return None  # also reads the call lines, or gives None without them
        passed = self._passed.get(name) if self._passed is not None else None
        if not passed or not all(isinstance(v, ast.Dict) for v in passed):
            return None
        return [v for v in passed if isinstance(v, ast.Dict)]

    def _passed_value(self, name: str) -> Optional[Value]:
        """The Python value every call of this entry point (or of this helper, in compiled
        code) passes for parameter `name`, when each call writes out one of the same kind
        (`grow(x.shape, x)`: a tuple; `self.make([2, 3])`: a list). Only values that mean the
        same in any scope: literals, displays, `.shape`."""
        if self._passed is None:
            self._argument_dtypes()  # reads the call lines
            entry = self._entry()
            params = ordered_parameters(self.fn, skip_self=self.types.cls is not None)
            if entry:
                found = argument_values(self.types.module, entry, params)
            elif self.lines is not None:
                found = helper_values(self.types.module, self._owner(), self.fn, self.lines)
            else:
                found = None
            self._passed = found or {}
        values = {_scope_free(v) for v in self._passed.get(name) or [None]}
        value = values.pop() if len(values) == 1 else None
        return value if value is not None and value.kind != "tensor" else None

    def signatures(self) -> list[dict[str, str]]:
        """The parameter dtypes of each distinct call signature of this entry point in the
        module, when there are several (each is compiled as its own graph); else []."""
        entry = self._entry() if self.lines is not None else None
        if entry is None and self.lines is not None and parameters(self.fn):
            found = helper_signatures(self.types.module, self._owner(), self.fn, self.lines)
            return found if len(found) >= 2 else []
        if entry is None or not parameters(self.fn):
            return []
        module = self.types.module
        params = ordered_parameters(self.fn, skip_self=self.types.cls is not None)
        found = argument_signatures(module, entry, params)
        for line in call_lines(module, entry):
            self._read_line(line)  # even "one signature" depends on the call sites
        return found if len(found) >= 2 else []

    def _owner(self) -> Optional[ast.ClassDef]:
        """The class of this module whose method this is."""
        cls = self.types.cls
        return cls.node if cls is not None and cls.module is self.types.module else None

    def _entry(self) -> Optional[str]:
        return entry_point(self.types, self.fn)

    def _self_cell(self, expr: ast.Attribute) -> bool:
        """`self.act` where `__init__` sets `self.act = nn.ReLU()`."""
        cls = self.types.cls
        if cls is None or not (isinstance(expr.value, ast.Name) and expr.value.id == "self"):
            return False
        attr = cls.attr(expr.attr)
        return attr is not None and attr.kind == "cell"

    def _self_number(self, expr: ast.Attribute) -> Optional[Value]:
        """`self.lr` that the Cell's `__init__` alone sets, to a number or to a parameter whose
        default is a number that every `Cls(...)` in the module leaves or passes as a number of
        the same type (`def __init__(self, lr=0.1): self.lr = lr`, then `Sched()`)."""
        cls = self.types.cls
        name = names.self_attribute(expr)
        if (
            cls is None
            or name is None
            or name not in cls.attrs
            or cls.module is not self.types.module
        ):
            return None
        init = cls.own_method("__init__")
        value = cls.attrs[name].node
        if init is None or value is None or not _within(value, init):
            return None
        if len(cls.attribute_stores(name)) != 1:
            return None
        if isinstance(value, ast.Constant):
            found = _constant(value.value)
            return found if found is not None and found.kind == "scalar" else None
        if isinstance(value, (ast.List, ast.Tuple)) and value.elts:
            # `self.l = [0.0, 1.0]`: a list or tuple of numbers when compiled (measured:
            # `x == self.l` fails STRICT as `x == [0.0, 1.0]` does)
            items = tuple(
                _constant(e.value) if isinstance(e, ast.Constant) else None for e in value.elts
            )
            if not all(i is not None and i.kind == "scalar" for i in items):
                return None
            # `self.l.append(2.0)` in `__init__` grows the literal before anything compiles
            # (measured: `x == self.l` then fails STRICT as for `[0.0, 1.0, 2.0]`)
            growth = _growth(init, name) if isinstance(value, ast.List) else []
            grown = {id(func) for func, _ in growth}
            for func, _ in growth:
                self._read_line(func.lineno)
            held: list[ast.Attribute | ast.Subscript] = of_type(
                cls.node, ast.Attribute, ast.Subscript
            )
            if any(
                names.self_attribute(n.value) == name
                and (isinstance(n, ast.Attribute) or not isinstance(n.ctx, ast.Load))
                and id(n) not in grown
                for n in held
            ):
                return None  # `self.l.append(...)`, `self.l[0] = ...`: not what was written
            appended = tuple(
                _constant(e.value) if isinstance(e, ast.Constant) else None
                for _, added in growth
                for e in added
            )
            if not all(i is not None and i.kind == "scalar" for i in appended):
                return None
            kind = "list" if isinstance(value, ast.List) else "tuple"
            return Value(kind, items=items + appended)
        if not isinstance(value, ast.Name):
            return None
        return self._init_number(cls.node, init, value.id)

    def _init_number(self, cls: ast.ClassDef, init: FunctionNode, param: str) -> Optional[Value]:
        if any(
            isinstance(n, ast.Name) and n.id == param and not isinstance(n.ctx, ast.Load)
            for n in ast.walk(init)
        ):
            return None  # rebound in __init__
        module = self.types.module
        calls = (
            [
                c
                for c in of_type(module.tree, ast.Call)
                if isinstance(c.func, ast.Name) and c.func.id == cls.name
            ]
            if module.tree is not None
            else []
        )
        if not calls:
            return None
        self._read(init)
        for call in calls:
            self._read_line(call.lineno)
        passed = init_argument_values(calls, init, param)
        if passed is None:
            return None
        found = {_constant(v.value) if isinstance(v, ast.Constant) else None for v in passed}
        value = found.pop() if len(found) == 1 else None
        return value if value is not None and value.kind == "scalar" else None

    def _mutable(self, call: ast.Call) -> bool:
        return (
            len(call.args) == 1
            and not call.keywords
            and names.callee(self.types.module, call.func) in MUTABLE
        )

    def _read(self, node: ast.stmt) -> None:
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            self._read_line(line)

    def _read_line(self, line: int) -> None:
        note_read(self.lines, line)


def binop_dtype(left: Optional[Value], right: Optional[Value], op: ast.operator) -> Optional[str]:
    """The dtype of `left <op> right` where one side is a Tensor of known dtype, else None."""
    if left is None or right is None:
        return None
    if left.kind == "tensor" and right.kind == "tensor":
        if left.dtype == right.dtype:
            return left.dtype
        floats = [v.dtype for v in (left, right) if v.dtype and v.dtype.startswith("float")]
        ints = [v.dtype for v in (left, right) if v.dtype and v.dtype.startswith(("int", "uint"))]
        # measured: an int32 Tensor plus a float32 one is float32 (the float side's dtype)
        return floats[0] if len(floats) == 1 and len(ints) == 1 else None
    tensor, scalar = (left, right) if left.kind == "tensor" else (right, left)
    if tensor.kind != "tensor" or scalar.kind != "scalar" or tensor.dtype is None:
        return None
    if tensor.dtype.startswith(("float", "bfloat")):
        return tensor.dtype if not isinstance(op, ast.Pow) else None
    if tensor.dtype.startswith(("int", "uint")):
        if scalar.dtype == "float" or isinstance(op, ast.Div):
            return "float32"  # measured: int32 * 1.5 and int32 / 2 give float32
        if scalar.dtype == "int" and isinstance(op, KEEPS_INT):
            return tensor.dtype
    return None


def _within(node: ast.AST, scope: ast.AST) -> bool:
    return any(sub is node for sub in ast.walk(scope))


def _simple_bindings(fn: FunctionNode) -> dict[str, list[ast.expr]]:
    """Locals whose every binding is `name = value` (no parameter, loop target, augmented
    assignment or unpacking), with those values."""
    stores: dict[str, int] = {}
    for node in of_type(fn, ast.Name):
        if isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    found: dict[str, list[ast.expr]] = {}
    for assign in of_type(fn, ast.Assign):
        target = assign.targets[0]
        if len(assign.targets) == 1 and isinstance(target, ast.Name):
            found.setdefault(target.id, []).append(assign.value)
    params = parameters(fn)
    return {
        name: bound
        for name, bound in found.items()
        if name not in params and stores.get(name) == len(bound)
    }


def _growth(init: FunctionNode, name: str) -> list[tuple[ast.Attribute, list[ast.expr]]]:
    """`self.<name>.append(v)` / `.extend([...])` statements at the top of `__init__`'s body,
    each with the values it adds (an `extend` of anything but a list or tuple display: none)."""
    found: list[tuple[ast.Attribute, list[ast.expr]]] = []
    for statement in init.body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            continue
        func = call.func
        if func.attr not in ("append", "extend") or names.self_attribute(func.value) != name:
            continue
        if call.keywords or len(call.args) != 1:
            continue
        arg = call.args[0]
        if func.attr == "append":
            found.append((func, [arg]))
        elif isinstance(arg, (ast.List, ast.Tuple)):
            found.append((func, list(arg.elts)))
    return found


def _scope_free(expr: Optional[ast.expr]) -> Optional[Value]:
    """The value of an argument as a caller writes it, read without the caller's names."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.Constant):
        expr = ast.Constant(True) if isinstance(expr.op, ast.Not) else expr.operand
    if isinstance(expr, ast.Constant):
        return _constant(expr.value)
    if isinstance(expr, (ast.Tuple, ast.List)):
        return Value("tuple" if isinstance(expr, ast.Tuple) else "list")
    if isinstance(expr, (ast.Dict, ast.DictComp)):
        return Value("dict")
    if isinstance(expr, ast.JoinedStr):
        return Value("str")
    if isinstance(expr, ast.Attribute) and expr.attr == "shape":
        return Value("tuple")
    if (isinstance(expr, ast.Attribute) and expr.attr == "ndim") or (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and isinstance(expr.slice, ast.Constant)
        and type(expr.slice.value) is int
    ):
        return Value("scalar", "int")  # `x.shape[1]`, `x.ndim`
    return None


def _target_position(target: ast.expr, name: str) -> Optional[int]:
    """-1 when the `for` target is `name`; its position in a flat tuple target
    (`for i, name in ...`); else None."""
    if isinstance(target, ast.Name):
        return -1 if target.id == name else None
    if isinstance(target, ast.Tuple):
        for index, part in enumerate(target.elts):
            if isinstance(part, ast.Name) and part.id == name:
                return index
    return None


def _constant(value: object) -> Optional[Value]:
    if value is None:
        return NONE
    if isinstance(value, bool):
        return Value("scalar", "bool")
    if isinstance(value, int):
        return Value("scalar", "int")
    if isinstance(value, float):
        return Value("scalar", "float")
    if isinstance(value, str):
        return Value("str")
    return None


def _dtype_name(types: TensorTypes, expr: ast.expr) -> Optional[str]:
    """`ms.int32`, `mstype.float16`, `mindspore.common.dtype.bool_` -> the dtype's name."""
    qualname = types.module.qualname(expr)
    if not qualname or not qualname.startswith(DTYPE_MODULES):
        return None
    last = qualname.rsplit(".", 1)[-1]
    last = ALIASES.get(last, last)
    return last if last in DTYPES else None


def _dtype_argument(types: TensorTypes, call: ast.Call, position: int) -> Optional[str]:
    for kw in call.keywords:
        if kw.arg == "dtype":
            return _dtype_name(types, kw.value)
    if len(call.args) > position:
        return _dtype_name(types, call.args[position])
    return None


def _single_unique(qualname: Optional[str], call: ast.Call) -> bool:
    """`mint.unique(x)` / `x.unique()` give one Tensor (measured in PyNative) unless asked for
    `return_inverse`/`return_counts`; `ops.unique(x)` always gives `(output, indices)`."""
    if qualname is not None and not qualname.startswith("mindspore.mint."):
        return False
    asked = {"return_inverse", "return_counts"}
    return not any(
        k.arg in asked and not (isinstance(k.value, ast.Constant) and k.value.value is False)
        for k in call.keywords
    ) and len(call.args) <= (2 if qualname else 1)
