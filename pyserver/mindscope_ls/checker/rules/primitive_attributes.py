"""MS1052, MS370: an attribute of a Primitive instance (`self.matmul.transpose_b`, `self.op.name`)
read in compiled code.

Measured with MindSpore 2.10 on CPU against PyNative (round 32): graph mode turns a Primitive
held by the Cell into a function node with no Python attributes, so reading one fails at both
levels: LAX with "AttributeError: 'Function' object has no attribute 'name'" (no line named),
STRICT with "In JIT strict mode, cannot get attributes name or the Func object has no
attribute: 'name'" at the read. Measured for `.name` of `ops.Add()`, `ops.ReLU()`,
`ops.Sigmoid()`, `ops.Cast()`, `ops.Transpose()` and a local `op = ops.Mul()`, `.transpose_b`
of `ops.MatMul(transpose_b=True)`, `.axis` of `ops.Softmax(axis=-1)` / `ops.Concat(axis=0)`,
`.keep_dims` of `ops.ReduceSum(keep_dims=True)`, `.attrs`, and `.__class__` (LAX: "NameError:
name '__py_exec_index1_getattr__' is not defined"). Compile alike: calling the Primitive,
`type(self.op).__name__`, the attribute read in `__init__` (`self.n = self.op.name`) or in a
`@property` getter construct reads (`return self.op.transpose_b`).
Round 34 widened it to the methods `Primitive` defines and to attribute writes, measured at
both levels: `self.op.add_prim_attr("primitive_target", "CPU")`, `ops.Add().add_prim_attr(...)`,
`self.op.set_prim_instance_name(...)`, `self.op.del_prim_attr(...)` and
`self.op.init_prim_io_names(...)` fail as reads do ("'Function' object has no attribute
'add_prim_attr'"); `self.op.keep_dims = True` of `ops.ReduceSum()`, `op.foo = 1` of a local
`op = ops.Add()`, `self.op.axis = 0` in a helper method fail with "RuntimeError: Illegal
DoSignaturePrimitive 'S_Prim_ReduceSum' in the graph". Other method calls on a Primitive are
left alone.
`getattr(self.op, 'transpose_b')` fails alike (MS1052), and so does `self.op.k` of the module's
own `class MyOp(PrimitiveWithInfer)`.

MS370 (a warning: no error, other values), measured at both levels: `hasattr(self.op, 'name')`
of `ops.Add()` and `hasattr(op, 'transpose_b')` of `ops.MatMul(transpose_b=True)` (a Cell
attribute, a local, in a helper method) are False in graph mode and True in PyNative;
`getattr(self.op, 'name', 'none')` gives 'none' and `getattr(self.op, 'axis', None)` gives None.
Alike: `hasattr(self.op, 'foo')` (False in both), `hasattr(self.d, 'weight')` of a Cell. Only
attributes every Primitive has (`name`, `attrs`, ...) and the constructor's keyword arguments
are reported: the attributes a positional argument sets are not known from the source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import call_targets, names
from .helpers.base import FunctionContext

PRIMITIVE_ATTRIBUTE = Rule(
    "MS1052",
    "primitive-attribute-in-graph",
    Group.FAILS,
    title="An attribute of a Primitive instance read, set or called in compiled code",
    message=(
        "`{text}` {verb} `.{attr}` of the Primitive `{prim}` ({cls}), which graph mode holds as "
        "a function node without Python attributes, and it fails at every level; {change}."
    ),
    why=(
        "In the graph a Primitive is a callable node: its Python attributes (`name`, the "
        "arguments it was built with, `attrs`) are not carried over, so LAX's fallback finds a "
        "'Function' object without them and STRICT cannot get them."
    ),
    remedy=(
        "Read the Primitive's attribute in `__init__` and use that constant in `construct`; "
        "set its attributes (`add_prim_attr`, `op.axis = 0`) in `__init__`."
    ),
    mindspore_says="AttributeError: 'Function' object has no attribute 'name'",
)

PRIMITIVE_ATTRIBUTE_MISSING = Rule(
    "MS370",
    "primitive-attribute-probe-in-graph",
    Group.DIVERGES,
    title="`hasattr` / `getattr(..., default)` of a Primitive's attribute in compiled code",
    message=(
        "`{text}` asks the Primitive `{prim}` ({cls}) for `{attr}`, which it has in "
        "PyNative, but graph mode holds it as a function node without Python attributes, so "
        "the graph sees {sees}; read the attribute in `__init__` and keep it as a Cell "
        "attribute."
    ),
    why=(
        "In the graph a Primitive is a callable node: `hasattr` finds none of its Python "
        "attributes and `getattr` with a default gives the default, at both levels, with no "
        "error."
    ),
    remedy="Read the Primitive's attribute in `__init__` and use that constant in `construct`.",
    mindspore_says=(
        "(no error: `hasattr(self.op, 'transpose_b')` of `ops.MatMul(transpose_b=True)` was "
        "False in graph mode and True in PyNative)"
    ),
)

# The methods `mindspore.ops.Primitive` defines (2.10): called on a Primitive in compiled code,
# each reads an attribute the function node lacks (measured: `add_prim_attr`, `del_prim_attr`,
# `set_prim_instance_name`, `init_prim_io_names` fail at both levels).
PRIMITIVE_METHODS = frozenset(
    {
        "add_prim_attr",
        "check_elim",
        "del_prim_attr",
        "init_prim_io_names",
        "place",
        "recompute",
        "set_device",
        "set_prim_instance_name",
        "set_stage",
        "shard",
    }
)

# attributes every Primitive has in Python (besides the keyword arguments it was built with)
COMMON_ATTRIBUTES = frozenset({"name", "attrs", "init_attrs", "instance_name"})

# `mindspore.ops` classes that are not Primitives (measured on 2.10 with `issubclass`)
NOT_PRIMITIVES = frozenset(
    {
        "AiCPURegOp",
        "AkgAscendRegOp",
        "AkgGpuRegOp",
        "CpuRegOp",
        "CustomOpBuilder",
        "CustomRegOp",
        "DataType",
        "GradOperation",
        "HyperMap",
        "Map",
        "MultitypeFuncGraph",
        "P2POp",
        "ReduceOp",
        "TBERegOp",
        "TCPStore",
        "Tensor",
        "Primitive",
        "PrimitiveWithInfer",
        "PrimitiveWithCheck",
    }
)


def _primitive(qualname: Optional[str]) -> Optional[str]:
    if not names.is_primitive_class(qualname):
        return None
    assert qualname is not None
    last = qualname.rsplit(".", 1)[-1]
    return None if last in NOT_PRIMITIVES else last


def _held(ctx: FunctionContext, base: ast.expr) -> Optional[str]:
    """The Primitive class `base` certainly holds: `self.<attr>` set once in `__init__` to
    `ops.X(...)`, or a local bound once to `ops.X(...)`."""
    cls = ctx.fn.cls
    name = names.self_attribute(base)
    if name is not None and cls is not None:
        held = cls.attr(name)
        if held is None or cls.attr_varies(name):
            return None
        if held.kind == "object" and isinstance(held.node, ast.Call):
            return _user_primitive(ctx, held.node)
        if held.kind != "cell":
            return None
        return _primitive(held.class_qualname)
    call = _construction(ctx, base)
    if call is None:
        return None
    return _primitive(names.callee(ctx.fn.module, call)) or _user_primitive(ctx, call)


_PRIMITIVE_BASES = ("Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck")


def _user_primitive(ctx: FunctionContext, call: ast.Call) -> Optional[str]:
    """`MyOp()` of the module's `class MyOp(PrimitiveWithInfer)` (measured: `self.op.k` fails
    at both levels like a MindSpore Primitive's attribute)."""
    module = ctx.fn.module
    if not isinstance(call.func, ast.Name) or call.func.id not in module.classes:
        return None
    for base in module.classes[call.func.id].bases:
        qualname = module.qualname(base) or ""
        if qualname.startswith("mindspore.") and qualname.rsplit(".", 1)[-1] in _PRIMITIVE_BASES:
            return call.func.id
    return None


def _construction(ctx: FunctionContext, base: ast.expr) -> Optional[ast.Call]:
    """The `ops.X(...)` call `base` holds (a Cell attribute or a local bound once)."""
    cls = ctx.fn.cls
    name = names.self_attribute(base)
    if name is not None and cls is not None:
        held = cls.attr(name)
        node = held.node if held is not None else None
        return node if isinstance(node, ast.Call) else None
    if isinstance(base, ast.Name):
        values = _local_bindings(ctx).get(base.id, [])
        if len(values) == 1 and isinstance(values[0], ast.Call):
            return values[0]
    return None


def _local_bindings(ctx: FunctionContext) -> dict[str, list[ast.expr]]:
    """name -> the values the function assigns it (built once per context)."""
    key = "primitive_attributes.bindings"
    found = ctx.shared.get(key)
    if found is None:
        bindings: dict[str, list[ast.expr]] = {}
        for node in ctx.of(ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    bindings.setdefault(t.id, []).append(node.value)
        ctx.shared[key] = found = bindings
    assert isinstance(found, dict)
    return found


def _probes(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`hasattr(op, 'a')`, `getattr(op, 'a', d)` (MS370) and `getattr(op, 'a')` (MS1052)."""
    for call in ctx.of(ast.Call):
        func = call.func
        if not (
            isinstance(func, ast.Name)
            and func.id in ("hasattr", "getattr")
            and len(call.args) in (2, 3)
            and not call.keywords
            and isinstance(call.args[1], ast.Constant)
            and isinstance(call.args[1].value, str)
        ):
            continue
        base, attr = call.args[0], call.args[1].value
        if isinstance(base, ast.Name) and base.id == "self":
            continue
        prim = _held(ctx, base)
        if prim is None:
            continue
        text = ast.unparse(base)
        cls = prim if prim in ctx.fn.module.classes else f"ops.{prim}"
        if func.id == "getattr" and len(call.args) == 2:
            yield PRIMITIVE_ATTRIBUTE.finding(
                call,
                text=ast.unparse(call),
                verb="reads",
                attr=attr,
                prim=text,
                cls=cls,
                change=_read_fix(text, attr),
            )
            continue
        if func.id == "hasattr" and len(call.args) == 3:
            continue
        built = _construction(ctx, base)
        passed = {k.arg for k in built.keywords} if built is not None else set()
        if attr not in COMMON_ATTRIBUTES and attr not in passed:
            continue  # an attribute PyNative may lack too (measured alike: `hasattr(op, 'foo')`)
        sees = "False" if func.id == "hasattr" else "the default"
        yield PRIMITIVE_ATTRIBUTE_MISSING.finding(
            call, text=ast.unparse(call), prim=text, cls=cls, attr=attr, sees=sees
        )


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if call_targets.is_property(ctx.fn.node):
        return  # measured: `return self.op.transpose_b` in a property getter compiles
    yield from _probes(ctx)
    called = {id(c.func) for c in ctx.of(ast.Call)}
    held: dict[tuple[str, str], Optional[str]] = {}
    for node in ctx.of(ast.Attribute):
        if isinstance(node.ctx, ast.Del):
            continue
        verb = "reads"
        if isinstance(node.ctx, ast.Store):
            verb = "sets"
        elif id(node) in called:
            if node.attr not in PRIMITIVE_METHODS:
                continue
            verb = "calls"
        base = node.value
        if isinstance(base, ast.Call) and verb == "calls":
            # `ops.Add().add_prim_attr("k", 1)` (measured: fails at both levels alike)
            prim = _primitive(names.callee(ctx.fn.module, base))
        elif not (
            (isinstance(base, ast.Name) and base.id != "self")
            or names.self_attribute(base) is not None
        ):
            continue
        else:
            key = (
                ("name", base.id)
                if isinstance(base, ast.Name)
                else ("self", names.self_attribute(base) or "")
            )
            if key not in held:
                held[key] = _held(ctx, base)
            prim = held[key]
        if prim is None:
            continue
        text = ast.unparse(base)
        yield PRIMITIVE_ATTRIBUTE.finding(
            node,
            text=ast.unparse(node),
            verb=verb,
            attr=node.attr,
            prim=text,
            cls=prim if prim in ctx.fn.module.classes else f"ops.{prim}",
            change=(
                _read_fix(text, node.attr)
                if verb == "reads"
                else "configure the Primitive in `__init__`, where it is a Python object"
            ),
        )


def _read_fix(text: str, attr: str) -> str:
    keep = f"{text.rsplit('.', 1)[-1]}_{attr.strip('_')}"
    return f"read it in `__init__` and keep it as a Cell attribute (`self.{keep} = {text}.{attr}`)"
