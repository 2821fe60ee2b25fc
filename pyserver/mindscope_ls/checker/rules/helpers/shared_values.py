"""The abstract values of one compiled function, built once and shared by every rule of it.

Each rule used to build its own `Abstract`, re-deriving the function's bindings and the value
of each name it met (divergence built one per call it judged). The first rule that asks builds
one; the others reuse it and its answers. Two kinds are kept: `abstract(ctx)` reads the
function only, `abstract(ctx, module=True)` also what the module says (callers' dtypes,
module-level names), and notes the lines it reads on `ctx.lines` for the findings cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from .abstract import Abstract
from .base import FunctionContext
from .shapes import Shapes

_PLAIN = "abstract"
_MODULE = "abstract+module"
_SHAPES = "shapes"


def abstract(ctx: FunctionContext, *, module: bool = False) -> Abstract:
    """The function's abstract values (with what the module says when `module`)."""
    key = _MODULE if module else _PLAIN
    found = ctx.shared.get(key)
    if found is None:
        found = Abstract(ctx.types, ctx.fn.node, ctx.lines if module else None)
        ctx.shared[key] = found
    return cast(Abstract, found)


def shapes(ctx: FunctionContext) -> Shapes:
    """The function's static Tensor shapes (they read callers through `ctx.lines`), built on
    first use and shared by the rules that index, compare or multiply Tensors."""
    found = ctx.shared.get(_SHAPES)
    if found is None:
        found = Shapes(ctx.types, ctx.fn.node, ctx.lines)
        ctx.shared[_SHAPES] = found
    return cast(Shapes, found)


def function_only(ctx: FunctionContext) -> Mapping[str, object]:
    """What `ctx` holds that another context of the same function, types and level may reuse:
    what was derived from the function alone (not from the module through `ctx.lines`)."""
    return {key: ctx.shared[key] for key in (_PLAIN,) if key in ctx.shared}
