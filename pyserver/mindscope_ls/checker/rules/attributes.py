"""MS155, MS223: attributes read on values that do not have them.

Measured with MindSpore 2.10 (`generated/attributes/`): an attribute only a Tensor has
(`shape`, `dtype`, `ndim`, `data`) fails on a scalar, tuple, list, None, str or dict; a Tensor
computed in the graph has no `grad`/`name`/`requires_grad`; an instance of the module's own
plain class has only the attributes its class sets. Under STRICT `x.device` and `x.__class__`
of a Tensor fail too. Values the source does not fix are never reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import assigned, assigned_any, describe, instance, missing_advice
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext
from .helpers.instances import lacks

ATTRIBUTE_OF_WRONG_KIND = Rule(
    "MS155",
    "attribute-of-wrong-kind",
    Group.FAILS,
    title="A Tensor attribute read on a value that is not a Tensor",
    message="`.{attr}` is read on a {kind}, which has no such attribute; {advice}.",
    why=(
        "Graph mode resolves an attribute from the value's type when it compiles: a scalar, "
        "tuple, list, None or str has no `shape`/`dtype`/`ndim`/`data`, and a Tensor computed "
        "in the graph has no `name`, `grad` or `requires_grad`."
    ),
    remedy=(
        "Read the attribute from a Tensor (`ops.stack(values).shape`, `len(t)` for a tuple), or "
        "keep the name/grad bookkeeping outside compiled code."
    ),
    mindspore_says="AttributeError: 'Tuple' object has no attribute 'shape'",
)


ATTRIBUTE_UNDER_STRICT = Rule(
    "MS223",
    "tensor-attribute-under-strict",
    Group.STRICT,
    title="`x.device` / `x.__class__` of a Tensor in compiled code",
    message="`.{attr}` of a Tensor is not supported under jit_syntax_level=STRICT; {advice}.",
    why="Under STRICT only the attributes the graph knows for a Tensor can be read.",
    remedy="Read the attribute outside compiled code, or use the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes device or the Tensor[Float32] "
        "object has no attribute: 'device'."
    ),
)


# Attributes measured to fail on non-Tensor values (a Python scalar, tuple, None, ...).
TENSOR_ONLY = frozenset({"shape", "dtype", "ndim", "data"})
# Measured to fail on a Tensor computed in the graph (`requires_grad` fails on a Parameter too;
# a Parameter's `name`/`grad` are not measured, so only computed Tensors are reported).
NOT_ON_TENSOR = frozenset({"grad", "name", "requires_grad"})
STRICT_TENSOR_ATTRS = frozenset({"device", "__class__"})
NOT_A_TENSOR = frozenset({"scalar", "tuple", "list", "None", "str", "dict"})


def check_attribute(
    ctx: FunctionContext, values: Abstract, node: ast.Attribute
) -> Iterator[RawFinding]:
    if not isinstance(node.ctx, ast.Load):
        return
    attr = node.attr
    cls = instance(ctx, node.value)
    if cls is not None:
        if lacks(ctx.fn.module, cls, attr):
            yield ATTRIBUTE_OF_WRONG_KIND.finding(
                node, attr=attr, kind=f"`{cls.name}` object", advice=missing_advice(cls, attr)
            )
        return
    if attr in TENSOR_ONLY:
        value = values.of(node.value)
        if value is not None and value.kind in NOT_A_TENSOR:
            advice = (
                "use `len()` of the tuple"
                if value.kind in ("tuple", "list")
                else ("read it from a Tensor")
            )
            yield ATTRIBUTE_OF_WRONG_KIND.finding(
                node, attr=attr, kind=describe(value), advice=advice
            )
    elif attr in NOT_ON_TENSOR and _computed_tensor(ctx, values, node.value):
        advice = "read it from the Parameter outside compiled code (in `__init__`)"
        yield ATTRIBUTE_OF_WRONG_KIND.finding(node, attr=attr, kind="Tensor", advice=advice)
    elif attr in STRICT_TENSOR_ATTRS:
        value = values.of(node.value)
        if value is not None and value.kind == "tensor":
            advice = "use `isinstance(x, Tensor)`" if attr == "__class__" else "read it outside"
            yield ATTRIBUTE_UNDER_STRICT.finding(node, attr=attr, advice=advice)


def _computed_tensor(
    ctx: FunctionContext, values: Abstract, expr: ast.expr, depth: int = 0
) -> bool:
    """`expr` is a Tensor that cannot be a Parameter: an arithmetic result, or a local name
    every binding of which is one (a function's parameters may be handed Parameters)."""
    if isinstance(expr, (ast.BinOp, ast.UnaryOp)):
        value = values.of(expr)
        return value is not None and value.kind == "tensor"
    if not isinstance(expr, ast.Name) or depth > 4:
        return False
    fn = ctx.fn.node
    if fn.name == "construct" and expr.id in {a.arg for a in fn.args.args[1:]}:
        # What a Cell is called with is a Tensor, not a Parameter (`self.p` is read in place).
        value = values.of(expr)
        return value is not None and value.kind == "tensor" and not assigned_any(fn, expr.id)
    bound = assigned(fn, expr.id)
    return bool(bound) and all(
        isinstance(v, (ast.BinOp, ast.UnaryOp, ast.Name))
        and _computed_tensor(ctx, values, v, depth + 1)
        for v in bound
    )
