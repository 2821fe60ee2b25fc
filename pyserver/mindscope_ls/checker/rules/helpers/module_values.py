"""What a compiled function's module says about it: the module-level names it reads that are
bound once (`ACT = nn.ReLU()`, `OBJ = Custom()`), and the dtypes of the Tensors its callers in
the module pass it (`Net()(Tensor(data, ms.float32))`: MindSpore compiles for those).

Conservative throughout: a name bound twice or declared `global`, an entry point used other than
by a direct call (passed to `jit(...)`, `Model(net)`, subclassed), or one call whose argument's
dtype is not written out, and the answer is unknown.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Optional

from ...incremental.memo import NodeMemo
from ...index.module import FunctionNode, ModuleInfo
from . import default_dtypes
from .types import TensorTypes
from .walk import _fields, of_type

# numpy / MindSpore dtype names -> the dtype a Tensor built from them holds.
DTYPE_NAMES = {
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "bool_": "bool_",
    "half": "float16",
    "single": "float32",
    "double": "float64",
}
DTYPE_MODULES = ("numpy.", "mindspore.", "mindspore.common.dtype.")
# numpy calls whose `dtype` (keyword, or this positional index) fixes the array's dtype.
NUMPY_DTYPE_ARG = {"array": 1, "asarray": 1, "ones": 1, "zeros": 1, "empty": 1, "full": 2}
TENSOR_FACTORIES = frozenset({"mindspore.Tensor", "mindspore.tensor", "mindspore.common.Tensor"})
OPS_DTYPE_ARG = {"ones": 1, "zeros": 1, "full": 2}
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)

MAX_DEPTH = 4  # callers of callers followed for a parameter's dtype
Site = tuple[ast.Call, int]  # a call of an entry point, and id() of its scope


@dataclass
class ModuleTable:
    once: dict[str, ast.Assign] = field(default_factory=dict)  # top-level names bound once
    # An entry point (class or function name) -> its direct calls; None when used otherwise.
    calls: dict[str, Optional[list[Site]]] = field(default_factory=dict)
    locals: dict[int, dict[str, ast.Assign]] = field(default_factory=dict)  # scope -> once-bound
    stored: dict[int, set[str]] = field(default_factory=dict)  # scope -> names it binds
    # A function scope -> the entry point whose parameters it has (a construct: its class).
    entries: dict[int, tuple[str, list[str]]] = field(default_factory=dict)
    # The classes whose calls are followed: the module's, and one defined in a module-level
    # function's body whose name no other class or function of the module has (a test's Net).
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)


_TABLES: NodeMemo[ModuleTable] = NodeMemo()


def table(module: ModuleInfo) -> Optional[ModuleTable]:
    tree = module.tree
    if tree is None:
        return None
    return _TABLES.get(tree, module.source, lambda: _build(module, tree))


def module_calls(module: ModuleInfo) -> Iterator[tuple[str, str]]:
    """Module statements `NAME = <call>`: the name and the qualified name of what is called
    (`NT = collections.namedtuple(...)` -> ("NT", "collections.namedtuple"))."""
    tree = module.tree
    for stmt in tree.body if tree is not None else ():
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
        ):
            yield stmt.targets[0].id, module.qualname(stmt.value.func) or ""


def global_binding(module: ModuleInfo, name: str) -> Optional[ast.Assign]:
    """`NAME = value`, the only binding of a module-level name (never declared `global`)."""
    found = table(module)
    return found.once.get(name) if found is not None else None


def argument_dtypes(
    module: ModuleInfo, entry: str, params: list[str], depth: int = 0
) -> dict[str, str]:
    """The dtype each parameter of entry point `entry` (a class: its construct; a function)
    receives, where every call in the module passes a Tensor of the same written-out dtype, or
    a parameter of the caller that receives one (a helper called from construct)."""
    found = table(module)
    sites = found.calls.get(entry) if found is not None else None
    if found is None or not sites or depth > MAX_DEPTH:
        return {}
    agreed: dict[str, str] = {}
    for index, param in enumerate(params):
        seen = {
            _argument_dtype(module, found, call, scope, index, param, depth)
            for call, scope in sites
        }
        dtype = seen.pop() if len(seen) == 1 else None
        if dtype is not None:
            agreed[param] = dtype
    return agreed


def argument_signatures(module: ModuleInfo, entry: str, params: list[str]) -> list[dict[str, str]]:
    """The written-out dtypes each call of entry point `entry` passes, one dict per distinct
    call signature: MindSpore compiles one graph per signature, so each must compile."""
    found = table(module)
    sites = found.calls.get(entry) if found is not None else None
    if found is None or not sites:
        return []
    signatures: list[dict[str, str]] = []
    for call, scope in sites:
        signature = {}
        for index, param in enumerate(params):
            dtype = _argument_dtype(module, found, call, scope, index, param, 0)
            if dtype is not None:
                signature[param] = dtype
        if signature and signature not in signatures:
            signatures.append(signature)
    return signatures


def entry_point(types: TensorTypes, fn: FunctionNode) -> Optional[str]:
    """The module-level name whose calls reach `fn`: its class for a Cell's `construct`, itself
    for a module-level function; None for anything else."""
    cls = types.cls
    if cls is not None and not cls.is_cell:
        return None
    return entry_point_of(types.module, cls.node if cls is not None else None, fn)


def entry_point_of(
    module: ModuleInfo, cls: Optional[ast.ClassDef], fn: FunctionNode
) -> Optional[str]:
    """`entry_point` from the class statement (a Cell's, or None for a module function)."""
    if cls is not None:
        found = table(module)
        owner = found.classes.get(cls.name) if found is not None else None
        return cls.name if fn.name == "construct" and owner is cls else None
    return fn.name if module.functions.get(fn.name) is fn else None


def argument_values(
    module: ModuleInfo, entry: str, params: list[str]
) -> Optional[dict[str, list[Optional[ast.expr]]]]:
    """What each call of entry point `entry` passes for each parameter, as written (a local
    bound once is followed to its value; None where it is not written out). None when the module
    has no direct call of the entry point or it is used otherwise (stored, passed on)."""
    found = table(module)
    sites = found.calls.get(entry) if found is not None else None
    if found is None or not sites:
        return None
    passed: dict[str, list[Optional[ast.expr]]] = {p: [] for p in params}
    for call, scope in sites:
        for index, param in enumerate(params):
            passed[param].append(_argument(found, call, scope, index, param))
    return passed


def _argument(
    found: ModuleTable, call: ast.Call, scope: int, index: int, param: str
) -> Optional[ast.expr]:
    value = passed_expression(call, index, param)
    if isinstance(value, ast.Name):
        bound = found.locals.get(scope, {}).get(value.id)
        if bound is not None:
            return bound.value
        # a name the caller never binds stays written out (a module-level def or an import:
        # `step(x, gelu)`); one it binds several times says nothing
        return value if value.id not in found.stored.get(scope, set()) else None
    return value


def passed_expression(call: ast.Call, index: int, param: str) -> Optional[ast.expr]:
    """The expression a call passes for parameter `param` (at `index`); None when a `*args` or
    `**kwargs` hides it."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        kw.arg is None for kw in call.keywords
    ):
        return None
    value: Optional[ast.expr] = call.args[index] if index < len(call.args) else None
    for kw in call.keywords:
        if kw.arg == param:
            value = kw.value
    return value


WHOLE_MODULE = 0  # a "line" standing for every line: the answer hangs on the whole file


def note_read(lines: Optional[list[str]], line: int) -> None:
    """Reads `line` of the file's lines, which notes it for the findings cache (`cacheable`):
    a finding that depends on code outside its function is re-checked when that code changes."""
    if lines is None:
        return
    if line == WHOLE_MODULE:
        iter(lines)  # the tracked lines note any iteration as a read outside the function
    elif 0 < line <= len(lines):
        lines[line - 1]


def call_lines(module: ModuleInfo, entry: str, depth: int = 0) -> list[int]:
    """The lines `argument_dtypes` and `argument_values` may read for `entry`: its calls, and
    the calls of the entry points those calls sit in (callers of callers), whatever they
    found, so a cached finding is re-checked when any of them changes."""
    found = table(module)
    sites = found.calls.get(entry) if found is not None else None
    if depth > MAX_DEPTH:
        return []
    if found is None or not sites:
        return [WHOLE_MODULE]  # no call today: a call written anywhere later changes the answer
    lines: list[int] = []
    for call, scope in sites:
        lines.extend(range(call.lineno, (call.end_lineno or call.lineno) + 1))
        passed = [*call.args, *(kw.value for kw in call.keywords)]
        local = found.locals.get(scope, {})
        for name in (a.id for a in passed if isinstance(a, ast.Name)):
            bound = local.get(name) or _module_level(found, scope, name)
            if bound is not None:  # `x = Tensor(...)` before `net(x)`, or at module level
                lines.extend(range(bound.lineno, (bound.end_lineno or bound.lineno) + 1))
        for name in _array_names(passed, local):  # `a = np.ones(s)`, then `Tensor(a)`
            bound = local[name]
            lines.extend(range(bound.lineno, (bound.end_lineno or bound.lineno) + 1))
        caller = found.entries.get(scope)
        if caller is not None:
            lines.extend(call_lines(module, caller[0], depth + 1))
    return lines


def _argument_dtype(
    module: ModuleInfo,
    found: ModuleTable,
    call: ast.Call,
    scope: int,
    index: int,
    param: str,
    depth: int,
) -> Optional[str]:
    value = passed_expression(call, index, param)
    local = found.locals.get(scope, {})
    if isinstance(value, ast.Name):
        bound = local.get(value.id)
        if bound is None:
            top = _module_level(found, scope, value.id)
            if top is None:
                return _parameter_dtype(module, found, scope, value.id, depth)
            return tensor_dtype(top.value, lambda name: _bound_value(found.once, name))
        value = bound.value
    if value is None:
        return None
    return tensor_dtype(value, lambda name: _bound_value(local, name))


def _module_level(found: ModuleTable, scope: int, name: str) -> Optional[ast.Assign]:
    """`X = Tensor(...)` bound once at module level, passed by a caller that neither binds
    `X` nor has a parameter `X` (a test's `def run(): return Net()(X)`)."""
    if name in found.stored.get(scope, set()):
        return None
    entry = found.entries.get(scope)
    if entry is not None and name in entry[1]:
        return None
    return found.once.get(name)


def _bound_value(local: dict[str, ast.Assign], name: str) -> Optional[ast.expr]:
    bound = local.get(name)
    return bound.value if bound is not None else None


def _parameter_dtype(
    module: ModuleInfo, found: ModuleTable, scope: int, name: str, depth: int
) -> Optional[str]:
    """The dtype a caller's own parameter receives, when the caller is an entry point and never
    rebinds it."""
    entry = found.entries.get(scope)
    if entry is None or name not in entry[1] or name in found.stored.get(scope, set()):
        return None
    return argument_dtypes(module, entry[0], entry[1], depth + 1).get(name)


def _array_names(passed: list[ast.expr], local: dict[str, ast.Assign]) -> Iterator[str]:
    """The names bound once in the caller's scope that a passed argument's `Tensor(name)`
    reads: `tensor_dtype` follows them."""
    for arg in passed:
        value: Optional[ast.expr] = arg
        if isinstance(arg, ast.Name):
            value = _bound_value(local, arg.id)
        data = value.args[0] if isinstance(value, ast.Call) and value.args else None
        if isinstance(data, ast.Name) and data.id in local:
            yield data.id


def tensor_dtype(
    expr: ast.expr, resolve: Optional[Callable[[str], Optional[ast.expr]]] = None
) -> Optional[str]:
    """The dtype of `Tensor(np.ones(s, np.float32))`, `Tensor(d, dtype=ms.int32)`,
    `Tensor(a.astype(np.float16))`, `ops.ones(s, ms.float32)`, `Tensor([1.0, 2.0])` (float32),
    `Tensor(np.ones(s))` (float64): only where it is written out, or (with `resolve`) bound
    once to a name in the caller's scope (`a = np.ones(s)`, then `Tensor(a)`)."""
    if not isinstance(expr, ast.Call):
        return None
    last = _last_name(expr.func)
    if last in ("Tensor", "tensor"):
        given = _dtype_argument(expr, 1)
        if given is not None or len(expr.keywords) > 0 or len(expr.args) != 1:
            return given
        data: Optional[ast.expr] = expr.args[0]
        if isinstance(data, ast.Name) and resolve is not None:
            data = resolve(data.id)
        if data is None:
            return None
        return _array_dtype(data) or default_dtypes.python_tensor_dtype(data)
    if last in OPS_DTYPE_ARG and _head(expr.func) in ("ops", "mint"):
        given = _dtype_argument(expr, OPS_DTYPE_ARG[last])
        written = len(expr.args) > OPS_DTYPE_ARG[last] or any(
            k.arg == "dtype" for k in expr.keywords
        )
        # `ops.ones(s)` / `ops.zeros(s)`: MindSpore's default dtype is float32
        return given if written or last == "full" else "float32"
    return None


def _array_dtype(expr: ast.expr, depth: int = 0) -> Optional[str]:
    """The dtype of a numpy array written out: its `dtype`, `.astype(...)`, numpy's default
    (`np.ones(s)` is float64), through dtype-keeping methods (`.reshape(3, 4)`)."""
    if isinstance(expr, ast.Attribute) and expr.attr == "T" and depth < 8:
        return _array_dtype(expr.value, depth + 1)
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr == "astype" and expr.args:
        return dtype_of(expr.args[0])
    if isinstance(func, ast.Attribute) and func.attr in default_dtypes.SAME_DTYPE_METHODS:
        return _array_dtype(func.value, depth + 1) if depth < 8 else None
    last = _last_name(func)
    head = _head(func)
    if last is None or head not in ("np", "numpy"):
        return None
    random = isinstance(func, ast.Attribute) and _last_name(func.value) == "random"
    if any(k.arg == "dtype" for k in expr.keywords) or (
        last in NUMPY_DTYPE_ARG and not random and len(expr.args) > NUMPY_DTYPE_ARG[last]
    ):
        return _dtype_argument(expr, NUMPY_DTYPE_ARG.get(last, len(expr.args)))
    return default_dtypes.numpy_default_dtype(expr, last, random)


def _dtype_argument(call: ast.Call, position: int) -> Optional[str]:
    for kw in call.keywords:
        if kw.arg == "dtype":
            return dtype_of(kw.value)
    return dtype_of(call.args[position]) if len(call.args) > position else None


def dtype_of(expr: ast.expr) -> Optional[str]:
    """`np.float32`, `ms.int32`, `mstype.float16`, `"float32"` -> the dtype's name."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return DTYPE_NAMES.get(expr.value)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, (ast.Name, ast.Attribute)):
        return DTYPE_NAMES.get(expr.attr)
    return None


def _last_name(func: ast.expr) -> Optional[str]:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _head(func: ast.expr) -> Optional[str]:
    node = func
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) and node is not func else None


def _build(module: ModuleInfo, tree: ast.Module) -> ModuleTable:
    found = ModuleTable(classes=_entry_classes(module))
    declared = {n for g in of_type(tree, ast.Global) for n in g.names}
    stores: dict[str, int] = {}
    for node in _own_nodes(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            name = target.id if isinstance(target, ast.Name) else None
            if name is not None and stores.get(name) == 1 and name not in declared:
                found.once[name] = stmt
    for name in [*found.classes, *module.functions]:
        found.calls[name] = None if name in stores else []
    for name, fn in module.functions.items():
        found.entries[id(fn)] = (name, ordered_parameters(fn, skip_self=False))
    for name, cls in found.classes.items():
        for stmt in cls.body:
            if isinstance(stmt, ast.FunctionDef) and stmt.name == "construct":
                found.entries[id(stmt)] = (name, ordered_parameters(stmt, skip_self=True))
    _index_scope(found, module, tree)
    # A function that names no entry point and no module-level instance of one adds no call
    # and is no call's scope: nothing of it is ever read, so it is not walked (most are not).
    mentions = _mentions(found, module, tree)
    functions: list[FunctionNode] = of_type(tree, ast.FunctionDef, ast.AsyncFunctionDef)
    for scope in functions:
        if _mentioned_in(scope, mentions):
            _index_scope(found, module, scope)
    _inherited_calls(found)
    return found


def _inherited_calls(found: ModuleTable) -> None:
    """A class's `construct` is also called through its subclasses that do not define their
    own (`class Net(Base): pass`, then `Net()(x)` runs `Base.construct(x)`; measured on 2.10:
    the failures of a corpus case stay when its Cell is renamed into a base class so
    subclassed): their calls count as the base's. A subclass that defines `construct` may call
    the base's with anything (`super().construct(x, flag)`): the base's calls are then unseen."""
    children: dict[str, list[ast.ClassDef]] = {}
    for cls in found.classes.values():
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in found.classes:
                children.setdefault(base.id, []).append(cls)
    merged: dict[str, Optional[list[Site]]] = {}
    for name, subclasses in children.items():
        sites = found.calls.get(name)
        if sites is None:
            continue
        total: Optional[list[Site]] = list(sites)
        queue, seen = list(subclasses), {name}
        while queue and total is not None:
            cls = queue.pop()
            if cls.name in seen:
                continue
            seen.add(cls.name)
            own = found.calls.get(cls.name)
            if own is None or any(
                isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "construct"
                for s in cls.body
            ):
                total = None
            else:
                total.extend(own)
                queue.extend(children.get(cls.name, []))
        merged[name] = total
    found.calls.update(merged)


def _entry_classes(module: ModuleInfo) -> dict[str, ast.ClassDef]:
    nested: dict[str, list[ast.ClassDef]] = {}
    for fn in module.functions.values():
        for stmt in fn.body:
            if isinstance(stmt, ast.ClassDef):
                nested.setdefault(stmt.name, []).append(stmt)
    found = dict(module.classes)
    for name, defs in nested.items():
        if len(defs) == 1 and name not in module.classes and name not in module.functions:
            found[name] = defs[0]
    return found


def _mentions(found: ModuleTable, module: ModuleInfo, tree: ast.Module) -> list[tuple[int, int]]:
    """Where the module's Names that `_index_scope` may act on are, in source order: those of
    an entry point (a class or function of the module) and of a module-level instance of one
    (`net = Net()`, which scopes may call); a local instance is bound from a class's Name."""
    wanted = set(found.calls)
    for name, assign in found.locals.get(id(tree), {}).items():
        if _instance_of(assign.value, found.classes) is not None:
            wanted.add(name)
    return [(n.lineno, n.col_offset) for n in of_type(tree, ast.Name) if n.id in wanted]


def _mentioned_in(scope: FunctionNode, mentions: list[tuple[int, int]]) -> bool:
    """A mention inside the function's text, its decorators included (its own nodes, which
    `_own` reads, lie there)."""
    first = scope.decorator_list[0] if scope.decorator_list else scope
    at = bisect_left(mentions, (first.lineno, first.col_offset))
    end = (scope.end_lineno or scope.lineno, scope.end_col_offset or 0)
    return at < len(mentions) and mentions[at] <= end


@dataclass(frozen=True)
class _Own:
    """The nodes of a scope the call table reads, each kind in the order `_own_nodes` gives."""

    stores: tuple[str, ...]  # names of Store Names
    assigns: tuple[ast.Assign, ...]  # `name = value`
    calls: tuple[ast.Call, ...]
    loads: tuple[ast.Name, ...]


# Kept on a function's node: the block parser hands back the nodes of the top-level blocks an
# edit did not touch, so a re-check walks only the edited function (and the module's own code).
_OWN: NodeMemo[_Own] = NodeMemo()


def _own(scope: ast.AST) -> _Own:
    if isinstance(scope, ast.Module):
        return _split(scope)  # a new tree on every check: nothing to keep
    return _OWN.get(scope, None, lambda: _split(scope))


def _split(scope: ast.AST) -> _Own:
    if not isinstance(scope, ast.Module) and len(of_type(scope, *DEFS)) == 1:
        return _split_indexed(scope)
    stores: list[str] = []
    assigns: list[ast.Assign] = []
    calls: list[ast.Call] = []
    loads: list[ast.Name] = []
    for node in _own_nodes(scope):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                stores.append(node.id)
            elif isinstance(node.ctx, ast.Load):
                loads.append(node)
        elif isinstance(node, ast.Assign):
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                assigns.append(node)
        elif isinstance(node, ast.Call):
            calls.append(node)
    return _Own(tuple(stores), tuple(assigns), tuple(calls), tuple(loads))


def _split_indexed(scope: ast.AST) -> _Own:
    """A function with no function, lambda or class in it owns every node under it: the node
    index has them by kind, in source order, without a walk."""
    names: list[ast.Name] = of_type(scope, ast.Name)
    assigns: list[ast.Assign] = of_type(scope, ast.Assign)
    return _Own(
        tuple(n.id for n in names if isinstance(n.ctx, ast.Store)),
        tuple(a for a in assigns if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)),
        tuple(of_type(scope, ast.Call)),
        tuple(n for n in names if isinstance(n.ctx, ast.Load)),
    )


def _index_scope(found: ModuleTable, module: ModuleInfo, scope: ast.AST) -> None:
    """A scope's once-bound locals, and its direct calls of entry points: `f(...)`,
    `Net(...)(...)`, `net(...)` after `net = Net(...)`."""
    own = _own(scope)
    stores: dict[str, int] = {}
    assigned: dict[str, ast.Assign] = {}
    for name in own.stores:
        stores[name] = stores.get(name, 0) + 1
    for assign in own.assigns:
        target = assign.targets[0]
        assert isinstance(target, ast.Name)
        assigned[target.id] = assign
    once = {n: a for n, a in assigned.items() if stores.get(n) == 1}
    found.locals[id(scope)] = once
    found.stored[id(scope)] = set(stores)
    classes = found.classes
    instances: dict[str, str] = {}  # `net = Net()` -> net: Net
    kept: set[int] = set()  # instantiations followed through their name or called at once
    for name, assign in once.items():
        created = _instance_of(assign.value, classes)
        if created is not None:
            instances[name] = created
            kept.add(id(assign.value))
    if not isinstance(scope, ast.Module):
        shadowed = set(stores) | parameters(scope)
        outer = found.locals.get(id(module.tree), {})
        for name, assign in outer.items():
            created = _instance_of(assign.value, classes)
            if name not in shadowed and created is not None:
                instances[name] = created
    direct: set[int] = set()
    for call in own.calls:
        func, entry = call.func, None
        if isinstance(func, ast.Name) and func.id == "super":
            direct.update(id(a) for a in call.args)  # super(Net, self)
        elif _instance_of(func, classes) is not None:
            entry = _instance_of(func, classes)  # Net()(x)
            kept.add(id(func))
        elif isinstance(func, ast.Name):
            if func.id in instances:
                entry = instances[func.id]  # net(x)
            elif func.id in module.functions and func.id not in stores:
                entry = func.id  # f(x)
            else:
                continue
        else:
            continue
        direct.add(id(func))
        sites = found.calls.get(entry) if entry is not None else None
        if sites is not None:
            sites.append((call, id(scope)))
    for call in own.calls:
        created = _instance_of(call, classes)
        if created is not None:
            if id(call) not in kept:
                found.calls[created] = None  # stored where its calls are not seen
            direct.add(id(call.func))
    read_from = _attribute_owners(scope)
    for load in own.loads:
        if id(load) not in direct and id(load) not in read_from:
            name = instances.get(load.id, load.id)
            if name in found.calls:
                found.calls[name] = None  # passed on, not only called: callers unseen


# Reading these through an instance reaches `construct` with arguments the table does not see.
_CALLS_CONSTRUCT = frozenset({"construct", "__call__", "forward", "compile"})


def _attribute_owners(scope: ast.AST) -> set[int]:
    """The Names an attribute is read or written on (`net.cnt`, `net.set_train()`): that does
    not hand the instance on, so its calls stay all seen, unless the attribute is one that
    calls `construct` (`net.construct(x)`)."""
    attributes: list[ast.Attribute] = of_type(scope, ast.Attribute)
    return {
        id(a.value)
        for a in attributes
        if isinstance(a.value, ast.Name) and a.attr not in _CALLS_CONSTRUCT
    }


def _instance_of(node: ast.AST, classes: dict[str, ast.ClassDef]) -> Optional[str]:
    """The class `Net(...)` instantiates, for a class of this module."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes:
        return node.func.id
    return None


def ordered_parameters(fn: FunctionNode, skip_self: bool) -> list[str]:
    """The parameters a call can pass by position, in order (`self` dropped for a method)."""
    ordered = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    return ordered[1:] if skip_self and ordered else ordered


def parameters(scope: ast.AST) -> set[str]:
    """Every parameter name of a function (none for another scope)."""
    args = getattr(scope, "args", None)
    if not isinstance(args, ast.arguments):
        return set()
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return {a.arg for a in every if a is not None}


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a scope, without those inside the functions and classes nested in it."""
    out: list[ast.AST] = []
    stack = _children(scope)
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, DEFS):
            if not isinstance(node, ast.Lambda):
                stack.extend(node.decorator_list)
            continue
        stack.extend(_children(node))
    return out


def _children(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` as a list, through the walk's table of node fields."""
    found: list[ast.AST] = []
    for name in _fields(node.__class__):
        value = getattr(node, name, None)
        if value.__class__ is list:
            found.extend(v for v in value if isinstance(v, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found
