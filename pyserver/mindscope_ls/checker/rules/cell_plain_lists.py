"""MS145: Cells kept in a plain Python list (or tuple) attribute, two of whose Parameters share a
name, called in `construct`.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them all): nn.Cell's
`__setattr__` registers a Cell stored directly as a sub-Cell and renames its Parameters with the
attribute's name (`auto_prefix`: `dense.weight`), but a list or tuple of Cells is stored as a plain
object: its Cells keep their own names (`weight`, `bias` of every nn.Dense; `fc.weight` of a
custom Block holding `self.fc`). The graph compile gathers the Parameters of the Cells it calls
and refuses two of the same name: "The parameter ... its name 'weight' already exists. Please set
a unique name for the parameter", naming the lines of `construct` that call them (a `for` over the
list: its `for` line and the call). Measured to fail: `[nn.Dense(3, 3), nn.Dense(3, 3)]`, the
tuple, `[Dense() for _ in range(n)]`, `list(... for ...)`, `self.blocks = []` then `.append()` in
a loop, a local list appended in a loop and then stored, custom Cells holding a Dense, layers of
different classes sharing `weight` (Dense, Conv1d) when both are called, two indexes
`self.blocks[0](x) + self.blocks[1](x)`. Measured to compile: the list never called in
`construct`, only one of its Cells called, one element, Cells without Parameters (`nn.ReLU`),
Cells whose Parameters have different names (Dense with BatchNorm1d), nn.CellList /
nn.SequentialCell (they register and prefix their Cells), and custom Cells holding a Dense
their `construct` never reads (only the Parameters compiled code reads are gathered). A
comprehension or loop over `range(n)` of a non-constant `n` is taken to run twice or more.
A dict display of Cells fails the same way when two of its Cells are called (`self.heads['a']`
and `self.heads['b']`, a `for` over `.values()` / `.items()`): reported, the fix is nn.CellDict.
Nested lists fail too; not reported (rare). Round 33 (measured the same way): the Cells reached
through `for i in range(len(self.blocks)): x = self.blocks[i](x)`, `for b, a in
zip(self.blocks, self.acts)` and `[b(x) for b in self.blocks]` fail too (reported); a
`range(1)` loop (one Cell) and Cells without Parameters compile.
Left alone too (measured to compile): an `__init__` that registers the Cells itself
(`setattr(self, f"block{i}", b)`, `insert_child_to_cell`, `update_parameters_name`).
Round 34 (`cl_`): a list or tuple indexed by a Tensor (`self.experts[i](x)`, `i` an int32
Tensor) compiles to `switch_layer`, which gathers the Parameters of every Cell in it: two
`nn.Dense` fail as above even though one is called (reported at the item); a tuple of Cells
without Parameters, and sub-Cell attributes gathered in a tuple (`(self.a, self.b)[i]`),
compile.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Optional

from ..index.module import FunctionNode, ModuleInfo
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo
from .helpers.receivers import LAYER_PARAMETERS

PLAIN_CELL_LIST = Rule(
    "MS145",
    "cells-in-plain-list",
    Group.FAILS,
    title="Cells with Parameters of the same name kept in a plain list or tuple attribute",
    message=(
        "`self.{name}` is a plain {kind} of Cells: nn.Cell does not register them, so their "
        "Parameters keep their own names and two share `{param}`; graph mode fails at every level "
        "('its name '{param}' already exists'; PyNative runs it); use {wrapper}."
    ),
    why=(
        "A Cell stored in a list or tuple attribute is not a sub-Cell: nn.Cell does not prefix "
        "its Parameters with the attribute's name, and graph compilation refuses two Parameters "
        "of the same name among the Cells it calls."
    ),
    remedy=(
        "Wrap the list: `self.blocks = nn.CellList([...])` (indexable, iterable in construct) or "
        "`nn.SequentialCell([...])`; a dict of Cells: `nn.CellDict({...})`."
    ),
    mindspore_says=(
        "RuntimeError: The parameter ..., its name 'weight' already exists. "
        "Please set a unique name for the parameter."
    ),
)

MAX_NESTING = 6  # custom Cells followed into their attributes
# What a list's Cells may be, as far as __init__ shows: each entry is the Parameter names of
# one element, `many` marks an element repeated (a comprehension, an append in a loop).
Element = frozenset[str]
# kind, the elements, repeated, a dict's keys (in the elements' order)
Found = tuple[str, list[Element], bool, tuple[object, ...]]


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or ctx.fn.node.name != "construct":
        return
    lists: dict[str, Optional[Found]] = {}

    def elements(name: str) -> Optional[Found]:
        if name not in lists:
            lists[name] = _plain_list(ctx, cls, name)
        return lists[name]

    # each loop with what it runs: a `for` and its body, a comprehension and its element
    loops: list[tuple[ast.For | ast.comprehension, list[ast.AST]]] = [
        (node, list(node.body)) for node in ctx.of(ast.For)
    ]
    comps: list[ast.ListComp | ast.GeneratorExp] = ctx.of(ast.ListComp, ast.GeneratorExp)
    loops.extend((c.generators[0], [c.elt]) for c in comps if len(c.generators) == 1)
    for node, body in loops:
        name, var = _iterated(node)
        if name is None or var is None:
            name, var = _indexed_by_counter(node)
            if name is None or var is None or not _calls_item(body, name, var):
                continue
        elif not _calls(body, var):
            continue
        found = elements(name)
        if found is None or _by_dict_method(node) != bool(found[3]):
            continue
        param = _shared(found[1], found[2])
        if param is not None:
            yield PLAIN_CELL_LIST.finding(
                node.iter, name=name, kind=found[0], param=param, wrapper=_fix(found[0])
            )
    yield from _indexed_calls(ctx, elements)


def _indexed_calls(
    ctx: FunctionContext, elements: Callable[[str], Optional[Found]]
) -> Iterator[RawFinding]:
    """`self.blocks[0](x) ... self.blocks[1](x)`: the call of the second colliding Cell."""
    seen: dict[str, list[int]] = {}
    calls = [node for node in ctx.of(ast.Call) if isinstance(node.func, ast.Subscript)]
    calls.sort(key=lambda c: (c.lineno, c.col_offset))
    reported: set[str] = set()
    for call in calls:
        sub = call.func
        assert isinstance(sub, ast.Subscript)
        name = names.self_attribute(sub.value)
        index = sub.slice
        if name is not None and name not in reported and _switch_index(ctx, index):
            found = elements(name)
            if found is not None and found[0] in ("list", "tuple"):
                param = _shared(found[1], found[2])
                if param is not None:
                    reported.add(name)
                    yield PLAIN_CELL_LIST.finding(
                        sub.value, name=name, kind=found[0], param=param, wrapper=_fix(found[0])
                    )
            continue
        if (
            name is None
            or name in reported
            or not isinstance(index, ast.Constant)
            or type(index.value) not in (int, str)
        ):
            continue
        found = elements(name)
        if found is None or found[2]:
            continue
        kind, items, _, keys = found
        if keys:
            if index.value not in keys:
                continue
            i = keys.index(index.value)
        elif type(index.value) is int:
            i = index.value
        else:
            continue
        if not -len(items) <= i < len(items):
            continue
        i %= len(items)
        for j in seen.get(name, []):
            if j != i and items[i] & items[j]:
                reported.add(name)
                param = _pick(items[i] & items[j])
                yield PLAIN_CELL_LIST.finding(
                    sub.value, name=name, kind=kind, param=param, wrapper=_fix(kind)
                )
                break
        seen.setdefault(name, []).append(i)


def _switch_index(ctx: FunctionContext, index: ast.expr) -> bool:
    """`index` is a Tensor: graph mode compiles the call to `switch_layer`, which gathers the
    Parameters of every Cell of the sequence."""
    return not isinstance(index, (ast.Constant, ast.Slice)) and ctx.types.is_tensor(index)


def _fix(kind: str) -> str:
    if kind == "dict":
        return "`nn.CellDict({...})`"
    return "`nn.CellList([...])` (or `nn.SequentialCell([...])` when they run one after another)"


def _iterated(node: ast.For | ast.comprehension) -> tuple[Optional[str], Optional[str]]:
    """`for b in self.blocks` / `for i, b in enumerate(self.blocks)` / `for b, a in
    zip(self.blocks, ...)` / `[b(x) for b in self.blocks]`: ("blocks", "b")."""
    it, target = node.iter, node.target
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "zip"
        and not it.keywords
        and isinstance(target, ast.Tuple)
        and len(target.elts) == len(it.args)
    ):
        # the first argument that is a `self.<attr>` (its list is looked up by name)
        for arg, elt in zip(it.args, target.elts):
            if names.self_attribute(arg) is not None and isinstance(elt, ast.Name):
                return names.self_attribute(arg), elt.id
        return None, None
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Attribute)
        and it.func.attr in ("values", "items")
        and not it.args
    ):
        if it.func.attr == "items":
            if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
                return None, None
            target = target.elts[1]
        it = it.func.value
    elif (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "enumerate"
        and len(it.args) == 1
        and isinstance(target, ast.Tuple)
        and len(target.elts) == 2
    ):
        it, target = it.args[0], target.elts[1]
    name = names.self_attribute(it)
    if name is None or not isinstance(target, ast.Name):
        return None, None
    return name, target.id


def _indexed_by_counter(node: ast.For | ast.comprehension) -> tuple[Optional[str], Optional[str]]:
    """`for i in range(len(self.blocks))`: ("blocks", "i") (every item is reached)."""
    it, target = node.iter, node.target
    if not (
        isinstance(target, ast.Name)
        and isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
        and len(it.args) == 1
        and not it.keywords
    ):
        return None, None
    bound = it.args[0]
    if (
        isinstance(bound, ast.Call)
        and isinstance(bound.func, ast.Name)
        and bound.func.id == "len"
        and len(bound.args) == 1
    ):
        name = names.self_attribute(bound.args[0])
        return (name, target.id) if name is not None else (None, None)
    return None, None


def _calls_item(body: list[ast.AST], name: str, var: str) -> bool:
    """The loop's body calls `self.<name>[var](...)`."""
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Subscript)
        and isinstance(node.func.slice, ast.Name)
        and node.func.slice.id == var
        and names.self_attribute(node.func.value) == name
        for stmt in body
        for node in ast.walk(stmt)
    )


def _by_dict_method(loop: ast.For | ast.comprehension) -> bool:
    """`for v in self.d.values()` / `.items()` (a dict's Cells), not the attribute itself."""
    it = loop.iter
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)


def _calls(body: list[ast.AST], var: str) -> bool:
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == var
        for stmt in body
        for node in ast.walk(stmt)
    )


def _shared(items: list[Element], many: bool) -> Optional[str]:
    """A Parameter name two of the Cells share (one repeated Cell shares all of its own)."""
    for i, a in enumerate(items):
        if many and a:
            return _pick(a)
        for b in items[i + 1 :]:
            common = a & b
            if common:
                return _pick(common)
    return None


def _pick(common: Element) -> str:
    """The name MindSpore's message gives first: a layer's `weight` (or `gamma`) before `bias`."""
    return min(common, key=lambda p: (RANK.get(p.rsplit(".", 1)[-1], 3), p))


RANK = {"weight": 0, "embedding_table": 0, "gamma": 1, "beta": 2}


def _plain_list(ctx: FunctionContext, cls: ClassInfo, name: str) -> Optional[Found]:
    """What `__init__` stores in `self.<name>`: its kind, the Parameter names of its Cells and
    whether they are repeated; None unless every assignment is a list or tuple of known Cells."""
    for info in cls.lineage():
        init = info.own_method("__init__")
        if init is None:
            continue
        module = info.module
        stores = [
            node
            for node in ast.walk(init)
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
            and any(names.self_attribute(t) == name for t in _targets(node))
        ]
        if not stores:
            continue
        if len(stores) != 1 or not isinstance(stores[0], ast.Assign):
            return None
        if any(m is not init and _sets(m, name) for m in _methods(info.node)):
            return None
        if _renames(init):
            return None
        value = stores[0].value
        if isinstance(value, ast.Name):
            return _appended(ctx, module, init, value.id, local=True)
        if isinstance(value, ast.List) and not value.elts:
            return _appended(ctx, module, init, name, local=False)
        return _built(ctx, module, value)
    return None


def _built(ctx: FunctionContext, module: ModuleInfo, value: ast.expr) -> Optional[Found]:
    if isinstance(value, (ast.List, ast.Tuple)):
        kind = "list" if isinstance(value, ast.List) else "tuple"
        items = [_params(ctx, module, e, 0) for e in value.elts]
        if any(i is None for i in items) or len(items) < 2:
            return None
        return kind, [i for i in items if i is not None], False, ()
    if isinstance(value, ast.Dict):
        keys = [k.value if isinstance(k, ast.Constant) else None for k in value.keys]
        items = [_params(ctx, module, v, 0) for v in value.values]
        if len(items) < 2 or any(i is None for i in items):
            return None
        if any(type(k) is not str for k in keys) or len(set(keys)) != len(keys):
            return None
        return "dict", [i for i in items if i is not None], False, tuple(keys)
    comp: Optional[ast.expr] = None
    kind = "list"
    if isinstance(value, ast.ListComp):
        comp = value
    elif (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("list", "tuple")
        and len(value.args) == 1
        and isinstance(value.args[0], (ast.GeneratorExp, ast.ListComp))
    ):
        comp, kind = value.args[0], value.func.id
    if not isinstance(comp, (ast.ListComp, ast.GeneratorExp)) or len(comp.generators) != 1:
        return None
    if not _repeats(comp.generators[0]):
        return None
    item = _params(ctx, module, comp.elt, 0)
    if not item:
        return None
    return kind, [item], True, ()


def _repeats(gen: ast.comprehension) -> bool:
    """The comprehension runs twice or more, as far as it shows: `range(n)` (n not 0 or 1)."""
    it = gen.iter
    if gen.ifs or not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)):
        return False
    if it.func.id != "range" or len(it.args) != 1:
        return False
    arg = it.args[0]
    if isinstance(arg, ast.Constant):
        return type(arg.value) is int and arg.value >= 2
    return True


def _appended(
    ctx: FunctionContext, module: ModuleInfo, init: FunctionNode, name: str, *, local: bool
) -> Optional[Found]:
    """`x = []` (or `self.x = []`) then `x.append(Cell(...))` in a `for` over `range(n)`."""
    if local:
        binds = [
            n
            for n in ast.walk(init)
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With))
            and any(isinstance(t, ast.Name) and t.id == name for t in _targets(n))
        ]
        if len(binds) != 1 or not isinstance(binds[0], ast.Assign):
            return None
        start = binds[0].value
        if not (isinstance(start, ast.List) and not start.elts):
            return None
    found: Optional[Element] = None
    for loop in ast.walk(init):
        if not isinstance(loop, ast.For):
            continue
        gen = ast.comprehension(target=loop.target, iter=loop.iter, ifs=[], is_async=0)
        for stmt in loop.body:  # appends directly in the loop's body (not under an `if`)
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "append"
                and len(call.args) == 1
                and _is_list(call.func.value, name, local)
            ):
                continue
            if not _repeats(gen):
                return None
            item = _params(ctx, module, call.args[0], 0)
            if item is None:
                return None
            found = item
    others = [
        n
        for n in ast.walk(init)
        if isinstance(n, ast.Attribute)
        and n.attr in ("extend", "insert", "__setitem__", "pop", "remove", "clear")
        and _is_list(n.value, name, local)
    ]
    if found is None or others:
        return None
    return "list", [found], True, ()


def _is_list(expr: ast.expr, name: str, local: bool) -> bool:
    if local:
        return isinstance(expr, ast.Name) and expr.id == name
    return names.self_attribute(expr) == name


def _params(
    ctx: FunctionContext, module: ModuleInfo, call: ast.expr, depth: int
) -> Optional[Element]:
    """The Parameter names a newly made Cell holds, or None when they are not known."""
    if not isinstance(call, ast.Call) or depth > MAX_NESTING:
        return None
    qualname = names.callee(module, call)
    if not qualname:
        return None
    if qualname.startswith("mindspore.nn."):
        last = qualname.rsplit(".", 1)[-1]
        if last in LAYER_PARAMETERS:
            return frozenset(LAYER_PARAMETERS[last])
        if last in PARAMETERLESS:
            return frozenset()
        return None
    info = ctx.classes.resolve(qualname)
    if info is None or not info.is_cell:
        return None
    return _class_params(ctx, info, depth + 1)


# nn layers without Parameters (measured: a list of two nn.ReLU compiles).
PARAMETERLESS = frozenset(
    {
        "ReLU",
        "ReLU6",
        "GELU",
        "SiLU",
        "Sigmoid",
        "Tanh",
        "Softmax",
        "LeakyReLU",
        "Dropout",
        "Flatten",
        "Identity",
        "MaxPool1d",
        "MaxPool2d",
        "AvgPool1d",
        "AvgPool2d",
    }
)


def _class_params(ctx: FunctionContext, info: ClassInfo, depth: int) -> Optional[Element]:
    """`fc.weight`, `fc.bias`, `w` of a workspace Cell whose `__init__` is all known: sub-Cells
    of known layers (prefixed with their attribute) and `Parameter(...)` attributes."""
    if depth > MAX_NESTING:
        return None
    found: set[str] = set()
    used = _used_attributes(info)
    for base in info.lineage():
        init = base.own_method("__init__")
        if init is None:
            continue
        for node in ast.walk(init):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            attr = names.self_attribute(node.targets[0])
            if attr is None or not isinstance(node.value, ast.Call):
                continue
            if attr not in used:
                continue  # measured: a sub-Cell construct never reads brings no Parameter
            qualname = names.callee(base.module, node.value)
            if qualname in names.PARAMETER:
                given = _name_argument(node.value)
                if given is None:
                    return None
                found.add(given or attr)
                continue
            if qualname is None:
                continue
            if qualname.startswith("mindspore.nn.") or ctx.classes.resolve(qualname) is not None:
                inner = _params(ctx, base.module, node.value, depth)
                if inner is None:
                    if names.is_cell_qualname(qualname) or (
                        (r := ctx.classes.resolve(qualname)) is not None and r.is_cell
                    ):
                        return None  # a sub-Cell whose Parameters are not known
                    continue
                found.update(f"{attr}.{p}" for p in inner)
    return frozenset(found)


def _used_attributes(info: ClassInfo) -> set[str]:
    """`self.<name>` read by `construct` and the methods it calls through `self.<method>(...)`:
    only the Parameters of what the compiled code reads are gathered (a Block holding an unused
    Dense compiles in a plain list)."""
    used: set[str] = set()
    todo = ["construct"]
    done: set[str] = set()
    while todo and len(done) < 20:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        found = info.find_method(name)
        if found is None:
            continue
        for node in ast.walk(found[1]):
            attr = names.self_attribute(node) if isinstance(node, ast.Attribute) else None
            if attr is not None:
                used.add(attr)
                todo.append(attr)
    return used


def _name_argument(call: ast.Call) -> Optional[str]:
    """'' when `Parameter(...)` takes its attribute's name, the name given, None if unknown."""
    given: Optional[ast.expr] = call.args[1] if len(call.args) > 1 else None
    for kw in call.keywords:
        if kw.arg == "name":
            given = kw.value
    if given is None:
        return ""
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return given.value
    return None


# Calls that register a Cell or rename its Parameters (measured: the plain list then compiles).
RENAMING = frozenset({"setattr", "insert_child_to_cell", "update_parameters_name"})


def _renames(init: FunctionNode) -> bool:
    """`__init__` registers Cells itself (`setattr(self, f"block{i}", b)`,
    `self.insert_child_to_cell(...)`, `b.update_parameters_name(...)`) or sets a `.name`: their
    Parameters may get unique names, so the list is left alone."""
    for node in ast.walk(init):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called in RENAMING:
                return True
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "name"
            and isinstance(node.ctx, ast.Store)
        ):
            return True
    return False


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        out: list[ast.expr] = []
        for t in node.targets:
            out.extend(t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])
        return out
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
        return [node.target]
    if isinstance(node, ast.With):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    return []


def _methods(node: ast.ClassDef) -> list[ast.FunctionDef]:
    return [s for s in node.body if isinstance(s, ast.FunctionDef)]


def _sets(method: ast.FunctionDef, name: str) -> bool:
    return any(
        isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        and any(names.self_attribute(t) == name for t in _targets(n))
        for n in ast.walk(method)
    )
