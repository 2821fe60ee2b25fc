"""Dotted names of the MindSpore API the checker recognises (never imported, only matched)."""

from __future__ import annotations

import ast
from typing import Optional

from ...index.module import FunctionNode, ModuleInfo
from ...model import SyntaxLevel

JIT = frozenset({"mindspore.jit", "mindspore.common.api.jit", "mindspore.common.jit"})
JIT_CLASS = frozenset({"mindspore.jit_class", "mindspore.common.api.jit_class"})
PARAMETER = frozenset(
    {
        "mindspore.Parameter",
        "mindspore.common.Parameter",
        "mindspore.common.parameter.Parameter",
        "mindspore.nn.Parameter",
    }
)
TENSOR_FACTORIES = frozenset(
    {"mindspore.Tensor", "mindspore.tensor", "mindspore.common.Tensor", "mindspore.common.tensor"}
)
CELL_MODULES = ("mindspore.nn.",)
OPS_MODULES = ("mindspore.ops.", "mindspore.mint.", "mindspore.numpy.")
# ops.* functions whose result is not a Tensor.
NON_TENSOR_OPS = frozenset(
    {"shape", "rank", "dtype", "is_tensor", "isconstant", "is_floating_point", "is_complex", "size"}
    # function transforms: their result is a function (`f = ops.partial(g, 1); f(x)` compiles)
    | {"partial", "grad", "value_and_grad", "vmap", "jacfwd", "jacrev", "jvp", "vjp"}
)
# ops.* functions returning their first argument as it is (measured on 2.10: a tuple, an int,
# a list, None or a dict given to `ops.stop_gradient` / as `ops.depend`'s value compile and come
# back unchanged).
PASS_THROUGH_OPS = frozenset({"stop_gradient", "depend"})
# Tensor methods and attributes whose result is not a Tensor.
NON_TENSOR_METHODS = frozenset(
    {
        "asnumpy",
        "item",
        "tolist",
        "numpy",
        "dim",
        "ndimension",
        "is_contiguous",
        "has_init",
        "is_floating_point",
        "nelement",
        "numel",
        "data_ptr",
        "is_complex",
        "is_signed",
        "element_size",
    }
)
NON_TENSOR_ATTRS = frozenset({"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "strides"})
LEVEL_BY_CONST = {level.value: level for level in SyntaxLevel}
LEVEL_BY_INT = {0: SyntaxLevel.STRICT, 1: SyntaxLevel.COMPATIBLE, 2: SyntaxLevel.LAX}


def is_cell_qualname(qualname: Optional[str]) -> bool:
    """True for `mindspore.nn.Cell` and the Cells MindSpore ships (`mindspore.nn.Dense`, ...)."""
    if not qualname:
        return False
    if qualname in ("mindspore.nn.Cell", "mindspore.nn.cell.Cell", "mindspore.Cell"):
        return True
    last = qualname.rsplit(".", 1)[-1]
    return qualname.startswith(CELL_MODULES) and last[:1].isupper()


def is_ops_call(qualname: Optional[str]) -> bool:
    """True for functional ops (`ops.matmul`, `mint.add`, `mnp.ones`) that return Tensors."""
    if not qualname or not qualname.startswith(OPS_MODULES):
        return False
    last = qualname.rsplit(".", 1)[-1]
    return last[:1].islower() and last not in NON_TENSOR_OPS


# Primitives whose result is not a Tensor: `ops.Shape()(x)` is a tuple of ints, `ops.Rank()(x)`
# an int, `ops.DType()(x)` a dtype (mindcv/mindocr code does `b, n = self.shape(x)`).
NON_TENSOR_PRIMITIVES = frozenset({"Shape", "Rank", "DType", "GradOperation", "Partial"})


def returns_non_tensor(qualname: Optional[str]) -> bool:
    """True for a primitive class whose instances' calls return no Tensor (see above)."""
    if not qualname or not is_primitive_class(qualname):
        return False
    return qualname.rsplit(".", 1)[-1] in NON_TENSOR_PRIMITIVES


def is_primitive_class(qualname: Optional[str]) -> bool:
    """True for primitive classes such as `ops.ReduceSum` or `P.MatMul`."""
    if not qualname or not qualname.startswith("mindspore.ops."):
        return False
    return qualname.rsplit(".", 1)[-1][:1].isupper()


def callee(module: ModuleInfo, node: ast.expr) -> Optional[str]:
    """Qualified name a decorator or call target refers to (`jit(...)` -> `mindspore.jit`)."""
    if isinstance(node, ast.Call):
        node = node.func
    return module.qualname(node)


def is_static_method(node: ast.AST) -> bool:
    """A def decorated `@staticmethod` (its first parameter is no `self`)."""
    decorators = getattr(node, "decorator_list", [])
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in decorators)


def is_jit(module: ModuleInfo, node: ast.expr) -> bool:
    """`jit`, `@jit(...)` or `jit(fn, ...)`: MindSpore's jit compiling the function from its
    source (`capture_mode="ast"`, the default). Not `capture_mode="bytecode"` or `"trace"`:
    those run the Python and capture graphs around what they cannot compile, so code the AST
    parser refuses runs (measured with MindSpore 2.10: a Tensor `if` returning a Tensor or a
    str compiles there, also `fullgraph=False` by default). Called from a compiled function,
    such a function is compiled as any helper (measured failing): discovery finds it so."""
    if isinstance(node, ast.Call) and _captured_otherwise(node):
        return False
    return callee(module, node) in JIT


_OTHER_CAPTURES = frozenset({"bytecode", "trace"})


def _captured_otherwise(call: ast.Call) -> bool:
    mode = keyword(call, "capture_mode")
    return isinstance(mode, ast.Constant) and mode.value in _OTHER_CAPTURES


def self_attribute(expr: ast.expr) -> Optional[str]:
    """`name` when `expr` is `self.name`."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return expr.attr if expr.value.id == "self" else None
    return None


def imports_package(module: ModuleInfo, packages: frozenset[str]) -> bool:
    """The module imports one of `packages` or a name from one (`from collections import
    defaultdict`, `import functools as ft`): what a rule on their functions checks first."""
    return any(target.split(".")[0] in packages for target in module.imports.values())


def builtin_argument(expr: ast.expr, name: str) -> Optional[ast.expr]:
    """The one argument of `name(arg)` written as a plain call (`abs(r)`, `float(t)`), without
    keywords; else None. (Whether `name` is shadowed is the caller's concern.)"""
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == name
        and len(expr.args) == 1
        and not expr.keywords
        and not isinstance(expr.args[0], ast.Starred)
    ):
        return expr.args[0]
    return None


def keyword(call: ast.Call, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def level_of(module: ModuleInfo, expr: ast.expr) -> Optional[SyntaxLevel]:
    """The syntax level an expression denotes: `ms.STRICT`, `"STRICT"`, `0`, ... or None."""
    if isinstance(expr, ast.Constant):
        if isinstance(expr.value, str):
            return LEVEL_BY_CONST.get(expr.value.upper())
        if isinstance(expr.value, int) and not isinstance(expr.value, bool):
            return LEVEL_BY_INT.get(expr.value)
        return None
    name = module.qualname(expr)
    if name:
        return LEVEL_BY_CONST.get(name.rsplit(".", 1)[-1])
    return None


def parameter_defaults(fn: FunctionNode) -> list[tuple[ast.arg, Optional[ast.expr]]]:
    """Each positional and keyword-only parameter with its default (None: it has none)."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    return list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))


def none_default_parameters(fn: FunctionNode) -> list[ast.arg]:
    """The parameters whose default is None (`attention_mask=None`)."""
    return [a for a, d in parameter_defaults(fn) if isinstance(d, ast.Constant) and d.value is None]


# Python's spelling of each binary operator, for messages and fixes.
OPERATOR_SYMBOLS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
ARITHMETIC_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def is_static_size(expr: ast.expr) -> bool:
    """`x.shape[i]` or `len(x)`: a Python int when compiled, shapes being static (measured:
    `n = x.shape[0]` then `n -= 1` in a loop fails like `n = 3`). A shape slice is a tuple."""
    if isinstance(expr, ast.Subscript) and not isinstance(expr.slice, ast.Slice):
        value = expr.value
        return isinstance(value, ast.Attribute) and value.attr == "shape"
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "len"
        and len(expr.args) == 1
    )


def is_number_literal(expr: ast.expr) -> bool:
    """An int or float written out, signed or not (`0`, `-1.0`); not a bool."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return (
        isinstance(expr, ast.Constant)
        and isinstance(expr.value, (int, float))
        and not isinstance(expr.value, bool)
    )


def is_int_literal(expr: ast.expr) -> bool:
    """An int written out, negated or not (`3`, `-1`); not a bool."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    return (
        isinstance(expr, ast.Constant)
        and isinstance(expr.value, int)
        and not isinstance(expr.value, bool)
    )


def short(node: ast.AST) -> str:
    """The node's source, cut to 40 characters for a message."""
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."


def sequence_conversion(expr: ast.expr) -> Optional[ast.expr]:
    """The argument of `tuple(a)` / `list(a)` written with one positional argument, else None."""
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("tuple", "list")
        and len(expr.args) == 1
        and not expr.keywords
    ):
        return expr.args[0]
    return None
