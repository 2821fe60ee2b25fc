"""MS350: `str.upper()` / `str.lower()` of non-ASCII text in compiled code.

Measured with MindSpore 2.10 on CPU at LAX against PyNative: graph mode's `upper` and `lower`
change ASCII letters only, so `"héllo".upper()` gave 'HéLLO' in GRAPH_MODE where PyNative gave
'HÉLLO', `"HÉLLO".lower()` 'hÉllo' for 'héllo' and `"straße".upper()` 'STRAßE' for 'STRASSE'.
ASCII text agrees, and so do `capitalize`, `title`, `swapcase`, `isupper` and `isalpha` (Python
runs those). Only strs the source fixes are judged: literals, locals bound once to one (or to a
`+` of them) and Cell attributes every assignment sets to the same literal.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.walk import of_type

ASCII_ONLY_CASE = Rule(
    "MS350",
    "ascii-only-case-change",
    Group.DIVERGES,
    title="`str.upper()` / `str.lower()` of non-ASCII text in compiled code",
    message=(
        "`{text}` is {graph} in graph mode, whose `{method}()` changes ASCII letters only, but "
        "{pynative} in PyNative; change the case outside the compiled code."
    ),
    why=(
        "Graph mode's `str.upper()` and `str.lower()` convert ASCII letters only: "
        "`\"héllo\".upper()` gave 'HéLLO' in GRAPH_MODE and 'HÉLLO' in PyNative."
    ),
    remedy="Convert the text's case before the compiled code runs, and pass the result in.",
    mindspore_says="(compiles; result differs from PyNative)",
)

METHODS = ("upper", "lower")


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in ctx.of(ast.Call):
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr in METHODS
            and not call.args
            and not call.keywords
        ):
            continue
        text = _known_str(ctx, func.value, 0)
        if text is None or text.isascii():
            continue
        pynative = text.upper() if func.attr == "upper" else text.lower()
        graph = "".join(
            (c.upper() if func.attr == "upper" else c.lower()) if c.isascii() else c for c in text
        )
        if graph != pynative:
            yield ASCII_ONLY_CASE.finding(
                call,
                text=ast.unparse(call),
                method=func.attr,
                graph=repr(graph),
                pynative=repr(pynative),
            )


def _known_str(ctx: FunctionContext, expr: ast.expr, depth: int) -> Optional[str]:
    """The str `expr` certainly is, when the source fixes it."""
    if depth > 4:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left = _known_str(ctx, expr.left, depth + 1)
        right = _known_str(ctx, expr.right, depth + 1)
        return None if left is None or right is None else left + right
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return None if bound is None else _known_str(ctx, bound, depth + 1)
    attr = names.self_attribute(expr)
    if attr is not None and ctx.fn.cls is not None:
        values = {
            node.value.value if isinstance(node.value, ast.Constant) else None
            for node in of_type(ctx.fn.cls.node, ast.Assign)
            for t in node.targets
            if names.self_attribute(t) == attr
        }
        found = values.pop() if len(values) == 1 else None
        return found if isinstance(found, str) else None
    return None
