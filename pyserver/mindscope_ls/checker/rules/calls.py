"""MS156, MS157, MS166, MS225, MS229: calls of values that cannot be called, with the wrong
arguments, with `*` of a Tensor, and calls STRICT rejects.

Measured with MindSpore 2.10 (`generated/calls/`): calling a Tensor, scalar, str or None fails;
a call to a module function, a method of the Cell, a sub-Cell, a nested `def` or a lambda with
the wrong arguments fails; so does `f(*t)` of a Tensor. Under STRICT `setattr` and
`Tensor.sum(x)` of a computed Tensor fail too. The checks here also run the attribute,
unpacking and iteration rules (`attributes.py`, `unpacking.py`, `iteration.py`), so their
nodes are gathered in one pass with one `Abstract`.

The nodes are split in two by what judging them may read (`_reads_outside`, decided from the
function, its class and the module's names alone): `check` (cacheable) judges the nodes that
read nothing else, `check_outside` (run in every check) the few that may read another `def`
(a module function's or method's parameters, a helper's `return`s), a class body (a sub-Cell's
attributes, a plain class's instances) or a module-level binding. Each node is judged by the
same code whichever check it falls to, so the findings are those of one pass.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..incremental.memo import NodeMemo
from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from . import attributes, builtins, iteration, unpacking
from .calls_shared import (
    assigned,
    assigned_any,
    builtin,
    describe,
    instance,
    local_names,
    missing_advice,
    module_function,
)
from .helpers import folded, names, shared_values, strs
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.instances import closed_classes, lacks
from .helpers.module_values import parameters

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


NOT_CALLABLE = frozenset({"tensor", "scalar", "str", "None", "tuple", "list", "dict"})
STAR_OF_TENSOR = Rule(
    "MS166",
    "star-of-tensor",
    Group.FAILS,
    title="`f(*t)` with a Tensor `t`",
    message=(
        "`*` unpacks a Tensor into call arguments, which graph mode cannot do; pass a tuple "
        "(`*ops.unstack(t)`, `*t.shape`) or the Tensor itself."
    ),
    why=(
        "Graph mode builds `f(*args)` from a tuple, list or dict it knows when it compiles; a "
        "Tensor's rows are not such a sequence."
    ),
    remedy="Unpack a tuple (`*ops.unstack(t)`, `*t.shape`), or pass the Tensor as one argument.",
    mindspore_says=(
        "RuntimeError: The arguments of UnpackCall operator should be tuple, list or dict, but "
        "got AbstractTensor(shape: (2, 3), ...)"
    ),
)

UNBOUND_TENSOR_METHOD = Rule(
    "MS229",
    "unbound-tensor-method-under-strict",
    Group.STRICT,
    title="`Tensor.method(t)` called through the class in compiled code",
    message=(
        "`Tensor.{method}(...)` of a Tensor computed in the graph is not supported under "
        "jit_syntax_level=STRICT; call `t.{method}(...)` on the Tensor instead."
    ),
    why=(
        "Under STRICT graph mode resolves `t.method` on the Tensor itself; `Tensor.method` is a "
        "plain Python function it can only run on constant inputs."
    ),
    remedy="Call the method on the Tensor (`x.sum()`), or use the `ops.` function.",
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant, but found variable '__input_0__' to be nonconstant."
    ),
)

# Measured: graph mode's print takes no `end`, `sep`, `file` or `flush` ("Got an unexpected
# keyword argument 'end'"; generated/errors/print_*).
PRINT_UNSUPPORTED = frozenset({"end", "sep", "file", "flush"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The nodes whose findings depend on the function (its class and module names) alone;
    notes the others for `check_outside`."""
    values = shared_values.abstract(ctx)
    test = _OutsideTest(ctx)
    outside: list[ast.AST] = []
    for node in ctx.of(ast.Attribute):
        if test.attribute(node):
            outside.append(node)
        else:
            yield from attributes.check_attribute(ctx, values, node)
    for call in ctx.of(ast.Call):
        if test.call(call):
            outside.append(call)
        else:
            yield from _call(ctx, values, call)
    for assign in ctx.of(ast.Assign):
        if test.assign(assign):
            outside.append(assign)
        else:
            yield from unpacking.check_assign(ctx, values, assign)
    for loop in ctx.of(ast.For):
        if test.loop(loop):
            outside.append(loop)
        else:
            yield from iteration.iterated(ctx, values, loop)
    _OUTSIDE.get(ctx.fn.node, _outside_deps(ctx), lambda: outside)


def check_outside(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: the nodes whose findings may read another `def`, a class body or a
    module-level binding (MS157 of a module function's or method's call, ...), and MS165,
    whose message names the line of a read (a cached finding moves its range, not its text)."""
    outside = _OUTSIDE.get(ctx.fn.node, _outside_deps(ctx), lambda: _OutsideTest(ctx).select())
    for node in outside:
        if isinstance(node, ast.Call) and _plain_self_call(node):
            assert isinstance(node.func, ast.Attribute)
            found = _self_call(ctx, node, node.func)  # what `_call` does, without values
            yield from _unless_folded(ctx, node, found)
        elif isinstance(node, ast.Attribute):
            yield from attributes.check_attribute(ctx, shared_values.abstract(ctx), node)
        elif isinstance(node, ast.Call):
            yield from _unless_folded(ctx, node, _call(ctx, shared_values.abstract(ctx), node))
        elif isinstance(node, ast.Assign):
            yield from unpacking.check_assign(ctx, shared_values.abstract(ctx), node)
    loops = ctx.of(ast.For)
    iterated = {id(node) for node in outside if isinstance(node, ast.For)} if loops else ()
    for loop in loops:
        yield from iteration.read_after(ctx, loop)
        if id(loop) in iterated:
            yield from iteration.iterated(ctx, shared_values.abstract(ctx), loop)
    for whiles in ctx.of(ast.While):
        # A `while` on a Tensor condition is MS114's (joins.py), which MindSpore names at the
        # read; this one's names are the body's binding and the read.
        if not ctx.types.is_tensor(whiles.test):
            yield from iteration.read_after(ctx, whiles)


def _unless_folded(
    ctx: FunctionContext, call: ast.Call, found: Iterator[RawFinding]
) -> Iterator[RawFinding]:
    """MS157 of a call under `if self.flag:` whose attribute's value folds its branch away
    (measured, round 37: `if self.flag: return f(x, x)` with `f(a)` and `self.flag = False`
    compiles; graph mode never infers the branch). Other findings pass."""
    held: Optional[tuple[folded.Guard, ...]] = None
    for finding in found:
        if finding.code == CALL_ARGUMENTS_MISMATCH.code:
            if held is None:
                stmt = folded.statement_of(ctx, call)
                held = folded.guards(ctx).get(id(stmt), ()) if stmt is not None else ()
            if held and not folded.taken(ctx, held):
                continue
        yield finding


def _plain_self_call(call: ast.Call) -> bool:
    """`self.helper(x)` with no `*` argument: `_call` judges only its arguments' count."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
        and not any(isinstance(arg, ast.Starred) for arg in call.args)
    )


# The nodes `check_outside` judges (attributes, calls, assignments, `for` loops, in that
# order), kept on the function's node while what `_OutsideTest` reads is unchanged: a re-check
# does not test every node again.
_OUTSIDE: NodeMemo[list[ast.AST]] = NodeMemo()


def _outside_deps(ctx: FunctionContext) -> tuple[object, ...]:
    module = ctx.fn.module
    cls = ctx.types.cls
    return (module.env, closed_classes(module), cls.signature() if cls is not None else None)


class _OutsideTest:
    """Whether judging a node may read beyond the function, its class's signature and its
    module's names (what a cached finding is keyed on; `closed_classes` is in that key too):
    true of a superset of the nodes that do, decided from those alone."""

    def __init__(self, ctx: FunctionContext) -> None:
        self.ctx = ctx
        self.fn = ctx.fn.node
        self.module = ctx.fn.module
        self.closed = bool(closed_classes(self.module))
        self._stores: Optional[set[str]] = None  # a subset of `local_names(fn)`
        self._aliases: set[str] = set()  # names some `name = self.x` / `name = other` binds

    def select(self) -> list[ast.AST]:
        ctx = self.ctx
        return [
            *filter(self.attribute, ctx.of(ast.Attribute)),
            *filter(self.call, ctx.of(ast.Call)),
            *filter(self.assign, ctx.of(ast.Assign)),
            *filter(self.loop, ctx.of(ast.For)),
        ]

    def attribute(self, node: ast.Attribute) -> bool:
        if not isinstance(node.ctx, ast.Load):
            return False
        if self.closed and self._maybe_instance(node.value):
            return True
        return node.attr in attributes.TENSOR_ONLY and self._maybe_cell(node.value)

    def call(self, node: ast.Call) -> bool:
        func = node.func
        if isinstance(func, ast.Attribute):  # `self.helper(x)`: reads the method's `def`
            return isinstance(func.value, ast.Name) and func.value.id == "self"
        return self._module_call(node) or (
            self.closed
            and isinstance(func, ast.Name)
            and func.id == "len"
            and len(node.args) == 1
            and self._maybe_instance(node.args[0])
        )

    def assign(self, node: ast.Assign) -> bool:  # `a, b = helper(x)` reads its `return`s
        return any(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets) and any(
            isinstance(n, ast.expr) and self._module_call(n) for n in ast.walk(node.value)
        )

    def loop(self, node: ast.For) -> bool:
        return self.closed and self._maybe_instance(node.iter)

    def _module_call(self, expr: ast.expr) -> bool:  # `module_function` may answer
        return (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id in self.module.functions
            and expr.func.id not in local_names(self.fn)
        )

    def _maybe_instance(self, expr: ast.expr) -> bool:  # `instance` may answer
        fn = self.fn
        if isinstance(expr, ast.Name) and expr.id in local_names(fn):
            bound = assigned(fn, expr.id)
            if len(bound) != 1:
                return False
            expr = bound[0]
        return isinstance(expr, ast.Name) or (
            isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
        )

    def _maybe_cell(self, expr: ast.expr) -> bool:  # `attributes._cell_qualname` may answer
        if isinstance(expr, ast.Name):
            stores = self._stores
            if stores is None:
                ctx = self.ctx
                self._aliases = {
                    target.id
                    for assign in ctx.of(ast.Assign)
                    if isinstance(assign.value, ast.Name) or names.self_attribute(assign.value)
                    for target in assign.targets
                    if isinstance(target, ast.Name)
                }
                stores = {n.id for n in ctx.of(ast.Name) if not isinstance(n.ctx, ast.Load)}
                stores.update(a.arg for a in ast.walk(self.fn.args) if isinstance(a, ast.arg))
                self._stores = stores
            return expr.id in self._aliases or expr.id not in stores
        name = names.self_attribute(expr)
        cls = self.ctx.types.cls
        attr = cls.attr(name) if cls is not None and name is not None else None
        return attr is not None and attr.kind == "cell"


def _call(ctx: FunctionContext, values: Abstract, call: ast.Call) -> Iterator[RawFinding]:
    for arg in call.args:
        if isinstance(arg, ast.Starred) and _input_tensor(ctx, values, arg.value):
            yield STAR_OF_TENSOR.finding(arg)
            return
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, (ast.Name, ast.Attribute)):
        if isinstance(func.value, ast.Name) and func.value.id == "self":
            yield from _self_call(ctx, call, func)
        elif _unbound_method(ctx, values, call, func):
            yield UNBOUND_TENSOR_METHOD.finding(call, method=func.attr)
        return
    if not isinstance(func, ast.Name):
        return
    if func.id == "setattr" and builtin(ctx, "setattr"):
        yield SETATTR_UNDER_STRICT.finding(call)
        return
    if func.id == "len" and len(call.args) == 1:
        cls = instance(ctx, call.args[0])
        if cls is not None and lacks(ctx.fn.module, cls, "__len__") and builtin(ctx, "len"):
            advice = missing_advice(cls, "__len__")
            kind = f"`{cls.name}` object"
            yield attributes.ATTRIBUTE_OF_WRONG_KIND.finding(
                call, attr="__len__", kind=kind, advice=advice
            )
            return
        value = values.of(call.args[0])
        if value is not None and value.kind == "None" and builtin(ctx, "len"):
            advice = "check for None before taking the length"
            yield attributes.ATTRIBUTE_OF_WRONG_KIND.finding(
                call, attr="__len__", kind="None", advice=advice
            )
        if (
            strs.is_str(ctx, values, call.args[0])
            and builtin(ctx, "len")
            and not builtins.evaluated_in_python(ctx, call)
        ):
            yield iteration.STR_LENGTH_UNDER_STRICT.finding(
                call, what="`len()` of", advice="count a tuple"
            )
        return
    if func.id == "print" and builtin(ctx, "print"):
        bad = next((k.arg for k in call.keywords if k.arg in PRINT_UNSUPPORTED), None)
        if bad is not None:
            yield CALL_ARGUMENTS_MISMATCH.finding(call, name="print", problem=f"has no `{bad}`")
        return
    value = values.of(func)
    if value is not None and value.kind in NOT_CALLABLE:
        yield CALL_OF_NON_CALLABLE.finding(call, name=func.id, kind=describe(value))
        return
    target = module_function(ctx, func.id)
    params = target.args if target is not None else _local_function(ctx, func.id)
    if params is not None:
        problem = _mismatch(call, params)
        if problem:
            yield CALL_ARGUMENTS_MISMATCH.finding(call, name=func.id, problem=problem)


def _self_call(ctx: FunctionContext, call: ast.Call, func: ast.Attribute) -> Iterator[RawFinding]:
    """`self.helper(x)` against the class's own `def helper(self, ...)`, and `self.block(x)`
    against the `construct` of the module Cell class `__init__` made it from."""
    cls = ctx.types.cls
    if cls is None or "self" not in {a.arg for a in ctx.fn.node.args.args[:1]}:
        return
    attr = cls.attr(func.attr)
    method: Optional[FunctionNode] = None
    if attr is not None:
        qualname = attr.class_qualname or ""
        if attr.kind != "cell" or qualname.startswith("mindspore."):
            return  # an nn Cell or op: its signature is not in the workspace
        if cls.attr_varies(func.attr):
            return  # `self.norm = A(...) if flag else B(...)`: either construct may be called
        sub = ctx.classes.resolve(qualname)
        found = sub.find_method("construct") if sub is not None else None
        method = found[1] if found is not None else None
    elif cls.node.name != "Cell":
        found = cls.find_method(func.attr)
        method = found[1] if found is not None else None
        if method is not None and _abstract(method):
            return  # a base class's placeholder: `self` is a subclass that overrides it
    if method is None or method.decorator_list or not method.args.args:
        return
    problem = _mismatch(call, method.args, skip=1)
    if problem:
        name = f"self.{func.attr}"
        yield CALL_ARGUMENTS_MISMATCH.finding(call, name=name, problem=problem)


def _abstract(method: FunctionNode) -> bool:
    """A body that only documents, passes or raises NotImplementedError: the method is there
    to be overridden, and the compiled `self` is an instance of a subclass that does."""
    for stmt in method.body:
        if isinstance(stmt, ast.Pass) or (
            isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        ):
            continue
        if isinstance(stmt, ast.Raise) and stmt.exc is not None:
            exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                continue
        return False
    return True


def _local_function(ctx: FunctionContext, name: str) -> Optional[ast.arguments]:
    """The parameters of a `def` or `lambda` the compiled function binds `name` to, once."""
    fn = ctx.fn.node
    if not ctx.of(ast.Lambda) and not any(
        d.name == name and d is not fn for d in ctx.of(ast.FunctionDef)
    ):
        return None  # the common case, from the node index: no walk
    bound = assigned(fn, name)
    if len(bound) == 1:
        return bound[0].args if isinstance(bound[0], ast.Lambda) else None
    if bound or name not in local_names(fn):
        return None
    defs = [n for n in ast.walk(fn) if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(defs) != 1 or defs[0].decorator_list or name in _other_bindings(fn, defs[0]):
        return None
    return defs[0].args


def _other_bindings(fn: FunctionNode, own: ast.FunctionDef) -> set[str]:
    """Names bound in `fn` by anything but `own` (imports, classes, other defs, stores)."""
    names: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node is not own and node is not fn:
                names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _mismatch(call: ast.Call, params: ast.arguments, skip: int = 0) -> str:
    """What is wrong with binding `call`'s arguments to `params` (past the first `skip`
    positional ones: `self`), or ""."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return ""  # *args / **kwargs: their length is not in the source
    positional = [a.arg for a in params.posonlyargs + params.args][skip:]
    posonly = max(0, len(params.posonlyargs) - skip)
    if len(call.args) > len(positional) and params.vararg is None:
        return f"takes {len(positional)} positional arguments but is given {len(call.args)}"
    named = {k.arg for k in call.keywords if k.arg is not None}
    known = set(positional[posonly:]) | {a.arg for a in params.kwonlyargs}
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


def _unbound_method(
    ctx: FunctionContext, values: Abstract, call: ast.Call, func: ast.Attribute
) -> bool:
    """`Tensor.sum(x)` (`ms.Tensor.abs(x)`, ...) with a Tensor the graph computes first."""
    if not call.args or names.callee(ctx.fn.module, func.value) not in names.TENSOR_FACTORIES:
        return False
    if func.attr.startswith("_") or ctx.types.is_constant_tensor(call.args[0]):
        return False
    first = values.of(call.args[0])
    return first is not None and first.kind == "tensor"


def _input_tensor(ctx: FunctionContext, values: Abstract, expr: ast.expr) -> bool:
    """A parameter the function never rebinds that holds a Tensor. Not any expression the
    inference calls a Tensor: `ops.unstack(x)` and other multi-output ops give tuples."""
    if not isinstance(expr, ast.Name) or assigned_any(ctx.fn.node, expr.id):
        return False
    if expr.id not in parameters(ctx.fn.node):
        return False
    value = values.of(expr)
    return value is not None and value.kind == "tensor"
