"""MS180-MS181, MS183-MS192, MS239: Python the graph parser reads with its own, narrower rules.

- MS180: graph mode compiles `d.update(...)` of a dict as `standard_method.dict_update(self_,
  dict_obj)`: one positional dict, no keyword arguments. Python's `d.update(y=2)` and
  `d.update(other, y=2)` fail at both levels ("Got an unexpected keyword argument 'y'", at the
  call; measured on 2.10, CPU). So do pairs instead of a dict (`d.update([("b", v)])`,
  `zip(...)`, `other.items()`: "The pointer[dict] is null", round 36).
- MS181: a `global N` that the compiled function assigns but the module never binds: the parser
  resolves `N` in the module's namespace when compiling, before any assignment ran, so a read of
  it fails at both levels ("The name 'N' is not defined, or not supported in graph mode", at the
  read); PyNative creates the global on the assignment. A name the module binds (at its top
  level, or through `global` in another function) compiles.
- MS183 / MS239: an instance of a workspace class created in compiled code from a Tensor the
  graph computes. A `@jit_class` is built at compile time from constants only, at every level
  ("When creating an instance of 'Obj', all arguments are required to be constants, but input 0
  is a variable"); a plain class goes to the Python fallback, which STRICT runs only on
  constants ("When handling script '__call_func_str__(__input_0__,)' ... the inputs should be
  constant"), LAX compiles it. Both at the call (measured on 2.10, CPU). A `@dataclass` and a
  `typing.NamedTuple` class are plain classes here (round31 `ob_dc_*`, `ob_typing_nt_build`).
  Round 37 (`jc_`): a number read from a graph Tensor (`int(t.sum())`, `t.item()`,
  `float(t[0])`, through a local, as a keyword) is no constant either, with the same errors
  ("... input 0 is a variable, which is AbstractScalar(Type: Int64, Value: ValueAny)");
  `x.shape[0]` and `len(x)` are constants and compile.
- MS184: a `@jit_class` object iterated (`for v in obj`, `list(obj)`, `tuple(obj)`): graph mode
  does not call its `__iter__` and fails at every level ("'class' object is not iterable", at the
  loop or the call); a plain object held by the Cell is iterated by the fallback (compiles).
- MS192: a sub-Cell attribute assigned another Cell in `construct` (`self.relu = self.sig`,
  `self.relu = nn.Sigmoid()`): `Cell.__setattr__` refuses it while compiling, at every level
  ("Sub cell 'relu' already exists in network, can not assign this type"; no line named);
  `self.relu = None` compiles at LAX. STRICT's MS202 leaves these writes to this rule.
"""

from __future__ import annotations

import ast
import builtins as python_builtins
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, python_objects, receivers, shared_values
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo

DICT_UPDATE_ARGUMENTS = Rule(
    "MS180",
    "dict-update-arguments",
    Group.FAILS,
    title="`dict.update` with keyword arguments (or not one dict) in compiled code",
    message=(
        "graph mode compiles `{call}` as `dict_update(self, dict_obj)`, which takes one dict and "
        "no keyword arguments; pass a dict literal (`d.update({{'y': 2}})`)."
    ),
    why=(
        "The graph translates a dict's `update` to MindSpore's own `dict_update(self_, "
        "dict_obj)` (standard_method.py): Python's keyword form `d.update(y=2)` has no "
        "parameter to bind to."
    ),
    remedy="Pass the new items as one dict: `d.update({'y': 2})`, or assign `d['y'] = 2`.",
    mindspore_says="RuntimeError: Got an unexpected keyword argument 'y'",
)

GLOBAL_NEVER_BOUND = Rule(
    "MS181",
    "global-never-bound",
    Group.FAILS,
    title="A `global` name the module never binds, read in compiled code",
    message=(
        "`{name}` is declared `global` and assigned here, but the module never binds it: graph "
        "mode looks `{name}` up in the module when compiling and does not find it; bind "
        "`{name}` at the module's top level."
    ),
    why=(
        "The graph parser resolves a global name in the module's namespace at compile time. "
        "An assignment inside the compiled function does not create it (PyNative's would)."
    ),
    remedy="Give the name a module-level value (`N = 0`) before compiling, or use a local.",
    mindspore_says="NameError: The name 'N' is not defined, or not supported in graph mode.",
)


JIT_CLASS_FROM_TENSOR = Rule(
    "MS183",
    "jit-class-from-tensor",
    Group.FAILS,
    title="A `@jit_class` instance created in compiled code from a Tensor",
    message=(
        "`{cls}` is a `@jit_class`, whose instances graph mode creates at compile time from "
        "constants only, and {arg} is computed in the graph (a Tensor or a number read from "
        "one); create the object outside "
        "(in `__init__`) or pass the Tensor to its methods."
    ),
    why=(
        "Graph mode builds a `@jit_class` object while compiling (prim.cc GetParameters): every "
        "argument of its constructor must be a constant."
    ),
    remedy="Create the object in `__init__` and pass Tensors to its methods instead.",
    mindspore_says=(
        "TypeError: When creating an instance of 'Obj', all arguments are required to be "
        "constants, but input 0 is a variable, which is AbstractTensor(...)"
    ),
)

OBJECT_FROM_TENSOR_UNDER_STRICT = Rule(
    "MS239",
    "object-from-tensor-under-strict",
    Group.STRICT,
    title="A plain class instance created in compiled code from a Tensor, under STRICT",
    message=(
        "`{cls}` is a plain class, which only the Python fallback can create, and STRICT runs "
        "that only on constants while {arg} is computed in the graph (a Tensor or a number read "
        "from one); make `{cls}` a "
        "`@jit_class` created in `__init__`, or use the default LAX level."
    ),
    why=(
        "A plain Python class has no graph translation: LAX creates it through the Python "
        "fallback, which STRICT does not have beyond constant folding."
    ),
    remedy="Create the object outside compiled code, or use jit_syntax_level LAX.",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant, but found variable '__input_0__' to be nonconstant."
    ),
)


JIT_CLASS_ITERATED = Rule(
    "MS184",
    "jit-class-iterated",
    Group.FAILS,
    title="A `@jit_class` object iterated in compiled code",
    message=(
        "`{obj}` is a `{cls}`, a `@jit_class`, whose `__iter__` graph mode does not call; "
        "iterate a list or tuple attribute of it instead (`for v in {obj}.items`)."
    ),
    why=(
        "Graph mode iterates tuples, lists, dicts and Tensors; a `@jit_class` object is a class "
        "value to it, not an iterable, whatever `__iter__` it defines."
    ),
    remedy="Iterate the object's list or tuple attribute, or give it a method returning one.",
    mindspore_says="TypeError: 'class' object is not iterable",
)


SUB_CELL_REPLACED = Rule(
    "MS192",
    "sub-cell-replaced",
    Group.FAILS,
    title="A sub-Cell attribute assigned another Cell in compiled code",
    message=(
        "`self.{name}` holds a sub-Cell, which graph mode cannot replace while compiling; "
        "choose between the Cells with a flag set in `__init__` (`self.use_sig`) instead."
    ),
    why=(
        "Sub-Cells are fixed parts of the network when it is compiled: `Cell.__setattr__` "
        "refuses to replace one from inside `construct`."
    ),
    remedy="Create both Cells in `__init__` and pick one with a constant flag in `construct`.",
    mindspore_says=(
        "TypeError: Sub cell 'relu' already exists in network, can not assign this type: "
        "'<class 'int'>' as a cell."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for assign in ctx.of(ast.Assign):
        for target in assign.targets:
            if sub_cell_replaced(ctx, target, assign.value):
                yield SUB_CELL_REPLACED.finding(target, name=names.self_attribute(target))
    yield from _iterations(ctx)
    calls: list[ast.Call] = ctx.of(ast.Call)
    yield from _created_from_tensors(ctx, calls)
    updates = [c for c in calls if _update_misfit(c)]
    if updates:
        values = shared_values.abstract(ctx)
        for call in updates:
            assert isinstance(call.func, ast.Attribute)
            found = values.of(call.func.value)
            if found is not None and found.kind == "dict":
                yield DICT_UPDATE_ARGUMENTS.finding(call, call=names.short(call))


def check_globals(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether the module binds the name lies outside the function.
    declared: list[ast.Global] = ctx.of(ast.Global)
    if declared:
        yield from _globals(ctx, declared)


def _created_from_tensors(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    module = ctx.fn.module
    classes = _class_names(ctx)
    if not classes:
        return
    # Only a Tensor read from the function's inputs is surely computed in the graph: one that
    # `ops.zeros(shape)` makes may be folded into a constant when compiling.
    arguments = ctx.fn.node.args
    inputs = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    inputs.discard("self")
    for call in calls:
        func = call.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if not (call.args or call.keywords) or name not in classes:
            continue  # the cheap exit: not a call of a class the workspace's modules define
        arg = next(
            (
                a
                for a in [*call.args, *(k.value for k in call.keywords)]
                if (_reads(a, inputs) and ctx.types.is_tensor(a))
                or receivers.runtime_scalar(ctx, a)
            ),
            None,
        )
        if arg is None:
            continue
        info = ctx.classes.resolve(module.qualname(call.func))
        if info is None or info.is_cell:
            continue
        text = f"`{ast.unparse(arg)}`"
        if not _own_class(info):
            if python_objects.is_dataclass(module, info) or (
                isinstance(func, ast.Name)
                and python_objects.namedtuple_fields(module, func.id) is not None
            ):
                yield OBJECT_FROM_TENSOR_UNDER_STRICT.finding(call, cls=info.name, arg=text)
            continue
        if info.is_jit_class:
            yield JIT_CLASS_FROM_TENSOR.finding(call, cls=info.name, arg=text)
        elif not info.node.decorator_list:
            yield OBJECT_FROM_TENSOR_UNDER_STRICT.finding(call, cls=info.name, arg=text)


def sub_cell_replaced(ctx: FunctionContext, target: ast.expr, value: ast.expr) -> bool:
    """`self.<a> = <a Cell>` where `__init__` sets `self.<a>` to a Cell (not a Primitive)."""
    cls = ctx.fn.cls
    name = names.self_attribute(target)
    if cls is None or name is None or receivers.kind_of(ctx, target) != receivers.CELL:
        return False
    if receivers.kind_of(ctx, value) == receivers.CELL and names.self_attribute(value):
        return True
    if not isinstance(value, ast.Call):
        return False
    qualname = names.callee(ctx.fn.module, value.func)
    if names.is_primitive_class(qualname):
        return False
    if names.is_cell_qualname(qualname):
        return True
    info = ctx.classes.resolve(ctx.fn.module.qualname(value.func))
    return info is not None and info.is_cell


ITERATING_CALLS = frozenset({"list", "tuple", "enumerate", "zip", "sorted", "sum"})


def _iterations(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.For | ast.comprehension] = ctx.of(ast.For, ast.comprehension)
    iterated: list[tuple[ast.AST, ast.expr]] = [(loop, loop.iter) for loop in loops]
    for call in ctx.of(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in ITERATING_CALLS:
            iterated.extend((call, arg) for arg in call.args)
    for node, value in iterated:
        info = _jit_class_object(ctx, value)
        if info is not None:
            where = node if isinstance(node, ast.Call) else value
            yield JIT_CLASS_ITERATED.finding(where, obj=ast.unparse(value), cls=info.name)


def _jit_class_object(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The `@jit_class` of `self.<attr>` or of a local bound once to `Cls(...)`."""
    info: Optional[ClassInfo] = None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if isinstance(bound, ast.Call):
            info = ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    elif receivers.kind_of(ctx, expr) == receivers.JIT_CLASS:
        info = receivers.workspace_class(ctx, expr)
    if info is None or not info.is_jit_class or info.is_cell:
        return None
    return info


def _class_names(ctx: FunctionContext) -> set[str]:
    """Names a class of the workspace may be called by here: the module's own classes and the
    names it imports (an imported class keeps its name or takes an alias)."""
    module = ctx.fn.module
    return {*module.classes, *module.imports}


def _reads(expr: ast.expr, inputs: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in inputs for n in ast.walk(expr))


def _own_class(info: ClassInfo) -> bool:
    """A class of the workspace whose lineage is all workspace classes (not a NamedTuple, an
    Enum, an `OrderedDict`...), none of them declaring a metaclass or decorated (a dataclass)
    but for the class's own `@jit_class`."""
    for each in info.lineage():
        if len(each.node.bases) != len(each.bases) or each.node.keywords:
            return False
        if each is not info and each.node.decorator_list:
            return False
    decorators = len(info.node.decorator_list)
    return decorators == 0 or (decorators == 1 and info.is_jit_class)


def _update_misfit(call: ast.Call) -> bool:
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "update"):
        return False
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if call.keywords:
        return True
    return len(call.args) == 1 and _pairs(call.args[0])


# What `d.update(...)` is given instead of a dict: a sequence of key/value pairs.
_PAIR_CALLS = frozenset({"zip", "enumerate"})


def _pairs(arg: ast.expr) -> bool:
    """Key/value pairs written out: `[("b", v)]`, `(("b", v),)`, a list comprehension or a
    generator, `zip(...)`, `other.items()`. Measured on 2.10 (round 36, `dc_`): each fails at
    both levels ("The pointer[dict] is null", no line named); a dict local, a dict display and
    `dict(...)` compile (the last is MS206's under STRICT)."""
    if isinstance(arg, (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)):
        return True
    if not isinstance(arg, ast.Call):
        return False
    if isinstance(arg.func, ast.Name):
        return arg.func.id in _PAIR_CALLS
    return isinstance(arg.func, ast.Attribute) and arg.func.attr == "items" and not arg.args


def _globals(ctx: FunctionContext, declared: list[ast.Global]) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if module.tree is None:
        return
    wanted = {n for g in declared for n in g.names}
    wanted -= _module_bound(module.tree, ctx.fn.node)
    wanted = {n for n in wanted if not hasattr(python_builtins, n)}
    if not wanted:
        return
    reads: dict[str, ast.Name] = {}
    written: set[str] = set()
    for node in sorted(ctx.of(ast.Name), key=lambda n: (n.lineno, n.col_offset)):
        if node.id not in wanted:
            continue
        if isinstance(node.ctx, ast.Store):
            written.add(node.id)
        elif isinstance(node.ctx, ast.Load) and node.id in written and node.id not in reads:
            reads[node.id] = node
    for name, read in reads.items():
        yield GLOBAL_NEVER_BOUND.finding(read, name=name)


def _module_bound(tree: ast.Module, own: ast.AST) -> set[str]:
    """Names the module may bind outside `own`: anything it stores or imports outside functions
    and classes, and every `global` name of another function. Escapes (a star import,
    `globals()`, `setattr`/`exec` anywhere) may bind anything: every name of the module then."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return _everything(tree)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("globals", "exec", "setattr", "vars")
        ):
            return _everything(tree)
        if isinstance(node, ast.Global) and not _inside(own, node):
            bound.update(node.names)
    bound |= _top_level_bindings(tree.body)
    return bound


def _inside(outer: ast.AST, node: ast.AST) -> bool:
    return any(n is node for n in ast.walk(outer))


def _top_level_bindings(body: list[ast.stmt]) -> set[str]:
    bound: set[str] = set()
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(stmt.name)
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in stmt.names)
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                bound.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound


def _everything(tree: ast.Module) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
