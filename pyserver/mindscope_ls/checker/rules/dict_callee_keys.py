"""MS1115: a dict key that a function the dict is passed to sets, read by the caller.

Measured with MindSpore 2.10 on CPU (round 36, `dc_`), at LAX and STRICT alike, PyNative runs
them: graph mode passes a list or a dict to a function as a value (MS318), so a key the callee
sets (`d["b"] = v`, `d.update({"b": v})`, `d[key] = v` with `key="b"` given by the caller) is
set in a copy. The caller's `d["b"]` then fails while compiling ("ValueError: The key b does not
exist in the dict:ValueAny", no line named): a module helper `put(d, x * 2)`, a method
`self.fill(out, x)`, a `@staticmethod`, a sub-Cell `self.sub(d)`, a helper of a helper, a
nested def writing the enclosing dict (`def put(v): d["b"] = v`), a helper's own dict, an empty
dict `{}` or a dict of numbers alike. What compiles: reading a key the caller's dict had
(`d["a"]`), `d.get("b", x)`, `"b" in d` and `len(d)` (they see the old dict: MS318 warns), and
reading the dict the callee returns (`e = put(d, v); e["b"]`).
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

CALLEE_KEY_READ = Rule(
    "MS1115",
    "dict-key-set-by-callee",
    Group.FAILS,
    title="A dict key set by the function the dict is passed to, read by the caller",
    message=(
        "`{read}` reads the key {key!r} that `{callee}` sets in `{name}`, but graph mode gives "
        "`{callee}` a copy of the dict: `{name}` here has no such key and compiling fails at "
        "every level (the key does not exist in the dict); return the dict from `{callee}` and "
        "rebind it, or set the key where it is read."
    ),
    why=(
        "In graph mode a dict is a value: passing it to a function, a method or a sub-Cell "
        "gives that function a copy, and the keys it adds stay in the copy. Reading such a key "
        "from the caller's dict fails while the graph is built."
    ),
    remedy=(
        "Have the callee return the dict and rebind it (`d = fill(d, x)`), or set the key in "
        "the caller (`d['b'] = make(x)`)."
    ),
    mindspore_says="ValueError: The key b does not exist in the dict:ValueAny",
)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
Key = Union[str, int]
_DEPTH = 2  # a helper handing the dict on to another helper (measured: fails alike)
# Kept on the function's node (an untouched function keeps its node): a module check runs on
# every keystroke.
_FILLS: NodeMemo[bool] = NodeMemo()
_LOCALS: NodeMemo[dict[str, set[Key]]] = NodeMemo()


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    # Cheap first look: some function writes an item of one of its parameters, or updates one.
    defs: list[FunctionNode] = of_type(tree, *_DEFS)
    if not any(_FILLS.get(f, None, partial(_fills_parameter, f)) for f in defs):
        return
    functions = {s.name: s for s in tree.body if isinstance(s, _DEFS)}
    classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}
    compiled: list[tuple[FunctionNode, Optional[ast.ClassDef]]] = [
        (fn, None)
        for fn in functions.values()
        if any(names.is_jit(module, d) for d in fn.decorator_list)
    ]
    seen: set[tuple[int, int]] = set()
    for klass in classes.values():
        if any(names.is_cell_qualname(module.qualname(b)) for b in klass.bases):
            methods = reached_methods(klass, ("construct",))
            compiled += [(m, klass) for m in methods]
            yield from _attribute_reads(module, klass, methods, seen)
    compiled += [(f, None) for f in _helpers_reached([fn for fn, _ in compiled], functions)]
    for fn, cls in compiled:
        for name, known in _LOCALS.get(fn, None, partial(_dict_locals, fn)).items():
            yield from _reads(module, fn, cls, functions, classes, name, known, seen)


def _attribute_reads(
    module: ModuleInfo,
    cls: ast.ClassDef,
    methods: list[FunctionNode],
    seen: set[tuple[int, int]],
) -> Iterator[RawFinding]:
    """`self.<attr>[k]` read in compiled code where `__init__` built `self.<attr>` as a dict
    without `k` and another compiled method sets it. Measured (round 36, `dc_`): the method's
    `self.cache["b"] = v` or `self.cache.update({"b": v})`, then `self.cache["b"]` in construct
    (or in a third method) fails at LAX ("The key b does not exist in the dict:{'a': 1}"; STRICT
    refuses the item write itself, MS211, and the `update` alike); set and read in one method,
    it compiles at LAX."""
    init = next((i for i in cls.body if isinstance(i, _DEFS) and i.name == "__init__"), None)
    if init is None:
        return
    known: dict[str, set[Key]] = {}
    for stmt in init.body:  # `self.cache = {...}` directly in `__init__`
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            attr = names.self_attribute(stmt.targets[0])
            keys = _display_keys(stmt.value)
            if attr is not None and keys is not None:
                known[attr] = keys
    dicts = {a: k for a, k in known.items() if _bound_once(cls, a)}
    if not dicts:
        return
    set_by: dict[tuple[str, Key], FunctionNode] = {}
    for method in methods:
        for attr, key, _ in _attribute_sets(method, dicts):
            set_by.setdefault((attr, key), method)
    for method in methods:
        own = {(a, k): node for a, k, node in _attribute_sets(method, dicts)}
        for sub in of_type(method, ast.Subscript):
            attr = names.self_attribute(sub.value)
            read_key = _constant(sub.slice)
            if not isinstance(sub.ctx, ast.Load) or attr not in dicts or read_key is None:
                continue
            setter = set_by.get((attr, read_key))
            if read_key in dicts[attr] or setter is None or setter is method:
                continue
            mine = own.get((attr, read_key))
            if mine is not None and _start(mine) < (sub.lineno, sub.col_offset):
                continue
            where = (sub.lineno, sub.col_offset)
            if where in seen:
                continue
            seen.add(where)
            yield CALLEE_KEY_READ.finding(
                sub,
                related=[Related(module.path, node_range(setter), f"`{setter.name}` sets it")],
                read=ast.unparse(sub),
                key=read_key,
                callee=f"self.{setter.name}",
                name=f"self.{attr}",
            )


def _bound_once(cls: ast.ClassDef, attr: str) -> bool:
    targets: list[ast.expr] = [t for a in of_type(cls, ast.Assign) for t in a.targets]
    targets += [a.target for a in of_type(cls, ast.AugAssign)]
    targets += [a.target for a in of_type(cls, ast.AnnAssign)]
    return sum(1 for t in targets if names.self_attribute(t) == attr) == 1


def _attribute_sets(
    method: FunctionNode, dicts: dict[str, set[Key]]
) -> Iterator[tuple[str, Key, ast.AST]]:
    """(attribute, key, node) of `self.<attr>[k] = v`, `self.<attr>.update({k: v})`,
    `self.<attr>.setdefault(k, v)` in `method`."""
    for node in _subs_calls(method):
        if isinstance(node, ast.Subscript):
            attr = names.self_attribute(node.value)
            key = _constant(node.slice)
            if isinstance(node.ctx, ast.Store) and attr in dicts and key is not None:
                yield attr, key, node
            continue
        func = node.func
        if not isinstance(func, ast.Attribute):
            continue
        attr = names.self_attribute(func.value)
        if attr not in dicts or not node.args or node.keywords:
            continue
        if func.attr == "update" and len(node.args) == 1:
            for key in _display_keys(node.args[0]) or set():
                yield attr, key, node
        elif func.attr == "setdefault":
            key = _constant(node.args[0])
            if key is not None:
                yield attr, key, node


def _helpers_reached(
    compiled: list[FunctionNode], functions: dict[str, FunctionNode]
) -> list[FunctionNode]:
    """Module functions that compiled code calls by name, and those they call (compiled too)."""
    done = {id(f) for f in compiled}
    todo = list(compiled)
    found: list[FunctionNode] = []
    while todo:
        for call in of_type(todo.pop(), ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id in functions:
                helper = functions[call.func.id]
                if id(helper) not in done:
                    done.add(id(helper))
                    found.append(helper)
                    todo.append(helper)
    return found


def _fills_parameter(fn: FunctionNode) -> bool:
    """`fn` writes an item of (or updates) a parameter, a name it does not bind (a nested
    def's enclosing dict) or an attribute of `self`."""
    targets: set[str] = set()
    for node in _subs_calls(fn):
        if isinstance(node, ast.Subscript):
            if not isinstance(node.ctx, ast.Store):
                continue
            target: ast.expr = node.value
        elif isinstance(node.func, ast.Attribute) and node.func.attr in ("update", "setdefault"):
            target = node.func.value
        else:
            continue
        if isinstance(target, ast.Name):
            targets.add(target.id)
        elif names.self_attribute(target) is not None:
            return True  # `self.cache["b"] = v`: a method filling a dict attribute
    if not targets:
        return False
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if targets & params:
        return True
    own = {n.id for n in of_type(fn, ast.Name) if isinstance(n.ctx, ast.Store)}
    return bool(targets - own)


def _dict_locals(fn: FunctionNode) -> dict[str, set[Key]]:
    """Locals bound once, to a dict display with constant keys or `dict(k=v, ...)`, and given
    only constant keys in `fn` itself: the keys they can hold."""
    bound: dict[str, int] = {}
    for stored in of_type(fn, ast.Name):
        if isinstance(stored.ctx, ast.Store):
            bound[stored.id] = bound.get(stored.id, 0) + 1
    for a in of_type(fn.args, ast.arg):
        bound[a.arg] = 2
    found: dict[str, set[Key]] = {}
    for assign in of_type(fn, ast.Assign):
        if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
            continue
        name = assign.targets[0].id
        keys = _display_keys(assign.value)
        if keys is not None and bound.get(name) == 1:
            found[name] = keys
    if not found:
        return found
    nested = _nested_defs(fn)
    for node in _subs_calls(fn):
        if any(_inside(node, inner) for inner in nested.values()):
            continue  # a nested def's own writes (a copy: measured, like a helper's)
        if isinstance(node, ast.Subscript):
            if isinstance(node.ctx, ast.Store) and _named(node.value) in found:
                name = _named(node.value) or ""
                key = _constant(node.slice)
                if key is None:
                    found.pop(name)  # a key not known: it may be any
                else:
                    found[name].add(key)
        elif isinstance(node.func, ast.Attribute) and _named(node.func.value) in found:
            name = _named(node.func.value) or ""
            if node.func.attr in ("update", "setdefault", "__setitem__"):
                keys = _call_keys(node)
                if keys is None:
                    found.pop(name)
                else:
                    found[name] |= keys
    return found


def _nested_defs(fn: FunctionNode) -> dict[str, FunctionNode]:
    defs: list[FunctionNode] = [*of_type(fn, ast.FunctionDef), *of_type(fn, ast.AsyncFunctionDef)]
    return {d.name: d for d in defs if d is not fn}


def _start(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    end = (getattr(outer, "end_lineno", 0) or 0, getattr(outer, "end_col_offset", 0) or 0)
    return _start(outer) <= _start(node) <= end


def _subs_calls(node: ast.AST) -> list[Union[ast.Subscript, ast.Call]]:
    found: list[Union[ast.Subscript, ast.Call]] = [*of_type(node, ast.Subscript)]
    found.extend(of_type(node, ast.Call))
    return found


def _named(expr: ast.expr) -> Optional[str]:
    return expr.id if isinstance(expr, ast.Name) else None


def _constant(expr: ast.expr) -> Optional[Key]:
    value = expr.value if isinstance(expr, ast.Constant) else None
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    return None


def _display_keys(value: ast.expr) -> Optional[set[Key]]:
    if isinstance(value, ast.Dict):
        keys: set[Key] = set()
        for k in value.keys:
            key = _constant(k) if k is not None else None
            if key is None:
                return None
            keys.add(key)
        return keys
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "dict"
        and not value.args
        and all(k.arg is not None for k in value.keywords)
    ):
        return {k.arg for k in value.keywords if k.arg is not None}
    return None


def _call_keys(call: ast.Call) -> Optional[set[Key]]:
    """The keys `d.update({...})` / `d.setdefault(k, v)` set, if all constant."""
    func = call.func
    assert isinstance(func, ast.Attribute)
    if call.keywords:
        return None
    if func.attr == "update" and len(call.args) == 1:
        return _display_keys(call.args[0])
    if func.attr in ("setdefault", "__setitem__") and call.args:
        key = _constant(call.args[0])
        return {key} if key is not None else None
    return None


def _reads(
    module: ModuleInfo,
    fn: FunctionNode,
    cls: Optional[ast.ClassDef],
    functions: dict[str, FunctionNode],
    classes: dict[str, ast.ClassDef],
    name: str,
    known: set[Key],
    seen: set[tuple[int, int]],
) -> Iterator[RawFinding]:
    guarded = _membership_keys(fn, name)
    reads = [
        s
        for s in of_type(fn, ast.Subscript)
        if isinstance(s.ctx, ast.Load) and _named(s.value) == name
    ]
    if not reads:
        return
    nested = _nested_defs(fn)
    for call in of_type(fn, ast.Call):
        inner = nested.get(call.func.id) if isinstance(call.func, ast.Name) else None
        if inner is not None:
            # A nested def changing the enclosing dict by its own name (round 35's MS318
            # copy): `def put(v): d["b"] = v`, then `put(x)`, `d["b"]` fails alike.
            callee, bindings = inner, _bind(inner, call, False)
            params = [name] if name not in bindings else []
        else:
            resolved = _callee(call, cls, functions, classes)
            if resolved is None:
                continue
            callee, skip_self = resolved
            bindings = _bind(callee, call, skip_self)
            params = [p for p, arg in bindings.items() if _named(arg) == name]
        for param in params:
            added = _added_keys(callee, param, bindings, functions, _DEPTH) - known - guarded
            if not added:
                continue
            end = (call.end_lineno or 0, call.end_col_offset or 0)
            for read in sorted(reads, key=lambda s: (s.lineno, s.col_offset)):
                key = _constant(read.slice)
                if key not in added or (read.lineno, read.col_offset) < end:
                    continue
                where = (read.lineno, read.col_offset)
                if where in seen:
                    continue
                seen.add(where)
                yield CALLEE_KEY_READ.finding(
                    read,
                    related=[Related(module.path, node_range(call), f"`{name}` passed here")],
                    read=ast.unparse(read),
                    key=key,
                    callee=ast.unparse(call.func),
                    name=name,
                )


def _membership_keys(fn: FunctionNode, name: str) -> set[Key]:
    """Keys tested with `k in d` / `k not in d`: a branch on them is folded."""
    found: set[Key] = set()
    for compare in of_type(fn, ast.Compare):
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in compare.ops) and any(
            _named(c) == name for c in compare.comparators
        ):
            key = _constant(compare.left)
            if key is not None:
                found.add(key)
    return found


def _callee(
    call: ast.Call,
    cls: Optional[ast.ClassDef],
    functions: dict[str, FunctionNode],
    classes: dict[str, ast.ClassDef],
) -> Optional[tuple[FunctionNode, bool]]:
    """The function a call runs (a module function, a method of `cls`, a sub-Cell's
    `construct`), and whether its first parameter is `self`."""
    func = call.func
    if isinstance(func, ast.Name):
        found = functions.get(func.id)
        return (found, False) if found is not None else None
    attr = names.self_attribute(func) if cls is not None else None
    if attr is None or cls is None:
        return None
    for item in cls.body:
        if isinstance(item, _DEFS) and item.name == attr:
            static = any(
                isinstance(d, ast.Name) and d.id == "staticmethod" for d in item.decorator_list
            )
            return item, not static
    sub = _sub_cell_class(cls, attr, classes)
    if sub is None:
        return None
    construct = next((i for i in sub.body if isinstance(i, _DEFS) and i.name == "construct"), None)
    return (construct, True) if construct is not None else None


def _sub_cell_class(
    cls: ast.ClassDef, attr: str, classes: dict[str, ast.ClassDef]
) -> Optional[ast.ClassDef]:
    """`self.<attr> = Sub(...)` in `__init__`, with `Sub` a class of the module."""
    init = next((i for i in cls.body if isinstance(i, _DEFS) and i.name == "__init__"), None)
    if init is None:
        return None
    found: Optional[ast.ClassDef] = None
    for assign in of_type(init, ast.Assign):
        if any(names.self_attribute(t) == attr for t in assign.targets):
            value = assign.value
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
                return None
            if found is not None:
                return None  # bound twice: not known which
            found = classes.get(value.func.id)
            if found is None:
                return None
    return found


def _bind(callee: FunctionNode, call: ast.Call, skip_self: bool) -> dict[str, ast.expr]:
    """The callee's parameters the call gives, by name (no `*args` / `**kwargs` spread)."""
    args = callee.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    if skip_self:
        params = params[1:]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return {}
    bound = dict(zip(params, call.args))
    bound.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    return bound


def _added_keys(
    callee: FunctionNode,
    param: str,
    bindings: dict[str, ast.expr],
    functions: dict[str, FunctionNode],
    depth: int,
) -> set[Key]:
    """The constant keys `callee` sets on its parameter `param` (none if it rebinds it)."""
    if any(isinstance(n.ctx, ast.Store) and n.id == param for n in of_type(callee, ast.Name)):
        return set()
    rebound = {n.id for n in of_type(callee, ast.Name) if isinstance(n.ctx, ast.Store)}

    def key_of(expr: ast.expr) -> Optional[Key]:
        if isinstance(expr, ast.Name) and expr.id in bindings and expr.id not in rebound:
            return _constant(bindings[expr.id])  # a key the caller gives
        return _constant(expr)

    added: set[Key] = set()
    for node in _subs_calls(callee):
        if isinstance(node, ast.Subscript):
            if isinstance(node.ctx, ast.Store) and _named(node.value) == param:
                key = key_of(node.slice)
                if key is not None:
                    added.add(key)
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and _named(func.value) == param:
            if func.attr == "update" and len(node.args) == 1 and not node.keywords:
                added |= _display_keys(node.args[0]) or set()
            elif func.attr == "setdefault" and node.args:
                key = key_of(node.args[0])
                if key is not None:
                    added.add(key)
        elif depth > 1 and isinstance(func, ast.Name) and func.id in functions:
            inner = functions[func.id]
            inner_bindings = _bind(inner, node, False)
            for inner_param, arg in inner_bindings.items():
                if _named(arg) == param:
                    added |= _added_keys(inner, inner_param, {}, functions, depth - 1)
    return added
