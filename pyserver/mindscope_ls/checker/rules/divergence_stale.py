"""MS317: a value compiled code read is changed between two calls, and the cached graph keeps
the old one.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative: a Cell's `construct` (or
an `@ms.jit` function) reads `self.scale`, a class attribute, a module-level number, string,
list, dict, object attribute or Tensor while compiling, as a constant. The graph is cached per
input signature (shapes and dtypes of the Tensor arguments), so after

    out1 = net(x)
    net.scale = 3.0        # or SCALE = 3.0 (global), CFG["s"] = 3.0, Net.factor = 3.0,
    out2 = net(x)          # net.set_scale(3.0), a loop that sets it before each call

`out2` still uses the old value in GRAPH_MODE; PyNative uses the new one (also when
`construct` reads the class attribute by the class's name, `x / Net.temperature`, when the list
or dict is changed in place, `SCALES.append(3.0)`, `net.scales.append(3.0)`, `OPTS.update(...)`,
through `setattr(net, "scale", 3.0)`, and when a module function that `construct` calls reads
the value). Not affected:
`Parameter.set_data` (a graph input), `net.set_train(...)` (it recompiles; so does
`net.phase = "predict"`, measured in round 35), a new instance `Net(3.0)(x)`, and a call with
differently shaped inputs (it compiles again). Round 35 also measured stale: an attribute a
`@property` getter `construct` reads returns, and `Cfg.k` of a plain class read by its name.

The rule looks, in module-level code and in each function that is not compiled, for a write of
such a value placed after a call of the compiled code that reads it and before another call
(or in a loop that also calls it), and reports the write.
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
from .helpers import names
from .helpers.reached_methods import reached_methods
from .helpers.walk import of_type

STALE_GRAPH_VALUE = Rule(
    "MS317",
    "changed-after-compile",
    Group.DIVERGES,
    title="A value the compiled graph read is changed between two calls",
    message=(
        "`{write}` changes {what}, which `{target}` read as a constant when it was compiled: "
        "graph mode reuses that graph on the next call with the same input shapes, so the old "
        "value stays in effect (PyNative uses the new one)."
    ),
    why=(
        "Graph mode reads Python values (attributes of the Cell, module-level variables, "
        "objects' attributes, even Tensor attributes) once, while compiling, and caches the "
        "graph per input shapes and dtypes: changing such a value later does not compile the "
        "graph again. Measured: `net.scale = 3.0` between two `net(x)` calls, the second call "
        "still multiplied by 1.0 in GRAPH_MODE (PyNative by 3.0)."
    ),
    remedy=(
        "Pass the changing value as an argument (a Tensor, or `mindspore.mutable(value)`), keep "
        "it in a `Parameter` and update it with `set_data`, or build a new Cell after the change."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
Tag = tuple[str, str]  # ("var", name) | ("class", Cls) | ("jit", function)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
NOT_STALE = frozenset({"training", "phase"})  # `set_train` recompiles; so does a new `phase`
STATE_CALLS = ("Parameter", "ParameterTuple")


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    classes = {
        s.name: s
        for s in tree.body
        if isinstance(s, ast.ClassDef)
        and _COMPILED_CLASS.get(s, module.imports, partial(_compiled_class, module, s))
    }
    jit_methods = {name: _jit_methods(cls) for name, cls in classes.items()}
    jits = {
        s.name: s
        for s in tree.body
        if isinstance(s, _DEFS) and any(names.is_jit(module, d) for d in s.decorator_list)
    }
    if not classes and not jits:
        return
    module_bound = _bound_classes(tree.body, classes)
    callers: list[Union[ast.Module, FunctionNode]] = [tree] + [
        s for s in tree.body if isinstance(s, _DEFS) and s.name not in jits
    ]
    # Which callers call compiled code at all, first: the module-wide tables below cost a walk
    # of every class, and this check runs on every keystroke.
    calling = []
    for caller in callers:
        body = [s for s in caller.body if not isinstance(s, (ast.ClassDef, *_DEFS))]
        local = _bound_classes(body, classes)
        bound = {**module_bound, **local} if caller is not tree else local
        calls = _compiled_calls(body, bound, jits, jit_methods)
        if calls:
            calling.append((caller, body, local, bound, calls))
    if not calling:
        return
    module_values = _module_values(tree)
    class_names = frozenset(classes)
    attr_reads = {
        name: _ATTRIBUTE_READS.get(
            cls,
            (class_names, module.imports),
            partial(_attribute_reads, module, cls, classes),
        )
        for name, cls in classes.items()
    }
    chains = {name: _chain_reads(cls, classes, attr_reads) for name, cls in classes.items()}
    class_reads: dict[str, dict[str, set[str]]] = {}  # `Net.scale` read by name in construct
    # `Cfg.k` of a plain class of the module too (measured, round 35: `Cfg.k = 5` between two
    # calls keeps the old value in GRAPH_MODE)
    plain_classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}
    for name, cls in classes.items():
        for owner, attr in _class_name_reads(cls, plain_classes):
            class_reads.setdefault(owner, {}).setdefault(attr, set()).add(name)
    global_readers: dict[str, set[Tag]] = {}
    helpers = {
        s.name: s for s in tree.body if isinstance(s, _DEFS) and s.name not in jits
    }  # module functions compiled code may call: their global reads are compiled too
    for name, cls in classes.items():
        for fn in _compiled_methods(cls):
            for g in _global_reads(fn, module_values) | _helper_reads(fn, helpers, module_values):
                global_readers.setdefault(g, set()).add(("class", name))
    # A sub-Cell's reads are compiled with its holder's graph (measured, round 37: `SCALE = 5`
    # between two `net(x)` calls, Net's construct calling `self.sub(x)` whose construct reads
    # SCALE, keeps 3), two levels down.
    for _ in range(2):
        for name, cls in classes.items():
            for _attr, inner in _CHAIN_PARTS.get(cls, None, partial(_chain_parts, cls))[2]:
                if inner == name or inner not in classes:
                    continue
                for readers in global_readers.values():
                    if ("class", inner) in readers:
                        readers.add(("class", name))
    for name, fn in jits.items():
        for g in _global_reads(fn, module_values) | _helper_reads(fn, helpers, module_values):
            global_readers.setdefault(g, set()).add(("jit", name))
    setters = _global_setters(tree, module_values)
    for caller, body, local, bound, calls in calling:
        declared = {n for g in of_type(caller, ast.Global) for n in g.names}
        ctx = _Context(
            module,
            classes,
            attr_reads,
            global_readers,
            bound,
            module_bound,
            declared,
            setters,
            caller is tree,
        )
        ctx.chains = chains
        ctx.class_reads = class_reads
        ctx.objects = _passed_objects(body, classes, local if caller is not tree else bound)
        if caller is not tree:
            ctx.local_names = {
                n.id for n in of_type(caller, ast.Name) if isinstance(n.ctx, ast.Store)
            } | {a.arg for a in of_type(caller.args, ast.arg)}  # type: ignore[union-attr]
        parents: Optional[dict[int, ast.AST]] = None  # built for the first write only
        for stmt, tags, what in ctx.writes(body):
            before = [c for c, t in calls if t & tags and _end(c) <= _start(stmt)]
            after = [c for c, t in calls if t & tags and _start(c) >= _end(stmt)]
            if parents is None:
                parents = _parents(body)
            looped = [
                c for c, t in calls if t & tags and _common_loop(parents, stmt, c) is not None
            ]
            first = before[0] if before else looped[0] if looped else None
            again = after[0] if after else looped[0] if looped else None
            if first is None or again is None or _other_inputs(first, again):
                continue
            target = _target_text(first)
            yield STALE_GRAPH_VALUE.finding(
                stmt,
                related=[
                    Related(module.path, node_range(first), f"`{target}` compiled by this call"),
                    Related(module.path, node_range(again), "called again here"),
                ],
                write=names.short(stmt),
                what=what,
                target=target,
            )


class _Context:
    def __init__(
        self,
        module: ModuleInfo,
        classes: dict[str, ast.ClassDef],
        attr_reads: dict[str, set[str]],
        global_readers: dict[str, set[Tag]],
        bound: dict[str, str],
        module_bound: dict[str, str],
        declared: set[str],
        setters: dict[str, set[str]],
        at_module: bool,
    ) -> None:
        self.module = module
        self.classes = classes
        self.attr_reads = attr_reads
        self.global_readers = global_readers
        self.bound = bound
        self.module_bound = module_bound
        self.declared = declared
        self.setters = setters
        self.at_module = at_module
        self.local_names: set[str] = set()
        self.chains: dict[str, set[tuple[str, str]]] = {}
        self.class_reads: dict[str, dict[str, set[str]]] = {}
        self.objects: dict[str, tuple[str, str]] = {}  # `cfg` -> (`net`, `cfg` of Net's self)

    def writes(self, body: list[ast.stmt]) -> Iterator[tuple[ast.stmt, set[Tag], str]]:
        for block_stmt in body:
            for stmt in of_type(block_stmt, ast.Assign, ast.AugAssign, ast.Expr):
                if isinstance(stmt, ast.Expr):
                    found = self._setter_call(stmt.value)
                    if found:
                        yield stmt, *found
                    continue
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
                if isinstance(stmt, ast.Assign) and _state_value(self.module, stmt.value):
                    continue
                for t in targets:
                    found = self._target(t, plain=not isinstance(stmt, ast.AugAssign))
                    if found:
                        yield stmt, *found
                        break

    def _target(self, t: ast.expr, plain: bool) -> Optional[tuple[set[Tag], str]]:
        whole = t
        while isinstance(t, ast.Subscript):
            t = t.value
        if (
            isinstance(t, ast.Attribute)
            and isinstance(t.value, ast.Attribute)
            and isinstance(t.value.value, ast.Name)
        ):  # `net.inner.k = v`, `net.cfg.scale = v`
            owner, middle, attr = t.value.value.id, t.value.attr, t.attr
            cls = self.bound.get(owner)
            if cls is not None and (middle, attr) in self.chains.get(cls, ()):
                return {("var", owner)}, f"`{owner}.{middle}.{attr}`"
            return None
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
            owner, attr = t.value.id, t.attr
            if attr in NOT_STALE:
                return None
            held = self.objects.get(owner)
            if held is not None and (held[1], attr) in self.chains.get(self.bound[held[0]], ()):
                return {("var", held[0])}, f"`{owner}.{attr}` (`{held[0]}.{held[1]}.{attr}`)"
            cls = self.bound.get(owner)
            if cls is not None and attr in self.attr_reads.get(cls, ()):
                tags: set[Tag] = {("var", owner)}
                if owner in self.module_bound and self.module_bound[owner] == cls:
                    tags |= {tag for tag in self.global_readers.get(owner, ()) if tag[0] == "jit"}
                return tags, f"`{owner}.{attr}`"
            if owner in self.classes and attr in self.attr_reads.get(owner, ()):
                return {("class", owner)}, f"the class attribute `{owner}.{attr}`"
            readers = self.class_reads.get(owner, {}).get(attr)
            if readers:  # `Net.scale` read by its class's name (measured: stale too)
                return {("class", r) for r in readers}, f"the class attribute `{owner}.{attr}`"
            if owner not in self.bound and (self.at_module or owner not in self.local_names):
                return self._global(owner, f"`{ast.unparse(whole)}`")
            return None
        if isinstance(t, ast.Name):
            local = not (self.at_module or t.id in self.declared)
            if local and (whole is t or t.id in self.local_names):
                return None  # a local name
            return self._global(t.id, f"the module-level `{t.id}`")
        return None

    def _mutated(self, func: ast.expr) -> Optional[tuple[set[Tag], str]]:
        """`SCALES.append(v)` of a module-level list or dict compiled code reads, or
        `net.scales.append(v)` of a list attribute it reads (measured: stale too)."""
        if not (isinstance(func, ast.Attribute) and func.attr in MUTATORS):
            return None
        holder = func.value
        if isinstance(holder, ast.Name) and holder.id not in self.bound:
            if self.at_module or holder.id in self.declared or holder.id not in self.local_names:
                return self._global(holder.id, f"the module-level `{holder.id}`")
            return None
        if isinstance(holder, ast.Attribute) and isinstance(holder.value, ast.Name):
            owner, attr = holder.value.id, holder.attr
            cls = self.bound.get(owner)
            if cls is not None and attr in self.attr_reads.get(cls, ()):
                return {("var", owner)}, f"`{owner}.{attr}`"
        return None

    def _global(self, name: str, what: str) -> Optional[tuple[set[Tag], str]]:
        readers = self.global_readers.get(name)
        return (set(readers), what) if readers else None

    def _setter_call(self, call: ast.expr) -> Optional[tuple[set[Tag], str]]:
        if not isinstance(call, ast.Call):
            return None
        func = call.func
        mutated = self._mutated(func)
        if mutated is not None:
            return mutated
        if (
            isinstance(func, ast.Name)
            and func.id == "setattr"
            and len(call.args) == 3
            and isinstance(call.args[1], ast.Constant)
            and isinstance(call.args[1].value, str)
        ):  # `setattr(net, "scale", 3.0)` is `net.scale = 3.0` (measured: stale too)
            target = ast.Attribute(value=call.args[0], attr=call.args[1].value, ctx=ast.Store())
            return self._target(ast.copy_location(target, call), plain=True)
        if isinstance(func, ast.Name) and func.id in self.setters:
            tags: set[Tag] = set()
            for g in self.setters[func.id]:
                tags |= self.global_readers.get(g, set())
            if tags:
                return tags, "module-level " + ", ".join(
                    f"`{g}`" for g in sorted(self.setters[func.id])
                )
            return None
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in self.bound
        ):
            cls_name = self.bound[func.value.id]
            cls = self.classes[cls_name]
            method = next(
                (
                    i
                    for i in cls.body
                    if isinstance(i, _DEFS) and i.name == func.attr and i.name != "construct"
                ),
                None,
            )
            if method is None:
                return None
            written = {
                a
                for n in of_type(method, ast.Assign, ast.AugAssign)
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])  # type: ignore[attr-defined]
                if (a := names.self_attribute(t)) is not None
            } & self.attr_reads.get(cls_name, set())
            written -= NOT_STALE
            if written:
                listed = ", ".join(f"`self.{a}`" for a in sorted(written))
                return {("var", func.value.id)}, f"{listed} of `{func.value.id}`"
        return None


def _module_values(tree: ast.Module) -> set[str]:
    """Module-level names bound by assignment (not functions, classes or imports; `os` too)."""
    out: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            # `import os`: `os.environ[...] = v` between two calls changes what compiled code
            # read from `os.environ.get(...)` / `os.getenv(...)` (measured round 36: stale)
            out |= {a.asname or a.name for a in stmt.names if a.name == "os"}
            continue
        targets = (
            stmt.targets
            if isinstance(stmt, ast.Assign)
            else [stmt.target]
            if isinstance(stmt, ast.AnnAssign)
            else []
        )
        for t in targets:
            for n in of_type(t, ast.Name):
                out.add(n.id)
    return out


def _bound_classes(body: list[ast.stmt], classes: dict[str, ast.ClassDef]) -> dict[str, str]:
    """Names assigned exactly once in `body`'s own code, to `Cls(...)` of a compiled Cell."""
    found: dict[str, list[ast.expr]] = {}
    for stmt in body:
        if isinstance(stmt, (ast.ClassDef, *_DEFS)):
            continue
        for node in of_type(stmt, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    found.setdefault(t.id, []).append(node.value)
    out: dict[str, str] = {}
    for name, values in found.items():
        if len(values) != 1:
            continue
        value = values[0]
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in classes
        ):
            out[name] = value.func.id
    return out


# Whether a top-level class is compiled (a Cell with `construct`, or `@jit` methods), kept on
# its node with the imports it was judged by.
_COMPILED_CLASS: NodeMemo[bool] = NodeMemo()


def _compiled_class(module: ModuleInfo, cls: ast.ClassDef) -> bool:
    if _jit_methods(cls):
        return True
    return any(names.is_cell_qualname(module.qualname(b)) for b in cls.bases) and any(
        isinstance(i, _DEFS) and i.name == "construct" for i in cls.body
    )


def _jit_methods(cls: ast.ClassDef) -> set[str]:
    """Methods decorated `@jit` / `@ms.jit` / `@jit(...)` (a class's compiled entry points)."""
    out: set[str] = set()
    for item in cls.body:
        if not isinstance(item, _DEFS):
            continue
        for d in item.decorator_list:
            d = d.func if isinstance(d, ast.Call) else d
            name = (
                d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else ""
            )
            if name == "jit":
                out.add(item.name)
    return out


def _compiled_methods(cls: ast.ClassDef) -> list[FunctionNode]:
    """`construct` (or the `@jit` methods) and the methods they call as `self.m(...)`,
    transitively (kept on the class's node; do not change the list)."""
    return _COMPILED.get(cls, None, partial(_find_compiled_methods, cls))


_COMPILED: NodeMemo[list[FunctionNode]] = NodeMemo()


def _find_compiled_methods(cls: ast.ClassDef) -> list[FunctionNode]:
    """Also the `@property` getters they read as `self.p` (measured, round 35: `net._k = 5`
    between two calls of a Cell whose `construct` reads a property returning `self._k` keeps
    the old value in GRAPH_MODE)."""
    methods = reached_methods(cls, ("construct", *_jit_methods(cls)))
    properties = {
        i.name
        for i in cls.body
        if isinstance(i, _DEFS)
        and any(isinstance(d, ast.Name) and d.id == "property" for d in i.decorator_list)
    }
    if not properties:
        return methods
    read = {
        names.self_attribute(n)
        for fn in methods
        for n in of_type(fn, ast.Attribute)
        if isinstance(n.ctx, ast.Load)
    }
    getters = reached_methods(cls, sorted(properties & {r for r in read if r}))
    return methods + [g for g in getters if g not in methods]


def _state_value(module: ModuleInfo, value: ast.expr) -> bool:
    """A Parameter or a Cell: written as graph state, not read as a constant."""
    if not isinstance(value, ast.Call):
        return False
    qualname = module.qualname(value.func) or ""
    return qualname.rsplit(".", 1)[-1] in STATE_CALLS or names.is_cell_qualname(qualname)


# Kept on each class's node (the block parser reuses an untouched class's node), keyed on what
# else the reads depend on: the module's class names and its imports. This check runs on every
# keystroke.
_ATTRIBUTE_READS: NodeMemo[set[str]] = NodeMemo()


def _attribute_reads(
    module: ModuleInfo, cls: ast.ClassDef, classes: dict[str, ast.ClassDef]
) -> set[str]:
    """`self.X` the compiled methods read and never write, X not a Parameter or Cell."""
    read: set[str] = set()
    written: set[str] = set()
    methods = _compiled_methods(cls)
    for fn in methods:
        for node in of_type(fn, ast.Attribute):
            attr = names.self_attribute(node)
            if attr is None:
                continue
            if isinstance(node.ctx, ast.Load):
                read.add(attr)
            else:
                written.add(attr)
        for aug in of_type(fn, ast.AugAssign):
            if (attr := names.self_attribute(aug.target)) is not None:
                written.add(attr)
    called = {names.self_attribute(c.func) for fn in methods for c in of_type(fn, ast.Call)}
    init = next((i for i in cls.body if isinstance(i, _DEFS) and i.name == "__init__"), None)
    state: set[str] = set()
    if init is not None:
        for assign in of_type(init, ast.Assign):
            if _state_value(module, assign.value) or (
                isinstance(assign.value, ast.Call)
                and isinstance(assign.value.func, ast.Name)
                and assign.value.func.id in classes
            ):
                state |= {a for t in assign.targets if (a := names.self_attribute(t)) is not None}
    methods_named = {i.name for i in cls.body if isinstance(i, _DEFS)}
    # A function `__init__` keeps and compiled code calls (`self.act = ops.relu`, then
    # `self.act(x)`) is read as a constant too (measured, round 37: `net.act = ops.tanh`
    # between two calls keeps relu in GRAPH_MODE).
    functions = _function_attributes(module, init) if init is not None else set()
    return read - written - state - methods_named - ({c for c in called if c} - functions)


def _function_attributes(module: ModuleInfo, init: FunctionNode) -> set[str]:
    """`self.X` that `__init__` binds only to functions: a lambda, a module-level `def`, or a
    lower-case function of `mindspore.ops`."""
    out: set[str] = set()
    other: set[str] = set()
    for assign in of_type(init, ast.Assign):
        value = assign.value
        function = isinstance(value, ast.Lambda) or (
            isinstance(value, ast.Name)
            and value.id in module.functions
            and value.id not in module.imports
        )
        if isinstance(value, ast.Attribute):
            qualname = module.qualname(value) or ""
            last = qualname.rsplit(".", 1)[-1]
            function = (
                qualname.startswith("mindspore.ops.")
                and qualname.count(".") == 2
                and last[:1].islower()
                and not last.startswith("_")
            )
        for t in assign.targets:
            attr = names.self_attribute(t)
            if attr is not None:
                (out if function else other).add(attr)
    return out - other


def _class_name_reads(cls: ast.ClassDef, classes: dict[str, ast.ClassDef]) -> set[tuple[str, str]]:
    """(Owner, X) for `Owner.X` the compiled methods read by a class name of the module, X a
    plain class attribute of Owner (not a method) that compiled code never writes."""
    found: set[tuple[str, str]] = set()
    for owner, attr in _CLASS_NAME_PAIRS.get(cls, None, partial(_class_name_pairs, cls)):
        if owner not in classes:
            continue
        body = classes[owner].body
        if any(
            isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == attr for t in s.targets)
            for s in body
        ):
            found.add((owner, attr))
    return found


# What one class's compiled methods read, kept on the class's node (the block parser reuses an
# untouched class's node): the tables below are rebuilt from them on every keystroke.
_CLASS_NAME_PAIRS: NodeMemo[frozenset[tuple[str, str]]] = NodeMemo()
Pairs = frozenset[tuple[str, str]]
_CHAIN_PARTS: NodeMemo[tuple[Pairs, Pairs, Pairs]] = NodeMemo()


def _class_name_pairs(cls: ast.ClassDef) -> frozenset[tuple[str, str]]:
    """(Name, X) for every `Name.X` the compiled methods read and never write."""
    read: set[tuple[str, str]] = set()
    written: set[tuple[str, str]] = set()
    for fn in _compiled_methods(cls):
        for node in of_type(fn, ast.Attribute):
            held = node.value
            if isinstance(held, ast.Name):
                pair = (held.id, node.attr)
                (read if isinstance(node.ctx, ast.Load) else written).add(pair)
    return frozenset(read - written)


def _chain_parts(cls: ast.ClassDef) -> tuple[Pairs, Pairs, Pairs]:
    """(A, B) for each `self.A.B` the compiled methods read, for each they write, and (A, Cls)
    for each `self.A = Cls(...)` of `__init__`."""
    out: set[tuple[str, str]] = set()
    written: set[tuple[str, str]] = set()
    for fn in _compiled_methods(cls):
        for node in of_type(fn, ast.Attribute):
            middle = names.self_attribute(node.value)
            if middle is None:
                continue
            (out if isinstance(node.ctx, ast.Load) else written).add((middle, node.attr))
    built: set[tuple[str, str]] = set()
    init = next((i for i in cls.body if isinstance(i, _DEFS) and i.name == "__init__"), None)
    if init is not None:
        for assign in of_type(init, ast.Assign):
            value = assign.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                for t in assign.targets:
                    if (a := names.self_attribute(t)) is not None:
                        built.add((a, value.func.id))
    return frozenset(out), frozenset(written), frozenset(built)


def _chain_reads(
    cls: ast.ClassDef, classes: dict[str, ast.ClassDef], attr_reads: dict[str, set[str]]
) -> set[tuple[str, str]]:
    """(A, B) for `self.A.B` the compiled methods read (an object the Cell holds, never
    written there), and for B a constant a sub-Cell `self.A = Inner(...)` of the module reads."""
    read, written, built = _CHAIN_PARTS.get(cls, None, partial(_chain_parts, cls))
    out = set(read)
    for a, inner in built:
        if inner in classes and inner != cls.name:
            out |= {(a, b) for b in attr_reads.get(inner, ())}
    return {(a, b) for a, b in out - written if b not in NOT_STALE}


def _passed_objects(
    body: list[ast.stmt], classes: dict[str, ast.ClassDef], bound: dict[str, str]
) -> dict[str, tuple[str, str]]:
    """`cfg` -> (`net`, `A`) for `net = Net(cfg)` whose `__init__` keeps `self.A = <param>`."""
    out: dict[str, tuple[str, str]] = {}
    for stmt in body:
        for assign in of_type(stmt, ast.Assign):
            value = assign.value
            if not (
                len(assign.targets) == 1
                and isinstance(assign.targets[0], ast.Name)
                and bound.get(assign.targets[0].id)
                and isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id == bound[assign.targets[0].id]
            ):
                continue
            var = assign.targets[0].id
            init = next(
                (
                    i
                    for i in classes[value.func.id].body
                    if isinstance(i, _DEFS) and i.name == "__init__"
                ),
                None,
            )
            if init is None:
                continue
            params = [a.arg for a in init.args.args][1:]
            passed = {p: a for p, a in zip(params, value.args)}
            passed.update({k.arg: k.value for k in value.keywords if k.arg})
            kept = {
                v.id: a
                for n in of_type(init, ast.Assign)
                for t in n.targets
                if (a := names.self_attribute(t)) is not None and isinstance(v := n.value, ast.Name)
            }
            for param, arg in passed.items():
                if isinstance(arg, ast.Name) and param in kept:
                    out[arg.id] = (var, kept[param])
    return out


MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "update",
        "setdefault",
        "popitem",
        "sort",
        "reverse",
    }
)


def _helper_reads(
    fn: FunctionNode, helpers: dict[str, FunctionNode], module_values: set[str]
) -> frozenset[str]:
    """The module-level names read by the module functions `fn` calls by name, and by those
    they call (two levels): compiled with `fn`, so read while compiling."""
    found: set[str] = set()
    seen: set[str] = set()
    frontier = [fn]
    for _ in range(2):
        called = {
            name
            for f in frontier
            for name in _CALLED_NAMES.get(f, None, partial(_called_names, f))
            if name in helpers and name not in seen
        }
        seen |= called
        frontier = [helpers[name] for name in called]
        for helper in frontier:
            found |= _global_reads(helper, module_values)
    return frozenset(found)


# The names a function calls directly (`f(...)`), kept on its node.
_CALLED_NAMES: NodeMemo[frozenset[str]] = NodeMemo()


def _called_names(fn: FunctionNode) -> frozenset[str]:
    return frozenset(c.func.id for c in of_type(fn, ast.Call) if isinstance(c.func, ast.Name))


def _global_reads(fn: FunctionNode, module_values: set[str]) -> frozenset[str]:
    return _FREE_READS.get(fn, None, partial(_free_reads, fn)) & module_values


# A function's reads of names it does not bind (or declares global), kept on its node.
_FREE_READS: NodeMemo[frozenset[str]] = NodeMemo()


def _free_reads(fn: FunctionNode) -> frozenset[str]:
    local = {n.id for n in of_type(fn, ast.Name) if isinstance(n.ctx, (ast.Store, ast.Del))} | {
        a.arg for a in of_type(fn.args, ast.arg)
    }
    declared = {n for g in of_type(fn, ast.Global) for n in g.names}
    return frozenset(
        n.id
        for n in of_type(fn, ast.Name)
        if isinstance(n.ctx, ast.Load) and (n.id not in local or n.id in declared)
    )


def _global_setters(tree: ast.Module, module_values: set[str]) -> dict[str, set[str]]:
    """Top-level functions that rebind module-level names they declare `global`."""
    out: dict[str, set[str]] = {}
    for stmt in tree.body:
        if not isinstance(stmt, _DEFS):
            continue
        declared = {n for g in of_type(stmt, ast.Global) for n in g.names} & module_values
        if not declared:
            continue
        written = {
            n.id
            for n in of_type(stmt, ast.Name)
            if isinstance(n.ctx, ast.Store) and n.id in declared
        }
        if written:
            out[stmt.name] = written
    return out


def _compiled_calls(
    body: list[ast.stmt],
    bound: dict[str, str],
    jits: dict[str, FunctionNode],
    jit_methods: dict[str, set[str]],
) -> list[tuple[ast.Call, set[Tag]]]:
    out: list[tuple[ast.Call, set[Tag]]] = []
    for stmt in body:
        for call in of_type(stmt, ast.Call):
            func = call.func
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id in bound
                and func.attr in jit_methods.get(bound[func.value.id], ())
            ):  # `trainer.step(x)`, a `@jit` method
                out.append((call, {("var", func.value.id), ("class", bound[func.value.id])}))
            if isinstance(func, ast.Name):
                if func.id in jits:
                    out.append((call, {("jit", func.id)}))
                elif func.id in bound:
                    out.append((call, {("var", func.id), ("class", bound[func.id])}))
    out.sort(key=lambda item: _start(item[0]))
    return out


def _parents(body: list[ast.stmt]) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.ClassDef, *_DEFS, ast.Lambda)):
            continue
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
            stack.append(child)
    return out


def _loops_of(parents: dict[int, ast.AST], node: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    here: Optional[ast.AST] = parents.get(id(node))
    while here is not None:
        if isinstance(here, LOOPS):
            out.append(here)
        here = parents.get(id(here))
    return out


def _common_loop(parents: dict[int, ast.AST], a: ast.AST, b: ast.AST) -> Optional[ast.AST]:
    loops_b = {id(x) for x in _loops_of(parents, b)}
    return next((x for x in _loops_of(parents, a) if id(x) in loops_b), None)


def _start(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _other_inputs(a: ast.Call, b: ast.Call) -> bool:
    """Both calls build their inputs in place, differently: other shapes may compile again."""
    built = [
        (x, y)
        for x, y in zip(a.args, b.args)
        if isinstance(x, ast.Call) and isinstance(y, ast.Call)
    ]
    return any(ast.dump(x) != ast.dump(y) for x, y in built)


def _target_text(call: ast.Call) -> str:
    return ast.unparse(call.func)
