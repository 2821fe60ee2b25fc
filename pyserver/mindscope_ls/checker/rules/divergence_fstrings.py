"""MS347: an f-string writes a Python bool or float as C++ does in compiled code.

Measured with MindSpore 2.10 on CPU at LAX against PyNative: graph mode builds an f-string
field (without a format spec; MS322 is the spec) with C++ stream formatting, not Python's
`str`: `f"{self.flag}"` of a bool attribute gave 'true' (PyNative 'True'), `f"{n > 1}"`
'true', `f"{2.0}"` '2' ('2.0'), `f"{m * 1.0}"` '3' ('3.0'), `f"{1 / 3}"` '0.333333'
('0.3333333333333333'), `f"{123456789.0}"` '1.23457e+08' (six significant digits, like C's
`%g`). Floats that `%g` writes as Python does agree (`f"{0.5}"`, `f"{0.001}"`, `f"{1e20}"`),
and so do ints and strs; `str(v)`, `"{}".format(v)` and `%` keep Python's bool text. A tuple
or list display's items are written the same way (`f"{(1, 2.0)}"` gave '(1, 2)',
`f"{[True, 3]}"` '[true, 3]'), and a conversion does not change that (`f"{True!s}"` gave
'true', `f"{2.0!s}"` '2'). An f-string in a `raise`, an `assert` or a logging call is left
alone (a message, not a computed value). Round 36 (`sf_`): one printed by a Cell's `print`
writes that text to stdout (`print(f'{self.training}')` wrote `false`, `print(f'r={1 / 3}')`
`r=0.333333`), so `print` is judged (an `@jit` function's is not: PyNative compiles it too).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding
from ..rule import Rule
from .divergence_bool_ints import BIT_OPS, boolish
from .divergence_scalars import INT_SAMPLES, evaluate
from .helpers import names, receivers
from .helpers.base import FunctionContext
from .helpers.instances import init_argument_values
from .helpers.walk import of_type

FSTRING_CPP_TEXT = Rule(
    "MS347",
    "fstring-cpp-number-text",
    Group.DIVERGES,
    title="An f-string writes a Python bool or float as C++ does in compiled code",
    message=(
        "`{{{field}}}` in an f-string writes {graph} in graph mode where PyNative writes "
        "{pynative} (graph mode formats bools and floats as C++ does); use `str({field})`."
    ),
    why=(
        "Graph mode builds an f-string's fields with C++ formatting: a bool is 'true' / "
        "'false' and a float has at most six significant digits and no '.0' "
        "(`f\"{{2.0}}\"` gave '2', `f\"{{1 / 3}}\"` '0.333333', `f\"{{flag}}\"` 'true' in "
        "GRAPH_MODE); `str(v)` gives Python's text."
    ),
    remedy='Convert the value with `str(v)` inside the f-string (`f"{str(v)}"`).',
    mindspore_says="(compiles; result differs from PyNative)",
)

MESSAGE_CALLS = frozenset({"print", "info", "warning", "debug", "error", "warn"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    joined = ctx.of(ast.JoinedStr)
    if not joined:
        return
    quiet = messages(ctx)
    for node in joined:
        if id(node) in quiet:
            continue
        for part in node.values:
            if not isinstance(part, ast.FormattedValue) or part.format_spec is not None:
                continue
            texts = _texts(ctx, part.value)
            if texts is None:
                continue
            graph, pynative = texts
            yield FSTRING_CPP_TEXT.finding(
                part,
                field=ast.unparse(part.value),
                graph=graph,
                pynative=pynative,
            )


def _texts(ctx: FunctionContext, value: ast.expr) -> Optional[tuple[str, str]]:
    """(graph mode's text, PyNative's text) of a field when they differ."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, BIT_OPS):
        return None  # an int in graph mode: MS346's
    display = _display(ctx, value)
    if display is not None:
        return _display_texts(ctx, display)
    if boolish(ctx, value):
        return "'true' / 'false'", "'True' / 'False'"
    held = _init_float(ctx, value)
    if held is not None:  # `self.scale = scale` of `scale=2.0`, the one value constructions give
        graph, pynative = f"{held:g}", repr(held)
        return None if graph == pynative else (repr(graph), repr(pynative))
    texts: list[tuple[str, str]] = []
    found = _sampled(ctx, value)
    if found is None:
        return None
    for wide, narrow, is_float in found:  # a shape's float must differ for each sample
        graph, pynative = f"{narrow:g}", repr(float(wide))  # C's %g
        if not is_float or graph == pynative:
            return None
        texts.append((repr(graph), repr(pynative)))
    if texts[0] != texts[-1]:  # it depends on a shape: the text of one sample, as an example
        return f"a C++ text (e.g. {texts[0][0]})", f"Python's (e.g. {texts[0][1]})"
    return texts[0]


def _display(ctx: FunctionContext, value: ast.expr) -> Optional[Union[ast.Tuple, ast.List]]:
    """A tuple or list display of two or more items (directly or through a local bound once)."""
    if isinstance(value, ast.Name):
        bound = receivers.only_binding(ctx, value.id)
        value = bound if bound is not None else value
    if (
        isinstance(value, (ast.Tuple, ast.List))
        and len(value.elts) >= 2
        and not any(isinstance(e, ast.Starred) for e in value.elts)
    ):
        return value
    return None


def _display_texts(
    ctx: FunctionContext, display: Union[ast.Tuple, ast.List]
) -> Optional[tuple[str, str]]:
    """Graph mode writes a tuple's or list's items as it writes them alone (measured:
    `f"{(1, 2.0)}"` gave '(1, 2)', `f"{[True, 3]}"` '[true, 3]')."""
    graph: list[str] = []
    pynative: list[str] = []
    for item in display.elts:
        if isinstance(item, ast.Constant) and type(item.value) in (bool, int, str):
            text = repr(item.value)
            graph.append(text.lower() if type(item.value) is bool else text)
            pynative.append(text)
            continue
        if boolish(ctx, item):
            return "'true' / 'false' for its bools", "'True' / 'False'"
        found = _number_texts(ctx, item)
        if found is None:
            return None
        graph.append(found[0])
        pynative.append(found[1])
    if graph == pynative:
        return None
    opening, closing = ("(", ")") if isinstance(display, ast.Tuple) else ("[", "]")
    return (
        repr(opening + ", ".join(graph) + closing),
        repr(opening + ", ".join(pynative) + closing),
    )


def _sampled(ctx: FunctionContext, expr: ast.expr) -> Optional[list[tuple[float, float, bool]]]:
    """`evaluate`'s (wide, narrow, is_float) of `expr` for each of INT_SAMPLES' shapes; None
    when any sample has no value."""
    found: list[tuple[float, float, bool]] = []
    for sample in INT_SAMPLES:
        try:
            value = evaluate(ctx, expr, sample, 0, spread=True, tensors=False)
        except (ArithmeticError, ValueError, TypeError, OverflowError):
            return None
        if value is None:
            return None
        found.append(value)
    return found


def _number_texts(ctx: FunctionContext, item: ast.expr) -> Optional[tuple[str, str]]:
    """(graph text, Python text) of a number the source fixes, the same for every sample."""
    texts: set[tuple[str, str]] = set()
    found = _sampled(ctx, item)
    if found is None:
        return None
    for wide, narrow, is_float in found:
        if is_float:
            texts.add((f"{narrow:g}", repr(float(wide))))
        else:
            texts.add((str(int(wide)), str(int(wide))))
    return texts.pop() if len(texts) == 1 else None


def _init_float(ctx: FunctionContext, expr: ast.expr) -> Optional[float]:
    """The float `self.<attr>` holds when `__init__` alone stores a parameter in it whose
    default is a float literal, and every `Cls(...)` of the module passes that value or none."""
    passed = init_passed(ctx, expr)
    if passed is None:
        return None
    found = {v.value for v in passed if isinstance(v, ast.Constant) and type(v.value) is float}
    if len(found) != 1 or not all(isinstance(v, ast.Constant) for v in passed):
        return None
    return found.pop()


def init_passed(ctx: FunctionContext, expr: ast.expr) -> Optional[list[ast.expr]]:
    """What `self.<attr>` can hold when `__init__` alone stores a parameter in it: the
    parameter's default and what every `Cls(...)` of the module passes for it."""
    attr = names.self_attribute(expr)
    cls = ctx.fn.cls
    tree = ctx.fn.module.tree
    if attr is None or cls is None or tree is None:
        return None
    init = next(
        (f for f in cls.node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"),
        None,
    )
    stores = [
        n
        for n in of_type(cls.node, ast.Attribute)
        if not isinstance(n.ctx, ast.Load) and names.self_attribute(n) == attr
    ]
    if init is None or len(stores) != 1:
        return None
    assign = next(
        (a for a in of_type(init, ast.Assign) if len(a.targets) == 1 and a.targets[0] is stores[0]),
        None,
    )
    if assign is None or not isinstance(assign.value, ast.Name):
        return None
    constructions = (
        c
        for c in of_type(tree, ast.Call)
        if isinstance(c.func, ast.Name) and c.func.id == cls.node.name
    )
    return init_argument_values(constructions, init, assign.value.id)


def messages(ctx: FunctionContext) -> set[int]:
    """The ids of f-strings inside a `raise`, an `assert` or a logging call, or a `print` of an
    `@jit` function (PyNative compiles it too); a Cell's `print` writes the graph's text."""
    found: set[int] = set()
    holders: list[ast.AST] = [*ctx.of(ast.Raise), *ctx.of(ast.Assert)]
    for call in ctx.of(ast.Call):
        func = call.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name == "print" and isinstance(func, ast.Name) and ctx.fn.level is None:
            continue  # a Cell's print writes the graph's text (round 36: `false`, `[a, b]`)
        if name in MESSAGE_CALLS:
            holders.append(call)
    for holder in holders:
        found.update(id(j) for j in of_type(holder, ast.JoinedStr))
    return found
