"""Whether an expression of a compiled method is certainly a Python str (for MS224).

`Abstract.of` knows literals and locals bound to them; a Cell's str attributes (`self.tag =
"conv_block"` in `__init__`), items of a tuple/list attribute of strs read at a constant index,
`+` of two strs and `upper()`/`lower()` of one (the str methods STRICT compiles: measured) are
added here, and so are the str results of builtins STRICT compiles (`str(n)`, `repr`, `ascii`,
`hex`, `bin`, `oct`, `chr`, `format(v, spec)`), of `"...".format(...)` and of `"..." % v`
(measured on 2.10: each compiled at STRICT, then `len()` of it or a `for` over it failed), and
`'-' * n` and `type(o).__name__` (measured: `len()` of each fails under STRICT).
An attribute counts only when every assignment the class makes to it is a str literal (a
`self.act = None` elsewhere makes it unknown).
"""

from __future__ import annotations

import ast

from ..calls_shared import builtin
from .abstract import Abstract
from .base import FunctionContext
from .module_values import global_binding, parameters
from .receivers import only_binding, self_attr, self_attr_name
from .walk import of_type

# str methods STRICT compiles whose result is a str (`split`, `replace`, ... are MS214's).
_STR_RESULT = frozenset({"upper", "lower"})
# builtins whose result is a str whatever they are given (a name the module rebinds is not one).
_STR_BUILTINS = frozenset({"str", "repr", "ascii", "hex", "bin", "oct", "chr", "format"})
_STDLIB_STRS = frozenset(
    {
        "os.path.join",
        "os.path.basename",
        "os.path.dirname",
        "os.getcwd",
        "os.sep",
        "sys.platform",
        "platform.system",
        "platform.machine",
    }
)
_STRING_CONSTANTS = frozenset(
    {
        "ascii_letters",
        "ascii_lowercase",
        "ascii_uppercase",
        "digits",
        "hexdigits",
        "octdigits",
        "punctuation",
        "printable",
        "whitespace",
    }
)


def is_str(ctx: FunctionContext, values: Abstract, expr: ast.expr, depth: int = 0) -> bool:
    known = values.of(expr)
    if known is not None:
        return known.kind == "str"
    if depth > 4:
        return False
    if isinstance(expr, ast.Name):  # `s = self.tag` bound once
        bound = only_binding(ctx, expr.id)
        if bound is None:
            return _loop_over_strs(ctx, expr.id) or _module_str(ctx, expr.id)
        return is_str(ctx, values, bound, depth + 1)
    if (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and (ctx.fn.module.qualname(expr) or "").rpartition(".")[0] == "string"
    ):  # `string.ascii_letters`, `string.digits`: the str constants of `string` (measured)
        return expr.attr in _STRING_CONSTANTS
    if isinstance(expr, (ast.Attribute, ast.Call)):
        # `os.path.join(...)`, `sys.platform`, `uuid.uuid4().hex`: strs graph mode gets from
        # Python (measured round 36: `len()` of each fails under STRICT)
        target = expr.func if isinstance(expr, ast.Call) else expr
        if ctx.fn.module.qualname(target) in _STDLIB_STRS:
            return True
    if isinstance(expr, ast.Attribute) and expr.attr == "__name__":  # `type(o).__name__`
        return True
    if isinstance(expr, ast.Attribute):
        held = self_attr(ctx, expr)
        return held is not None and _str_constant(held.node) and _only_strs(ctx, expr.attr)
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice):  # `s[1:]`
        return is_str(ctx, values, expr.value, depth + 1)
    if isinstance(expr, ast.Subscript) and is_str(ctx, values, expr.value, depth + 1):
        return True  # `s[i]`: one character, a str
    if isinstance(expr, ast.Subscript):
        held = self_attr(ctx, expr.value)
        index = expr.slice
        name = self_attr_name(expr.value)
        if held is None or name is None or not isinstance(held.node, (ast.Tuple, ast.List)):
            return False
        items = held.node.elts
        return (
            isinstance(index, ast.Constant)
            and isinstance(index.value, int)
            and -len(items) <= index.value < len(items)
            and all(_str_constant(e) for e in items)
            and _only_displays(ctx, name)
        )
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return is_str(ctx, values, expr.left, depth + 1) and is_str(
            ctx, values, expr.right, depth + 1
        )
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):  # `"%d" % n`
        return _str_constant(expr.left)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):  # `'-' * n`, `n * '-'`
        return is_str(ctx, values, expr.left, depth + 1) or is_str(
            ctx, values, expr.right, depth + 1
        )
    if isinstance(expr, ast.Call):
        return _str_call(ctx, values, expr, depth)
    return False


def _str_call(ctx: FunctionContext, values: Abstract, call: ast.Call, depth: int) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in _STR_BUILTINS and bool(call.args) and builtin(ctx, func.id)
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr == "format":  # `"layer_{}".format(i)`: a str method STRICT compiles
        return _str_constant(func.value)
    if func.attr in _STR_RESULT and not call.args and not call.keywords:
        return is_str(ctx, values, func.value, depth + 1)
    return False


def _module_str(ctx: FunctionContext, name: str) -> bool:
    """`name` is no local of the function and the module binds it once, to a str literal
    (`NAME = "resnet"`: measured, `len(NAME)` fails under STRICT as a literal's does)."""
    if any(n.id == name for n in ctx.of(ast.Name) if not isinstance(n.ctx, ast.Load)):
        return False
    if name in parameters(ctx.fn.node):
        return False
    bound = global_binding(ctx.fn.module, name)
    return bound is not None and _str_constant(bound.value)


def _loop_over_strs(ctx: FunctionContext, name: str) -> bool:
    """`name` is bound only as the target of one `for` or comprehension over strs: a written
    tuple/list of str literals or a Cell attribute only ever set to one (`for n in self.names`,
    `len(n) for n in self.names`)."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1:
        return False
    loops: list[ast.For | ast.comprehension] = [
        *(f for f in ctx.of(ast.For) if isinstance(f, ast.For)),
        *(
            g
            for c in ctx.of(ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
            for g in getattr(c, "generators", [])
        ),
    ]
    for loop in loops:
        if loop.target is stores[0]:
            return _strs_display(ctx, loop.iter)
    return False


def _strs_display(ctx: FunctionContext, seq: ast.expr) -> bool:
    if isinstance(seq, (ast.Tuple, ast.List)):
        return bool(seq.elts) and all(_str_constant(e) for e in seq.elts)
    name = self_attr_name(seq)
    return name is not None and self_attr(ctx, seq) is not None and _only_displays(ctx, name)


def _str_constant(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _assigned(ctx: FunctionContext, name: str) -> list[ast.expr]:
    """Every value the class's own body assigns to `self.<name>` ([] when it also augments it
    or assigns it through a tuple target, which hides the value)."""
    cls = ctx.fn.cls
    if cls is None:
        return []
    found: list[ast.expr] = []
    nodes: list[ast.Assign | ast.AnnAssign | ast.AugAssign] = of_type(
        cls.node, ast.Assign, ast.AnnAssign, ast.AugAssign
    )
    for node in nodes:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if self_attr_name(target) == name:
                if isinstance(node, ast.AugAssign) or node.value is None:
                    return []
                found.append(node.value)
            elif isinstance(target, (ast.Tuple, ast.List)) and _names_attr(target, name):
                return []
    return found


def _names_attr(target: ast.expr, name: str) -> bool:
    return any(isinstance(e, ast.expr) and self_attr_name(e) == name for e in ast.walk(target))


def _only_strs(ctx: FunctionContext, name: str) -> bool:
    assigned = _assigned(ctx, name)
    return bool(assigned) and all(_str_constant(v) for v in assigned)


def _only_displays(ctx: FunctionContext, name: str) -> bool:
    assigned = _assigned(ctx, name)
    return bool(assigned) and all(
        isinstance(v, (ast.Tuple, ast.List)) and all(_str_constant(e) for e in v.elts)
        for v in assigned
    )
