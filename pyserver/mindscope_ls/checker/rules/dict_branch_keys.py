"""MS1038: a dict given a key on one side of a Tensor `if`, then read after it.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (each ran there):
`d = {"a": x}; if x.sum() > 2: d["b"] = x * 2` followed by `d["a"]` fails at every level
(LAX: "Unsupported Python object type received: <class 'str'>. Supported types for tensor
indexing", no line named; STRICT: "`__py_exec_index0_getitem__` ... the inputs should be
constant", naming the read). So do `d.update({"b": x})` in the branch, `d = {}` then
`d.get("a", x)`, and a `for k in d` after the `if`: the two paths leave dicts of different
keys, which graph mode cannot join into one dict. Compile (not reported): the same key added on
both sides, an existing key overwritten, a dict not read after the `if` (or only returned), a
read inside the branch, a constant condition (`x.shape[0] > 2`), and a key added in a Tensor
`while`. `len(d)` after the `if` fails under STRICT only (not reported).

`d.clear()` on one side of the `if` (round 36, `dc_`) leaves different keys the same way: a
dict display holding a Tensor, cleared, then `len(d)`, `d.get("a", ...)` or `d["a"]` (set again
in the branch) fails at LAX and STRICT; `return d`, no read, and a dict of numbers at LAX (it
fails STRICT only: not reported) compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import blocks_of
from .helpers.receivers import only_binding

BRANCH_KEYS = Rule(
    "MS1038",
    "dict-key-added-on-one-path",
    Group.FAILS,
    title="A dict given a key (or cleared) on one side of a Tensor `if`, then read after it",
    message=(
        "`{name}` {change} only when the Tensor condition at line {line} holds, so "
        "its two paths leave dicts of different keys, which graph mode cannot join, and "
        "`{text}` reads the joined dict; give `{name}` the key on both paths (a default before "
        "the `if`), or read it inside the branch."
    ),
    why=(
        "Both sides of a Tensor condition are compiled and their values joined after it; a "
        "dict joins another only with the same keys, so the dict read afterwards is no dict "
        "graph mode can index."
    ),
    remedy=(
        'Set every key before the `if` (`d = {"a": x, "b": zeros}`) and overwrite it inside, '
        "or keep the value in its own variable."
    ),
    mindspore_says=(
        "ValueError: Unsupported Python object type received: <class 'str'>. Supported types "
        "for tensor indexing ... (STRICT: When handling script '__py_exec_index0_getitem__(...)'"
        " in graph mode, the inputs should be constant)"
    ),
)

_READ_METHODS = frozenset({"get", "items", "keys", "values"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    ifs = {id(n) for n in ctx.of(ast.If) if ctx.types.is_runtime_test(n.test)}
    if not ifs:
        return
    for block in blocks_of(ctx.fn.node):
        for index, stmt in enumerate(block):
            if not isinstance(stmt, ast.If) or id(stmt) not in ifs:
                continue
            yield from _after(ctx, stmt, block[index + 1 :])


def _after(ctx: FunctionContext, node: ast.If, rest: list[ast.stmt]) -> Iterator[RawFinding]:
    body, orelse = _added(node.body), _added(node.orelse)
    for name in sorted(set(body) | set(orelse)):
        known = _display_keys(ctx, name)
        if known is None:
            continue
        one_sided = (set(body.get(name, ())) ^ set(orelse.get(name, ()))) - known
        if not one_sided:
            continue
        read = _first_read(rest, name)
        if read is None:
            continue
        yield BRANCH_KEYS.finding(
            read,
            name=name,
            change=f"gets the key {sorted(one_sided)[0]!r}",
            line=node.lineno,
            text=ast.unparse(read),
        )
    yield from _cleared_after(ctx, node, rest)


def _cleared_after(
    ctx: FunctionContext, node: ast.If, rest: list[ast.stmt]
) -> Iterator[RawFinding]:
    """`d.clear()` on one side of the Tensor `if` of a dict display holding a Tensor, then `d`
    read (also by `len(d)`). Measured (round 36, `dc_`): `d = {"a": x, "b": x}; if x.sum() > 3:
    d.clear()` then `len(d)`, `d.get("a", ...)`, or `d["a"]` after the branch set "a" again,
    fail at LAX ("Invalid types for UnitSizeInBytes : Tensor") and STRICT; `return d`, no read,
    and a dict of numbers (LAX) compile."""
    body, orelse = _cleared(node.body), _cleared(node.orelse)
    for name in sorted(body ^ orelse):
        bound = only_binding(ctx, name)
        if not (
            isinstance(bound, ast.Dict)
            and bound.keys
            and any(ctx.types.is_tensor(v) for v in bound.values)
        ):
            continue
        known = _display_keys(ctx, name)
        side = node.body if name in body else node.orelse
        if known is not None and known <= set(_added(side).get(name, ())):
            continue  # every key set again
        read = _first_read(rest, name, sized=True)
        if read is None:
            continue
        yield BRANCH_KEYS.finding(
            read,
            name=name,
            change="is emptied by `clear()`",
            line=node.lineno,
            text=ast.unparse(read),
        )


def _cleared(block: list[ast.stmt]) -> set[str]:
    """Names `name.clear()` is called on anywhere in `block`."""
    return {
        node.func.value.id
        for stmt in block
        for node in ast.walk(stmt)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "clear"
        and not node.args
        and isinstance(node.func.value, ast.Name)
    }


def _added(block: list[ast.stmt]) -> dict[str, list[str]]:
    """Name -> the str keys `d["k"] = v` / `d.update({"k": v})` give it anywhere in `block`."""
    found: dict[str, list[str]] = {}
    for stmt in block:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if (
                        isinstance(target, ast.Subscript)
                        and isinstance(target.value, ast.Name)
                        and isinstance(target.slice, ast.Constant)
                        and isinstance(target.slice.value, str)
                    ):
                        found.setdefault(target.value.id, []).append(target.slice.value)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "update"
                and isinstance(node.func.value, ast.Name)
                and len(node.args) == 1
                and isinstance(node.args[0], ast.Dict)
            ):
                keys = _str_keys(node.args[0])
                if keys is not None:
                    found.setdefault(node.func.value.id, []).extend(keys)
    return found


def _str_keys(display: ast.Dict) -> Optional[list[str]]:
    keys = [k.value for k in display.keys if isinstance(k, ast.Constant)]
    if len(keys) != len(display.keys) or not all(isinstance(k, str) for k in keys):
        return None
    return [str(k) for k in keys]


def _display_keys(ctx: FunctionContext, name: str) -> Optional[set[str]]:
    """The str keys of the dict display (or `dict()`) `name` is bound to once, else None."""
    bound = only_binding(ctx, name)
    if isinstance(bound, ast.Dict):
        keys = _str_keys(bound)
        return set(keys) if keys is not None else None
    if (
        isinstance(bound, ast.Call)
        and isinstance(bound.func, ast.Name)
        and bound.func.id == "dict"
        and not bound.args
        and not bound.keywords
    ):
        return set()
    return None


def _first_read(rest: list[ast.stmt], name: str, sized: bool = False) -> Optional[ast.expr]:
    """The first `d[...]`, `d.get(...)`/`items()`/`keys()`/`values()` or `for _ in d` of `name`
    in the statements after the `if` (None once `name` is rebound or never read so)."""
    for stmt in rest:
        reads: list[ast.expr] = []
        for node in ast.walk(stmt):
            if (
                isinstance(node, ast.Name)
                and node.id == name
                and not isinstance(node.ctx, ast.Load)
            ):
                return None
            if (
                (
                    isinstance(node, ast.Subscript)
                    and isinstance(node.ctx, ast.Load)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == name
                )
                or (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in _READ_METHODS
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == name
                )
                or (
                    sized
                    and isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "len"
                    and len(node.args) == 1
                    and isinstance(node.args[0], ast.Name)
                    and node.args[0].id == name
                )
            ):
                reads.append(node)
            elif (
                isinstance(node, ast.For)
                and isinstance(node.iter, ast.Name)
                and node.iter.id == name
            ):
                reads.append(node.iter)
        if reads:
            return min(reads, key=lambda n: (n.lineno, n.col_offset))
    return None
