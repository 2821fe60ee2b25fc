"""MS143, MS144, MS325: dict displays unpacking a dict (`{**d, ...}`) the graph builds wrongly.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike, against PyNative:

- MS144: `**self.<dict>` in a dict display (`{**self.cfg}`, `{**self.cfg, "c": x}`,
  `{"z": 1.0, **self.cfg}`, one entry or several, numbers or Tensors) fails while compiling:
  "RuntimeError: The input of dict which need unpack must be dict, but got 10". What compiles:
  `c = self.cfg; {**c}`, `dict(**self.cfg)`, `{**CFG}` of a module dict, a comprehension over
  `self.cfg.items()`.
- MS143 / MS325: `e = {**d, "c": x, ...}` where `d` is a local written-out dict of two or more
  constants and an added entry holds a value computed in the graph. Graph mode keeps `d`'s
  values as one element (`return e` gave `{(('a', 'b'),): ((1.0, 2.0),), 'c': x}`) but reads a
  key by its place among all keys: the j-th added key of k is read at index n + j (n: `d`'s
  entries) of a tuple of 1 + k values. Past its end the read fails (MS143: "IndexError:
  TupleGetItem evaluator index should be in range[-2, 2), but got 2", naming the read's line):
  `{**d, "c": x}` then `e["c"]` or `e.get("c")`, `{**d, "c": x, "f": 2 * x}` then `e["f"]`;
  `d = dict(a=1.0, b=2.0)` and negative constants alike.
  Inside it the read compiles and returns another added entry's value (MS325: `e["c"]` of
  `{**d, "c": x, "f": 2 * x}` gave `2 * x`, PyNative `x`). What is right: reading `d`'s own
  keys, an added constant (`e["f"]` of `{**d, "c": x, "f": 3.0}` gave 3.0), `d` of one
  entry, the unpacking last (`{"c": x, **d}`), only constants added (folded), and
  `{**{...}, **{...}}` of written-out dicts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any, Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext
from .helpers.elements import Elements

SELF_DICT_UNPACKED = Rule(
    "MS144",
    "self-dict-unpacked",
    Group.FAILS,
    title="`**self.<dict>` in a dict display in compiled code",
    message=(
        "`**self.{name}` unpacks a dict attribute inside a dict display, which graph mode "
        "cannot build at any level (The input of dict which need unpack must be dict); bind it "
        "to a local first (`{name} = self.{name}`, then `{{**{name}, ...}}`) or copy it with "
        "`dict(**self.{name})`."
    ),
    why=(
        "Graph mode gives a dict attribute of the Cell to the display's unpacking as a Python "
        "object, not a dict; a local name bound to it, or `dict(**...)`, is converted first."
    ),
    remedy=(
        "Bind the attribute to a local (`cfg = self.cfg`, then `{**cfg, 'c': x}`), or use "
        "`dict(**self.cfg)` and add keys to the copy."
    ),
    mindspore_says="RuntimeError: The input of dict which need unpack must be dict, but got 10",
)

SPREAD_READ_FAILS = Rule(
    "MS143",
    "dict-spread-read-out-of-range",
    Group.FAILS,
    title="A key added after `**d` of a dict of constants, read in compiled code",
    message=(
        "`{read}` reads a key added after `**{name}` in `{display}`: graph mode keeps "
        "`{name}`'s {count} constants as one value but looks `{key!r}` up by its place among "
        "all keys, past the end of the values, and fails at every level (TupleGetItem "
        "evaluator index should be in range); put `**{name}` last (`{fixed}`) or copy `{name}` "
        "with a comprehension and add the key to the copy."
    ),
    why=(
        "Graph mode builds `{**d, 'c': x}` of a dict `d` of constants with `d`'s values as one "
        "element, while a read counts `d`'s keys one by one: the keys added after it are read "
        "at the wrong place."
    ),
    remedy=(
        "Unpack `d` last (`{'c': x, **d}`), or copy it (`e = {k: v for k, v in d.items()}`) "
        "and set `e['c'] = x`."
    ),
    mindspore_says=(
        "IndexError: TupleGetItem evaluator index should be in range[-2, 2), but got 2."
    ),
)

SPREAD_READ_SHIFTED = Rule(
    "MS325",
    "dict-spread-read-shifted",
    Group.DIVERGES,
    title="A key added after `**d` of a dict of constants reads another key's value",
    message=(
        "`{read}` reads a key added after `**{name}` in `{display}`: graph mode keeps "
        "`{name}`'s {count} constants as one value but looks `{key!r}` up by its place among "
        "all keys, so it returns `{other}`'s value (PyNative: `{key}`'s); put `**{name}` last "
        "(`{fixed}`) or copy `{name}` with a comprehension and add the key to the copy."
    ),
    why=(
        "Graph mode builds `{**d, 'c': x, 'f': y}` of a dict `d` of constants with `d`'s values "
        "as one element, while a read counts `d`'s keys one by one: `e['c']` returns `y`."
    ),
    remedy=(
        "Unpack `d` last (`{'c': x, **d}`), or copy it (`e = {k: v for k, v in d.items()}`) "
        "and set `e['c'] = x`."
    ),
    mindspore_says="(compiles; `e['c']` is the value of a later added key, PyNative: `x`)",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    displays: list[ast.Dict] = ctx.of(ast.Dict)
    if not displays:
        return
    values: Optional[Elements] = None
    spreads: dict[str, tuple[ast.Dict, str, int]] = {}  # local -> display, d, len(d)
    for display in displays:
        for key, value in zip(display.keys, display.values):
            if key is None and receivers.kind_of(ctx, value) == receivers.DICT:
                name = receivers.self_attr_name(value) or "cfg"
                first = display.keys[0] or display.values[0]
                related = []
                if first.lineno != value.lineno:
                    # MindSpore names the display's first entry (measured)
                    related.append(ctx.related(first, "MindSpore names the dict's first entry"))
                yield SELF_DICT_UNPACKED.finding(value, related=related, name=name)
        found = _constants_spread(ctx, display)
        if found is None:
            continue
        if values is None:
            values = Elements(ctx.types, ctx.fn.node, ctx.lines)
        if not any(values.variable(v) for v in display.values[1:]):
            continue  # only constants added: folded, right
        target = _bound_to(ctx, display)
        if target is not None:
            spreads[target] = (display, *found)
    if spreads and values is not None:
        yield from _reads(ctx, spreads, values)


def _constants_spread(ctx: FunctionContext, display: ast.Dict) -> Optional[tuple[str, int]]:
    """`{**d, "k": v, ...}`: `d` (a local bound once to a written-out dict of two or more
    constants) and its size, when every added key is a str constant."""
    if len(display.keys) < 2 or display.keys[0] is not None:
        return None
    first = display.values[0]
    if not isinstance(first, ast.Name):
        return None
    if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in display.keys[1:]):
        return None
    bound = receivers.only_binding(ctx, first.id)
    if isinstance(bound, ast.Dict):
        if not all(isinstance(k, ast.Constant) for k in bound.keys):
            return None
        entries = bound.values
    elif (
        isinstance(bound, ast.Call)
        and isinstance(bound.func, ast.Name)
        and bound.func.id == "dict"
        and not bound.args
        and all(k.arg is not None for k in bound.keywords)
    ):
        entries = [k.value for k in bound.keywords]  # dict(a=1.0, b=2.0): measured alike
    else:
        return None
    if len(entries) < 2 or not all(_constant(v) for v in entries):
        return None
    return first.id, len(entries)


def _constant(value: Optional[ast.expr]) -> bool:
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        value = value.operand
    return isinstance(value, ast.Constant)


def _bound_to(ctx: FunctionContext, display: ast.Dict) -> Optional[str]:
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        if assign.value is display and len(assign.targets) == 1:
            target = assign.targets[0]
            if isinstance(target, ast.Name) and receivers.only_binding(ctx, target.id) is display:
                return target.id
    return None


def _reads(
    ctx: FunctionContext, spreads: dict[str, tuple[ast.Dict, str, int]], values: Elements
) -> Iterator[RawFinding]:
    subscripts: list[ast.Subscript] = ctx.of(ast.Subscript)
    changed = {
        s.value.id
        for s in subscripts
        if isinstance(s.value, ast.Name) and not isinstance(s.ctx, ast.Load)
    }
    reads: list[tuple[ast.expr, str, str]] = []  # node, local, key
    for sub in subscripts:
        if (
            isinstance(sub.ctx, ast.Load)
            and isinstance(sub.value, ast.Name)
            and isinstance(sub.slice, ast.Constant)
            and isinstance(sub.slice.value, str)
        ):
            reads.append((sub, sub.value.id, sub.slice.value))
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "get"
            and isinstance(func.value, ast.Name)
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            reads.append((call, func.value.id, call.args[0].value))
    for node, local, key in reads:
        if local not in spreads or local in changed:
            continue
        display, name, count = spreads[local]
        added = [k.value for k in display.keys[1:] if isinstance(k, ast.Constant)]
        if key not in added:
            continue
        if not values.variable(display.values[1 + added.index(key)]):
            continue  # an added constant is read right (measured: folded)
        index = count + added.index(key)  # among the values (d's as one, then the added)
        args: dict[str, Any] = {
            "read": ast.unparse(node),
            "name": name,
            "display": _short(display),
            "count": count,
            "key": key,
            "fixed": _fixed(display, name),
        }
        if index >= 1 + len(added):
            yield SPREAD_READ_FAILS.finding(node, **args)
        else:
            yield SPREAD_READ_SHIFTED.finding(node, other=added[index - 1], **args)


def _short(display: ast.Dict) -> str:
    text = ast.unparse(display)
    return text if len(text) <= 60 else text[:57] + "...}"


def _fixed(display: ast.Dict, name: str) -> str:
    rest = ast.Dict(keys=display.keys[1:], values=display.values[1:])
    inner = ast.unparse(rest)[1:-1]
    return "{" + inner + ", **" + name + "}"
