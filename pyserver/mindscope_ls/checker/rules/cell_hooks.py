"""MS1088: a hook registered with `with_kwargs=True` on a sub-Cell that compiled code calls.

Measured with MindSpore 2.10 on CPU at LAX and STRICT (PyNative runs them all): graph mode
runs a sub-Cell's forward hooks inside the graph, but always calls them the plain way,
`hook(cell, inputs, output)` / `hook(cell, inputs)`, whatever `with_kwargs` says; a hook
written for `with_kwargs=True` (`def hook(cell, args, kwargs, output)`) then fails ("The
parameters number of the function is 4, but the number of provided arguments is 3", naming
the hook and the sub-Cell's call in `construct`). Measured to fail:
`self.relu.register_forward_hook(hook, with_kwargs=True)` and
`register_forward_pre_hook(hook, with_kwargs=True)` in `__init__`, on a MindSpore layer or a
workspace Cell, a method of the Cell as the hook, the sub-Cell called from a helper method,
`self.block.act` (a sub-Cell of a sub-Cell), `self` itself, and `net.act` registered on the
instance before it is called; MindSpore names the hook's `def` line and the outermost
call in `construct` (reported there). Compiles: the same with
`with_kwargs=False` or left out (the hook runs, and its result replaces the output as in
PyNative), a hook taking `*args`, or defaults for the extra parameters. MS394: a forward
hook on a Cell reached through a SequentialCell, CellList or CellDict is not run at all.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, Range, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.classes import Attr
from .helpers.hook_places import gives_value, registration_places

HOOK_WITH_KWARGS = Rule(
    "MS1088",
    "hook-with-kwargs-in-graph",
    Group.FAILS,
    title="A hook registered with `with_kwargs=True` on a sub-Cell that compiled code calls",
    message=(
        "`{name}` has a hook registered with `with_kwargs=True`: graph mode calls its "
        "hooks without the keyword arguments, so the hook gets one argument fewer than it "
        "takes (fails at every level); register it without `with_kwargs`."
    ),
    why=(
        "Graph mode runs a sub-Cell's forward hooks in the compiled graph but always calls "
        "them as `hook(cell, inputs, output)` / `hook(cell, inputs)`; PyNative passes the "
        "keyword arguments when `with_kwargs=True`."
    ),
    remedy=(
        "Register the hook without `with_kwargs` and write it as `hook(cell, inputs, output)`, "
        "or run the Cell in PyNative mode."
    ),
    mindspore_says=(
        "TypeError: The parameters number of the function is 4, but the number of provided "
        "arguments is 3."
    ),
)

_FORWARD_HOOKS = frozenset({"register_forward_hook", "register_forward_pre_hook"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or ctx.fn.node.name != "construct":
        return
    if not ctx.fn.module.mentions("with_kwargs"):
        return
    tree = ctx.fn.module.tree
    if tree is None:
        return
    hooked = _hooked(tree, cls.node)
    if not hooked:
        return
    reported: set[str] = set()
    calls: list[ast.Call] = ctx.of(ast.Call)
    callers: dict[str, set[str]] = {}  # sub-Cell -> the methods (besides construct) calling it
    for method in cls.node.body:
        if isinstance(method, ast.FunctionDef) and method.name not in ("__init__", "construct"):
            for c in ast.walk(method):
                if isinstance(c, ast.Call):
                    name = names.self_attribute(c.func)
                    if name is not None:
                        callers.setdefault(name, set()).add(method.name)
    for name, (hook, target) in hooked.items():
        # MindSpore names the hook's `def` line and the outermost call in `construct`: the
        # sub-Cell's, or that of the helper method calling it
        via = {name} | callers.get(name, set()) if name else set()
        sites = [c for c in calls if names.self_attribute(c.func) in via]
        if sites:
            at: ast.AST | Range = min(sites, key=lambda c: (c.lineno, c.col_offset))
        elif not name and isinstance(hook, ast.FunctionDef):
            col = hook.col_offset
            at = Range(hook.lineno, col, hook.lineno, col + 4 + len(hook.name))
        else:
            continue
        if name not in reported:
            reported.add(name)
            yield HOOK_WITH_KWARGS.finding(at, name=target)


def _hooked(
    module: ast.Module, cls: ast.ClassDef
) -> dict[str, tuple[ast.FunctionDef | ast.Lambda, str]]:
    """The sub-Cell attribute (`""` for the Cell itself) -> (the hook, what it is registered
    on), for each
    `self.<name>[.<more>].register_forward_hook(hook, with_kwargs=True)` in the class's
    `__init__`, and `net.<name>....register_forward_hook(...)` in a module-level function
    that binds `net = Cls(...)`."""
    found: dict[str, tuple[ast.FunctionDef | ast.Lambda, str]] = {}
    places = registration_places(module, cls)
    for method, owner in places:
        for node in ast.walk(method):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _FORWARD_HOOKS
            ):
                continue
            name = _first_attribute(node.func.value, owner)
            if name is None:
                continue
            if any(
                k.arg == "with_kwargs"
                and isinstance(k.value, ast.Constant)
                and k.value.value is True
                for k in node.keywords
            ):
                hook = _hook(module, cls, node)
                if hook is not None:
                    target = "self" + ast.unparse(node.func.value)[len(owner) :]
                    found[name] = (hook, target)
    return found


def _first_attribute(expr: ast.expr, owner: str) -> str | None:
    """`a` for `owner.a.b...`, `""` for `owner` itself, else None."""
    chain: list[str] = []
    while isinstance(expr, ast.Attribute):
        chain.append(expr.attr)
        expr = expr.value
    if not (isinstance(expr, ast.Name) and expr.id == owner):
        return None
    return chain[-1] if chain else ""


def _hook(
    module: ast.Module, cls: ast.ClassDef, call: ast.Call
) -> ast.FunctionDef | ast.Lambda | None:
    """The hook given to `call` when it is a function, method or lambda written out in the
    module that needs more positional arguments than graph mode passes (3 for a forward hook,
    2 for a pre-hook); None for one taking `*args` or defaults enough, or unknown."""
    if not call.args:
        return None
    hook = call.args[0]
    fn: ast.FunctionDef | ast.Lambda | None = None
    skip = 0
    if isinstance(hook, ast.Lambda):
        fn = hook
    elif isinstance(hook, ast.Name):
        fn = next(
            (s for s in module.body if isinstance(s, ast.FunctionDef) and s.name == hook.id),
            None,
        )
    elif isinstance(hook, ast.Attribute) and names.self_attribute(hook) is not None:
        fn = next(
            (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == hook.attr),
            None,
        )
        skip = 1
    if fn is None or fn.args.vararg is not None:
        return None
    positional = [*fn.args.posonlyargs, *fn.args.args][skip:]
    required = len(positional) - len(fn.args.defaults)
    plain = (
        3
        if isinstance(call.func, ast.Attribute) and call.func.attr == "register_forward_hook"
        else 2
    )
    return fn if required > plain else None


HOOK_ON_CONTAINER_ITEM = Rule(
    "MS394",
    "hook-on-container-item",
    Group.DIVERGES,
    title="A forward hook registered on a Cell inside a SequentialCell, CellList or CellDict",
    message=(
        "`{target}` is a Cell inside `self.{container}` ({kind}): graph mode does not run "
        "hooks of Cells it reaches through a container, so this hook changes PyNative's "
        "results only; register it on a Cell held in its own attribute, or on the container."
    ),
    why=(
        "Graph mode runs the forward hooks of a Cell called as an attribute (`self.act(x)`, "
        "the container itself), but a Cell taken from a SequentialCell, CellList or CellDict "
        "(its iteration or an item) is compiled without its hooks; PyNative runs them."
    ),
    remedy=(
        "Hold the hooked Cell in its own attribute (`self.act = nn.ReLU()`) and call it from "
        "`construct`, register the hook on the container, or put the hook's computation in "
        "`construct`."
    ),
    mindspore_says="(no error: graph mode gives tanh(1) = 0.76 where PyNative gives 0.96)",
)

_HOOKS = frozenset({"register_forward_hook", "register_forward_pre_hook"})


def check_container_items(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS394. Measured on 2.10 (LAX and STRICT alike, the results compared with PyNative):
    `self.seq[0].register_forward_hook(hook)` in `__init__` for `self.seq = nn.SequentialCell
    ([nn.ReLU(), nn.Tanh()])` leaves `self.seq(x)` without the hook (0.76 where PyNative
    gives 0.96); the same for a pre-hook, the last item, a CellList item called by index or
    in a `for`, a CellDict item, `for l in self.layers: l.register_forward_hook(hook)`, and a
    Cell hooked before it is put in the SequentialCell (not reported: a local), a named Cell
    of a SequentialCell (`self.seq.act`), an item of a plain list of Cells, a container run in
    a helper method `construct` calls. Run alike: a hook on the container itself, on a
    sub-Cell attribute (`self.act`), on a sub-Cell of a sub-Cell (`self.block.act`). A hook
    returning None (only printing or recording) is left alone: the Cell's results agree."""
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or ctx.fn.node.name != "construct":
        return
    if not ctx.fn.module.mentions("_hook"):
        return
    read = {
        name for node in ctx.of(ast.Attribute) if (name := names.self_attribute(node)) is not None
    }
    for method in cls.node.body:  # and what the methods `construct` calls read
        if isinstance(method, ast.FunctionDef) and method.name in read - {"construct"}:
            read |= {
                name
                for node in ast.walk(method)
                if isinstance(node, ast.Attribute)
                and (name := names.self_attribute(node)) is not None
            }
    for method in cls.node.body:
        if not isinstance(method, ast.FunctionDef) or method.name != "__init__":
            continue
        loops: dict[str, str] = {}  # loop variable -> container
        for loop in ast.walk(method):
            if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name):
                name = names.self_attribute(loop.iter)
                if name is not None:
                    loops[loop.target.id] = name
        for call in ast.walk(method):
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in _HOOKS
            ):
                continue
            target = call.func.value
            if isinstance(target, ast.Subscript):
                container = names.self_attribute(target.value)
            elif isinstance(target, ast.Name):
                container = loops.get(target.id)
            elif isinstance(target, ast.Attribute):
                container = names.self_attribute(target.value)  # `self.seq.act`
            else:
                container = None
            if container is None or container not in read:
                continue
            held = cls.attr(container)
            kind = _container_kind(held, target)
            if kind is None or not _changes_result(ctx.fn.module.tree, cls.node, call):
                continue
            yield HOOK_ON_CONTAINER_ITEM.finding(
                call, target=ast.unparse(target), container=container, kind=kind
            )


_CONTAINERS = frozenset(
    {"mindspore.nn.CellList", "mindspore.nn.SequentialCell", "mindspore.nn.CellDict"}
)


def _changes_result(module: Optional[ast.Module], cls: ast.ClassDef, call: ast.Call) -> bool:
    """The hook `call` registers is a function, method or lambda of the module that returns
    a value (a new output or new inputs): one returning None changes nothing graph mode
    could differ on in what the Cell returns."""
    if module is None or not call.args:
        return False
    hook = call.args[0]
    if isinstance(hook, ast.Lambda):
        return not (isinstance(hook.body, ast.Constant) and hook.body.value is None)
    fn: Optional[ast.FunctionDef] = None
    if isinstance(hook, ast.Name):
        fn = next(
            (s for s in module.body if isinstance(s, ast.FunctionDef) and s.name == hook.id),
            None,
        )
    elif names.self_attribute(hook) is not None:
        assert isinstance(hook, ast.Attribute)
        fn = next(
            (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == hook.attr),
            None,
        )
    if fn is None:
        return False
    return gives_value(fn)


def _container_kind(held: Optional[Attr], target: ast.expr) -> Optional[str]:
    """What holds the hooked Cell: "SequentialCell", "CellList", "CellDict" (an item, or a
    named Cell of a SequentialCell), "a list" / "a tuple" of Cells written out (an item)."""
    if held is None:
        return None
    if held.kind == "cell" and held.class_qualname in _CONTAINERS:
        kind = held.class_qualname.rsplit(".", 1)[-1]
        if isinstance(target, ast.Attribute) and kind != "SequentialCell":
            return None
        return kind
    if isinstance(target, ast.Attribute):
        return None
    node = held.node
    if (
        isinstance(node, (ast.List, ast.Tuple))
        and node.elts
        and all(isinstance(e, ast.Call) for e in node.elts)
    ):
        return "a list" if isinstance(node, ast.List) else "a tuple"
    return None
