"""MS1039, MS254, MS1040, MS255, and MS1000's module-level names: how a `raise` (or an exit)
is written in compiled code, and what a Tensor condition around it does.

Measured with MindSpore 2.10 on CPU (PyNative runs every program: the branch is not taken).

MS1039 (LAX and STRICT): graph mode raises only `raise Name(...)` / `raise Name` of a class it
knows, or of a local holding an instance.
- Under a Tensor condition (an `if`/`while` on a Tensor, or after an `if` on one that returns)
  the branch is compiled: a bare `raise` fails ("No active exception to reraise"), as does
  `raise self.err_cls("...")`, `raise builtins.ValueError(...)`, `raise ERRORS[0](...)`,
  `raise Errors.bad(...)` (a call of anything but a plain name), and `raise kind(...)` /
  `raise kind` of a local bound to a class (`kind = ValueError`: "Can not find kernel tensor
  for node : ValueNode<ClassType>"), and an exception given a tuple of numbers or a dict
  (`raise ValueError("bad", x.shape)`, `ValueError(x.shape[1:])`, `("bad", (1, 2))`,
  `ValueError("bad", self.dims)` of `(2, 3)`, `ValueError({"a": 1})`: "Tuple to TupleUnfold
  pattern should have TupleGetItem as user node, but got raise"; `("a", 1)`, `[1, x.shape]`,
  `str(x.shape)`, numbers, a dtype, a Tensor, None compile). The same under a test graph mode
  folds when it compiles
  (`x.shape[0] > 10`, an int argument, `self.flag`) compile: the branch is dropped.
- Whatever the test (a shape, an int argument; not `self.flag`, which the parser folds), the
  parser refuses `raise self.err` (an attribute holding an instance), `raise ERRS[0]` and
  `raise A() if c else B()` ("Unable to cast Python instance of type <class 'NoneType'> to
  C++ type 'std::string'").

MS254 (STRICT only): `raise err` of a local bound to an instance (`err = ValueError("bad")`)
under a Tensor condition ("Illegal type in the graph: AbstractScalar(Type: External, Value:
PythonObject(type: <class 'ValueError'>...", naming the line that builds it, or the `raise`
when the name is bound in several places); it compiles at LAX, and under a folded test.

MS1000, widened: `raise Name(...)` / `raise Name` of a module-level name that is not a class
fails whatever the test but `self.flag` ("Unsupported exception type: make_error"): a module
function returning an exception (`raise make_error("bad")`), a module alias of a standard class
(`Err = ValueError`) and a module-level instance (`ERR = ValueError("bad")`).

MS1040 (LAX and STRICT): `sys.exit(...)` (also imported as `from sys import exit`), `exit()`
and `quit()` under a Tensor condition run while graph mode compiles: the compile raises
SystemExit (the builtins: "OSError: Mindspore can not compile temporary source code in
terminal"). Under a shape test, an int argument's test or `self.flag` they compile.

MS255 (STRICT only): a compiled helper (a method, a module function, a nested function or a
sub-Cell's construct called from a Cell) that returns None on every path and has control flow
on a Tensor that is kept for its effect (an `if`/`while` on a Tensor holding a `raise` or a
print, or an `assert` on a Tensor) fails: "output index [0] large than the output size [0] of
node!". LAX compiles it; a helper returning its input, a test on a shape, and an `if` on a
Tensor that only assigns compile at STRICT; a helper of an `@ms.jit` function compiles (jit
functions compile at LAX). `construct` itself with no output is MS219's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared, raise_types
from .helpers import names, shared_values
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import parameters

RAISE_FORM = Rule(
    "MS1039",
    "raise-form-not-compiled",
    Group.FAILS,
    title="A `raise` written in a form graph mode cannot compile",
    message=(
        "{what} fails to compile at every level {where}; raise a standard exception by its "
        "name with a message, `raise ValueError('...')`."
    ),
    why=(
        "Graph mode makes a node of `raise` only for a standard exception named directly "
        "(`raise ValueError(...)`) or a local holding an instance: a bare `raise`, a class "
        "reached through an attribute, an index or a local variable, a conditional "
        "expression, and an exception given a tuple of numbers (`x.shape`) or a dict are "
        "refused once the branch is compiled."
    ),
    remedy=(
        "Write `raise ValueError('...')` (or another standard exception by name) in the "
        "branch, and decide which error to raise with `if`/`elif` instead."
    ),
    mindspore_says="RuntimeError: No active exception to reraise.",
)

RAISE_INSTANCE_UNDER_STRICT = Rule(
    "MS254",
    "raise-instance-variable-under-strict",
    Group.STRICT,
    title="`raise err` of an exception kept in a local, under a Tensor condition, under STRICT",
    message=(
        "The exception object `{name}` is raised under a Tensor condition, and STRICT cannot "
        "hold it as a graph value; build it in the `raise` statement "
        "(`raise ValueError('...')`)."
    ),
    why=(
        "Under a Tensor condition the branch is compiled, and STRICT has no graph value for "
        "an exception instance held in a variable (LAX keeps it as a Python object)."
    ),
    remedy="Build the exception in the `raise` statement itself: `raise ValueError('...')`.",
    mindspore_says=(
        "RuntimeError: Illegal type in the graph: AbstractScalar(Type: External, Value: "
        "PythonObject(type: <class 'ValueError'>, value: bad input), Shape: NoShape)"
    ),
)

EXIT_UNDER_TENSOR = Rule(
    "MS1040",
    "exit-under-tensor-condition",
    Group.FAILS,
    title="`sys.exit()` / `exit()` under a Tensor condition in compiled code",
    message=(
        "`{call}` under a Tensor condition is run while graph mode compiles, so the compile "
        "itself exits; raise an exception (`raise RuntimeError('...')`) or check the value "
        "outside the Cell."
    ),
    why=(
        "Both branches of a Tensor condition are compiled, and graph mode runs a call to "
        "`sys.exit`/`exit`/`quit` in Python while it compiles: the process exits (or fails) "
        "whatever the value is when the graph runs."
    ),
    remedy="Raise a standard exception instead, or test the value outside compiled code.",
    mindspore_says="SystemExit: 1 (exit()/quit(): OSError: Mindspore can not compile temporary "
    "source code in terminal.)",
)

HELPER_NONE_UNDER_STRICT = Rule(
    "MS255",
    "helper-none-with-tensor-flow-under-strict",
    Group.STRICT,
    title="A compiled helper returns None after control flow on a Tensor, under STRICT",
    message=(
        "`{name}` returns None and has {flow}; STRICT cannot compile a call whose "
        "control-flow graph has no output: return a Tensor from it (e.g. its input)."
    ),
    why=(
        "A Tensor condition kept for its effect (a raise, a print, an assert) makes the "
        "helper a control-flow graph, and under STRICT a call of one that outputs None has "
        "nothing to read (LAX compiles it)."
    ),
    remedy="Return the checked value (`return x`) and use it: `x = self.check(x)`.",
    mindspore_says="RuntimeError: output index [0] large than the output size [0] of node!",
)

# What `raise` statements graph mode accepts by name (raise_types' list).
STANDARD = raise_types.STANDARD
EXITS = frozenset({"sys.exit"})
BUILTIN_EXITS = frozenset({"exit", "quit"})


@dataclass
class Reached:
    stmt: ast.stmt
    kept: bool  # every enclosing test reads the function's values: the parser keeps it
    runtime: bool  # under (or after a returning) `if`/`while` on a Tensor


def reached(ctx: FunctionContext) -> Iterator[Reached]:
    """The function's own simple statements, with how they are compiled (not into nested
    functions, classes or `try`, which graph mode refuses anyway)."""
    yield from _block(ctx, ctx.fn.node.body, derived_of(ctx), True, False)


def derived_of(ctx: FunctionContext) -> set[str]:
    fn = ctx.fn.node
    method = ctx.fn.cls is not None and not any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list
    )
    return raise_types.derived_names(fn, method)


def _block(
    ctx: FunctionContext, body: list[ast.stmt], derived: set[str], kept: bool, runtime: bool
) -> Iterator[Reached]:
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
            continue
        yield Reached(stmt, kept, runtime)
        if isinstance(stmt, (ast.If, ast.While)):
            test_runtime = ctx.types.is_runtime_test(stmt.test)
            inner_kept = kept and raise_types.test_kept(stmt.test, derived)
            inner_runtime = runtime or test_runtime
            yield from _block(ctx, stmt.body, derived, inner_kept, inner_runtime)
            yield from _block(ctx, stmt.orelse, derived, inner_kept, inner_runtime)
            if test_runtime and inner_kept and _returns(stmt):
                runtime = True  # what follows runs on one path of the Tensor condition
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            yield from _block(ctx, stmt.body, derived, kept, runtime)
            yield from _block(ctx, stmt.orelse, derived, kept, runtime)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _block(ctx, stmt.body, derived, kept, runtime)


def runtime_test(ctx: FunctionContext, item: Reached, derived: set[str]) -> bool:
    """`item` is an `if`/`while`/`assert` the graph keeps, on a Tensor condition."""
    stmt = item.stmt
    if not item.kept or not isinstance(stmt, (ast.If, ast.While, ast.Assert)):
        return False
    return ctx.types.is_runtime_test(stmt.test) and raise_types.test_kept(stmt.test, derived)


def _returns(stmt: ast.If | ast.While) -> bool:
    return any(isinstance(node, ast.Return) for node in ast.walk(stmt))


def _exception_class(ctx: FunctionContext, expr: Optional[ast.expr]) -> bool:
    """`expr` names an exception class: a standard or builtin one, or the module's own."""
    if not isinstance(expr, ast.Name):
        return False
    local = calls_shared.local_names(ctx.fn.node)
    if expr.id in local or expr.id in ctx.fn.module.imports:
        return False
    if expr.id in ctx.fn.module.classes:
        return raise_types.module_exception(ctx, expr.id) is not None
    return raise_types.builtin_exception(expr.id) and calls_shared.builtin(ctx, expr.id)


def _bindings(ctx: FunctionContext, expr: Optional[ast.expr]) -> list[ast.expr]:
    """The values a local name is bound to by plain `name = value` (none when it is also a
    parameter or bound in another way: a loop target, `+=`, a `with`)."""
    if not isinstance(expr, ast.Name) or expr.id not in calls_shared.local_names(ctx.fn.node):
        return []
    if expr.id in parameters(ctx.fn.node):
        return []
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    values = [
        a.value
        for a in assigns
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == expr.id
    ]
    stores: list[ast.Name] = ctx.of(ast.Name)
    stored = sum(1 for n in stores if n.id == expr.id and isinstance(n.ctx, ast.Store))
    return values if values and stored == len(values) else []


def _holds_class(ctx: FunctionContext, value: ast.expr) -> bool:
    if isinstance(value, ast.IfExp):
        return _holds_class(ctx, value.body) and _holds_class(ctx, value.orelse)
    return _exception_class(ctx, value)


def _holds_instance(ctx: FunctionContext, value: ast.expr) -> bool:
    if isinstance(value, ast.IfExp):
        return _holds_instance(ctx, value.body) and _holds_instance(ctx, value.orelse)
    return isinstance(value, ast.Call) and _exception_class(ctx, value.func)


def _form(ctx: FunctionContext, stmt: ast.Raise, item: Reached) -> Optional[tuple[str, str]]:
    """(what, where) for a `raise` MS1039 reports."""
    exc = stmt.exc
    if not item.kept or raise_types.imported_class(ctx, stmt) is not None:
        return None  # MS1000 reports a class of another module
    if isinstance(exc, (ast.Attribute, ast.Subscript, ast.IfExp)):
        kind = {ast.Attribute: "an attribute", ast.Subscript: "an item", ast.IfExp: "a choice"}
        what = f"`raise {_short(exc)}` of {kind[type(exc)]}"
        return what, "(the parser refuses it even when the branch is not taken)"
    if not item.runtime:
        return None
    where = "here: a Tensor condition keeps the branch in the graph"
    if exc is None:
        return "A bare `raise` (no active exception in a graph)", where
    func = exc.func if isinstance(exc, ast.Call) else exc
    if isinstance(exc, ast.Call) and not isinstance(func, ast.Name):
        return f"`raise {_short(func)}(...)` of a class reached through an expression", where
    bound = _bindings(ctx, func)
    if bound and all(_holds_class(ctx, b) for b in bound):
        assert isinstance(func, ast.Name)
        return f"`raise {func.id}` of a local holding a class", where
    if isinstance(exc, ast.Call):
        arg = next((a for a in exc.args if _number_tuple(ctx, a)), None)
        if arg is not None:
            return f"`raise {_short(func)}(...)` given `{_short(arg)}` (a tuple of numbers)", where
        if any(isinstance(a, ast.Dict) for a in exc.args):
            return f"`raise {_short(func)}(...)` given a dict", where
    return None


def _number_tuple(ctx: FunctionContext, arg: ast.expr, depth: int = 0) -> bool:
    """A tuple of numbers as an argument of the exception (measured: `x.shape`, `x.shape[1:]`,
    `tuple(x.shape)`, `list(x.shape)`, `s` bound to `x.shape`, `(1, 2)`, `(0.5, 1.5)`,
    `self.dims` holding `(2, 3)`, `[1, 2]` fail, and so does `assert t, x.shape` of a Tensor test;
    `("a", 1)`, `("a", x.shape)`, `["bad", x.shape]`,
    `str(x.shape)`, numbers, `x.dtype` and Tensors compile)."""
    if depth > 4:
        return False
    if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice):
        arg = arg.value
    converted = names.sequence_conversion(arg)
    if converted is not None and calls_shared.builtin(ctx, arg.func.id):  # type: ignore[attr-defined]
        arg = converted
    if isinstance(arg, ast.Attribute) and arg.attr == "shape":
        return ctx.types.is_tensor(arg.value)
    bound = _bindings(ctx, arg)
    if len(bound) == 1:
        return _number_tuple(ctx, bound[0], depth + 1)
    attr = names.self_attribute(arg)
    if attr is not None and ctx.fn.cls is not None:
        held = ctx.fn.cls.attr(attr)
        arg = held.node if held is not None and isinstance(held.node, ast.Tuple) else arg
    if isinstance(arg, (ast.Tuple, ast.List)):
        return bool(arg.elts) and all(
            isinstance(e, ast.Constant) and type(e.value) in (int, float) for e in arg.elts
        )
    value = shared_values.abstract(ctx, module=True).of(arg)
    if value is None or value.kind != "tuple" or not value.items:
        return False
    return all(v is not None and v.kind == "scalar" for v in value.items)


def _short(expr: ast.expr) -> str:
    text = ast.unparse(expr)
    return text if len(text) <= 40 else text[:37] + "..."


def _instance_variable(
    ctx: FunctionContext, stmt: ast.Raise, item: Reached
) -> Optional[tuple[str, ast.AST]]:
    """(name, where MindSpore points) for MS254: the one binding of the name (its message
    names that line), or the `raise` when the name is bound in several places."""
    exc = stmt.exc
    if not (item.kept and item.runtime and isinstance(exc, ast.Name)):
        return None
    bound = _bindings(ctx, exc)
    if bound and all(_holds_instance(ctx, b) for b in bound):
        return exc.id, bound[0] if len(bound) == 1 else stmt
    return None


def _exit_call(ctx: FunctionContext, stmt: ast.stmt) -> Optional[ast.Call]:
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    if isinstance(call.func, ast.Name) and call.func.id in BUILTIN_EXITS:
        local = calls_shared.local_names(ctx.fn.node)
        if call.func.id not in local and call.func.id not in ctx.fn.module.imports:
            return call if calls_shared.builtin(ctx, call.func.id) else None
    return call if names.callee(ctx.fn.module, call.func) in EXITS else None


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    if not ctx.of(ast.Raise, ast.Assert) and not _mentions_exit(ctx):
        return
    for item in reached(ctx):
        stmt = item.stmt
        if isinstance(stmt, ast.Raise):
            form = _form(ctx, stmt, item)
            if form is not None:
                yield RAISE_FORM.finding(
                    stmt, what=form[0][:1].upper() + form[0][1:], where=form[1]
                )
                continue
            held = _instance_variable(ctx, stmt, item)
            if held is not None:
                yield RAISE_INSTANCE_UNDER_STRICT.finding(held[1], name=held[0])
        elif isinstance(stmt, ast.Assert):
            if stmt.msg is not None and _assert_form(ctx, stmt, item):
                what = f"`assert ..., {_short(stmt.msg)}` (a tuple of numbers as message)"
                where = "here: a Tensor condition keeps the check in the graph (use a str)"
                yield RAISE_FORM.finding(stmt, what=what, where=where)
        elif item.runtime and item.kept:
            call = _exit_call(ctx, stmt)
            if call is not None:
                yield EXIT_UNDER_TENSOR.finding(call, call=_short(call))


def _assert_form(ctx: FunctionContext, stmt: ast.Assert, item: Reached) -> bool:
    """`assert t, x.shape` on a Tensor (or under one): measured, it fails as a raise does."""
    msg = stmt.msg
    if msg is None or not item.kept:
        return False
    if not (isinstance(msg, ast.Dict) or _number_tuple(ctx, msg)):
        return False
    return item.runtime or runtime_test(ctx, item, derived_of(ctx))


def _mentions_exit(ctx: FunctionContext) -> bool:
    module = ctx.fn.module
    return module.mentions("exit") or module.mentions("quit")


def check_module_names(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1000 for `raise f(...)` / `raise NAME` of a module-level function or variable (it
    reads the module's tree: not cacheable)."""
    fn = ctx.fn.node
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not ctx.of(ast.Raise):
        return
    module = ctx.fn.module
    local = calls_shared.local_names(fn)
    assigned: Optional[set[str]] = None
    method = ctx.fn.cls is not None
    derived = raise_types.derived_names(fn, method)
    for stmt in raise_types.parsed_raises(fn.body, derived, True):
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        if not isinstance(exc, ast.Name) or exc.id in STANDARD or exc.id in local:
            continue
        if exc.id in module.classes or exc.id in module.imports:
            continue
        if exc.id in module.functions:
            what = f"the module's function `{exc.id}` (graph mode takes the name as the class)"
        else:
            if assigned is None:
                assigned = _module_assigned(module.tree)
            if exc.id not in assigned:
                continue
            what = f"the module-level name `{exc.id}` (graph mode takes the name as the class)"
        yield raise_types.UNSUPPORTED_EXCEPTION.finding(
            stmt, name=exc.id, what=what, base="ValueError"
        )


def _module_assigned(tree: Optional[ast.Module]) -> set[str]:
    found: set[str] = set()
    if tree is None:
        return found
    for stmt in tree.body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets = [stmt.target]
        found.update(t.id for t in targets if isinstance(t, ast.Name))
    return found


PRINTS = frozenset({"mindspore.ops.print_", "mindspore.ops.Print"})


def effect_flow(ctx: FunctionContext) -> Optional[ast.stmt]:
    """The first statement of the function's own code that keeps control flow on a Tensor
    for its effect: a raise or a print under an `if`/`while` on a Tensor, or an `assert` on a
    Tensor (tests the parser folds, such as `self.debug and ...`, left out)."""
    derived = derived_of(ctx)
    for item in reached(ctx):
        stmt = item.stmt
        if isinstance(stmt, ast.Assert):
            if runtime_test(ctx, item, derived):
                return stmt
        elif (
            isinstance(stmt, (ast.Raise, ast.Expr))
            and item.kept
            and item.runtime
            and _effect(ctx, stmt)
        ):
            return stmt
    return None


def _effect(ctx: FunctionContext, stmt: ast.stmt) -> bool:
    for node in ast.walk(stmt):  # a simple statement: a few nodes
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "print":
                if calls_shared.builtin(ctx, "print"):
                    return True
            elif names.callee(ctx.fn.module, func) in PRINTS:
                return True
    return False


def returns_none(ctx: FunctionContext) -> bool:
    """Every `return` of the function's own code gives None (or there is none)."""
    fn = ctx.fn.node
    inner = [n for n in ctx.of(ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda) if n is not fn]
    nested = {id(n) for f in inner for n in ast.walk(f) if n is not f} if inner else set()
    if any(id(n) not in nested for n in ctx.of(ast.Yield, ast.YieldFrom)):
        return False
    for ret in ctx.of(ast.Return):
        if id(ret) in nested:
            continue
        value = ret.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            return False
    return True


def _flow_name(stmt: ast.stmt) -> str:
    if isinstance(stmt, ast.Assert):
        return "an `assert` on a Tensor"
    what = "a `raise`" if isinstance(stmt, ast.Raise) else "a print"
    return f"{what} under a Tensor condition"


def _def_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
    """A node spanning the `def` line's name only, for a finding that names that line."""
    spot = ast.Name(id=node.name, ctx=ast.Load())
    spot.lineno = spot.end_lineno = node.lineno
    spot.col_offset = node.col_offset + (10 if isinstance(node, ast.AsyncFunctionDef) else 4)
    spot.end_col_offset = spot.col_offset + len(node.name)
    return spot


def check_none_helpers(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS255 (not cacheable: whether the function is a helper depends on its callers)."""
    fn = ctx.fn
    if fn.caller is None or not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    # cheap tests first: most helpers return a value, and few raise, print or assert
    if not ctx.of(ast.Raise, ast.Assert) and not ctx.fn.module.mentions("print"):
        return
    if not ctx.of(ast.If, ast.While, ast.Assert) or not returns_none(ctx):
        return
    flow = effect_flow(ctx)
    if flow is None:
        return
    at: ast.AST = flow.test if isinstance(flow, ast.Assert) else flow
    if fn.cls is None and fn.module.functions.get(fn.node.name) is not fn.node:
        # a function defined inside another: MindSpore names its `def` line (measured on a
        # nested `def check(v)` called from `construct`)
        at = _def_line(fn.node)
    yield HELPER_NONE_UNDER_STRICT.finding(
        at,
        name=fn.node.name,
        flow=_flow_name(flow),
    )
