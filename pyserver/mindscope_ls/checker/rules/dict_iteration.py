"""MS168, MS213: `enumerate(d)` / `zip(d, ...)` of a local dict holding a Tensor.

Measured with MindSpore 2.10 on CPU against PyNative (`d = {"a": x, "b": 2 * x}`):
- LAX: graph mode's `enumerate`/`zip` take a dict holding a Tensor by its values, not its keys,
  so the loop's key is a Tensor: `d[k]` in the loop fails ("Only integer tensors of a single
  element can be converted to an index"), `d.get(k)` likewise (MS168, every level); `k == "b"`
  is never true (a silent divergence).
- STRICT: every such `enumerate(d)` / `zip(d, ...)` fails, read or not ("When handling script
  'zip(__input_0__,__input_1__,) in graph mode', the inputs should be constant") (MS213).
A dict of numbers or strs, a dict attribute of the Cell, `for k in d` and `enumerate(d.keys())`,
`enumerate(d.items())` compile at both levels and agree with PyNative.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared, objects
from .helpers.base import FunctionContext, cacheable
from .helpers.walk import of_type

DICT_KEY_FROM_ENUMERATE = Rule(
    "MS168",
    "dict-enumerated-key-read",
    Group.FAILS,
    title="`d[k]` with `k` from `enumerate(d)` / `zip(d, ...)` of a dict holding a Tensor",
    message=(
        "`{call}` gives the loop the values of `{name}` (it holds a Tensor), not its keys, in "
        "graph mode, so `{read}` indexes the dict with a Tensor and fails at every level; "
        "iterate `{name}.keys()` or `{name}.items()` instead."
    ),
    why=(
        "Graph mode's `enumerate` and `zip` take a dict holding a Tensor by its values (measured "
        "on 2.10), so the name meant for the key is bound to a Tensor."
    ),
    remedy=(
        "Iterate the keys explicitly: `enumerate(d.keys())`, `zip(d.keys(), ...)` or `d.items()`."
    ),
    mindspore_says=(
        "ValueError: Only integer tensors of a single element can be converted to an index."
    ),
)

DICT_ENUMERATED_UNDER_STRICT = Rule(
    "MS213",
    "dict-enumerated-under-strict",
    Group.STRICT,
    title="`enumerate(d)` / `zip(d, ...)` of a dict holding a Tensor, under STRICT",
    message=(
        "`{call}` iterates the dict `{name}`, which holds a Tensor: STRICT runs "
        "`{func}` of it only on constants; iterate `{name}.keys()` or `{name}.items()`."
    ),
    why=(
        "Under STRICT a dict holding a graph Tensor is not a constant, and graph mode's "
        "`enumerate`/`zip` of a dict go through the Python fallback, which STRICT runs only on "
        "constants (measured on 2.10)."
    ),
    remedy="Iterate `d.keys()` or `d.items()`, or use the default LAX level.",
    mindspore_says=(
        "ValueError: When handling script 'zip(__input_0__,__input_1__,) in graph mode', the "
        "inputs should be constant"
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.For] = ctx.of(ast.For)
    candidates = [
        loop
        for loop in loops
        if isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id in ("enumerate", "zip")
        and loop.iter.args
        and not any(isinstance(a, ast.Starred) for a in loop.iter.args)
    ]
    if not candidates:
        return
    dicts = objects.dict_names(ctx.fn.node)
    if not dicts:
        return
    for loop in candidates:
        call = loop.iter
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
        func = call.func.id
        if not calls_shared.builtin(ctx, func):
            continue
        args = call.args[:1] if func == "enumerate" else call.args
        for position, arg in enumerate(args):
            if not isinstance(arg, ast.Name) or arg.id not in dicts:
                continue
            if not _holds_tensor(ctx, dicts[arg.id]):
                continue
            key = _key_name(loop.target, 1 if func == "enumerate" else position)
            read = _read_with(loop, arg.id, key) if key is not None else None
            text = ast.unparse(call)
            if read is not None:
                yield DICT_KEY_FROM_ENUMERATE.finding(
                    call, call=text, name=arg.id, read=ast.unparse(read)
                )
            else:
                yield DICT_ENUMERATED_UNDER_STRICT.finding(
                    call, call=text, name=arg.id, func=f"{func}()"
                )
            break


def _holds_tensor(ctx: FunctionContext, display: ast.expr) -> bool:
    if isinstance(display, ast.Dict):
        return any(ctx.types.is_tensor(v) for v in display.values)
    if isinstance(display, ast.DictComp):
        return ctx.types.is_tensor(display.value)
    if isinstance(display, ast.Call):  # dict(a=x, ...)
        return any(ctx.types.is_tensor(k.value) for k in display.keywords)
    return False


def _key_name(target: ast.expr, position: int) -> Optional[str]:
    """The loop's name bound to the dict's item (`k` in `for i, k in enumerate(d)`)."""
    if not isinstance(target, ast.Tuple) or position >= len(target.elts):
        return None
    elt = target.elts[position]
    return elt.id if isinstance(elt, ast.Name) else None


def _read_with(loop: ast.For, dict_name: str, key: str) -> Optional[ast.expr]:
    """`d[k]` or `d.get(k, ...)` in the loop's body."""
    for stmt in loop.body:
        nodes: list[ast.Subscript | ast.Call] = of_type(stmt, ast.Subscript, ast.Call)
        for node in nodes:
            if isinstance(node, ast.Subscript):
                if (
                    isinstance(node.value, ast.Name)
                    and node.value.id == dict_name
                    and isinstance(node.slice, ast.Name)
                    and node.slice.id == key
                ):
                    return node
            elif (
                isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == dict_name
                and node.args
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == key
            ):
                return node
    return None
