"""MS135, MS212: values a graph cannot return to Python (functions, Cells; objects under STRICT).

Round 34 widened MS135 (measured on 2.10, "Function in output is not supported"): library
functions (`ops.relu`, `ops.functional.relu`, `ms.mint.add`, the builtin `len`), a
`functools.partial(...)`, a primitive (`ops.Add()`, `self.add` set to one), a `@classmethod`
through `self`, a local bound once to a function or to a tuple holding one. `return x,
ms.float32`, `return x, ops.relu(x)` and `return x, "name"` compile.

Only the graph's own output counts: the return of a Cell's `construct` or an `@jit` function
that nothing compiled calls (`fn.caller is None`), or of a helper whose call such a function
returns as it is (`fn.output_via`). A helper may return a function to its caller otherwise.
"""

from __future__ import annotations

import ast
import builtins as python_builtins
import inspect
from collections.abc import Iterator
from typing import Optional

from ..index.module import ModuleInfo
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import globals as globals_
from .helpers import names, python_objects, receivers
from .helpers.base import FunctionContext, within
from .helpers.classes import ClassInfo

RETURN_FUNCTION = Rule(
    "MS135",
    "return-function",
    Group.FAILS,
    title="Returning a function, lambda, method or Cell from a graph",
    message=(
        "A graph cannot return {what}; return Tensors (or tuples of them) and call the function "
        "outside compiled code."
    ),
    why=(
        "The output of a compiled graph must be data (Tensors, scalars, tuples, lists, dicts); a "
        "function, method, lambda or Cell has no value to hand back to Python."
    ),
    remedy="Return the Tensors the function would compute, or pick the function outside the graph.",
    mindspore_says="RuntimeError: Function in output is not supported. Please check your code.",
)

RETURN_OBJECT_UNDER_STRICT = Rule(
    "MS212",
    "return-object-under-strict",
    Group.STRICT,
    title="Returning a Python object, NumPy array or slice from `construct`",
    message=(
        "`construct` returns {what}, which STRICT cannot put in the graph's output; return "
        "Tensors or plain values instead."
    ),
    why=(
        "Under STRICT a graph's output must be a type of the graph (Tensors, numbers, strings, "
        "tuples, lists, dicts); class instances, NumPy arrays and slices only pass through LAX's "
        "Python fallback."
    ),
    remedy=(
        "Return the object's Tensors (or a tuple of them), convert NumPy arrays with `Tensor(...)`"
        ", or use the default LAX level."
    ),
    mindspore_says=(
        "RuntimeError: Illegal type in the graph: AbstractScalar(Type: External, Value: "
        "PythonObject(type: <class 'Custom'>, ...))"
    ),
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether the function gives the graph's output depends on its callers.
    if not ctx.fn.gives_output:
        return
    returns = [r for r in _own_returns(ctx) if r.value is not None]
    if len(returns) != 1:
        return  # several returns are joined first: a mismatch is the joins rules' finding
    for ret in returns:
        assert ret.value is not None
        outputs = list(_outputs(ret.value, ctx))
        for value in outputs:
            what = _function_like(ctx, value)
            if what is not None:
                yield RETURN_FUNCTION.finding(value, what=what)
            elif ctx.level == SyntaxLevel.STRICT and _is_construct(ctx):
                # A class among constant outputs only is handed out as it is (measured:
                # `return type(1.0)` and `return 1, type(1.0)` compile, `return x, type(1.0)`
                # fails): it needs a Tensor output beside it.
                made = _type_call(ctx, value)
                if made is not None and not any(ctx.types.is_tensor(o) for o in outputs):
                    continue
                if (
                    isinstance(value, ast.Name)
                    and value.id in ctx.fn.module.classes
                    and not _local(ctx, value.id)
                ):
                    # measured (round31 `ob_return_class`): `return x, Scale` fails under
                    # STRICT (no line named), as `type(...)` beside a Tensor does
                    if any(ctx.types.is_tensor(o) for o in outputs):
                        yield RETURN_OBJECT_UNDER_STRICT.finding(
                            value, what=f"the class `{value.id}`"
                        )
                    continue
                if isinstance(value, ast.Name) and _is_self(ctx, value.id):
                    # measured: "Illegal type in the graph: ... ClassMember 'Namespace:...<Net>'"
                    # under STRICT (no line named); LAX hands the Cell out
                    yield RETURN_OBJECT_UNDER_STRICT.finding(value, what="the Cell `self`")
                    continue
                what = "a class (`type(...)` of a constant)" if made else object_like(ctx, value)
                if what is not None:
                    # MindSpore names the `type(...)` call, not the return; for a local bound
                    # to `Cls(...)`, that call (measured, round 37: "In file ...:17", `c =
                    # Cfg(3)`, when a Tensor is returned beside it).
                    node = made or _local_creation(ctx, value) or value
                    yield RETURN_OBJECT_UNDER_STRICT.finding(node, what=what)


def _own_returns(ctx: FunctionContext) -> list[ast.Return]:
    """The function's own `return`s, not those of nested functions (lambdas have none)."""
    found: list[ast.Return] = ctx.of(ast.Return)
    nested: list[ast.AST] = [
        n for n in ctx.of(ast.FunctionDef, ast.AsyncFunctionDef) if n is not ctx.fn.node
    ]
    for inner in nested:
        inside = {id(r) for r in within(inner, found)}
        found = [r for r in found if id(r) not in inside]
    return found


def _outputs(value: ast.expr, ctx: Optional[FunctionContext] = None) -> Iterator[ast.expr]:
    """The values a return hands out: the elements of a tuple or list display (or of a local
    bound once to one: `out = (x, inner); return out`), or itself."""
    if isinstance(value, ast.Name) and ctx is not None:
        bound = receivers.only_binding(ctx, value.id)
        if isinstance(bound, (ast.Tuple, ast.List)):
            value = bound
    if isinstance(value, (ast.Tuple, ast.List)):
        for element in value.elts:
            yield from _outputs(element)
    else:
        yield value


# Names under `mindspore.ops` / `mindspore.mint` that are modules, not functions.
_OPS_MODULES = frozenset(
    {"operations", "functional", "composite", "primitive", "function", "auto_generate", "nn"}
)


def library_function(ctx: FunctionContext, value: ast.expr) -> Optional[str]:
    """`ops.relu`, `ops.functional.relu`, `mint.add`, a builtin function such as `len`, or a
    `functools.partial(...)`: functions a graph cannot hand out (measured on 2.10: `return x,
    ops.relu`, `return [x, ops.relu]`, `return x, ms.mint.add`, `return x, len`, `return x,
    functools.partial(ops.add, 1)` fail with "Function in output is not supported"; `return x,
    ms.float32` and `return x, ops.relu(x)` compile)."""
    module = ctx.fn.module
    if isinstance(value, ast.Call):
        qualname = names.callee(module, value.func)
        if qualname == "functools.partial":
            return "a `functools.partial`"
        if names.is_primitive_class(qualname) and isinstance(value.func, (ast.Name, ast.Attribute)):
            return f"the primitive `{ast.unparse(value)}`"  # measured: `return x, ops.Add()`
        return None
    if isinstance(value, ast.Name) and _local(ctx, value.id):
        return None
    if isinstance(value, ast.Name) and value.id in module.functions:
        return None
    qualname = module.qualname(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
    if qualname is None:
        return None
    parts = qualname.split(".")
    last = parts[-1]
    if (
        qualname.startswith(("mindspore.ops.", "mindspore.mint."))
        and last[:1].islower()
        and not last.startswith("_")
        and last not in _OPS_MODULES
        and len(parts) <= 4
    ):
        return f"the function `{ast.unparse(value)}`"
    if (
        isinstance(value, ast.Name)
        and qualname == value.id
        and inspect.isbuiltin(getattr(python_builtins, value.id, None))
    ):
        return f"the builtin function `{value.id}`"
    return None


def _function_like(ctx: FunctionContext, value: ast.expr) -> Optional[str]:
    module = ctx.fn.module
    if isinstance(value, ast.Lambda):
        return "a lambda"
    if isinstance(value, ast.Name) and not _nested_def(ctx, value.id):
        bound = receivers.only_binding(ctx, value.id)
        if isinstance(bound, (ast.Lambda, ast.Attribute)):
            return _function_like(ctx, bound)  # `f = ops.relu; return x, f`
    library = library_function(ctx, value)
    if library is not None:
        return library
    if isinstance(value, ast.Name) and value.id in module.functions and not _local(ctx, value.id):
        return f"the function `{value.id}`"
    if isinstance(value, ast.Name) and _nested_def(ctx, value.id):
        return f"the nested function `{value.id}`"
    if isinstance(value, ast.Name) and globals_.is_cell_instance(ctx, value):
        return f"the Cell `{value.id}`"
    name = names.self_attribute(value)
    if name is not None and ctx.fn.cls is not None:
        found = ctx.fn.cls.find_method(name)
        decorators = found[1].decorator_list if found is not None else []
        if found is not None and (not decorators or _classmethod(decorators)):
            # not a property; measured: `return x, self.cm` of a `@classmethod` fails
            return f"the method `self.{name}`"
        if receivers.kind_of(ctx, value) == receivers.CELL:
            return f"the Cell `self.{name}`"
        held = ctx.fn.cls.attr(name)
        if (
            held is not None
            and held.kind == "cell"
            and names.is_primitive_class(held.class_qualname)
            and isinstance(held.node, ast.Call)
        ):
            # measured: `self.add = ops.Add()`, then `return x, self.add` fails as a function
            return f"the primitive `self.{name}`"
    return None


def _classmethod(decorators: list[ast.expr]) -> bool:
    return len(decorators) == 1 and ast.unparse(decorators[0]) == "classmethod"


def object_like(ctx: FunctionContext, value: ast.expr) -> Optional[str]:
    module = ctx.fn.module
    member = python_objects.enum_member(module, value)
    if member is not None:
        return member  # measured (round31 `ob_enum_return`): "Illegal type in the graph"
    if isinstance(value, ast.Call):
        qualname = names.callee(module, value.func)
        if qualname == "slice":
            return "a slice"
        if _numpy_array_function(qualname) or _numpy_of_array(module, qualname, value):
            return f"a NumPy array (`{ast.unparse(value.func)}(...)`)"
        info = ctx.classes.resolve(module.qualname(value.func))
        if info is not None and (_plain_class(info) or python_objects.is_dataclass(module, info)):
            return f"an instance of class `{info.name}`"
        return None
    if isinstance(value, ast.Name):
        info = globals_.workspace_instance(ctx, value)
        if info is not None and _plain_class(info):
            return f"`{value.id}`, an instance of class `{info.name}`"
        bound = receivers.only_binding(ctx, value.id)
        if isinstance(bound, ast.Call) and value.id not in names_of_parameters(ctx):
            # round 37 (`jc_`): a local bound once to `Cls(...)` fails as the call does
            made = object_like(ctx, bound)
            if made is not None and made.startswith("an instance"):
                return f"`{value.id}`, {made}"
        return None
    attr = names.self_attribute(value)
    info = receivers.workspace_class(ctx, value) if attr else None
    if info is not None and _plain_class(info):
        return f"`self.{attr}`, an instance of class `{info.name}`"
    held = receivers.self_attr(ctx, value) if attr else None
    if held is not None and isinstance(held.node, ast.expr):
        member = python_objects.enum_member(module, held.node)
        if member is not None:
            # round 37 (`jc_`): `self.m = Mode.A` in `__init__`, `return x, self.m`
            return f"`self.{attr}`, {member}"
    return None


def _local_creation(ctx: FunctionContext, value: ast.expr) -> Optional[ast.Call]:
    if not isinstance(value, ast.Name) or value.id in names_of_parameters(ctx):
        return None
    bound = receivers.only_binding(ctx, value.id)
    return bound if isinstance(bound, ast.Call) else None


def names_of_parameters(ctx: FunctionContext) -> set[str]:
    args = ctx.fn.node.args
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}


def _type_call(ctx: FunctionContext, value: ast.expr) -> Optional[ast.Call]:
    """The `type(c)` call `value` is (or a local bound once to it), of a written-out constant
    (a Tensor's is MS204's, a computed value's MS206's): a class, which STRICT cannot hand out
    (measured: `ValueNode<ClassType> class 'tuple' ... device address does not exist`)."""
    if isinstance(value, ast.Name):
        bound = receivers.only_binding(ctx, value.id)
        value = bound if bound is not None else value
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords):
        return None
    if names.callee(ctx.fn.module, value.func) != "type" or _local(ctx, "type"):
        return None
    return value if _literal(value.args[0]) else None


def _literal(expr: ast.expr) -> bool:
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_literal(e) for e in expr.elts)
    return isinstance(expr, ast.Constant)


# NumPy functions whose result is an array whatever their arguments: the creation routines and
# those that join or reshape. The others (`np.add`, `np.sqrt`, `np.sum`, `np.max`, ...) give a
# NumPy scalar for scalar or 1-d arguments, which STRICT hands out (measured: `return x,
# np.sum([1, 2])`, `return x, np.sqrt(4.0)`, `return x, np.add(1, 2)` compile).
_NUMPY_ARRAYS = frozenset(
    [
        "array",
        "asarray",
        "ascontiguousarray",
        "copy",
        "ones",
        "zeros",
        "empty",
        "full",
        "ones_like",
        "zeros_like",
        "empty_like",
        "full_like",
        "arange",
        "linspace",
        "logspace",
        "geomspace",
        "eye",
        "identity",
        "diag",
        "tri",
        "tril",
        "triu",
        "meshgrid",
        "stack",
        "vstack",
        "hstack",
        "dstack",
        "column_stack",
        "concatenate",
        "tile",
        "repeat",
        "reshape",
        "transpose",
        "expand_dims",
        "squeeze",
        "flip",
        "broadcast_to",
        "atleast_1d",
        "atleast_2d",
        "atleast_3d",
        "frombuffer",
    ]
)


def _numpy_array_function(qualname: Optional[str]) -> bool:
    """`numpy.ones`, `numpy.array`: top-level NumPy functions that surely make an array (not
    `numpy.float32` nor a ufunc or reduction, whose result may be a NumPy scalar)."""
    if not qualname or not qualname.startswith("numpy.") or qualname.count(".") != 1:
        return False
    return qualname.rsplit(".", 1)[-1] in _NUMPY_ARRAYS


def _numpy_of_array(module: ModuleInfo, qualname: Optional[str], call: ast.Call) -> bool:
    """A NumPy function (`np.add`, `np.sqrt`) of an argument that is itself an array made by
    NumPy: an array again (measured: `return x, np.add(np.ones(2), 1)` fails STRICT)."""
    if not qualname or not qualname.startswith("numpy."):
        return False
    for arg in call.args:
        if isinstance(arg, ast.Call):
            inner = names.callee(module, arg.func)
            if _numpy_array_function(inner) or _numpy_of_array(module, inner, arg):
                return True
    return False


def _plain_class(info: ClassInfo) -> bool:
    """A workspace class whose every base is a workspace class too and whose only decorator
    may be `@jit_class`: its instances are plain Python objects (not a NamedTuple, a Cell, a
    dataclass, ...)."""
    if info.is_cell or len(info.node.bases) != len(info.bases) or info.node.keywords:
        return False
    decorators = len(info.node.decorator_list)
    return decorators == 0 or (decorators == 1 and info.is_jit_class)


def _is_self(ctx: FunctionContext, name: str) -> bool:
    """`name` is the method's `self`, never rebound."""
    node, cls = ctx.fn.node, ctx.fn.cls
    if cls is None or node not in cls.node.body or names.is_static_method(node):
        return False
    args = node.args.args
    if not args or args[0].arg != name:
        return False
    return not any(n.id == name and isinstance(n.ctx, ast.Store) for n in ctx.of(ast.Name))


def _is_construct(ctx: FunctionContext) -> bool:
    """A Cell's `construct`, or a helper whose result it returns as its output (a `@jit`
    function's output is judged at LAX whatever the level)."""
    if ctx.fn.output_via is not None:
        return ctx.fn.level is None
    return ctx.fn.cls is not None and ctx.fn.cls.is_cell and ctx.fn.node.name == "construct"


def _nested_def(ctx: FunctionContext, name: str) -> bool:
    """`name` is a function defined in this function's own body and not bound otherwise
    (measured: `def f(v): ...; return f` fails, "Function in output is not supported")."""
    defs = [
        n
        for n in ctx.fn.node.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
    ]
    return bool(defs) and not _local(ctx, name)


def _local(ctx: FunctionContext, name: str) -> bool:
    """`name` is bound in the function itself (a parameter or assigned), shadowing a global."""
    args = ctx.fn.node.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    if name in params:
        return True
    return any(n.id == name and isinstance(n.ctx, ast.Store) for n in ctx.of(ast.Name))
