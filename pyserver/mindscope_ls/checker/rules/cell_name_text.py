"""MS3003: a Cell's own `self.name` formatted by `%` or `repr()` in compiled code.

Measured with MindSpore 2.10 on CPU (round 36, `sf_`), LAX and STRICT alike, against PyNative,
a Cell setting `self.name = "conv_layer"` in `__init__`: graph mode runs `%` formatting and
`repr()` in Python with `self` bound to the compiler's namespace of the Cell, whose own `name`
attribute is a label like `mymodule..<Net::140547883469040>`, so `'%s' % self.name`,
`'n=%s' % (self.name,)`, `'%s-%s' % (self.name, self.k)`, `repr(self.name)` and
`print('%s' % self.name)` wrote that label where PyNative wrote `conv_layer` (in `construct`
and in a helper method it calls). What agrees: `str(self.name)`, `f'{self.name}'`,
`'{}'.format(self.name)`, `self.name + '-'`, `self.name == 'conv_layer'`, a local
`n = self.name` formatted by `%`, and any other attribute (`'%s' % self.mode`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable

CELL_NAME_TEXT = Rule(
    "MS3003",
    "cell-name-formatted-as-label",
    Group.DIVERGES,
    title="`self.name` of a Cell formatted by `%` or `repr()` in compiled code",
    message=(
        "`{text}` writes the compiler's label of the Cell (like `module..<Net::1405...>`) "
        "instead of `self.name` in graph mode; read it into a local first (`name = "
        "self.name`) or use an f-string."
    ),
    why=(
        "Graph mode evaluates `%` formatting and `repr()` in Python with `self` standing for "
        "its namespace of the Cell, which has a `name` attribute of its own: `'%s' % "
        "self.name` gave 'mod..<Net::1405...>' in GRAPH_MODE where PyNative gave 'conv_layer'."
    ),
    remedy="`name = self.name` then `'%s' % name`, or `f'{self.name}'`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or cls.attr("name") is None:
        return
    for node in ctx.of(ast.BinOp):
        if (
            isinstance(node.op, ast.Mod)
            and isinstance(node.left, (ast.Constant, ast.JoinedStr))
            and isinstance(getattr(node.left, "value", ""), str)
            and _holds_name(node.right)
        ):
            yield CELL_NAME_TEXT.finding(node, text=ast.unparse(node))
    for call in ctx.of(ast.Call):
        if (
            isinstance(call.func, ast.Name)
            and call.func.id == "repr"
            and len(call.args) == 1
            and _is_self_name(call.args[0])
        ):
            yield CELL_NAME_TEXT.finding(call, text=ast.unparse(call))


def _holds_name(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Tuple):
        return any(_is_self_name(e) for e in expr.elts)
    return _is_self_name(expr)


def _is_self_name(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Attribute)
        and expr.attr == "name"
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "self"
    )
