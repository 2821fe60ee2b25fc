"""MS1070-MS1073, MS269, MS386, MS387: MindSpore's composite APIs (`MultitypeFuncGraph`,
`HyperMap`, `Map`), user-written Primitives and `ops.Custom` used in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 34; every program
below runs in PyNative):

MS1070: `ops.MultitypeFuncGraph("f")` created in `construct`, in a helper method or in a module
function `construct` calls fails at both levels: "ValueError: Failed to compile in GRAPH_MODE
because creating class 'mindspore.ops.composite.base.MultitypeFuncGraph' instances is not
supported in 'construct' or @jit decorated function" (no line named). Compile alike: the
MultitypeFuncGraph made at module level or in `__init__` (and registered there), `ops.HyperMap()`
and `ops.Map()` created in `construct`.

MS1071: `HyperMap` / `Map` given sequences that do not line up: `hm(add, (a, b), (a, b, a))`
("The tuples in HyperMap should have the same length"), lists of other lengths ("The lists in
HyperMap should have the same length"), a tuple and a list (`hm(add, (a, b), [a, b])`: "In a
nonleaf situation, the types of arguments in HyperMap must be consistent"; `Map`: "The types of
arguments in Map must be consistent"), the same one level down (`((a, b), a)` with `((a,), a)`),
through locals bound to tuples, with the function bound by the constructor
(`ops.HyperMap(add)`), or `ops.partial(f, 2.0)` as the function; each at both levels, where
PyNative zips them. Compile alike: sequences of one kind and length, a Tensor leaf beside a
tuple (not judged), `ops.Map()` created in `construct`.

MS1072: calling an instance of the module's own `Primitive` / `PrimitiveWithInfer` /
`PrimitiveWithCheck` subclass whose Python `__call__` PyNative runs: graph mode looks for a
kernel of that name ("Kernel select failed: Unsupported op [MyAdd] on CPU", or "Operator
'Twice' is invalid, or no matching evaluator could be found" for a plain `Primitive`), at both
levels (the name is the class's under `@prim_attr_register`, else the string given to
`super().__init__("Twice")` / `Primitive.__init__(self, "Twice")`). MS386 instead when the class
is a `PrimitiveWithInfer` defining no `infer_shape` / `infer_dtype` / `infer_value` /
`__infer__`: the call compiles and gives None (PyNative: `__call__`'s value); with `infer_shape`
alone it fails ("Python evaluator return invalid shape or type"). Compiles alike: a subclass
named like a MindSpore kernel (`class ReLU(...)`, whose
kernel graph mode then runs), one created in `__init__` but never called in compiled code.

MS1073: `ops.Custom(func, out_shape=..., out_dtype=..., func_type="pyfunc")` built in compiled
code with a function for `out_shape` or `out_dtype` (a lambda, a module function): "TypeError:
When creating an instance of 'Custom', all arguments are required to be constants, but input 1
is a variable", at both levels. Compiles alike: the same with `out_shape=(3,)` and
`out_dtype=ms.float32`, and the Custom op built in `__init__` with functions.

MS387: `construct` returning what HyperMap / Map made from lists (`return self.hm(sq, [a, b])`,
through a local bound once to it, `ops.Map`, and `ops.clip_by_global_norm([a, b], 1.0)`, which
maps with HyperMap): a list in graph mode, a tuple in PyNative, at both levels. Alike (no
warning): the result indexed (`r[0] + r[1]`), tuples mapped.

MS269 (STRICT): a module-level MultitypeFuncGraph called with arguments no registration takes
(`add(x, 2)` with only `("Tensor", "Tensor")`, `f((x, x))` with only `("Tensor",)`, `f([x, x])`
with only `("Tuple",)`, `f(x)` with only `("Number",)`): PyNative calls the single registered
function anyway, LAX runs it in its Python fallback, STRICT fails with "When handling script
'__py_exec_index0_f__(__input_key_0__,) in graph mode', the inputs should be constant". Compile
alike at STRICT: arguments of the registered types (`"Number"` takes a bool, `"None"`, `"String"`,
`"List"`, `"Tuple"`), constant arguments (`sq(self.scale)` of a float), and the same
MultitypeFuncGraph given to `HyperMap` over a tuple holding a number.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, shared_values
from .helpers.abstract import Value
from .helpers.base import FunctionContext
from .primitive_attributes import _held, _user_primitive

MULTITYPE_IN_GRAPH = Rule(
    "MS1070",
    "multitype-funcgraph-in-graph",
    Group.FAILS,
    title="`MultitypeFuncGraph(...)` created in compiled code",
    message=(
        "`{text}` creates a MultitypeFuncGraph inside compiled code, which graph mode refuses at "
        "every level; create it (and register its functions) at module level or in `__init__`."
    ),
    why=(
        "Graph mode cannot create MindSpore's composite function objects while it compiles: "
        "a MultitypeFuncGraph is a Python object whose registrations must exist before."
    ),
    remedy=(
        "Create the MultitypeFuncGraph at module level and register its functions there with "
        "`@f.register(...)`; call it from `construct`."
    ),
    mindspore_says=(
        "ValueError: Failed to compile in GRAPH_MODE because creating class "
        "'mindspore.ops.composite.base.MultitypeFuncGraph' instances is not supported in "
        "'construct' or @jit decorated function."
    ),
)

HYPERMAP_SEQUENCES = Rule(
    "MS1071",
    "hypermap-sequences-mismatch",
    Group.FAILS,
    title="`HyperMap` / `Map` over sequences of other lengths or kinds",
    message=(
        "`{text}` maps over sequences that {what}, which graph mode's {op} refuses at every "
        "level (PyNative zips them); give it sequences of one kind and one length."
    ),
    why=(
        "Graph mode expands HyperMap and Map element by element and requires the sequences at "
        "each level to be all tuples or all lists, of one length; PyNative's Python version "
        "stops at the shortest."
    ),
    remedy="Pass tuples of the same length (`tuple(xs)`, slice the longer one).",
    mindspore_says=(
        "RuntimeError: The tuples in HyperMap should have the same length. The length of the "
        "first element in HyperMap is 3, but the length of the second element in HyperMap is 2."
    ),
)

USER_PRIMITIVE_CALLED = Rule(
    "MS1072",
    "user-primitive-called-in-graph",
    Group.FAILS,
    title="A hand-written Primitive subclass with a Python `__call__` called in compiled code",
    message=(
        "`{text}` calls the Primitive `{cls}`, whose Python `__call__` runs only in PyNative: "
        "graph mode looks for a kernel named `{kernel}`, which does not exist, at every level; "
        "write the computation as a Cell or function of `ops`, or as an `ops.Custom` op."
    ),
    why=(
        "In graph mode a Primitive is an operator node executed by the kernel of its name; "
        "the Python `__call__` of a subclass is never run there."
    ),
    remedy=(
        "Move the computation into a function or Cell built from `ops`, or wrap a NumPy "
        "function with `ops.Custom(..., func_type='pyfunc')`."
    ),
    mindspore_says=(
        "RuntimeError: Kernel select failed: Unsupported op [MyAdd] on CPU, Please confirm "
        "whether the device target setting is correct"
    ),
)

CUSTOM_FUNCTION_ARGUMENT = Rule(
    "MS1073",
    "custom-op-function-argument-in-graph",
    Group.FAILS,
    title="`ops.Custom(...)` built in compiled code with a function for its shape or dtype",
    message=(
        "`{arg}` is a function given as `{param}` to `ops.Custom(...)` built in compiled code, "
        "where graph mode needs every argument of the op as a constant, at every level; build "
        "the Custom op in `__init__` (or give a shape tuple and a dtype)."
    ),
    why=(
        "Graph mode builds a Primitive met in compiled code from constant arguments; a function "
        "(lambda or module function) is a variable there, unlike the op's own `func`."
    ),
    remedy="Create the `ops.Custom` op in `__init__` and call `self.op(...)` in `construct`.",
    mindspore_says=(
        "TypeError: When creating an instance of 'Custom', all arguments are required to be "
        "constants, but input 1 is a variable"
    ),
)

MULTITYPE_NO_MATCH = Rule(
    "MS269",
    "multitype-funcgraph-no-match-under-strict",
    Group.STRICT,
    title="A MultitypeFuncGraph called with types none of its registrations takes, under STRICT",
    message=(
        "`{text}` gives `{name}` ({given}), which none of its registrations ({registered}) "
        "takes: PyNative calls the registered function anyway, graph mode runs the call in "
        "its Python fallback, which STRICT refuses for graph values; register the types "
        "passed (`@{name}.register({wanted})`) or use LAX."
    ),
    why=(
        "A MultitypeFuncGraph picks the registration matching its arguments' types; with none "
        "matching, graph mode calls it through the Python fallback, which STRICT allows only "
        "on constants."
    ),
    remedy="Register a function for the argument types passed, or convert the argument.",
    mindspore_says=(
        "ValueError: When handling script '__py_exec_index0_f__(__input_key_0__,) in graph "
        "mode', the inputs should be constant, but found variable '__input_key_0__' to be "
        "nonconstant."
    ),
)

USER_PRIMITIVE_NONE = Rule(
    "MS386",
    "user-primitive-without-infer-gives-none",
    Group.DIVERGES,
    title="A hand-written `PrimitiveWithInfer` without infer methods called in compiled code",
    message=(
        "`{text}` calls the Primitive `{cls}`, whose Python `__call__` runs only in PyNative; "
        "with no `infer_shape` / `infer_dtype` graph mode infers no output and the call gives "
        "None there; write the computation as a Cell or function of `ops`, or as an "
        "`ops.Custom` op."
    ),
    why=(
        "In graph mode a Primitive is an operator node: its Python `__call__` is never run, "
        "and a `PrimitiveWithInfer` that defines no infer method has no output."
    ),
    remedy=(
        "Move the computation into a function or Cell built from `ops`, or wrap a NumPy "
        "function with `ops.Custom(..., func_type='pyfunc')`."
    ),
    mindspore_says="(compiles; the call returns None, where PyNative returns `__call__`'s value)",
)

MAPPED_LISTS_RETURNED = Rule(
    "MS387",
    "hypermap-over-lists-returned",
    Group.DIVERGES,
    title="`construct` returns what `HyperMap` / `Map` (or `clip_by_global_norm`) made from lists",
    message=(
        "`{text}` maps over lists: graph mode's {op} gives lists back, PyNative's gives "
        "tuples, so `construct` returns {where} list here and {where} tuple in PyNative; "
        "convert the result (`tuple(...)`) or map over tuples."
    ),
    why=(
        "Graph mode expands HyperMap and Map into a sequence of the input's kind at each "
        "level; PyNative's Python version always builds tuples."
    ),
    remedy="Map over tuples (`tuple(xs)`) or convert the result with `tuple(...)`.",
    mindspore_says="(compiles; returns [Tensor, ...] where PyNative returns (Tensor, ...))",
)

OPS = "mindspore.ops."
# registration names whose matching is measured; a MultitypeFuncGraph with another is not judged
KNOWN_TYPES = frozenset({"Tensor", "Number", "String", "None", "Tuple", "List", "Dictionary"})
TYPE_OF_KIND = {
    "tensor": "Tensor",
    "scalar": "Number",
    "str": "String",
    "None": "None",
    "tuple": "Tuple",
    "list": "List",
    "dict": "Dictionary",
}


def _is_ops(qualname: Optional[str], *last: str) -> bool:
    return bool(qualname) and qualname.startswith(OPS) and qualname.rsplit(".", 1)[-1] in last  # type: ignore[union-attr]


def _bindings(ctx: FunctionContext) -> dict[str, list[ast.expr]]:
    key = "composite_graphs.bindings"
    found = ctx.shared.get(key)
    if found is None:
        bound: dict[str, list[ast.expr]] = {}
        for node in ctx.of(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr):
            targets: list[ast.expr] = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr))
                else []
            )
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        # the value only for `name = value`; else the name (not a value)
                        whole = isinstance(node, ast.Assign) and t is n
                        bound.setdefault(n.id, []).append(
                            node.value if whole and isinstance(node, ast.Assign) else n
                        )
        ctx.shared[key] = found = bound
    assert isinstance(found, dict)
    return found


def _constructor(ctx: FunctionContext, func: ast.expr) -> Optional[ast.Call]:
    """The `ops.HyperMap(...)` / `ops.Map(...)` call `func` certainly holds."""
    module = ctx.fn.module
    call: Optional[ast.expr] = None
    if isinstance(func, ast.Call):
        call = func
    elif names.self_attribute(func) is not None and ctx.fn.cls is not None:
        name = names.self_attribute(func) or ""
        held = ctx.fn.cls.attr(name)
        if held is not None and not ctx.fn.cls.attr_varies(name):
            call = held.node if isinstance(held.node, ast.expr) else None
    elif isinstance(func, ast.Name):
        values = _bindings(ctx).get(func.id, [])
        if len(values) == 1:
            call = values[0]
    if isinstance(call, ast.Call) and _is_ops(names.callee(module, call), "HyperMap", "Map"):
        return call
    return None


def _mismatch(values: list[Optional[Value]]) -> Optional[str]:
    """What is wrong with sequences mapped together, when the source shows it."""
    if any(v is None for v in values):
        return None
    kinds = {v.kind for v in values if v is not None}
    if not kinds <= {"tuple", "list"}:
        return None
    if len(kinds) == 2:
        return "mix tuples and lists"
    items = [v.items for v in values if v is not None and v.items is not None and not v.op]
    if len(items) != len(values):
        return None
    lengths = sorted({len(i) for i in items})
    if len(lengths) > 1:
        return "have different lengths ({})".format(" and ".join(str(n) for n in lengths))
    for position in range(lengths[0]):
        inner = _mismatch([i[position] for i in items])
        if inner is not None:
            return inner
    return None


def _hypermaps(ctx: FunctionContext, call: ast.Call) -> Optional[RawFinding]:
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    built = _constructor(ctx, call.func)
    if built is None:
        return None
    bound_fn = bool(built.args) or names.keyword(built, "ops") is not None
    sequences = call.args if bound_fn else call.args[1:]
    if not sequences:
        return None
    values = shared_values.abstract(ctx)
    given = [values.of(s) for s in sequences]
    op = (names.callee(ctx.fn.module, built) or "HyperMap").rsplit(".", 1)[-1]
    what = _mismatch(given) if len(given) > 1 else None
    if what is not None:
        return HYPERMAP_SEQUENCES.finding(call, text=names.short(call), what=what, op=op)
    where = _list_level(given[0]) if given else None
    if where is not None and _returned(ctx, call):
        return MAPPED_LISTS_RETURNED.finding(call, text=names.short(call), op=op, where=where)
    return None


def _list_level(value: Optional[Value]) -> Optional[str]:
    """ "a" when the mapped sequence is a list, "an inner" when one of its items is."""
    if value is None or value.kind not in ("tuple", "list"):
        return None
    if value.kind == "list":
        return "a"
    if any(_list_level(i) is not None for i in value.items or ()):
        return "an inner"
    return None


def _returned(ctx: FunctionContext, call: ast.Call) -> bool:
    """`construct` of a Cell returns the call's value as it is (directly or through a local
    bound once to it)."""
    if ctx.fn.node.name != "construct" or ctx.fn.cls is None or not ctx.fn.cls.is_cell:
        return False
    for ret in ctx.of(ast.Return):
        if ret.value is call:
            return True
        if isinstance(ret.value, ast.Name):
            bound = _bindings(ctx).get(ret.value.id, [])
            if len(bound) == 1 and bound[0] is call:
                return True
    return False


def _defines_call(ctx: FunctionContext, cls_name: str, seen: frozenset[str] = frozenset()) -> bool:
    module = ctx.fn.module
    node = module.classes.get(cls_name)
    if node is None or cls_name in seen:
        return False
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__call__":
            return True
    return any(
        isinstance(b, ast.Name) and _defines_call(ctx, b.id, seen | {cls_name}) for b in node.bases
    )


def _kernel_name(ctx: FunctionContext, cls_name: str) -> Optional[str]:
    """The operator name the class's instances carry: the class name under
    `@prim_attr_register`, the string given to `super().__init__("Name")`; None when unknown."""
    node = ctx.fn.module.classes.get(cls_name)
    if node is None:
        return None
    init = next(
        (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is None:
        return None
    if any(
        (isinstance(d, ast.Name) and d.id == "prim_attr_register")
        or (isinstance(d, ast.Attribute) and d.attr == "prim_attr_register")
        for d in init.decorator_list
    ):
        return cls_name
    for n in ast.walk(init):
        if not (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "__init__"
        ):
            continue
        # `super().__init__("Name")` or `Primitive.__init__(self, "Name")`
        given = n.args[1:] if isinstance(n.func.value, ast.Name) else n.args
        if given and isinstance(given[0], ast.Constant) and isinstance(given[0].value, str):
            return given[0].value
    return None


# Kernels MindSpore 2.10 has on CPU under names a user's subclass might take; such a subclass
# runs MindSpore's kernel in graph mode instead of failing (measured: `class ReLU(...)`).
def _real_kernel(kernel: str) -> bool:
    from ..facts import FACTS

    return kernel in FACTS.constant_argument_primitives or kernel in _COMMON_KERNELS


_COMMON_KERNELS = frozenset(
    {
        "Abs", "Add", "AddN", "Cast", "Concat", "Div", "Exp", "Gather", "Log", "MatMul",
        "Maximum", "Minimum", "Mul", "Neg", "ReLU", "Reshape", "Sigmoid", "Softmax", "Sqrt",
        "Square", "Sub", "Tanh", "Transpose", "Identity", "Erf", "Sin", "Cos", "Pow",
        "RealDiv", "Floor", "Ceil", "Round", "Sign", "Select", "Tile", "Stack",
    }
)  # fmt: skip


def _user_primitive_call(ctx: FunctionContext, call: ast.Call) -> Optional[RawFinding]:
    func = call.func
    cls_name: Optional[str] = None
    if isinstance(func, ast.Call):
        cls_name = _user_primitive(ctx, func)
    elif (isinstance(func, ast.Name) and func.id != "self") or names.self_attribute(
        func
    ) is not None:
        held = _held(ctx, func)
        cls_name = held if held in ctx.fn.module.classes else None
    if cls_name is None or not _defines_call(ctx, cls_name):
        return None
    kernel = _kernel_name(ctx, cls_name)
    if kernel is None or _real_kernel(kernel):
        return None
    bases, methods = _lineage(ctx, cls_name)
    if bases == {"PrimitiveWithInfer"} and not methods & INFER_METHODS:
        return USER_PRIMITIVE_NONE.finding(call, text=names.short(call), cls=cls_name)
    if not bases or not bases <= {"Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck"}:
        return None
    return USER_PRIMITIVE_CALLED.finding(call, text=names.short(call), cls=cls_name, kernel=kernel)


# measured: a `PrimitiveWithInfer` defining none of these compiles and gives None; with
# `infer_shape` alone, both, or `__infer__` the call fails
INFER_METHODS = frozenset({"infer_shape", "infer_dtype", "infer_value", "__infer__"})


def _lineage(ctx: FunctionContext, cls_name: str) -> tuple[set[str], set[str]]:
    """The MindSpore base classes (last name) of the module's class `cls_name` and the methods
    it and its module bases define."""
    module = ctx.fn.module
    bases: set[str] = set()
    methods: set[str] = set()
    queue, seen = [cls_name], set()
    while queue:
        name = queue.pop()
        node = module.classes.get(name)
        if node is None or name in seen:
            continue
        seen.add(name)
        methods |= {s.name for s in node.body if isinstance(s, ast.FunctionDef)}
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id in module.classes:
                queue.append(base.id)
            else:
                qualname = module.qualname(base) or ""
                bases.add(qualname.rsplit(".", 1)[-1] if qualname.startswith("mindspore.") else "?")
    return bases, methods


CUSTOM_FUNCTION_PARAMS = (("out_shape", 1), ("out_dtype", 2))


def _custom(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    if not _is_ops(names.callee(ctx.fn.module, call), "Custom"):
        return
    module = ctx.fn.module
    local = _bindings(ctx)
    for param, position in CUSTOM_FUNCTION_PARAMS:
        arg = names.keyword(call, param)
        if arg is None and len(call.args) > position:
            arg = call.args[position]
        if arg is None:
            continue
        is_function = isinstance(arg, ast.Lambda) or (
            isinstance(arg, ast.Name) and arg.id in module.functions and arg.id not in local
        )
        if is_function:
            yield CUSTOM_FUNCTION_ARGUMENT.finding(arg, arg=names.short(arg), param=param)
            return


# --- MS269 -------------------------------------------------------------------------------

_REGISTRIES: dict[int, tuple[ast.Module, dict[str, Optional[list[tuple[str, ...]]]]]] = {}


def _registrations(tree: ast.Module, module_qualname) -> dict[str, Optional[list[tuple[str, ...]]]]:  # type: ignore[no-untyped-def]
    """Module-level MultitypeFuncGraphs -> their registered type names (None: not known)."""
    held = _REGISTRIES.get(id(tree))
    if held is not None and held[0] is tree:
        return held[1]
    regs: dict[str, Optional[list[tuple[str, ...]]]] = {}
    assigned: dict[str, int] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        assigned[n.id] = assigned.get(n.id, 0) + 1
            if (
                len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)
                and _is_ops(module_qualname(stmt.value.func), "MultitypeFuncGraph")
            ):
                regs[stmt.targets[0].id] = []
    consumed: set[int] = set()

    def register(call: ast.expr) -> Optional[tuple[str, tuple[str, ...]]]:
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "register"
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id in regs
        ):
            return None
        consumed.add(id(call.func))
        types = [a.value for a in call.args if isinstance(a, ast.Constant)]
        if (
            call.keywords
            or len(types) != len(call.args)
            or not all(isinstance(t, str) and t in KNOWN_TYPES for t in types)
        ):
            return (call.func.value.id, ("?",))
        return call.func.value.id, tuple(str(t) for t in types)

    for stmt in tree.body:
        found: list[Optional[tuple[str, tuple[str, ...]]]] = []
        if isinstance(stmt, ast.FunctionDef):
            found = [register(d) for d in stmt.decorator_list]
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            found = [register(stmt.value.func)]
        for item in found:
            if item is None:
                continue
            name, types = item
            entries = regs.get(name)
            if entries is None:
                continue
            if "?" in types:
                regs[name] = None
            else:
                entries.append(types)
    for n in ast.walk(tree):
        if (
            isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name)
            and n.value.id in regs
            and id(n) not in consumed
        ):
            regs[n.value.id] = None  # another use (`f.default`, a registration elsewhere)
    for name in list(regs):
        if assigned.get(name, 0) != 1 or not regs[name]:
            regs[name] = None
    _REGISTRIES.clear()
    _REGISTRIES[id(tree)] = (tree, regs)
    return regs


def _holds_tensor(value: Optional[Value]) -> bool:
    if value is None:
        return False
    if value.kind == "tensor":
        return True
    return bool(value.items) and any(_holds_tensor(i) for i in value.items or ())


def _no_match(ctx: FunctionContext, call: ast.Call) -> Optional[RawFinding]:
    func = call.func
    if not isinstance(func, ast.Name) or call.keywords:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or func.id in _bindings(ctx):
        return None
    if any(a.arg == func.id for a in ctx.fn.node.args.args):
        return None
    module = ctx.fn.module
    if module.tree is None:
        return None
    entries = _registrations(module.tree, module.qualname).get(func.id)
    if not entries:
        return None
    values = shared_values.abstract(ctx)
    given = [values.of(a) for a in call.args]
    if not any(_holds_tensor(v) for v in given):
        return None  # constants: the fallback runs them at STRICT too
    types = [TYPE_OF_KIND.get(v.kind) if v is not None else None for v in given]
    same_arity = [e for e in entries if len(e) == len(types)]
    if not same_arity:
        return None
    for entry in same_arity:
        if all(t is None or t == want for t, want in zip(types, entry)):
            return None
    wanted = ", ".join(f'"{t}"' if t else '"Tensor"' for t in types)
    return MULTITYPE_NO_MATCH.finding(
        call,
        text=names.short(call),
        name=func.id,
        given=", ".join(t or "?" for t in types),
        registered="; ".join("(" + ", ".join(e) + ")" for e in entries),
        wanted=wanted,
    )


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    multitype = module.mentions("MultitypeFuncGraph")
    maps = module.mentions("Map")
    prims = module.mentions("Primitive")
    custom = module.mentions("Custom")
    clip = module.mentions("clip_by_global_norm")
    if not (multitype or maps or prims or custom or clip):
        return
    for call in ctx.of(ast.Call):
        if multitype:
            if _is_ops(names.callee(module, call), "MultitypeFuncGraph"):
                yield MULTITYPE_IN_GRAPH.finding(call, text=names.short(call))
                continue
            found = _no_match(ctx, call)
            if found is not None:
                yield found
                continue
        if maps:
            found = _hypermaps(ctx, call)
            if found is not None:
                yield found
                continue
        if prims:
            found = _user_primitive_call(ctx, call)
            if found is not None:
                yield found
                continue
        if custom:
            yield from _custom(ctx, call)
        if clip and call.args and _is_ops(names.callee(module, call), "clip_by_global_norm"):
            where = _list_level(shared_values.abstract(ctx).of(call.args[0]))
            if where is not None and _returned(ctx, call):
                yield MAPPED_LISTS_RETURNED.finding(
                    call, text=names.short(call), op="clip_by_global_norm", where=where
                )
