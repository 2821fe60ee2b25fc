"""Whether an expression of a compiled method is certainly a Python str (for MS224).

`Abstract.of` knows literals and locals bound to them; a Cell's str attributes (`self.tag =
"conv_block"` in `__init__`), items of a tuple/list attribute of strs read at a constant index,
`+` of two strs and `upper()`/`lower()` of one (the str methods STRICT compiles: measured) are
added here. An attribute counts only when every assignment the class makes to it is a str
literal (a `self.act = None` elsewhere makes it unknown).
"""

from __future__ import annotations

import ast

from .abstract import Abstract
from .base import FunctionContext
from .receivers import only_binding, self_attr, self_attr_name
from .walk import of_type

# str methods STRICT compiles whose result is a str (`split`, `replace`, ... are MS214's).
_STR_RESULT = frozenset({"upper", "lower"})


def is_str(ctx: FunctionContext, values: Abstract, expr: ast.expr, depth: int = 0) -> bool:
    known = values.of(expr)
    if known is not None:
        return known.kind == "str"
    if depth > 4:
        return False
    if isinstance(expr, ast.Name):  # `s = self.tag` bound once
        bound = only_binding(ctx, expr.id)
        return bound is not None and is_str(ctx, values, bound, depth + 1)
    if isinstance(expr, ast.Attribute):
        held = self_attr(ctx, expr)
        return held is not None and _str_constant(held.node) and _only_strs(ctx, expr.attr)
    if isinstance(expr, ast.Subscript):
        held = self_attr(ctx, expr.value)
        index = expr.slice
        name = self_attr_name(expr.value)
        if held is None or name is None or not isinstance(held.node, (ast.Tuple, ast.List)):
            return False
        items = held.node.elts
        return (
            isinstance(index, ast.Constant)
            and isinstance(index.value, int)
            and -len(items) <= index.value < len(items)
            and all(_str_constant(e) for e in items)
            and _only_displays(ctx, name)
        )
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return is_str(ctx, values, expr.left, depth + 1) and is_str(
            ctx, values, expr.right, depth + 1
        )
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in _STR_RESULT
        and not expr.args
        and not expr.keywords
    ):
        return is_str(ctx, values, expr.func.value, depth + 1)
    return False


def _str_constant(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _assigned(ctx: FunctionContext, name: str) -> list[ast.expr]:
    """Every value the class's own body assigns to `self.<name>` ([] when it also augments it
    or assigns it through a tuple target, which hides the value)."""
    cls = ctx.fn.cls
    if cls is None:
        return []
    found: list[ast.expr] = []
    nodes: list[ast.Assign | ast.AnnAssign | ast.AugAssign] = of_type(
        cls.node, ast.Assign, ast.AnnAssign, ast.AugAssign
    )
    for node in nodes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if self_attr_name(target) == name:
                if isinstance(node, ast.AugAssign) or node.value is None:
                    return []
                found.append(node.value)
            elif isinstance(target, (ast.Tuple, ast.List)) and _names_attr(target, name):
                return []
    return found


def _names_attr(target: ast.expr, name: str) -> bool:
    return any(isinstance(e, ast.expr) and self_attr_name(e) == name for e in ast.walk(target))


def _only_strs(ctx: FunctionContext, name: str) -> bool:
    assigned = _assigned(ctx, name)
    return bool(assigned) and all(_str_constant(v) for v in assigned)


def _only_displays(ctx: FunctionContext, name: str) -> bool:
    assigned = _assigned(ctx, name)
    return bool(assigned) and all(
        isinstance(v, (ast.Tuple, ast.List)) and all(_str_constant(e) for e in v.elts)
        for v in assigned
    )
