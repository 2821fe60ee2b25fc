"""MS318: a list or dict changed in place through another name, in compiled code.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative: graph mode treats a list
or a dict as a value, so `lst.append(v)` (`extend`, `insert`, `pop`, `remove`, `clear`,
`update`, `setdefault`, `lst[i] = v`, `lst += [...]`, `del lst[i]`) changes only the name it is
called on:

    def collect(feats, x):          # a helper, or a method `self.collect(feats, x)`
        feats.append(ops.relu(x))   # PyNative: the caller's list grows; graph: it does not
    ...
    feats = []
    collect(feats, x)
    return len(feats)               # PyNative 1, GRAPH_MODE 0

The same with an alias in one function: `b = a; b.append(v); len(a)` gave 2 in PyNative, 1 in
graph mode, and so did a chained `a = b = []` (each name got its own list). Returning the container
(`feats = collect(feats, x)`) or reading only the name that
was changed gives the same result in both modes.

A nested def or a lambda in a Cell's construct changing the enclosing function's list or dict
(round 35) is the same copy: `def add(v): out.append(v)`, `f = lambda v: out.append(v)`, `d[k] =
v`, `out[0] = v`, called (also in a loop), then `out` read, gave the old contents in GRAPH_MODE
at LAX and STRICT; a nested def returning the list, or with a list of its own, agreed.

A Tensor given to a helper that writes one of its items behaves alike (measured the same way):
`clear_first(y)` with `def clear_first(v): v[0] = 0.0`, then `return y`, gave `[0, 3, 3]` in
PyNative and `[3, 3, 3]` in GRAPH_MODE, LAX and STRICT; also a method `self.zero_tail(y)`
writing `v[1:] = 0.0`, a mask write `v[v < 2.0] = 0.0`, `v[0] += 10.0`, and construct's own
input passed on (`clear_first(x); return x * 2`). Agreeing: a helper that rebinds its parameter
first (`v = v.copy()`), one that returns it, and a caller that does not read the name again.

A local bound to a list or dict attribute (`d = self.cfg`), changed in place, then the
attribute read (`self.cfg["a"]`, `len(self.cfg)`) gave the `__init__` contents in GRAPH_MODE at
LAX and STRICT (round 36, `dc_`); reading the local agreed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import partial
from typing import Optional, Union

from ..incremental.memo import NodeMemo
from ..index.module import ModuleInfo
from ..model import Group, RawFinding, Related
from ..rule import Rule, node_range
from .closures import indexed_unseen
from .helpers import names
from .helpers.flow import loads_after
from .helpers.reached_methods import reached_methods
from .helpers.walk import of_type

SHARED_CONTAINER_WRITE = Rule(
    "MS318",
    "container-changed-through-other-name",
    Group.DIVERGES,
    title="A list or dict changed in place through another name, in compiled code",
    message=(
        "`{write}` changes the {kind} `{name}` in place, but graph mode {copies}: "
        "`{other}`, read {where}, keeps its old contents in GRAPH_MODE (PyNative sees the "
        "change)."
    ),
    why=(
        "In graph mode a list or a dict is a value: passing it to a function or binding it to a "
        "second name makes a copy, and an in-place change (`append`, `extend`, `insert`, `pop`, "
        "`clear`, `update`, item assignment, `+=`) reaches only the name it is made through. "
        "Measured: a helper appending to the list it was given left the caller's list empty "
        "in GRAPH_MODE (`len` 0; PyNative 2). A helper writing an item of a Tensor it was "
        "given (`v[0] = 0.0`) changes a copy in graph mode too."
    ),
    remedy=(
        "Return the changed container and rebind it (`feats = collect(feats, x)`), or change it "
        "through the name that is read afterwards."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem"}
)
BUILDERS = frozenset({"list", "dict"})


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    functions = {s.name: s for s in tree.body if isinstance(s, _DEFS)}
    compiled: list[tuple[FunctionNode, Optional[ast.ClassDef]]] = [
        (fn, None)
        for fn in functions.values()
        if any(names.is_jit(module, d) for d in fn.decorator_list)
    ]
    for klass in (s for s in tree.body if isinstance(s, ast.ClassDef)):
        if not any(names.is_cell_qualname(module.qualname(b)) for b in klass.bases):
            continue
        compiled += [(m, klass) for m in _compiled_methods(klass)]
    cells = {
        s.name: s
        for s in tree.body
        if isinstance(s, ast.ClassDef)
        and any(names.is_cell_qualname(module.qualname(b)) for b in s.bases)
    }
    seen: set[tuple[int, int]] = set()
    # Whether any function or method of the module writes an item of one of its parameters:
    # only then can a Tensor passed to it be changed through another name.
    defs: list[FunctionNode] = of_type(tree, *_DEFS)
    writers = any(_writes_parameter_item(f) for f in defs)
    for fn, cls in compiled:
        if cls is not None:
            yield from _attribute_aliases(module, fn, cls, seen)
        containers = _CONTAINERS.get(fn, None, partial(_container_locals, fn))
        if not containers and not writers:
            continue
        for call in of_type(fn, ast.Call):
            callee = _callee(call, cls, functions, cells)
            if callee is None:
                continue
            params = [a.arg for a in (*callee.args.posonlyargs, *callee.args.args)]
            if cls is not None and isinstance(call.func, ast.Attribute) and params[:1] == ["self"]:
                params = params[1:]
            for arg, param in zip(call.args, params):
                if not isinstance(arg, ast.Name) or arg.id == "self":
                    continue
                kind = containers.get(arg.id)
                if kind is None:
                    # A Tensor (or any value) whose item the helper writes: graph mode writes
                    # a copy. Not an alias of an attribute (a Parameter keeps int writes).
                    if not _item_stored(callee, param) or _bound_to_attribute(fn, arg.id):
                        continue
                    write = _first_write(callee, param, items_only=True)
                else:
                    write = _first_write(callee, param)
                if write is None or _returns(callee, param):
                    continue
                read = loads_after(fn, arg.id, call)
                if read is None:
                    continue
                yield from _report(
                    module,
                    seen,
                    write,
                    (call, f"`{arg.id}` passed here"),
                    read,
                    kind or "Tensor",
                    param,
                    arg.id,
                    "by the caller after the call",
                )
        yield from _aliases(module, fn, containers, seen, cls is not None)
        if cls is not None and containers:  # a jit function compiles in PyNative too
            yield from _closures(module, fn, containers, seen)


def _aliases(
    module: ModuleInfo,
    fn: FunctionNode,
    containers: dict[str, str],
    seen: set[tuple[int, int]],
    in_cell: bool,
) -> Iterator[RawFinding]:
    """`b = a` with `a` a local list/dict, then `b` changed in place, then `a` read; or
    `a = b = []` (one display bound to both), then either changed and the other read."""
    for assign in of_type(fn, ast.Assign):
        if len(assign.targets) > 1:
            if in_cell:  # an `@ms.jit` function compiles in PyNative too (measured: the same)
                yield from _chained(module, fn, assign, seen)
            continue
        if not (
            len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
            and isinstance(assign.value, ast.Name)
            and assign.value.id in containers
        ):
            continue
        alias, source = assign.targets[0].id, assign.value.id
        write = _first_write(fn, alias, after=assign)
        if write is None:
            continue
        read = loads_after(fn, source, write)
        if read is None:
            continue
        yield from _report(
            module,
            seen,
            write,
            (assign, f"`{alias} = {source}` here"),
            read,
            containers[source],
            alias,
            source,
            "afterwards",
        )


def _attribute_aliases(
    module: ModuleInfo, fn: FunctionNode, cls: ast.ClassDef, seen: set[tuple[int, int]]
) -> Iterator[RawFinding]:
    """`d = self.cfg` (a list or dict attribute `__init__` builds), `d` changed in place, then
    `self.cfg` read. Measured (round 36, `dc_`, LAX and STRICT): `d["a"] = 5`, `d.update(...)`,
    a new key, `v[0] = 5` of a list, then `self.cfg["a"]` / `len(self.cfg)`, gave the
    `__init__` contents in GRAPH_MODE; reading `d` itself agreed."""
    assigns = [
        a
        for a in of_type(fn, ast.Assign)
        if len(a.targets) == 1
        and isinstance(a.targets[0], ast.Name)
        and names.self_attribute(a.value) is not None
    ]
    if not assigns:
        return
    kinds = _attribute_kinds(cls)
    for assign in assigns:
        attr = names.self_attribute(assign.value) or ""
        kind = kinds.get(attr)
        if kind is None:
            continue
        alias = assign.targets[0]
        assert isinstance(alias, ast.Name)
        write = _first_write(fn, alias.id, after=assign)
        if write is None:
            continue
        end = _end(write)
        read = min(
            (
                a
                for a in of_type(fn, ast.Attribute)
                if isinstance(a.ctx, ast.Load)
                and names.self_attribute(a) == attr
                and _start(a) >= end
            ),
            key=_start,
            default=None,
        )
        if read is None:
            continue
        yield from _report(
            module,
            seen,
            write,
            (assign, f"`{alias.id} = self.{attr}` here"),
            read,
            kind,
            alias.id,
            f"self.{attr}",
            "afterwards",
        )


def _attribute_kinds(cls: ast.ClassDef) -> dict[str, str]:
    """Attributes `__init__` binds once to a list or dict display (and nothing else binds)."""
    init = next((i for i in cls.body if isinstance(i, _DEFS) and i.name == "__init__"), None)
    if init is None:
        return {}
    kinds: dict[str, Optional[str]] = {}
    for node in of_type(cls, ast.Assign):
        for t in node.targets:
            attr = names.self_attribute(t)
            if attr is None:
                continue
            kind = _kind(node.value) if any(node is b for b in init.body) else None
            kinds[attr] = kind if attr not in kinds else None
    return {k: v for k, v in kinds.items() if v is not None}


def _closures(
    module: ModuleInfo, fn: FunctionNode, containers: dict[str, str], seen: set[tuple[int, int]]
) -> Iterator[RawFinding]:
    """A nested def or a lambda bound to a name in `fn` that changes a list or dict local of
    `fn` in place, called, then that local read. Measured in a Cell's construct (2.10, LAX and
    STRICT): `def add(v): out.append(v)` called twice, then `len(out)`, gave 0 where PyNative
    gave 2; so did `f = lambda v: out.append(v)`, `d[k] = v` in the nested def, and `out`
    stacked afterwards; a nested def that only reads a local agreed."""
    nested = list(_nested_functions(fn))
    if not nested:  # (a module check: it runs on every keystroke)
        return
    failing = {name for _, name, _ in indexed_unseen(fn)}  # MS174: compiling fails there
    calls = of_type(fn, ast.Call)
    for inner, name, body in nested:
        call = next(  # the first call after the definition
            (
                c
                for c in calls
                if isinstance(c.func, ast.Name) and c.func.id == name and _start(c) > _end(body)
            ),
            None,
        )
        if call is None:
            continue
        own = {a.arg for a in (*inner.args.posonlyargs, *inner.args.args, *inner.args.kwonlyargs)}
        for local, kind in containers.items():
            if local in own or local in failing or _binds(inner, local):
                continue
            if isinstance(inner, ast.Lambda):
                write: Optional[ast.stmt] = body if _changes(ast.Expr(inner.body), local) else None
            else:
                write = _first_write(inner, local)
                if write is not None and _returns(inner, local):
                    write = None
            read = loads_after(fn, local, call) if write is not None else None
            if write is None or read is None:
                continue
            yield from _report(
                module,
                seen,
                write,
                (call, f"`{name}` called here"),
                read,
                kind,
                local,
                local,
                f"by `{fn.name}` after the call (the nested function changed a copy)",
            )


def _nested_functions(
    fn: FunctionNode,
) -> Iterator[tuple[Union[FunctionNode, ast.Lambda], str, ast.stmt]]:
    """Functions defined in `fn`'s own body: (the function, the name it is called by, the
    statement that binds it)."""
    for node in of_type(fn, *_DEFS, ast.Assign):
        if isinstance(node, _DEFS) and node is not fn:
            yield node, node.name, node
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Lambda)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            yield node.value, node.targets[0].id, node


def _binds(inner: Union[FunctionNode, ast.Lambda], name: str) -> bool:
    """`name` is local to `inner` (bound there) or declared nonlocal/global in it."""
    for node in of_type(inner, ast.Name, ast.Nonlocal, ast.Global):
        if isinstance(node, ast.Name):
            if node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
                return True
        elif isinstance(node, (ast.Nonlocal, ast.Global)) and name in node.names:
            return True
    return False


def _chained(
    module: ModuleInfo, fn: FunctionNode, assign: ast.Assign, seen: set[tuple[int, int]]
) -> Iterator[RawFinding]:
    """`a = b = []` / `a = b = {}`: Python binds one container to both names; graph mode gave
    each its own (measured on 2.10, LAX and STRICT: `a = b = []; a.append(1); len(b)` was 0
    where PyNative gave 1, and so for `a["k"] = 1` on `a = b = {}`)."""
    kind = _kind(assign.value)
    targets = [t.id for t in assign.targets if isinstance(t, ast.Name)]
    if kind is None or len(targets) != len(assign.targets) or len(set(targets)) != len(targets):
        return
    for alias in targets:
        write = _first_write(fn, alias, after=assign)
        if write is None:
            continue
        for other in targets:
            read = loads_after(fn, other, write) if other != alias else None
            if read is not None:
                yield from _report(
                    module,
                    seen,
                    write,
                    (assign, f"`{' = '.join(targets)} = ...` binds one {kind} here"),
                    read,
                    kind,
                    alias,
                    other,
                    "afterwards",
                )
                break


def _report(
    module: ModuleInfo,
    seen: set[tuple[int, int]],
    write: ast.stmt,
    shared: tuple[ast.AST, str],
    read: ast.AST,
    kind: str,
    name: str,
    other: str,
    where: str,
) -> Iterator[RawFinding]:
    """MS318 at `write`, once per write: `shared` is where the two names came to share the
    container, `read` where `other` is read after the change."""
    key = (write.lineno, write.col_offset)
    if key in seen:
        return
    seen.add(key)
    copies = "copies lists and dicts" if kind in ("list", "dict") else "writes an item into a copy"
    yield SHARED_CONTAINER_WRITE.finding(
        write,
        related=[
            Related(module.path, node_range(shared[0]), shared[1]),
            Related(module.path, node_range(read), f"`{other}` read here"),
        ],
        write=names.short(write),
        kind=kind,
        name=name,
        other=other,
        where=where,
        copies=copies,
    )


def _compiled_methods(cls: ast.ClassDef) -> list[FunctionNode]:
    return reached_methods(cls, ("construct",))


# Kept on the function's node (an untouched block keeps its node): a module check runs on
# every keystroke.
_CONTAINERS: NodeMemo[dict[str, str]] = NodeMemo()


def _container_locals(fn: FunctionNode) -> dict[str, str]:
    """Locals bound (every time) to a list or dict display, `list()`/`dict()` or a
    comprehension: their kind."""
    kinds: dict[str, Optional[str]] = {}
    for node in of_type(fn, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        for t in targets:
            if not isinstance(t, ast.Name):  # `a, b = ...` rebinds; `d[k] = v` does not
                for n in of_type(t, ast.Name):
                    if isinstance(n.ctx, ast.Store):
                        kinds[n.id] = None
                continue
            if isinstance(node, ast.AugAssign):
                continue
            value = getattr(node, "value", None) if not isinstance(node, ast.For) else None
            kind = _kind(value)
            if t.id in kinds and kinds[t.id] != kind:
                kinds[t.id] = None
            else:
                kinds[t.id] = kind
    for a in of_type(fn.args, ast.arg):
        kinds[a.arg] = None
    return {k: v for k, v in kinds.items() if v is not None}


def _kind(value: Optional[ast.expr]) -> Optional[str]:
    if isinstance(value, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return "dict"
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in BUILDERS
        and not value.keywords
        and len(value.args) <= 1
    ):
        return value.func.id
    return None


def _callee(
    call: ast.Call,
    cls: Optional[ast.ClassDef],
    functions: dict[str, FunctionNode],
    classes: Optional[dict[str, ast.ClassDef]] = None,
) -> Optional[FunctionNode]:
    func = call.func
    if isinstance(func, ast.Name):
        return functions.get(func.id)
    if cls is not None and (attr := names.self_attribute(func)) is not None:
        method = next((i for i in cls.body if isinstance(i, _DEFS) and i.name == attr), None)
        return method if method is not None else _sub_cell_construct(cls, attr, classes or {})
    return None


def _sub_cell_construct(
    cls: ast.ClassDef, attr: str, classes: dict[str, ast.ClassDef]
) -> Optional[FunctionNode]:
    """The `construct` of the module's Cell class that `__init__` alone builds into `self.<attr>`
    (`self.sub = Sub()`). Measured (round 36, `ar_`): a sub-Cell appending to the list
    `construct` passed it (or writing an item of a dict) left the caller's container unchanged
    in GRAPH_MODE, LAX and STRICT, as a helper method does."""
    if not classes:
        return None
    built: list[str] = []
    for item in cls.body:
        if isinstance(item, _DEFS):
            for node in of_type(item, ast.Assign):
                if any(names.self_attribute(t) == attr for t in node.targets):
                    value = node.value
                    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                        built.append(value.func.id)
                    else:
                        return None
    if len(built) != 1 or built[0] not in classes:
        return None
    sub = classes[built[0]]
    return next((i for i in sub.body if isinstance(i, _DEFS) and i.name == "construct"), None)


def _writes_parameter_item(fn: FunctionNode) -> bool:
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args)}
    return any(
        isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) and n.value.id in params
        for n in of_type(fn, ast.Subscript)
    )


def _item_stored(fn: FunctionNode, name: str) -> bool:
    """A cheap first look: `name[...]` stored to somewhere in `fn`."""
    return any(
        isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) and n.value.id == name
        for n in of_type(fn, ast.Subscript)
    )


def _bound_to_attribute(fn: FunctionNode, name: str) -> bool:
    """`name = self.x` (or any attribute) somewhere in `fn`."""
    return any(
        isinstance(node.value, ast.Attribute)
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        for node in of_type(fn, ast.Assign)
    )


def _first_write(
    fn: FunctionNode, name: str, after: Optional[ast.AST] = None, items_only: bool = False
) -> Optional[ast.stmt]:
    """The first in-place change of `name` in `fn` (after `after`), before `name` is rebound;
    with `items_only`, only item writes (`name[i] = v`, `name[i] += v`)."""
    start = _end(after) if after is not None else (0, 0)
    rebound = min(
        (
            _start(n)
            for n in of_type(fn, ast.Name)
            if n.id == name and isinstance(n.ctx, ast.Store) and _start(n) >= start
        ),
        default=None,
    )
    found: list[ast.stmt] = []
    for stmt in of_type(fn, ast.Expr, ast.Assign, ast.AugAssign, ast.Delete, ast.Return):
        if _start(stmt) < start or (rebound is not None and _start(stmt) > rebound):
            continue
        if _item_written(stmt, name) if items_only else _changes(stmt, name):
            found.append(stmt)
    if isinstance(fn, _DEFS):  # nested functions are other scopes
        found = [s for s in found if not _in_nested(fn, s)]
    return min(found, key=_start) if found else None


def _changes(stmt: ast.stmt, name: str) -> bool:
    value = getattr(stmt, "value", None)
    if isinstance(stmt, (ast.Expr, ast.Assign, ast.Return)) and value is not None:
        for call in of_type(value, ast.Call):
            if (
                isinstance(call.func, ast.Attribute)
                and call.func.attr in MUTATORS
                and isinstance(call.func.value, ast.Name)
                and call.func.value.id == name
            ):
                return True
    if isinstance(stmt, ast.AugAssign):
        t = stmt.target
        return (isinstance(t, ast.Name) and t.id == name) or _item_of(t, name)
    if isinstance(stmt, ast.Assign):
        return any(_item_of(t, name) for t in stmt.targets)
    if isinstance(stmt, ast.Delete):
        return any(_item_of(t, name) for t in stmt.targets)
    return False


def _item_written(stmt: ast.stmt, name: str) -> bool:
    if isinstance(stmt, ast.AugAssign):
        return _item_of(stmt.target, name)
    if isinstance(stmt, ast.Assign):
        return any(_item_of(t, name) for t in stmt.targets)
    return False


def _item_of(target: ast.expr, name: str) -> bool:
    return (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id == name
    )


def _in_nested(fn: FunctionNode, node: ast.AST) -> bool:
    for inner in of_type(fn, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
        if inner is not fn and _start(inner) <= _start(node) <= _end(inner):
            return True
    return False


def _returns(fn: FunctionNode, name: str) -> bool:
    """`return lst` (or `lst` in a returned tuple/list): the caller may rebind it."""
    for r in of_type(fn, ast.Return):
        value = r.value
        parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
        if any(isinstance(p, ast.Name) and p.id == name for p in parts):
            return True
    return False


def _start(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)
