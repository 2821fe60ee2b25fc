"""MS1052: an attribute of a Primitive instance (`self.matmul.transpose_b`, `self.op.name`) read
in compiled code.

Measured with MindSpore 2.10 on CPU against PyNative (round 32): graph mode turns a Primitive
held by the Cell into a function node with no Python attributes, so reading one fails at both
levels: LAX with "AttributeError: 'Function' object has no attribute 'name'" (no line named),
STRICT with "In JIT strict mode, cannot get attributes name or the Func object has no
attribute: 'name'" at the read. Measured for `.name` of `ops.Add()`, `ops.ReLU()`,
`ops.Sigmoid()`, `ops.Cast()`, `ops.Transpose()` and a local `op = ops.Mul()`, `.transpose_b`
of `ops.MatMul(transpose_b=True)`, `.axis` of `ops.Softmax(axis=-1)` / `ops.Concat(axis=0)`,
`.keep_dims` of `ops.ReduceSum(keep_dims=True)`, `.attrs`, and `.__class__` (LAX: "NameError:
name '__py_exec_index1_getattr__' is not defined"). Compile alike: calling the Primitive,
`type(self.op).__name__`, and the attribute read in `__init__` (`self.n = self.op.name`).
Method calls on a Primitive (`self.op.shard(...)`) are left alone (not measured here).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext

PRIMITIVE_ATTRIBUTE = Rule(
    "MS1052",
    "primitive-attribute-in-graph",
    Group.FAILS,
    title="An attribute of a Primitive instance read in compiled code",
    message=(
        "`{text}` reads `.{attr}` of the Primitive `{prim}` ({cls}), which graph mode holds as "
        "a function node without Python attributes, and it fails at every level; read it in "
        "`__init__` and keep it as a Cell attribute (`self.{keep} = {base}.{attr}`)."
    ),
    why=(
        "In the graph a Primitive is a callable node: its Python attributes (`name`, the "
        "arguments it was built with, `attrs`) are not carried over, so LAX's fallback finds a "
        "'Function' object without them and STRICT cannot get them."
    ),
    remedy="Read the Primitive's attribute in `__init__` and use that constant in `construct`.",
    mindspore_says="AttributeError: 'Function' object has no attribute 'name'",
)

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
        if held is None or held.kind != "cell" or cls.attr_varies(name):
            return None
        return _primitive(held.class_qualname)
    if isinstance(base, ast.Name):
        values = [
            node.value
            for node in ctx.of(ast.Assign)
            for t in node.targets
            if isinstance(t, ast.Name) and t.id == base.id
        ]
        if len(values) == 1 and isinstance(values[0], ast.Call):
            return _primitive(names.callee(ctx.fn.module, values[0]))
    return None


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    called = {id(c.func) for c in ctx.of(ast.Call)}
    for node in ctx.of(ast.Attribute):
        if not isinstance(node.ctx, ast.Load) or id(node) in called:
            continue
        base = node.value
        if not (isinstance(base, ast.Name) or names.self_attribute(base) is not None):
            continue
        if isinstance(base, ast.Name) and base.id == "self":
            continue
        prim = _held(ctx, base)
        if prim is None:
            continue
        text = ast.unparse(base)
        yield PRIMITIVE_ATTRIBUTE.finding(
            node,
            text=ast.unparse(node),
            attr=node.attr,
            prim=text,
            cls=f"ops.{prim}",
            keep=f"{text.rsplit('.', 1)[-1]}_{node.attr.strip('_')}",
            base=text,
        )
