"""MS1007: `a is b` / `a is not b` whose right operand graph mode cannot compare by identity.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: graph mode's `is`
(`prim_statement.cc`) accepts on its right an int, a bool, a str, None or a type only, and fails to
compile anything else, in a branch never taken too ("For syntax like 'a is b', b supports Int,
Bool, String, None and Type, but got 1.5"): `a is 1.5`, `a is not 2.0`, `t is t` for a tuple, `l is
l` for a list, `d is d` for a dict and `self.act is self.act` for a sub-Cell and `self.act is
nn.ReLU` for a class all failed; `a is 1`, `a is True`, `s is 'x'`, `x is None`, `l is not None`,
`type(x) is Tensor` (LAX) and `x.dtype is ms.float32` compiled. A list, tuple or dict attribute of
the Cell on the right failed too (`m is self.l` with `m = self.l`, `1 is not self.l`, `self.k is
self.l`), except with a Tensor or a parameter defaulting to None on the left (compiled). A class is
refused when it is a Cell or a `@jit_class` ("but got create_instance": `type(self.blk) is Block`,
`self.blk is Block`, `type(self.j) is JHelper`); a plain class is a type (`type(self.obj) is
Helper`, `self.obj is not Helper` compiled at both levels), and so is an Enum class
(`type(self.mode) is Mode` compiled). An object is refused too ("but got PythonObject" /
"MsClassObject", round31 `ob_is_*`): an instance of a plain class or `@jit_class` (`self.a is
self.b`, `self.s is DEFAULT`, `self.s is s`) and a member of an `enum.Enum` (`m is Mode.TRAIN`,
`Mode.TRAIN is self.mode`, `self.mode is not Mode.EVAL`); an `IntEnum` member is an int (`self.k is
K.A` compiled), and `self.s is not None` compiles. (Tensors on both sides are MS314/MS238's.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import python_objects, receivers
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

IDENTITY_OPERAND = Rule(
    "MS1007",
    "identity-of-unsupported-value",
    Group.FAILS,
    title=(
        "`is` / `is not` with a float, tuple, list, dict, Cell, Cell class, object or Enum "
        "member on the right"
    ),
    message=(
        "`{text}` compares by identity with {what}, which graph mode's `is` does not take "
        "(only an int, bool, str, None or type); compare with `==`, or test it outside "
        "compiled code."
    ),
    why=(
        "Graph mode evaluates `a is b` while compiling and supports only ints, bools, strs, "
        "None and types as `b`; any other value stops the compile, also in a branch that is "
        "never taken."
    ),
    remedy="Use `==` for values, `is None` for a missing value, or decide it outside `construct`.",
    mindspore_says=(
        "RuntimeError: For syntax like 'a is b', b supports Int, Bool, String, None and Type, "
        "but got 1.5"
    ),
)

_KINDS = {"tuple": "a tuple", "list": "a list", "dict": "a dict", "cell": "a Cell"}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    compares = [
        c for c in ctx.of(ast.Compare) if any(isinstance(op, (ast.Is, ast.IsNot)) for op in c.ops)
    ]
    if not compares:
        return
    values = abstract(ctx)
    for compare in compares:
        left = compare.left
        for op, right in zip(compare.ops, compare.comparators):
            if isinstance(op, (ast.Is, ast.IsNot)) and not ctx.types.is_tensor(right):
                what = (
                    _unsupported(values, right)
                    or (_held_container(ctx, right) if _known_left(ctx, left) else None)
                    or _cell_class(ctx, right)
                    or python_objects.python_object(ctx, right)
                )
                if what is not None:
                    text = ast.unparse(ast.Compare(left=left, ops=[op], comparators=[right]))
                    yield IDENTITY_OPERAND.finding(compare, text=text, what=what)
                    break
            left = right


def _known_left(ctx: FunctionContext, left: ast.expr, depth: int = 0) -> bool:
    """A left operand known to be neither a Tensor nor None: a constant or a display, a local
    bound once to one (or to such an attribute), or a `self.<attr>` set in `__init__` to one
    (measured: `x is not self.l` of a Tensor `x` and `m is self.l` of a parameter `m=None`
    compiled, so a value that may be None is left alone)."""
    if depth > 2 or ctx.types.is_tensor(left):
        return False
    if isinstance(left, ast.Constant):
        return left.value is not None
    if isinstance(left, (ast.List, ast.Tuple, ast.Dict)):
        return True
    if isinstance(left, ast.Name):
        bound = receivers.only_binding(ctx, left.id)
        return bound is not None and _known_left(ctx, bound, depth + 1)
    name = receivers.self_attr_name(left)
    if name is None or ctx.fn.cls is None or ctx.fn.cls.attr_varies(name):
        return False
    held = receivers.self_attr(ctx, left)
    if held is None or not isinstance(held.node, ast.expr):
        return False
    node = held.node
    return isinstance(node, (ast.List, ast.Tuple, ast.Dict)) or (
        isinstance(node, ast.Constant) and node.value is not None
    )


def _held_container(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`self.<attr>` that `__init__` sets to a list or dict display: graph mode gets the list
    or dict itself (measured on 2.10, LAX and STRICT: `m = self.l; m is self.l` fails "b
    supports Int, Bool, String, None and Type, but got [1]"; a tuple too); `x is not self.l`
    of a Tensor `x` and `m is self.l` of a parameter `m=None` compiled: the left operand must be
    known (`_known_left`)."""
    name = receivers.self_attr_name(expr)
    held = receivers.self_attr(ctx, expr)
    cls = ctx.fn.cls
    if name is None or held is None or cls is None or cls.attr_varies(name):
        return None
    if isinstance(held.node, (ast.List, ast.ListComp)):
        return "a list"
    if isinstance(held.node, ast.Tuple):
        return "a tuple"
    if isinstance(held.node, (ast.Dict, ast.DictComp)):
        return "a dict"
    return None


def _cell_class(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """A class of the module or of `mindspore.nn` (`self.act is nn.ReLU`: "but got
    create_instance"); MindSpore's own types (`Tensor`, `ms.float32`) are accepted."""
    if isinstance(expr, ast.Name) and expr.id in ctx.fn.module.classes:
        if _plain_class(ctx, expr.id, 0):
            return None  # measured: `type(self.obj) is Helper` of a plain class compiles
        info = ctx.classes.resolve(ctx.fn.module.qualname(expr))
        if info is None or not (info.is_cell or info.is_jit_class):
            return None  # measured: `type(self.mode) is Mode` of an Enum class compiles
        return f"the class `{expr.id}`"
    qualname = ctx.fn.module.qualname(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    last = (qualname or "").rsplit(".", 1)[-1]
    if (qualname or "").startswith("mindspore.nn.") and last[:1].isupper():
        return f"the class `{ast.unparse(expr)}`"
    return None


def _plain_class(ctx: FunctionContext, name: str, depth: int) -> bool:
    """A class of the module that is surely neither a Cell nor a jit_class: no decorator, and
    no base but `object` or another such class of the module (graph mode takes it as a type;
    a Cell or jit_class class becomes `create_instance`)."""
    node = ctx.fn.module.classes.get(name)
    if node is None or node.decorator_list or node.keywords or depth > 4:
        return False
    for base in node.bases:
        if not isinstance(base, ast.Name):
            return False
        if base.id != "object" and not _plain_class(ctx, base.id, depth + 1):
            return False
    return True


def _unsupported(values: Abstract, expr: ast.expr) -> Optional[str]:
    """What `expr` is when graph mode's `is` refuses it, else None."""
    if isinstance(expr, ast.Constant):
        return "a float" if isinstance(expr.value, float) else None
    if isinstance(expr, (ast.Tuple, ast.List, ast.Dict)):
        return _KINDS[type(expr).__name__.lower()]
    known = values.of(expr)
    if known is None:
        return None
    if known.kind == "scalar":
        return "a float" if known.dtype == "float" else None
    return _KINDS.get(known.kind)
