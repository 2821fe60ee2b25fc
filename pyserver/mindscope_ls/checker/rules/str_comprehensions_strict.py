"""MS242: a comprehension over a str, or `enumerate()` / `filter()` of a str, under STRICT.

Measured with MindSpore 2.10 on CPU against PyNative: LAX iterates a str in Python; STRICT
takes its length first and fails ("In JIT strict mode, cannot get attributes __len__ or the
String object has no attribute: '__len__'") for `[c for c in 'ab']`, `{c: 1 for c in 'ab'}`,
`tuple(c for c in s)` with `s = 'ab'`, `[c for c in self.cls_name]`,
`[i for i, c in enumerate('abc')]` and `for i, c in enumerate('abc')`; `filter(f, self.name)`
(in a `for`, in `tuple()`) too. (A plain `for` over a
str and `len()` of one are MS224's.) What compiles under STRICT: `any(c == 'a' for c in s)`,
`zip('ab', (1, 2))`, `sorted('ba')`, `max('abc')`, `reversed('abc')` and `'a' in s`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import strs
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

STR_COMPREHENSION_UNDER_STRICT = Rule(
    "MS242",
    "str-comprehension-strict",
    Group.STRICT,
    title="A comprehension over a str, or `enumerate()` / `filter()` of a str, under STRICT",
    message=(
        "{what} the str `{text}` is not supported under jit_syntax_level=STRICT (a graph str "
        "has no length); iterate a tuple of strs, or compute it outside compiled code."
    ),
    why=(
        "Under STRICT a str has no `__len__` in the graph, and comprehensions and "
        "`enumerate()` take the length of what they iterate; LAX iterates it in Python."
    ),
    remedy="Iterate a tuple of strs (`('a', 'b')`), or keep the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __len__ or the String object "
        "has no attribute: '__len__'."
    ),
)

_COLLECTORS = frozenset({"tuple", "list"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    values = abstract(ctx)
    collected = {
        id(call.args[0])
        for call in ctx.of(ast.Call)
        if isinstance(call.func, ast.Name)
        and call.func.id in _COLLECTORS
        and len(call.args) == 1
        and isinstance(call.args[0], ast.GeneratorExp)
    }
    comps: list[ast.ListComp | ast.DictComp | ast.GeneratorExp] = ctx.of(
        ast.ListComp, ast.DictComp, ast.GeneratorExp
    )
    for comp in comps:
        if isinstance(comp, ast.GeneratorExp) and id(comp) not in collected:
            continue  # `any(... for c in s)` compiles (measured); others not measured
        source = comp.generators[0].iter
        if strs.is_str(ctx, values, source):
            yield STR_COMPREHENSION_UNDER_STRICT.finding(
                source, what="A comprehension over", text=ast.unparse(source)
            )
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        if (
            isinstance(call.func, ast.Name)
            and call.func.id == "enumerate"
            and call.args
            and not isinstance(call.args[0], ast.Starred)
            and strs.is_str(ctx, values, call.args[0])
        ):
            yield STR_COMPREHENSION_UNDER_STRICT.finding(
                call, what="`enumerate()` of", text=ast.unparse(call.args[0])
            )
        elif (
            isinstance(call.func, ast.Name)
            and call.func.id == "filter"
            and len(call.args) == 2
            and not call.keywords
            and strs.is_str(ctx, values, call.args[1])
        ):
            yield STR_COMPREHENSION_UNDER_STRICT.finding(
                call, what="`filter()` of", text=ast.unparse(call.args[1])
            )
