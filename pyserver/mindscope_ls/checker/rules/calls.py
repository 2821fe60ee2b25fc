"""MS155-MS159, MS223-MS225: attributes, calls, unpacking and loops over values that cannot
take them.

Measured with MindSpore 2.10 (`generated/{attributes,calls,unpacking,iteration}/`): an
attribute only a Tensor has (`shape`, `dtype`, `ndim`, `data`) fails on a scalar, tuple, list,
None, str or dict; a Tensor computed in the graph has no `grad`/`name`/`requires_grad`; calling
a Tensor, scalar, str or None fails; a call to a module function with the wrong arguments
fails; unpacking fewer items than names, None, a scalar, a dict or a 0-d Tensor fails; so does
a `for` over None, a scalar or a 0-d Tensor. Under STRICT `x.device`, `x.__class__`, `len()`
of a str, a `for` over a str and `setattr` fail too. Values the source does not fix are never
reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import shared_values
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext
from .helpers.instances import closed_classes, instance_class, lacks

ATTRIBUTE_OF_WRONG_KIND = Rule(
    "MS155",
    "attribute-of-wrong-kind",
    Group.FAILS,
    title="A Tensor attribute read on a value that is not a Tensor",
    message="`.{attr}` is read on a {kind}, which has no such attribute; {advice}.",
    why=(
        "Graph mode resolves an attribute from the value's type when it compiles: a scalar, "
        "tuple, list, None or str has no `shape`/`dtype`/`ndim`/`data`, and a Tensor computed "
        "in the graph has no `name`, `grad` or `requires_grad`."
    ),
    remedy=(
        "Read the attribute from a Tensor (`ops.stack(values).shape`, `len(t)` for a tuple), or "
        "keep the name/grad bookkeeping outside compiled code."
    ),
    mindspore_says="AttributeError: 'Tuple' object has no attribute 'shape'",
)

CALL_OF_NON_CALLABLE = Rule(
    "MS156",
    "call-of-non-callable",
    Group.FAILS,
    title="Calling a value that is not a function",
    message="`{name}` is a {kind} and cannot be called; call a function, Cell or op instead.",
    why="The graph compiler can only call functions, Cells, classes and ops.",
    remedy="Call the function the value came from, or index the value instead of calling it.",
    mindspore_says="ValueError: The object is not callable. Please check code.",
)

CALL_ARGUMENTS_MISMATCH = Rule(
    "MS157",
    "call-arguments-mismatch",
    Group.FAILS,
    title="A function called with arguments that do not match its parameters",
    message="`{name}()` {problem}; pass the arguments its `def` declares.",
    why=(
        "The graph compiler binds a call's arguments to the callee's parameters when it "
        "compiles; a missing, extra or unknown argument fails the compile."
    ),
    remedy="Match the call to the function's parameters (names, count, keyword-only ones).",
    mindspore_says=(
        "TypeError: The parameters number of the function is 1, but the number of provided "
        "arguments is 2."
    ),
)

UNPACK_MISMATCH = Rule(
    "MS158",
    "unpack-mismatch",
    Group.FAILS,
    title="Unpacking a value into targets it cannot fill",
    message="{count} names are unpacked from {what}; {advice}.",
    why=(
        "Graph mode unpacks by indexing the value `0..n-1` when it compiles: a tuple or list of "
        "another length, None, a scalar, a dict (no key 0) or a 0-d Tensor has no such items."
    ),
    remedy="Unpack no more names than the tuple/list has items, or index the value explicitly.",
    mindspore_says=(
        "IndexError: TupleGetItem evaluator index should be in range[-2, 2), but got 2."
    ),
)

ITERATE_NON_ITERABLE = Rule(
    "MS159",
    "iterate-non-iterable",
    Group.FAILS,
    title="A `for` loop over a value that cannot be iterated",
    message="`for` iterates over {what}, which is not iterable; {advice}.",
    why=(
        "Graph mode unrolls a `for` over the value's items: None, a scalar and a 0-d Tensor "
        "have none."
    ),
    remedy="Loop over a tuple, list, dict, range or a Tensor with at least one axis.",
    mindspore_says="TypeError: 'none' object is not iterable",
)

ATTRIBUTE_UNDER_STRICT = Rule(
    "MS223",
    "tensor-attribute-under-strict",
    Group.STRICT,
    title="`x.device` / `x.__class__` of a Tensor in compiled code",
    message="`.{attr}` of a Tensor is not supported under jit_syntax_level=STRICT; {advice}.",
    why="Under STRICT only the attributes the graph knows for a Tensor can be read.",
    remedy="Read the attribute outside compiled code, or use the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes device or the Tensor[Float32] "
        "object has no attribute: 'device'."
    ),
)

STR_LENGTH_UNDER_STRICT = Rule(
    "MS224",
    "str-length-under-strict",
    Group.STRICT,
    title="`len()` of a str or a `for` over a str in compiled code",
    message="{what} a str is not supported under jit_syntax_level=STRICT; {advice}.",
    why="Under STRICT a str has no `__len__` in the graph, so neither `len` nor `for` works on it.",
    remedy="Use a tuple of strs, or the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __len__ or the String object "
        "has no attribute: '__len__'."
    ),
)

SETATTR_UNDER_STRICT = Rule(
    "MS225",
    "setattr-under-strict",
    Group.STRICT,
    title="`setattr()` in compiled code",
    message=(
        "`setattr()` is not supported under jit_syntax_level=STRICT; set the attribute outside "
        "compiled code or return the value."
    ),
    why="Under STRICT compiled code cannot change attributes through `setattr`.",
    remedy="Return the new value, or set the attribute in `__init__` / outside the graph.",
    mindspore_says="RuntimeError: The third argument should be a dictionary, but got ",
)

# Attributes measured to fail on non-Tensor values (a Python scalar, tuple, None, ...).
TENSOR_ONLY = frozenset({"shape", "dtype", "ndim", "data"})
# Measured to fail on a Tensor computed in the graph (`requires_grad` fails on a Parameter too;
# a Parameter's `name`/`grad` are not measured, so only computed Tensors are reported).
NOT_ON_TENSOR = frozenset({"grad", "name", "requires_grad"})
STRICT_TENSOR_ATTRS = frozenset({"device", "__class__"})
NOT_A_TENSOR = frozenset({"scalar", "tuple", "list", "None", "str", "dict"})
NOT_CALLABLE = frozenset({"tensor", "scalar", "str", "None", "tuple", "list", "dict"})
# Measured: graph mode's print takes no `end` ("Got an unexpected keyword argument 'end'").
PRINT_UNSUPPORTED = frozenset({"end"})
# Reductions that give a 0-d Tensor when called with no axis.
REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "all", "any"})


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: MS157 reads the `def` of the module function a call names."""
    values = shared_values.abstract(ctx)
    nodes: list[ast.AST] = ctx.of(ast.Attribute, ast.Call, ast.Assign, ast.For)
    for node in nodes:
        if isinstance(node, ast.Attribute):
            yield from _attribute(ctx, values, node)
        elif isinstance(node, ast.Call):
            yield from _call(ctx, values, node)
        elif isinstance(node, ast.Assign):
            yield from _unpack(ctx, values, node)
        elif isinstance(node, ast.For):
            yield from _loop(ctx, values, node)


def _describe(value: Value) -> str:
    if value.kind == "None":
        return "None"
    if value.kind == "scalar" and value.dtype:
        return value.dtype
    return value.kind


def _attribute(ctx: FunctionContext, values: Abstract, node: ast.Attribute) -> Iterator[RawFinding]:
    if not isinstance(node.ctx, ast.Load):
        return
    attr = node.attr
    cls = _instance(ctx, node.value)
    if cls is not None:
        if lacks(ctx.fn.module, cls, attr):
            yield ATTRIBUTE_OF_WRONG_KIND.finding(
                node, attr=attr, kind=f"`{cls.name}` object", advice=_advice(cls, attr)
            )
        return
    if attr in TENSOR_ONLY:
        value = values.of(node.value)
        if value is not None and value.kind in NOT_A_TENSOR:
            advice = (
                "use `len()` of the tuple"
                if value.kind in ("tuple", "list")
                else ("read it from a Tensor")
            )
            yield ATTRIBUTE_OF_WRONG_KIND.finding(
                node, attr=attr, kind=_describe(value), advice=advice
            )
    elif attr in NOT_ON_TENSOR and _computed_tensor(ctx, values, node.value):
        advice = "read it from the Parameter outside compiled code (in `__init__`)"
        yield ATTRIBUTE_OF_WRONG_KIND.finding(node, attr=attr, kind="Tensor", advice=advice)
    elif attr in STRICT_TENSOR_ATTRS:
        value = values.of(node.value)
        if value is not None and value.kind == "tensor":
            advice = "use `isinstance(x, Tensor)`" if attr == "__class__" else "read it outside"
            yield ATTRIBUTE_UNDER_STRICT.finding(node, attr=attr, advice=advice)


def _advice(cls: ast.ClassDef, attr: str) -> str:
    return f"set `self.{attr}` in `{cls.name}.__init__`, or read an attribute it has"


def _instance(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.ClassDef]:
    """The module class `expr` is an instance of, through one local `name = value` at most."""
    if not closed_classes(ctx.fn.module):
        return None  # the common case: no plain class in the module, nothing to walk
    if isinstance(expr, ast.Name) and expr.id in _local_names(ctx.fn.node):
        bound = _assigned(ctx.fn.node, expr.id)
        if len(bound) != 1 or (isinstance(bound[0], ast.Name) and bound[0].id == expr.id):
            return None
        expr = bound[0]
    return instance_class(ctx.fn.module, expr)


def _computed_tensor(
    ctx: FunctionContext, values: Abstract, expr: ast.expr, depth: int = 0
) -> bool:
    """`expr` is a Tensor that cannot be a Parameter: an arithmetic result, or a local name
    every binding of which is one (a function's parameters may be handed Parameters)."""
    if isinstance(expr, (ast.BinOp, ast.UnaryOp)):
        value = values.of(expr)
        return value is not None and value.kind == "tensor"
    if not isinstance(expr, ast.Name) or depth > 4:
        return False
    fn = ctx.fn.node
    if fn.name == "construct" and expr.id in {a.arg for a in fn.args.args[1:]}:
        # What a Cell is called with is a Tensor, not a Parameter (`self.p` is read in place).
        value = values.of(expr)
        return value is not None and value.kind == "tensor" and not _assigned_any(fn, expr.id)
    bound = _assigned(fn, expr.id)
    return bool(bound) and all(
        isinstance(v, (ast.BinOp, ast.UnaryOp, ast.Name))
        and _computed_tensor(ctx, values, v, depth + 1)
        for v in bound
    )


def _assigned_any(fn: FunctionNode, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
        for n in ast.walk(fn)
    )


def _assigned(fn: FunctionNode, name: str) -> list[ast.expr]:
    """The values of `name = value` in `fn`; [] when it is bound any other way too."""
    return _bindings(fn).get(name) or []


_BINDINGS = "_mindscope_calls_bindings"  # kept on the function node: freed with its tree


def _bindings(fn: FunctionNode) -> dict[str, Optional[list[ast.expr]]]:
    """name -> the values of its `name = value` bindings, or None when it is bound any other
    way too (one walk per function)."""
    held: Optional[dict[str, Optional[list[ast.expr]]]] = fn.__dict__.get(_BINDINGS)
    if held is not None:
        return held
    found: dict[str, Optional[list[ast.expr]]] = {}
    other: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values = found.setdefault(target.id, [])
                    if values is not None:
                        values.append(node.value)
                else:
                    other.update(_names_in(target))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            other.update(_names_in(node.target))
        elif isinstance(node, ast.With):
            for item in node.items:
                if item.optional_vars is not None:
                    other.update(_names_in(item.optional_vars))
        elif isinstance(node, ast.arguments):
            every = node.posonlyargs + node.args + node.kwonlyargs
            other.update(a.arg for a in every + [v for v in (node.vararg, node.kwarg) if v])
    for name in other:
        found[name] = None
    fn.__dict__[_BINDINGS] = found
    return found


def _names_in(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _call(ctx: FunctionContext, values: Abstract, call: ast.Call) -> Iterator[RawFinding]:
    func = call.func
    if not isinstance(func, ast.Name):
        return
    if func.id == "setattr" and _builtin(ctx, "setattr"):
        yield SETATTR_UNDER_STRICT.finding(call)
        return
    if func.id == "len" and len(call.args) == 1:
        cls = _instance(ctx, call.args[0])
        if cls is not None and lacks(ctx.fn.module, cls, "__len__") and _builtin(ctx, "len"):
            advice = _advice(cls, "__len__")
            kind = f"`{cls.name}` object"
            yield ATTRIBUTE_OF_WRONG_KIND.finding(call, attr="__len__", kind=kind, advice=advice)
            return
        value = values.of(call.args[0])
        if value is not None and value.kind == "None" and _builtin(ctx, "len"):
            advice = "check for None before taking the length"
            yield ATTRIBUTE_OF_WRONG_KIND.finding(call, attr="__len__", kind="None", advice=advice)
        if value is not None and value.kind == "str" and _builtin(ctx, "len"):
            yield STR_LENGTH_UNDER_STRICT.finding(call, what="`len()` of", advice="count a tuple")
        return
    if func.id == "print" and _builtin(ctx, "print"):
        bad = next((k.arg for k in call.keywords if k.arg in PRINT_UNSUPPORTED), None)
        if bad is not None:
            yield CALL_ARGUMENTS_MISMATCH.finding(call, name="print", problem=f"has no `{bad}`")
        return
    value = values.of(func)
    if value is not None and value.kind in NOT_CALLABLE:
        yield CALL_OF_NON_CALLABLE.finding(call, name=func.id, kind=_describe(value))
        return
    target = _module_function(ctx, func.id)
    if target is not None:
        problem = _mismatch(call, target.args)
        if problem:
            yield CALL_ARGUMENTS_MISMATCH.finding(call, name=func.id, problem=problem)


# One walk per function, not one per node; kept on the function node: freed with its tree.
_LOCALS = "_mindscope_calls_locals"


def _local_names(fn: FunctionNode) -> set[str]:
    held: Optional[set[str]] = fn.__dict__.get(_LOCALS)
    if held is None:
        held = fn.__dict__[_LOCALS] = _walk_local_names(fn)
    return held


def _walk_local_names(fn: FunctionNode) -> set[str]:
    names = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node is not fn
        ):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _builtin(ctx: FunctionContext, name: str) -> bool:
    module = ctx.fn.module
    return (
        name not in _local_names(ctx.fn.node)
        and name not in module.functions
        and name not in module.imports
        and name not in module.classes
    )


def _module_function(ctx: FunctionContext, name: str) -> Optional[FunctionNode]:
    """The plain module-level `def` a name calls, when nothing else binds that name."""
    module = ctx.fn.module
    target = module.functions.get(name)
    if target is None or target.decorator_list or name in _local_names(ctx.fn.node):
        return None
    if name in module.imports or name in module.classes or module.tree is None:
        return None
    defs, rebound = _module_names(module.tree)
    once = defs.get(name) == 1 and name not in rebound
    return target if once and isinstance(target, ast.FunctionDef) else None


_MODULES = "_mindscope_calls_module_names"  # kept on the module tree: freed with it


def _module_names(tree: ast.Module) -> tuple[dict[str, int], set[str]]:
    """How many top-level `def`/`class` statements bind each name, and the names the other
    top-level statements bind (read once per module tree)."""
    held: Optional[tuple[dict[str, int], set[str]]] = tree.__dict__.get(_MODULES)
    if held is not None:
        return held
    defs: dict[str, int] = {}
    rebound: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs[stmt.name] = defs.get(stmt.name, 0) + 1
            continue
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                rebound.add(n.id)
    tree.__dict__[_MODULES] = (defs, rebound)
    return defs, rebound


def _mismatch(call: ast.Call, params: ast.arguments) -> str:
    """What is wrong with binding `call`'s arguments to `params`, or ""."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return ""  # *args / **kwargs: their length is not in the source
    positional = [a.arg for a in params.posonlyargs + params.args]
    if len(call.args) > len(positional) and params.vararg is None:
        return f"takes {len(positional)} positional arguments but is given {len(call.args)}"
    named = {k.arg for k in call.keywords if k.arg is not None}
    known = set(positional[len(params.posonlyargs) :]) | {a.arg for a in params.kwonlyargs}
    unknown = sorted(named - known)
    if unknown and params.kwarg is None:
        return f"has no parameter `{unknown[0]}`"
    required = positional[: len(positional) - len(params.defaults)]
    given = set(positional[: len(call.args)]) | named
    missing = [p for p in required if p not in given]
    missing += [
        a.arg
        for a, d in zip(params.kwonlyargs, params.kw_defaults)
        if d is None and a.arg not in named
    ]
    return f"is not given `{missing[0]}`" if missing else ""


def _zero_d(values: Abstract, expr: ast.expr) -> bool:
    """`t.sum()`, `t.mean()`, ... of a Tensor with no axis: a 0-d Tensor."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)):
        return False
    if expr.func.attr not in REDUCTIONS or expr.args or expr.keywords:
        return False
    receiver = values.of(expr.func.value)
    return receiver is not None and receiver.kind == "tensor"


def _unpack(ctx: FunctionContext, values: Abstract, node: ast.Assign) -> Iterator[RawFinding]:
    for target in node.targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            problem = _unfillable(values, target, node.value)
            if problem is not None:
                what, advice = problem
                count = len(target.elts)
                yield UNPACK_MISMATCH.finding(node, count=count, what=what, advice=advice)
                return


def _unfillable(
    values: Abstract, target: ast.Tuple | ast.List, value: ast.expr
) -> Optional[tuple[str, str]]:
    if any(isinstance(e, ast.Starred) for e in target.elts):
        return None
    if _zero_d(values, value):
        return "a 0-d Tensor", "index a Tensor with at least one axis"
    known = values.of(value)
    if known is None:
        return None
    if known.kind in ("None", "scalar"):
        return _describe(known), "unpack a tuple or list"
    if known.kind == "dict":
        return "a dict", "unpack `d.values()` or `d.items()`, or index the dict by key"
    if known.kind in ("tuple", "list") and known.items is not None and known.op is None:
        # Graph mode indexes items 0..n-1: more items than names compile, fewer fail.
        if len(known.items) < len(target.elts):
            return (
                f"a {known.kind} of {len(known.items)}",
                f"unpack at most {len(known.items)} names",
            )
        if isinstance(value, (ast.Tuple, ast.List)):
            for sub, item in zip(target.elts, value.elts):
                if isinstance(sub, (ast.Tuple, ast.List)):
                    inner = _unfillable(values, sub, item)
                    if inner is not None:
                        return inner
    return None


def _loop(ctx: FunctionContext, values: Abstract, node: ast.For) -> Iterator[RawFinding]:
    if _zero_d(values, node.iter):
        yield ITERATE_NON_ITERABLE.finding(
            node.iter, what="a 0-d Tensor", advice="loop over a Tensor with at least one axis"
        )
        return
    cls = _instance(ctx, node.iter)
    if cls is not None:
        module = ctx.fn.module
        if lacks(module, cls, "__iter__") and lacks(module, cls, "__getitem__"):
            yield ITERATE_NON_ITERABLE.finding(
                node.iter, what=f"a `{cls.name}` object", advice=_advice(cls, "__iter__")
            )
        return
    known = values.of(node.iter)
    if known is None:
        return
    if known.kind in ("None", "scalar"):
        advice = "loop over `range(n)`" if known.kind == "scalar" else "loop over a tuple or list"
        yield ITERATE_NON_ITERABLE.finding(node.iter, what=_describe(known), advice=advice)
    elif known.kind == "str":
        yield STR_LENGTH_UNDER_STRICT.finding(
            node.iter, what="A `for` over", advice="loop over a tuple of strs"
        )
