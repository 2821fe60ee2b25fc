"""MS147: a `collections.defaultdict` read at a key nothing set, in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them): graph mode
turns a `defaultdict` into a plain dict and drops its default factory, so reading a key no
statement set fails ("ValueError: The key a does not exist in the dict:{}"): `d["a"] += 1`
after `d = defaultdict(int)`, `d["k"].append(x)` after `defaultdict(list)`, `d["w"]` after
`collections.defaultdict(lambda: 1.0)`, and `self.d["a"]` of a defaultdict `__init__` built
empty. What compiles: the key set first (`d["a"] = 2` then `d["a"] += 1`), `d.get("a", 3)`,
and `collections.Counter(...)` read at a key it counted. Left alone: a key that is not a
constant once any item was set (it may be one of them), a defaultdict attribute that any
method fills, and a defaultdict built with initial contents (`defaultdict(int, {"a": 2})`
compiles read at "a").
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import ModuleInfo
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext, cacheable

DEFAULTDICT_MISSING_KEY = Rule(
    "MS147",
    "defaultdict-missing-key",
    Group.FAILS,
    title="A `defaultdict` read at a key nothing set, in compiled code",
    message=(
        "`{read}` reads a key of the defaultdict `{name}` that nothing set: graph mode makes "
        "it a plain dict without its default factory and fails at every level (the key does not "
        "exist in the dict); set the key first (`{name}[{key}] = ...`) or use "
        "`{name}.get({key}, default)`."
    ),
    why=(
        "Graph mode converts a `collections.defaultdict` to its own dict type, which has no "
        "default factory: a missing key is an error, not a new default entry."
    ),
    remedy="Set every key before reading it (or read with `.get(key, default)`).",
    mindspore_says="ValueError: The key a does not exist in the dict:{}",
)

_DEFAULTDICT = "collections.defaultdict"
COLLECTIONS = frozenset({"collections"})  # where a `defaultdict` can come from


def _is_defaultdict(module: ModuleInfo, expr: Optional[ast.expr]) -> bool:
    """`defaultdict(factory)` built empty: `defaultdict(int, {"a": 2})` or
    `defaultdict(int, a=2)` holds its initial keys (measured: `self.dd["a"]` of that compiles
    at both levels)."""
    return (
        isinstance(expr, ast.Call)
        and module.qualname(expr.func) == _DEFAULTDICT
        and len(expr.args) <= 1
        and not expr.keywords
    )


def _same(a: ast.expr, b: ast.expr) -> bool:
    return ast.dump(a) == ast.dump(b)


def _local_defaultdicts(ctx: FunctionContext) -> dict[str, ast.Assign]:
    """Locals bound once, to `defaultdict(...)`."""
    module = ctx.fn.module
    bound: dict[str, list[ast.AST]] = {}
    for node in ctx.of(ast.Name):
        if isinstance(node.ctx, ast.Store):
            bound.setdefault(node.id, []).append(node)
    found: dict[str, ast.Assign] = {}
    for assign in ctx.of(ast.Assign):
        if (
            len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
            and _is_defaultdict(module, assign.value)
            and len(bound.get(assign.targets[0].id, [])) == 1
        ):
            found[assign.targets[0].id] = assign
    return found


def _attribute_defaultdicts(ctx: FunctionContext) -> set[str]:
    """`self.<attr>` that `__init__` binds to an empty `defaultdict(...)` and no method of the
    class fills (`self.<attr>[k] = v`, `.update`, `.setdefault`)."""
    cls = ctx.fn.cls
    if cls is None:
        return set()
    init = cls.own_method("__init__")
    if init is None:
        return set()
    found: set[str] = set()
    for node in ast.walk(init):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and names.self_attribute(node.targets[0]) is not None
            and _is_defaultdict(cls.module, node.value)
        ):
            found.add(names.self_attribute(node.targets[0]) or "")
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            found.discard(names.self_attribute(node.value) or "")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("update", "setdefault", "__setitem__")
        ):
            found.discard(names.self_attribute(node.func.value) or "")
    return found


def _holder(expr: ast.expr) -> Optional[str]:
    """The name a subscript's value is spelled as: `d` or `self.d`."""
    if isinstance(expr, ast.Name):
        return expr.id
    attr = names.self_attribute(expr)
    return f"self.{attr}" if attr is not None else None


def _missing_reads(ctx: FunctionContext, holders: set[str]) -> Iterator[ast.Subscript]:
    """Reads of `holder[key]` (plain, `op=`, or as a method's receiver) before any statement
    sets that key; one per holder."""
    subs = sorted(
        (s for s in ctx.of(ast.Subscript) if _holder(s.value) in holders),
        key=lambda s: (s.lineno, s.col_offset),
    )
    augmented = {id(a.target) for a in ctx.of(ast.AugAssign)}
    set_keys: dict[str, list[ast.expr]] = {}
    reported: set[str] = set()
    # A plain `d[k] = v` sets its key when the statement ends: its value is read first.
    stores = [s for s in subs if isinstance(s.ctx, ast.Store) and id(s) not in augmented]
    for sub in subs:
        holder = _holder(sub.value) or ""
        if holder in reported:
            continue
        before = [
            s.slice
            for s in stores
            if _holder(s.value) == holder
            and (s.lineno, s.col_offset) < (sub.lineno, sub.col_offset)
        ]
        set_keys[holder] = before
        if isinstance(sub.ctx, ast.Store) and id(sub) not in augmented:
            continue
        key = sub.slice
        if any(_same(key, k) for k in before):
            continue
        if before and not isinstance(key, ast.Constant):
            continue  # a variable key may be one that was set
        reported.add(holder)
        yield sub


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if not names.imports_package(ctx.fn.module, COLLECTIONS) or not ctx.of(ast.Subscript):
        return
    holders = set(_local_defaultdicts(ctx)) | {f"self.{a}" for a in _attribute_defaultdicts(ctx)}
    # `if k in d: d[k] += 1 else: d[k] = 1` sets a key before reading it, whatever the order.
    for compare in ctx.of(ast.Compare):
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in compare.ops):
            holders -= {h for c in compare.comparators if (h := _holder(c)) is not None}
    if not holders:
        return
    for sub in _missing_reads(ctx, holders):
        name = _holder(sub.value) or ""
        yield DEFAULTDICT_MISSING_KEY.finding(
            sub, read=ast.unparse(sub), name=name, key=ast.unparse(sub.slice)
        )
