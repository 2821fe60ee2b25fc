"""MS382: an f-string field whose text graph mode writes without Python's quotes or comma
(and MS1064: an f-string of `None` compared or used as a key, below).

Measured with MindSpore 2.10 on CPU, LAX and STRICT alike, against PyNative (comparing the
f-string with each candidate text in construct):
- a `!r` (or `!a`) conversion of a str is ignored: `f"{s!r}"` with `s = "a"`, `f"{'b'!r}"`,
  `f"mode={self.mode!r}"` gave `a`, `b`, `mode=train` where PyNative gives `'a'`, `'b'`,
  `mode='train'`; `f"{n!r}"` of an int or float agrees, and so do `"{!r}".format("a")`,
  `repr("a")` and `"%r" % "a"`;
- a tuple or list holding strs loses their quotes: `f"{t}"` with `t = ("a", 1)` gave `(a, 1)`,
  `f"{['a']}"` `[a]`, `f"{self.names}"` of `["a", "b"]` `[a, b]`, a nested `((s, 1), 2)`
  `((a, 1), 2)`; `str(t)`, `"{}".format(t)` and `"%s" % (t,)` agree with PyNative;
- a one-item tuple loses its comma: `f"{(n,)}"` and `f"{(1,)}"` gave `(1)` (PyNative `(1,)`),
  and so does the shape of a 1-d Tensor: `f'{x.shape}'` gave `(3)` (round 36);
- at LAX a `!r` (or `!a`) conversion of a Tensor is ignored too: `f"{x!r}"` of a (2, 3) Tensor
  gave `[[1. 1. 1.]\n [1. 1. 1.]]` (its `str()`), PyNative `Tensor(shape=[2, 3], dtype=Float32,
  value=...)`, in construct and in a helper, `f"{x.sum()!r}"` alike; `f"{x}"` and `f"{x!s}"`
  agree with PyNative; under STRICT a Tensor f-string is MS309's.
A field with a format spec is MS322's, bools and floats MS347's. As for MS347, an f-string in
a `raise`, an `assert` or a logging call is left alone (a message, not a value), and so is a
`@jit` function (PyNative compiles it too); a Cell's `print` writes the graph's text (round
36: `print(f'{self.names}')` wrote `[a, b]`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .decorated_helpers import compiled_by_jit
from .divergence_fstrings import init_passed, messages
from .helpers import receivers, strs
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext
from .helpers.module_values import parameters
from .helpers.shared_values import abstract, shapes

FSTRING_PLAIN_TEXT = Rule(
    "MS382",
    "fstring-str-quotes-lost",
    Group.DIVERGES,
    title=(
        "An f-string writes a str, or a tuple, without Python's quotes or comma (a Tensor's "
        "`!r` as its `str()`)"
    ),
    message=(
        "`{{{field}}}` in an f-string gives {graph} in graph mode where PyNative gives "
        '{pynative}; build the text with `str(...)`, `repr(...)` or `"{{!r}}".format(...)`.'
    ),
    why=(
        "Graph mode writes an f-string's fields with its own formatter: a `!r` conversion of a "
        "str is ignored (`f\"{{s!r}}\"` gave `a`, not `'a'`), the strs inside a tuple or list "
        "lose their quotes (`f\"{{('a', 1)}}\"` gave `(a, 1)`) and a one-item tuple its comma "
        '(`f"{{(1,)}}"` gave `(1)`); at LAX `f"{{x!r}}"` of a Tensor gives its values as '
        "`str(x)` writes them, not `Tensor(shape=..., dtype=..., value=...)`; `str()`, `repr()`, "
        "`str.format` and `%` give Python's text."
    ),
    remedy=('Convert the value first: `f"{{repr(s)}}"`, `f"{{str(t)}}"`, or `"{{!r}}".format(s)`.'),
    mindspore_says="(compiles; result differs from PyNative)",
)

_CONVERSIONS = (ord("r"), ord("a"))


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    joined: list[ast.JoinedStr] = ctx.of(ast.JoinedStr)
    if not joined or compiled_by_jit(ctx):
        return
    quiet = messages(ctx)
    values: Optional[Abstract] = None
    for node in joined:
        if id(node) in quiet:
            continue
        for part in node.values:
            if not isinstance(part, ast.FormattedValue) or part.format_spec is not None:
                continue
            values = values or abstract(ctx)
            texts = _texts(ctx, values, part)
            if texts is not None:
                yield FSTRING_PLAIN_TEXT.finding(
                    part, field=ast.unparse(part.value), graph=texts[0], pynative=texts[1]
                )


def _texts(
    ctx: FunctionContext, values: Abstract, part: ast.FormattedValue
) -> Optional[tuple[str, str]]:
    value = part.value
    if (
        part.conversion in _CONVERSIONS
        and ctx.level != SyntaxLevel.STRICT
        and ctx.types.is_tensor(value)
    ):
        return "the Tensor's values as `str()` writes them", "`Tensor(shape=..., value=...)`"
    if part.conversion in _CONVERSIONS and strs.is_str(ctx, values, value):
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return f"`{value.value}`", f"`{value.value!r}`"
        return "the str without quotes", "its `repr()`, in quotes"
    if one_dim_shape(ctx, value):
        return "`(n)`", "`(n,)`"
    display = _display(ctx, value)
    if display is None:
        return None
    if _holds_str(ctx, values, display, 0):
        return "its strs without quotes", "them quoted"
    if isinstance(display, ast.Tuple) and len(display.elts) == 1:
        return "`(v)`", "`(v,)`"
    return None


def _display(ctx: FunctionContext, value: ast.expr) -> Optional[Union[ast.Tuple, ast.List]]:
    """A tuple or list display: the field itself, a local bound once to one, or a Cell
    attribute every assignment of which is one."""
    if isinstance(value, ast.Name):
        bound = receivers.only_binding(ctx, value.id)
        value = bound if bound is not None else value
    elif receivers.self_attr_name(value) is not None:
        held = receivers.self_attr(ctx, value)
        cls = ctx.fn.cls
        name = receivers.self_attr_name(value)
        if held is None or cls is None or name is None or cls.attr_varies(name):
            return None
        if not isinstance(held.node, (ast.Tuple, ast.List)) or _assigned_in(ctx, name):
            return None
        value = held.node
    if isinstance(value, (ast.Tuple, ast.List)) and not any(
        isinstance(e, ast.Starred) for e in value.elts
    ):
        return value
    return None


def _assigned_in(ctx: FunctionContext, name: str) -> bool:
    """`self.<name>` assigned in the compiled function itself."""
    stores: list[ast.Attribute] = ctx.of(ast.Attribute)
    return any(isinstance(a.ctx, ast.Store) and receivers.self_attr_name(a) == name for a in stores)


def _holds_str(
    ctx: FunctionContext, values: Abstract, display: Union[ast.Tuple, ast.List], depth: int
) -> bool:
    for item in display.elts:
        if isinstance(item, (ast.Tuple, ast.List)) and depth < 3:
            if _holds_str(ctx, values, item, depth + 1):
                return True
        elif strs.is_str(ctx, values, item):
            return True
    return False


FSTRING_NONE_COMPARED = Rule(
    "MS1064",
    "fstring-of-none-compared",
    Group.FAILS,
    title="An f-string holding `None`, compared or used as a dict key",
    message=(
        "`{text}` formats `None`, which graph mode cannot fold into a str: comparing it or "
        "keying a dict with it fails; test the value itself (`{field} is None`) or use "
        "`str({field})`."
    ),
    why=(
        "Graph mode builds an f-string whose field is `None` as a value it only knows at run "
        'time, not a constant str: `==` / `!=` on it has no kernel ("Failed to infer for '
        'primitive:string_eq") and a dict refuses it as a key ("make_dict evaluator key only '
        'supports string, ... but got ValueAny"), at LAX and STRICT (measured on 2.10). '
        "`str(None) == 'None'` and an f-string left unused compile."
    ),
    remedy="Compare the value with `is None`, or build the text with `str(value)`.",
    mindspore_says=(
        "RuntimeError: Failed to infer for primitive:string_eq in node:Default/string_eq-op0"
    ),
)


def check_none(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1064: `f"{m}" == "None"` with `m = None`, `key = f"act={self.act}"` (`self.act = None`)
    then `key == ...`, `{f"{m}": 1}`: each failed at LAX and STRICT on 2.10, naming the compare
    or the dict; `str(m) == "None"` and an unused `s = f"{m}"` compiled."""
    joined: list[ast.JoinedStr] = ctx.of(ast.JoinedStr)
    holding = [j for j in joined if any(_is_none(ctx, p) for p in j.values)]
    if not holding:
        return
    texts = {id(j) for j in holding}
    bound: dict[str, ast.JoinedStr] = {}
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for a in assigns:
        value = a.value
        if not isinstance(value, ast.JoinedStr) or id(value) not in texts:
            continue
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name):
            name = a.targets[0].id
            if receivers.only_binding(ctx, name) is value:
                bound[name] = value

    def fstring_of(expr: ast.expr) -> Optional[ast.JoinedStr]:
        if isinstance(expr, ast.JoinedStr) and id(expr) in texts:
            return expr
        if isinstance(expr, ast.Name) and isinstance(expr.ctx, ast.Load):
            return bound.get(expr.id)
        return None

    compares: list[ast.Compare] = ctx.of(ast.Compare)
    for compare in compares:
        if not all(isinstance(op, (ast.Eq, ast.NotEq)) for op in compare.ops):
            continue
        for operand in (compare.left, *compare.comparators):
            found = fstring_of(operand)
            if found is not None:
                yield FSTRING_NONE_COMPARED.finding(
                    compare, text=_short(found), field=_none_field(ctx, found)
                )
                break
    dicts: list[ast.Dict] = ctx.of(ast.Dict)
    for display in dicts:
        for key in display.keys:
            found = fstring_of(key) if key is not None else None
            if key is not None and found is not None:
                yield FSTRING_NONE_COMPARED.finding(
                    key, text=_short(found), field=_none_field(ctx, found)
                )
                break


def _is_none(ctx: FunctionContext, part: ast.expr) -> bool:
    if not isinstance(part, ast.FormattedValue):
        return False
    value = part.value
    if isinstance(value, ast.Constant):
        return value.value is None
    if isinstance(value, ast.Name):
        if value.id in parameters(ctx.fn.node):
            return False
        bound = receivers.only_binding(ctx, value.id)
        return isinstance(bound, ast.Constant) and bound.value is None
    name = receivers.self_attr_name(value)
    if name is None:
        return False
    held = receivers.self_attr(ctx, value)
    cls = ctx.fn.cls
    if held is None or cls is None or cls.attr_varies(name) or _assigned_in(ctx, name):
        return False
    if isinstance(held.node, ast.Name):  # `self.act = act` of `act=None`, never passed
        passed = init_passed(ctx, value)
        return bool(passed) and all(
            isinstance(v, ast.Constant) and v.value is None for v in passed or []
        )
    return isinstance(held.node, ast.Constant) and held.node.value is None


def _none_field(ctx: FunctionContext, joined: ast.JoinedStr) -> str:
    for part in joined.values:
        if _is_none(ctx, part):
            assert isinstance(part, ast.FormattedValue)
            return ast.unparse(part.value)
    return "value"


def _short(joined: ast.JoinedStr) -> str:
    text = ast.unparse(joined)
    return text if len(text) <= 40 else text[:37] + "..."


def one_dim_shape(ctx: FunctionContext, value: ast.expr) -> bool:
    """`x.shape` of a Tensor whose static shape has one dimension: a one-item tuple, written
    `(3)` by graph mode (measured in round 36: `f'{x.shape}'`, `print(x.shape)` of a (3,) `x`;
    `str(x.shape)` and `'{}'.format(x.shape)` agree)."""
    if not (isinstance(value, ast.Attribute) and value.attr == "shape"):
        return False
    if not ctx.types.is_tensor(value.value):
        return False
    found = shapes(ctx).of(value.value)
    return found is not None and len(found) == 1
