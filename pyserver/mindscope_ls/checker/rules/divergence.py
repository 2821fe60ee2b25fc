"""MS301-MS306: code that compiles but computes something other than PyNative."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..fixes.edits import replace_node, segment
from ..model import Fix, Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names, receivers, shared_values
from .helpers.base import FunctionContext, cacheable, within
from .helpers.flow import loads_after

GLOBAL_WRITE = Rule(
    "MS301",
    "global-write",
    Group.DIVERGES,
    title="Writing a global variable in compiled code",
    message=(
        "Writing the global `{name}` in compiled code is not seen by the graph, which read it at "
        "compile time; keep the state in a Parameter or pass it in."
    ),
    why=(
        "Graph mode reads globals once at compile time; the write is not seen by the graph "
        "(PyNative returned 1 where GRAPH_MODE returned 0 for the example)."
    ),
    remedy="Keep the counter in a Parameter or pass it as an argument.",
    mindspore_says="(compiles; result differs from PyNative)",
)

CELL_LIST_MUTATION = Rule(
    "MS302",
    "cell-list-mutation",
    Group.DIVERGES,
    title="Mutating a list attribute of the Cell in compiled code",
    message=(
        "`self.{name}.{method}(...)` in compiled code changes a compile-time copy, not the Cell's"
        " list; build a local list or move this out of compiled code."
    ),
    why=(
        "The graph works on a copy of the list taken at compile time, so `self.items.append(...)`"
        " is not seen (PyNative returned 1 where GRAPH_MODE returned 0 for the example)."
    ),
    remedy="Build a local list, or move the bookkeeping out of `construct`.",
    mindspore_says="(compiles; result differs from PyNative)",
)

IN_PLACE_ALIAS_UPDATE = Rule(
    "MS303",
    "in-place-alias-update",
    Group.DIVERGES,
    title="In-place update of a Tensor alias",
    message=(
        "`{name}` aliases `{original}`, and in graph mode this in-place update changes "
        "`{original}` too (PyNative does not); {instead}."
    ),
    why=(
        "In graph mode `y += 1` (or `y.add_(1)`) updates the Tensor `y` aliases, so the original "
        "changes too (PyNative rebinds `y` only: it returned 1 where GRAPH_MODE returned 2). "
        "Through `y = self.weight` the Parameter itself changes, and the change persists into "
        "the next call."
    ),
    remedy="Write `y = y + 1` (or `y = y.add(1)`), which creates a new Tensor in both modes.",
    mindspore_says="(compiles; result differs from PyNative)",
    fix_title="Rewrite as `{name} = {name} {op} ...`",
)

ALIAS_ITEM_WRITE = Rule(
    "MS305",
    "alias-item-write",
    Group.DIVERGES,
    title="Item assignment through a Tensor alias",
    message=(
        "`{name}` aliases `{original}`: PyNative changes `{original}` too when you write "
        "`{name}[...]`, graph mode does not; write to `{original}` itself, or copy first "
        "(`{name} = {original}.copy()`)."
    ),
    why=(
        "In graph mode `y[0] = v` makes a new Tensor for `y`; in PyNative `y` and `x` are one "
        "Tensor, so `x` changes as well (GRAPH_MODE returned the old `x`, PyNative the new)."
    ),
    remedy="Write to the original Tensor itself, or make the copy explicit with `.copy()`.",
    mindspore_says="(compiles; result differs from PyNative)",
)

LIST_SORT_REMOVE_IGNORED = Rule(
    "MS306",
    "list-sort-remove-ignored",
    Group.DIVERGES,
    title="`list.sort()` / `list.remove()` / `dict.setdefault()` on a local in compiled code",
    message=(
        "Graph mode ignores `{name}.{method}(...)`: the {kind} stays as it was (PyNative changes "
        "it); {instead}."
    ),
    why=(
        "In graph mode `v.sort()` (with or without `key=`/`reverse=`) and `v.remove(a)` leave a "
        "local list as it was (GRAPH_MODE returned [3, 1, 2] where PyNative returned [1, 2, 3]"
        " and [3, 2])."
    ),
    remedy=(
        "Build a new list: `v = sorted(v, key=...)`, `v = [a for a in v if a != 1]` (for a "
        "descending order, a key that negates)."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

LAMBDA_IN_LOOP = Rule(
    "MS304",
    "lambda-in-loop",
    Group.DIVERGES,
    title="Lambda or nested function collected in a loop or comprehension in compiled code",
    message=(
        "{what} collected in a loop are not called as in Python by graph mode (it binds the loop "
        "value when each is created, and the result can be None); define one function outside "
        "the loop and pass the loop value as an argument."
    ),
    why=(
        "Lambdas collected in a loop inside the graph are not called like in Python: the example "
        "returned None in GRAPH_MODE and a Tensor in PyNative. Functions that read the loop "
        "variable see its value at their creation in graph mode, its last value in Python "
        "(`[lambda v: v * i for i in range(1, 4)]` summed gave 6 in graph mode, 27 in PyNative)."
    ),
    remedy="Define the function once outside the loop and pass the loop value as an argument.",
    mindspore_says="(compiles; result differs from PyNative)",
)

LIST_MUTATORS = frozenset({"append", "extend", "insert"})
# List methods graph mode (LAX) runs as no-ops on a local list, and what to write instead.
IGNORED_LIST_METHODS = {
    "sort": "write `{0} = sorted({0}, ...)` instead",
    "remove": "build a new list, e.g. `{0} = [a for a in {0} if a != ...]`",
}
SIMPLE = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _globals(ctx)
    aliases = _tensor_aliases(ctx)
    # `z = y`, then `y += 1` / `y[0] = v` and `z` read: the same divergence, seen from `z`
    # (measured: `z = y; y += 1; return z` gave y + 1 in GRAPH_MODE, y in PyNative)
    originals = _originals(aliases)
    for node in ctx.of(ast.Call, ast.AugAssign, ast.Assign, ast.For, ast.While):
        if isinstance(node, ast.Call):
            yield from _list_attribute_mutation(ctx, node)
            yield from _alias_method(ctx, node, aliases)
            yield from _sort_remove(ctx, node)
            yield from _setdefault(ctx, node)
        elif isinstance(node, ast.Assign):
            yield from _alias_item_write(ctx, node, aliases)
            yield from _alias_item_write(ctx, node, _bound_before(ctx, originals, node))
        elif isinstance(node, ast.AugAssign):
            yield from _alias_update(ctx, node, aliases)
            yield from _attribute_alias_update(ctx, node)
            yield from _item_alias_update(ctx, node)
            yield from _alias_update(ctx, node, _bound_before(ctx, originals, node))
        elif isinstance(node, (ast.For, ast.While)):
            yield from _lambdas_in_loop(ctx, node)
    for comp in ctx.of(ast.ListComp, ast.GeneratorExp, ast.DictComp):
        if isinstance(comp, (ast.ListComp, ast.GeneratorExp, ast.DictComp)):
            yield from _lambdas_in_comprehension(comp)


def _globals(ctx: FunctionContext) -> Iterator[RawFinding]:
    declared: dict[str, ast.Global] = {}
    for statement in ctx.of(ast.Global):
        for name in statement.names:
            declared.setdefault(name, statement)
    if not declared:
        return
    for node in ctx.of(ast.Name):
        if isinstance(node.ctx, ast.Store) and node.id in declared:
            yield GLOBAL_WRITE.finding(
                node, related=[ctx.related(declared[node.id], "declared global here")], name=node.id
            )


def _list_attribute_mutation(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in LIST_MUTATORS):
        return
    owner = func.value
    if not (
        isinstance(owner, ast.Attribute)
        and isinstance(owner.value, ast.Name)
        and owner.value.id == "self"
        and ctx.fn.cls is not None
    ):
        return
    attr = ctx.fn.cls.attr(owner.attr)
    if attr is None or attr.kind != "list":
        return
    yield CELL_LIST_MUTATION.finding(
        call,
        related=[ctx.related(attr.node, f"`self.{owner.attr}` created here")] if attr.node else [],
        name=owner.attr,
        method=func.attr,
    )


def _tensor_aliases(ctx: FunctionContext) -> dict[str, tuple[str, ast.Assign]]:
    """`y = x` where x is a Tensor: y -> (x, the assignment)."""
    aliases: dict[str, tuple[str, ast.Assign]] = {}
    for node in ctx.of(ast.Assign):
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
            and ctx.types.is_tensor(node.value)
        ):
            aliases.setdefault(node.targets[0].id, (node.value.id, node))
    return aliases


def _originals(
    aliases: dict[str, tuple[str, ast.Assign]],
) -> dict[str, tuple[str, ast.Assign]]:
    """The reverse of `aliases`: `x` -> (its first alias `y`, the `y = x` assignment)."""
    out: dict[str, tuple[str, ast.Assign]] = {}
    for alias, (original, assign) in aliases.items():
        if original not in aliases and alias != original:
            out.setdefault(original, (alias, assign))
    return out


def _bound_before(
    ctx: FunctionContext, originals: dict[str, tuple[str, ast.Assign]], node: ast.AST
) -> dict[str, tuple[str, ast.Assign]]:
    """The reverse aliases still in force at `node`: `z = y` earlier in the source, with
    neither name bound again in between (a loop that rebinds them each time does not alias:
    realcode, mindyolo's `offsets = offsets_new` at the end of a loop body)."""
    if not originals:
        return originals
    at = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    out: dict[str, tuple[str, ast.Assign]] = {}
    for original, (alias, assign) in originals.items():
        start = (assign.lineno, assign.col_offset)
        if start >= at:
            continue
        rebound = any(
            n.id in (original, alias)
            and isinstance(n.ctx, ast.Store)
            and start < (n.lineno, n.col_offset) < at
            and n is not assign.targets[0]
            for n in ctx.of(ast.Name)
        )
        if not rebound:
            out[original] = (alias, assign)
    return out


def _alias_update(
    ctx: FunctionContext, node: ast.AugAssign, aliases: dict[str, tuple[str, ast.Assign]]
) -> Iterator[RawFinding]:
    if not isinstance(node.target, ast.Name) or node.target.id not in aliases:
        return
    name = node.target.id
    yield from _through_alias(
        ctx,
        IN_PLACE_ALIAS_UPDATE,
        node,
        name,
        aliases,
        fix=_rebind_fix(ctx, node),
        instead=f"write `{name} = {name} <op> <value>` instead",
    )


def _item_alias_update(ctx: FunctionContext, node: ast.AugAssign) -> Iterator[RawFinding]:
    """`d["a"] += 1` where the item is a Tensor put into the dict (or list) display by name:
    graph mode updates that Tensor in place. Measured (round 36, `dc_`, LAX and STRICT):
    `d = {"a": x}; d["a"] += 1` then `x` read (also `l = [x]; l[0] += 1`, a local `y`, `-=`,
    `*=`, `+= x`) gave x + 1 in GRAPH_MODE, x in PyNative; `{"a": x, "b": x}` then `d["b"]`
    (also `l[1]`, `d[k] += 1` over the keys in a loop) alike. What agrees: `d["a"] = d["a"] + 1`,
    the item's own reads (`d["a"]`), an item that is not a name (`{"b": x * 10}`), numbers."""
    target = node.target
    if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
        return
    holder = target.value.id
    display = receivers.only_binding(ctx, holder)
    if isinstance(display, ast.Dict):
        items = [(k, v) for k, v in zip(display.keys, display.values) if k is not None]
        if len(items) != len(display.keys):
            return
        pairs: list[tuple[object, ast.expr]] = [
            (k.value if isinstance(k, ast.Constant) else k, v) for k, v in items
        ]
    elif isinstance(display, ast.List):
        if any(isinstance(e, ast.Starred) for e in display.elts):
            return
        pairs = list(enumerate(display.elts))
    else:
        return
    key = target.slice
    if isinstance(key, ast.Constant):
        updated = [v for k, v in pairs if k == key.value and type(k) is type(key.value)]
    else:
        updated = [v for _, v in pairs]  # a key known when the loop runs: any item
    fn = ctx.fn.node
    for value in updated:
        if not isinstance(value, ast.Name) or not ctx.types.is_tensor(value):
            continue
        original = value.id
        shared = sum(1 for _, v in pairs if isinstance(v, ast.Name) and v.id == original) > 1
        if loads_after(fn, original, node) is None and not (
            shared and loads_after(fn, holder, node) is not None
        ):
            continue
        text = ast.unparse(target)
        yield IN_PLACE_ALIAS_UPDATE.finding(
            node,
            related=[ctx.related(display, f"`{holder}` holds `{original}` here")],
            name=text,
            original=original,
            instead=f"write `{text} = {text} <op> <value>` instead",
        )
        return


def _attribute_alias_update(ctx: FunctionContext, node: ast.AugAssign) -> Iterator[RawFinding]:
    """`y = self.w` then `y += v`: graph mode updates the Tensor attribute (a Parameter too)
    itself, and the change persists into the next call (measured on 2.10 at LAX and STRICT:
    `y = self.p; y += 1.0` grew `self.p` by 1 per call, PyNative left it; `y = self.t` of a
    plain Tensor attribute alike). `y = y * 2` in between makes a new Tensor: no divergence."""
    target = node.target
    if not isinstance(target, ast.Name) or ctx.fn.cls is None:
        return
    assign = _attribute_alias(ctx, target.id, node)
    if assign is None:
        return
    original = ast.unparse(assign.value)
    yield IN_PLACE_ALIAS_UPDATE.finding(
        node,
        related=[ctx.related(assign, f"`{target.id}` aliases `{original}` here")],
        fix=_rebind_fix(ctx, node),
        name=target.id,
        original=original,
        instead=f"write `{target.id} = {target.id} <op> <value>` instead",
    )


def _attribute_alias(ctx: FunctionContext, name: str, node: ast.AST) -> Optional[ast.Assign]:
    """The `name = self.<attr>` (a Tensor) that `name` still holds at `node`: the function's
    only binding of `name` besides its augmented assignments."""
    binds = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store)]
    assigns = [
        a
        for a in ctx.of(ast.Assign)
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name
    ]
    if len(assigns) != 1:
        return None
    assign = assigns[0]
    value = assign.value
    if not (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and value.value.id == "self"
        and (ctx.types.is_tensor(value) or _tensor_attribute(ctx, value.attr))
    ):
        return None
    augmented = {id(a.target) for a in ctx.of(ast.AugAssign)}
    if any(b is not assign.targets[0] and id(b) not in augmented for b in binds):
        return None  # bound otherwise too (`y = y * 2`, a loop target): maybe a new Tensor
    if not _may_alias_at(ctx, assign, node):
        return None
    return assign


def _tensor_attribute(ctx: FunctionContext, name: str) -> bool:
    """`self.<name>` holds a Tensor, a constant one too (`self.t = Tensor([1.0, 2.0])`:
    measured, `y = self.t; y += 1.0` grows it per call in graph mode as well)."""
    attr = ctx.fn.cls.attr(name) if ctx.fn.cls is not None else None
    return attr is not None and attr.kind in ("tensor", "const_tensor")


def _alias_method(
    ctx: FunctionContext, call: ast.Call, aliases: dict[str, tuple[str, ast.Assign]]
) -> Iterator[RawFinding]:
    """`y.add_(1)` where `y = x`: an in-place Tensor method (its name ends in `_`)."""
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in aliases
        and func.attr.endswith("_")
        and not func.attr.startswith("_")
    ):
        return
    name = func.value.id
    yield from _through_alias(
        ctx,
        IN_PLACE_ALIAS_UPDATE,
        call,
        name,
        aliases,
        instead=f"write `{name} = {name}.{func.attr[:-1]}(...)` instead",
    )


def _alias_item_write(
    ctx: FunctionContext, node: ast.Assign, aliases: dict[str, tuple[str, ast.Assign]]
) -> Iterator[RawFinding]:
    for target in node.targets:
        if not (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id in aliases
        ):
            continue
        yield from _through_alias(ctx, ALIAS_ITEM_WRITE, node, target.value.id, aliases)


def _through_alias(
    ctx: FunctionContext,
    rule: Rule,
    node: ast.AST,
    name: str,
    aliases: dict[str, tuple[str, ast.Assign]],
    fix: Optional[Fix] = None,
    **args: object,
) -> Iterator[RawFinding]:
    """`rule` at `node`, which changes the Tensor alias `name`, when the original it aliases is
    read afterwards (the two modes then disagree on what that read sees)."""
    original, assign = aliases[name]
    if not _may_alias_at(ctx, assign, node) or loads_after(ctx.fn.node, original, node) is None:
        return
    yield rule.finding(
        node,
        related=[ctx.related(assign, f"`{name}` aliases `{original}` here")],
        fix=fix,
        name=name,
        original=original,
        **args,
    )


def _may_alias_at(ctx: FunctionContext, assign: ast.Assign, node: ast.AST) -> bool:
    """Whether `assign` may bind the alias `node` changes: a loop holds both, or it comes first
    and not in the other branch of an `if` (measured: `if m is not None: m += c` / `else: m =
    c` leaves `c` alone in both modes; realcode/alias_bound_in_other_branch_ok)."""
    loops = ctx.of(ast.For, ast.While)
    if any(within(loop, [assign]) and within(loop, [node]) for loop in loops):
        return True
    if (assign.lineno, assign.col_offset) > (
        getattr(node, "lineno", 0),
        getattr(node, "col_offset", 0),
    ):
        return False
    return not any(
        (_in_part(s.body, assign) and _in_part(s.orelse, node))
        or (_in_part(s.orelse, assign) and _in_part(s.body, node))
        for s in ctx.of(ast.If)
    )


def _in_part(part: list[ast.stmt], node: ast.AST) -> bool:
    return any(within(stmt, [node]) for stmt in part)


def _sort_remove(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    """`v.sort(...)` / `v.remove(...)` on a local list (under STRICT they fail instead: MS203)."""
    func = call.func
    if (
        ctx.level == SyntaxLevel.STRICT
        or not isinstance(func, ast.Attribute)
        or func.attr not in IGNORED_LIST_METHODS
        or not isinstance(func.value, ast.Name)
    ):
        return
    value = shared_values.abstract(ctx).of(func.value)
    if value is None or value.kind != "list":
        return
    name = func.value.id
    yield LIST_SORT_REMOVE_IGNORED.finding(
        call,
        name=name,
        method=func.attr,
        kind="list",
        instead=IGNORED_LIST_METHODS[func.attr].format(name),
    )


def _setdefault(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    """`d.setdefault('k', v)` of a key a local dict of literal keys lacks, `d` read after:
    round 33 (`dv_`) measured LAX leaving `d` as it was (`len(d)` 1 where PyNative gave 2;
    the call's own value is right, and a key `d` holds agrees); STRICT fails (MS121)."""
    func = call.func
    if (
        ctx.level == SyntaxLevel.STRICT
        or not isinstance(func, ast.Attribute)
        or func.attr != "setdefault"
        or not isinstance(func.value, ast.Name)
        or not call.args
        or not isinstance(call.args[0], ast.Constant)
        or not isinstance(call.args[0].value, str)
    ):
        return
    value = shared_values.abstract(ctx).of(func.value)
    if value is None or value.kind != "dict" or value.keys is None:
        return
    if call.args[0].value in value.keys:
        return
    name = func.value.id
    end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
    loads: list[ast.Name] = ctx.of(ast.Name)
    if not any(
        n.id == name and isinstance(n.ctx, ast.Load) and (n.lineno, n.col_offset) > end
        for n in loads
    ):
        return
    yield LIST_SORT_REMOVE_IGNORED.finding(
        call,
        name=name,
        method="setdefault",
        kind="dict",
        instead=f"write `{name}[key] = {name}.get(key, default)`",
    )


def _rebind_fix(ctx: FunctionContext, node: ast.AugAssign) -> Optional[Fix]:
    op = names.OPERATOR_SYMBOLS.get(type(node.op))
    value = segment(ctx.lines, node.value)
    if op is None or value is None or "\n" in value or not isinstance(node.target, ast.Name):
        return None
    if not isinstance(node.value, SIMPLE):
        value = f"({value})"
    name = node.target.id
    return IN_PLACE_ALIAS_UPDATE.fix(
        replace_node(node, f"{name} = {name} {op} {value}"), name=name, op=op
    )


def _lambdas_in_loop(ctx: FunctionContext, loop: ast.For | ast.While) -> Iterator[RawFinding]:
    calls = ctx.of(ast.Call)
    # Nested defs of the loop body that read the loop variable (measured: appended in the loop,
    # then called after it, `v * i` gave 0 in graph mode, 8 in PyNative; one that reads no loop
    # variable, or is called inside the loop, gave the same in both).
    targets = _names(loop.target) if isinstance(loop, ast.For) else set()
    defs = {
        s.name: s for s in loop.body if isinstance(s, ast.FunctionDef) and targets & _free_reads(s)
    }
    for stmt in loop.body:
        for node in within(stmt, calls):
            if not (
                isinstance(node.func, ast.Attribute) and node.func.attr == "append" and node.args
            ):
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Lambda):
                yield LAMBDA_IN_LOOP.finding(arg, what="Lambdas")
            elif isinstance(arg, ast.Name) and arg.id in defs:
                yield LAMBDA_IN_LOOP.finding(arg, what="Nested functions")


def _names(target: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _free_reads(fn: ast.FunctionDef | ast.Lambda) -> set[str]:
    """Names a function reads but does not bind as a parameter or local."""
    args = fn.args
    params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    body: list[ast.AST] = [fn.body] if isinstance(fn, ast.Lambda) else list(fn.body)
    loads: set[str] = set()
    stores: set[str] = set()
    for part in body:
        for n in ast.walk(part):
            if isinstance(n, ast.Name):
                (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
    return loads - params - stores


def _lambdas_in_comprehension(
    comp: ast.ListComp | ast.GeneratorExp | ast.DictComp,
) -> Iterator[RawFinding]:
    """`[lambda v: v * i for i in ...]`: each lambda reads `i` when called, after the
    comprehension in Python (its last value), at its creation in graph mode."""
    element = comp.value if isinstance(comp, ast.DictComp) else comp.elt
    if not isinstance(element, ast.Lambda):
        return
    targets: set[str] = set()
    for gen in comp.generators:
        targets |= _names(gen.target)
    if targets & _free_reads(element):
        yield LAMBDA_IN_LOOP.finding(element, what="Lambdas")
