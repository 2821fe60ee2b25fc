"""MS115-MS117, MS121: objects compiled code cannot create or use (Parameters, with, dicts)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..incremental.memo import NodeMemo
from ..index.module import ModuleInfo
from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .calls_shared import builtin
from .helpers import globals as globals_
from .helpers import module_values, names, receivers, shared_values
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo
from .helpers.flow import blocks_of, loads_after
from .helpers.module_values import parameters
from .helpers.walk import of_type

PARAMETER_IN_GRAPH = Rule(
    "MS115",
    "parameter-in-graph",
    Group.FAILS,
    title="`Parameter(...)` created in compiled code",
    message=(
        "A Parameter cannot be created inside compiled code; create it in `__init__` and use "
        "`self.<name>` here."
    ),
    why="Parameters are the Cell's state and must exist before compilation.",
    remedy="Create the Parameter in `__init__` and use `self.<name>` in `construct`.",
    mindspore_says=(
        "ValueError: Failed to compile in GRAPH_MODE because creating class "
        "'mindspore.common.parameter.Parameter' instances is not supported in 'construct' or @jit"
        " decorated function."
    ),
)

WITH_PLAIN_CLASS = Rule(
    "MS116",
    "with-plain-class",
    Group.FAILS,
    title="`with` on an object that is not a `jit_class`",
    message=(
        "`with` needs a `@jit_class` object in graph mode, but `{name}` is not one; move the "
        "`with` out of compiled code or make the context manager a `@mindspore.jit_class`."
    ),
    why=(
        "Graph mode only runs `__enter__`/`__exit__` of classes decorated with `@jit_class`: "
        "a plain class, `contextlib.suppress`, `np.errstate`, `open()`, a lock, even "
        "MindSpore's own `_no_grad()` fail (measured on 2.10, LAX and STRICT)."
    ),
    remedy=(
        "Decorate the context manager's class with `@mindspore.jit_class`, or move the `with` out"
        " of compiled code."
    ),
    mindspore_says=(
        "TypeError: Only support jit_class instance, but got PythonObject(type: <class 'Ctx'>, ...)"
    ),
)

WITH_RAISE = Rule(
    "MS1062",
    "with-raise-not-suppressed",
    Group.FAILS,
    title="`raise` in a `with` block that `__exit__` suppresses in Python",
    message=(
        "Graph mode does not let `__exit__` swallow the exception raised in this `with` block: "
        "the raise fails compilation or cuts off the code after the block ({what}); move the "
        "`raise` out of compiled code or return a flag instead."
    ),
    why=(
        "In Python a context manager whose `__exit__` returns True suppresses the exception "
        "and execution goes on after the block. Graph mode compiles `with` as a call of "
        "`__enter__`, the body and a call of `__exit__`, never as a handler: a `raise` as the "
        "block's own statement ends the graph there, so names read after the block are "
        "undefined (\"The name 'x' is not defined\"), or the constant exception itself is "
        "raised while compiling (measured on 2.10, LAX and STRICT)."
    ),
    remedy=(
        "Do not rely on `__exit__` to swallow exceptions in compiled code: check the condition "
        "and return (or compute a flag) instead of raising inside the `with` block."
    ),
    mindspore_says=(
        "NameError: The name 'x' is not defined, or not supported in graph mode. (ValueError: "
        "'boom' when nothing after the block reads a name)"
    ),
)

WITH_FUNCTION_CALL = Rule(
    "MS1063",
    "with-function-result",
    Group.FAILS,
    title="`with f():` on what a module-level function returns",
    message=(
        "`with {call}` takes its context manager from the function `{name}`: graph mode checks "
        "a `with` call's name as a class and fails on a function; create the `@jit_class` "
        "object directly (`with Ctx():`) or hold it in an attribute."
    ),
    why=(
        "Graph mode looks the name a `with` statement calls up among the module's globals and "
        "tests it with `issubclass` (for its stream contexts); a function there is not a class, "
        "so compiling stops, even when the function returns a `@jit_class` object (measured on "
        '2.10, LAX and STRICT: "issubclass() arg 1 must be a class", no line named).'
    ),
    remedy=(
        "Call the `@jit_class` directly (`with Ctx(...):`), keep the object in an attribute "
        "(`with self.ctx:`), or make the factory a method or a `@staticmethod`."
    ),
    mindspore_says="TypeError: issubclass() arg 1 must be a class",
)

TENSOR_DICT_KEY = Rule(
    "MS117",
    "tensor-dict-key",
    Group.FAILS,
    title="Non-constant Tensor used as a dict key",
    message=(
        "A non-constant Tensor cannot be a dict key in graph mode; key the dict with a string or "
        "number."
    ),
    why="Dict keys must be known at compile time.",
    remedy="Key the dict with strings or numbers, or use a tuple of Tensors.",
    mindspore_says=(
        "RuntimeError: make_dict evaluator key only supports string, number, type, none, constant"
        " tensor and tuple, but got ValueAny"
    ),
)

DICT_POP_SETDEFAULT = Rule(
    "MS121",
    "dict-pop-setdefault",
    Group.FAILS,
    title="`dict.pop()` / `dict.setdefault()` in compiled code",
    message=(
        "`dict.{method}()` does not work as in Python in graph mode; read with `d[key]` or "
        "`d.get(key, default)` and assign keys explicitly."
    ),
    why=(
        "Graph mode's dict does not implement `pop` and `setdefault` with Python's semantics: "
        "`pop` hands back the value where a `(dict, value)` pair is expected (popping a number "
        "fails, a popped None or str becomes the dict; under STRICT the method does not exist) "
        "and `setdefault` fails on a missing key. A `v = d.pop(k)` whose `v` and `d` are never "
        "read again is dropped as dead code and compiles."
    ),
    remedy=(
        "Read the value with `d[key]` (or `d.get(key, default)`) and build a new dict without the"
        " key, or assign `d[key] = value` explicitly."
    ),
    mindspore_says=(
        "TypeError: For 'TupleGetItem', input[0] should be Sequence, but got Int64. (ValueError: "
        "The key b does not exist in the dict:ValueAny for setdefault)"
    ),
)

DICT_TRAPS = frozenset({"pop", "setdefault"})
# What `d.pop(k)` may give for graph mode's `(dict, value)` unpacking to fail (a Tensor or a
# sequence unpacks into its first two items instead).
UNPACKS_FAIL = frozenset({"scalar"})
# Popped values the dict's name is rebound to (or to their first item) without failing there.
REBOUND_TO_VALUE = frozenset({"None", "str", "tuple", "list"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    dicts = _dict_names(ctx.fn.node)
    values = shared_values.abstract(ctx)
    for node in ctx.of(ast.Call, ast.With, ast.AsyncWith, ast.Dict, ast.Subscript):
        if isinstance(node, ast.Call):
            if names.callee(module, node.func) in names.PARAMETER:
                yield PARAMETER_IN_GRAPH.finding(node)
            elif _is_dict_method(node, dicts) and _fails_at(ctx, values, node, dicts):
                assert isinstance(node.func, ast.Attribute)
                assert isinstance(node.func.value, ast.Name)
                use = loads_after(ctx.fn.node, node.func.value.id, node)
                yield DICT_POP_SETDEFAULT.finding(
                    node,
                    related=[ctx.related(use, "the dict is read here")] if use else [],
                    method=node.func.attr,
                )
            elif _argument_dict_fails(ctx, node, dicts) or _attribute_dict_fails(ctx, node):
                assert isinstance(node.func, ast.Attribute)
                yield DICT_POP_SETDEFAULT.finding(node, method=node.func.attr)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            yield from _with(ctx, node)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    yield from _tensor_key(ctx, key)
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in dicts
        ):
            yield from _tensor_key(ctx, node.slice)


def check_globals(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`with OBJ:` on a module-level instance of a plain class (not cacheable: it reads the
    module's top-level assignments)."""
    withs: list[ast.With | ast.AsyncWith] = ctx.of(ast.With, ast.AsyncWith)
    for node in withs:
        for item in node.items:
            qualname = globals_.instance_class(ctx, item.context_expr)
            target = ctx.classes.resolve(qualname)
            if target is None and _from_library(ctx, qualname):
                # `LOCK = threading.Lock()` at module level, then `with LOCK:` (measured: fails)
                yield WITH_PLAIN_CLASS.finding(item.context_expr, name=str(qualname))
            if target is None or target.is_jit_class or target.is_cell:
                continue
            yield WITH_PLAIN_CLASS.finding(
                item.context_expr,
                related=[ctx.related(target.node, f"class `{target.name}` defined here")],
                name=target.name,
            )


def _tensor_key(ctx: FunctionContext, key: ast.expr) -> Iterator[RawFinding]:
    if ctx.types.is_tensor(key) and not constant_key(ctx, key):
        yield TENSOR_DICT_KEY.finding(key)


def constant_key(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A Tensor of literals (its dtype given too), or a local bound once to one: a dict key
    folded at compile time (`k = Tensor(1, ms.int32); d = {k: x}; d[k]` compiles at both
    levels: measured)."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        expr = bound if bound is not None else expr
    if ctx.types.is_constant_tensor(expr):
        return True
    return (
        isinstance(expr, ast.Call)
        and len(expr.args) == 2
        and isinstance(expr.args[0], ast.Constant)
        and isinstance(expr.args[1], ast.Attribute)
        and not expr.keywords
        and names.callee(ctx.fn.module, expr.func) in names.TENSOR_FACTORIES
    )


def _dict_names(fn: ast.AST) -> dict[str, ast.expr]:
    """Local names bound to a dict display or `dict(...)`, with the (last) value bound."""
    found: dict[str, ast.expr] = {}
    for node in of_type(fn, ast.Assign):
        if isinstance(node.value, (ast.Dict, ast.DictComp)) or (
            isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "dict"
        ):
            found.update((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
    return found


def _fails_at(
    ctx: FunctionContext, values: Abstract, call: ast.Call, dicts: dict[str, ast.expr]
) -> bool:
    """Both fail under STRICT (the graph's dict has neither method). At LAX, measured:
    - `pop`: graph mode unpacks what `d.pop(k)` gives into `(new dict, value)`, so popping a
      scalar, str or None fails (`TupleGetItem ... got Int64`) while popping a Tensor compiles
      (into its rows: a wrong value, MS333) unless the dict is read by key afterwards (it is
      then a row) or is a comprehension; an unknown value is not reported;
    - `setdefault`: only on a dict display holding a Tensor that is read by key (`d[k]`,
      `d.get(k)`) afterwards: `return d`, `v = d.setdefault(k, x); return v` and a dict of
      scalars compile (docs/checker-realcode.md)."""
    assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
    name = call.func.value.id
    if dead_pop(ctx.fn.node, name, call):
        return False
    if ctx.level == SyntaxLevel.STRICT:
        return True
    display = dicts[name]
    if call.func.attr == "pop":
        popped = _popped(values, display, call)
        if popped is None:
            return False
        if popped.kind in UNPACKS_FAIL:
            return True
        if popped.kind in REBOUND_TO_VALUE and rebinds_dict(ctx.fn.node, call):
            # The dict's name is rebound to the popped None (or the str, or the sequence's
            # first item): measured at LAX, `d["a"]`, `len(d)`, `return d` after
            # `v = d.pop("b", None)` fail ("'NoneType' object is not subscriptable"), and
            # `d["a"]` after popping "z" or (1, 2) ("string indices must be integers").
            if popped.kind == "None":
                return loads_after(ctx.fn.node, name, call) is not None
            return _read_by_key_after(ctx.fn.node, name, call)
        # A popped Tensor unpacks into its rows: the dict's name is rebound to the first row
        # (measured: `v = d.pop("a")` then `d["b"]` or `d.get("b")` fails at LAX, "Unsupported
        # Python object type received: <class 'str'>"); a dict comprehension has no `pop` at LAX
        # ("'tuple' object has no attribute 'pop'").
        if popped.kind != "tensor":
            return False
        return isinstance(display, ast.DictComp) or (
            rebinds_dict(ctx.fn.node, call) and _read_by_key_after(ctx.fn.node, name, call)
        )
    holds_tensor = isinstance(display, ast.Dict) and any(
        ctx.types.is_tensor(v) for v in display.values
    )
    return holds_tensor and _read_by_key_after(ctx.fn.node, name, call)


def _argument_dict_fails(ctx: FunctionContext, call: ast.Call, dicts: dict[str, ast.expr]) -> bool:
    """`d.pop(k)` / `d.setdefault(...)` on a parameter every call in the module gives a dict
    display (`net(x, {"a": x, "b": y})`). Measured on 2.10 with such input dicts: STRICT has
    neither method (fails whatever the values, except a dict holding a str, which compiled);
    LAX fails `v = d.pop("a")` of a number or a Tensor ("TupleGetItem, input[0] should be
    Sequence"), and `d.pop("a")` as a statement when `d[k]` is read afterwards, while that
    statement alone, `x + d.pop("a")`, a missing key's default, a popped tuple and `setdefault`
    compile. Round 36 (`ar_`): the same with the caller's `dd = {"a": x}` (a Tensor bound in the
    caller), `d.pop("a", None)` of a key every call passes, `d.pop("a")` then `len(d)`, and
    `v = d.pop("z", 0)` of a key no call passes (the int default is popped) fail at LAX."""
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and func.attr in DICT_TRAPS
        and isinstance(func.value, ast.Name)
        and func.value.id not in dicts
    ):
        return False
    displays = shared_values.abstract(ctx, module=True).passed_dicts(func.value.id)
    if not displays:
        return False
    if ctx.level == SyntaxLevel.STRICT:
        return not any(_holds_str(d) for d in displays)
    if func.attr != "pop" or len(call.args) not in (1, 2) or call.keywords:
        return False
    key = call.args[0]
    if not isinstance(key, ast.Constant):
        return False
    fn = ctx.fn.node
    if not _assigned_to_name(fn, call) and not (
        rebinds_dict(fn, call) and loads_after(fn, func.value.id, call) is not None
    ):
        return False  # round 36: `d.pop("a")` then `len(d)` fails at LAX as `d["b"]` does
    popped = [_value_at(d, key.value) for d in displays]
    if len(call.args) == 2:
        if all(v is None for v in popped):  # `d.pop("z", 0)`: the default is popped
            return _number_or_tensor(ctx, call.args[1])
        if any(v is None for v in popped):
            return False
    return all(_number_or_tensor(ctx, v) for v in popped)


def _attribute_dict_fails(ctx: FunctionContext, call: ast.Call) -> bool:
    """`self.d.pop(k)` / `self.d.setdefault(...)` of a dict display `__init__` assigns.
    Measured on 2.10: STRICT has neither method (fails); LAX fails `v = self.d.pop("a")` of a
    number ("TupleGetItem, input[0] should be Sequence, but got Float32") and compiles
    `self.d.setdefault("z", 3.0)` of numbers."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in DICT_TRAPS):
        return False
    if receivers.kind_of(ctx, func.value) != receivers.DICT:
        return False
    if ctx.level == SyntaxLevel.STRICT:
        return True
    held = receivers.self_attr(ctx, func.value)
    display = held.node if held is not None else None
    if func.attr != "pop" or not isinstance(display, ast.Dict) or call.keywords:
        return False
    if len(call.args) != 1 or not isinstance(call.args[0], ast.Constant):
        return False
    value = _value_at(display, call.args[0].value)
    number = isinstance(value, ast.Constant) and type(value.value) in (int, float)
    return number and _assigned_to_name(ctx.fn.node, call)


def _holds_str(display: ast.Dict) -> bool:
    return any(
        isinstance(v, ast.JoinedStr) or (isinstance(v, ast.Constant) and isinstance(v.value, str))
        for v in display.values
    )


def _value_at(display: ast.Dict, key: object) -> Optional[ast.expr]:
    for k, v in zip(display.keys, display.values):
        if not isinstance(k, ast.Constant):
            return None
        if k.value == key:
            return v
    return None


def _number_or_tensor(ctx: FunctionContext, value: Optional[ast.expr]) -> bool:
    """A value as the caller writes it: a number literal or a `Tensor(...)` call."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant):
        value = value.operand
    if isinstance(value, ast.Constant):
        return type(value.value) in (int, float)
    if isinstance(value, ast.Name):  # `{"a": x}` with `x = Tensor(...)` in the caller
        module_values.note_read(ctx.lines, module_values.WHOLE_MODULE)
        return value.id in _tensor_names(ctx.fn.module)
    return isinstance(value, ast.Call) and names.callee(ctx.fn.module, value.func) in (
        names.TENSOR_FACTORIES
    )


_TENSOR_NAMES: NodeMemo[frozenset[str]] = NodeMemo()


def _tensor_names(module: ModuleInfo) -> frozenset[str]:
    """Names every assignment of the module (any scope) binds to a `Tensor(...)` call: what a
    caller's `{"a": x}` holds (round 36, `ar_`: `v = d.pop("a")` of such an input dict fails at
    LAX as of a written-out Tensor). Asked only for a popped input dict."""
    tree = module.tree
    if tree is None:
        return frozenset()

    def compute() -> frozenset[str]:
        good: set[str] = set()
        bad: set[str] = set()
        nodes: list[ast.Assign | ast.AugAssign | ast.AnnAssign | ast.For] = of_type(
            tree, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For
        )
        for node in nodes:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            tensor = isinstance(node, ast.Assign) and (
                isinstance(node.value, ast.Call)
                and names.callee(module, node.value.func) in names.TENSOR_FACTORIES
            )
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        (good if tensor and t is n else bad).add(n.id)
        return frozenset(good - bad)

    return _TENSOR_NAMES.get(tree, None, compute)


def dead_pop(fn: ast.AST, name: str, call: ast.Call) -> bool:
    """`v = d.pop(...)` with neither `v` nor `d` read afterwards: the graph drops it as dead code
    and both levels compile (measured: STRICT, which has no `dict.pop`, and LAX popping a number
    alike); `d.pop(...)` as a statement is kept and fails STRICT."""
    assigns: list[ast.Assign] = of_type(fn, ast.Assign)
    for node in assigns:
        if node.value is call:
            target = node.targets[0] if len(node.targets) == 1 else None
            return (
                isinstance(target, ast.Name)
                and loads_after(fn, target.id, call) is None
                and loads_after(fn, name, call) is None
            )
    return False


def _assigned_to_name(fn: ast.AST, call: ast.Call) -> bool:
    assigns: list[ast.Assign] = of_type(fn, ast.Assign)
    return any(
        a.value is call and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
        for a in assigns
    )


def _popped(values: Abstract, display: ast.expr, call: ast.Call) -> Optional[Value]:
    """The value `d.pop(key[, default])` gives, when the dict's binding shows it."""
    if not call.args or not isinstance(call.args[0], ast.Constant):
        return None
    key = call.args[0].value
    default = values.of(call.args[1]) if len(call.args) > 1 else None
    if isinstance(display, ast.DictComp):
        return values.of(display.value)
    if isinstance(display, ast.Call):  # dict(a=1, ...)
        if display.args:
            return None
        found = [kw.value for kw in display.keywords if kw.arg == key]
        return values.of(found[0]) if found else default
    assert isinstance(display, ast.Dict)
    for k, v in zip(display.keys, display.values):
        if not isinstance(k, ast.Constant):
            return None
        if k.value == key:
            return values.of(v)
    return default


def rebinds_dict(fn: ast.AST, call: ast.Call) -> bool:
    """`d.pop(k)` as a statement or as `v = d.pop(k)`: graph mode unpacks its result into the
    dict's name and the value (`return d.pop(k)` is left whole: measured)."""
    statements: list[ast.Assign | ast.Expr] = of_type(fn, ast.Assign, ast.Expr)
    for node in statements:
        if node.value is call:
            return isinstance(node, ast.Expr) or (
                len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            )
    return False


def popped(values: Abstract, display: ast.expr, call: ast.Call) -> Optional[Value]:
    """The value `d.pop(...)` gives (shared with MS333)."""
    return _popped(values, display, call)


def read_by_key_after(fn: ast.AST, name: str, call: ast.Call) -> bool:
    """`name[...]` or `name.get(...)` read after `call` (shared with MS333)."""
    return _read_by_key_after(fn, name, call)


def dict_names(fn: ast.AST) -> dict[str, ast.expr]:
    """Local names bound to a dict display or `dict(...)` (shared with MS333)."""
    return _dict_names(fn)


def _read_by_key_after(fn: ast.AST, name: str, call: ast.Call) -> bool:
    end = (call.end_lineno or 0, call.end_col_offset or 0)
    reads: list[ast.Subscript | ast.Attribute] = of_type(fn, ast.Subscript, ast.Attribute)
    for node in reads:
        target = node.value
        if not (isinstance(target, ast.Name) and target.id == name):
            continue
        if (node.lineno, node.col_offset) < end or not isinstance(node.ctx, ast.Load):
            continue
        if isinstance(node, ast.Subscript) or node.attr == "get":
            return True
    return False


def _is_dict_method(call: ast.Call, dicts: dict[str, ast.expr]) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in DICT_TRAPS
        and isinstance(func.value, ast.Name)
        and func.value.id in dicts
    )


def _with(ctx: FunctionContext, node: ast.With | ast.AsyncWith) -> Iterator[RawFinding]:
    plain = False
    for item in node.items:
        plain = plain or _cell_context(ctx, item.context_expr) is not None
        target = _class_of(ctx, item.context_expr)
        plain = plain or (target is not None and not target.is_jit_class)
        plain = plain or (target is None and _library_context(ctx, item.context_expr) is not None)
        plain = plain or _module_function(ctx, item.context_expr) is not None
    if not plain:
        yield from _with_raise(ctx, node)
    for item in node.items:
        function = _module_function(ctx, item.context_expr)
        if function is not None:
            yield WITH_FUNCTION_CALL.finding(
                item.context_expr, call=ast.unparse(item.context_expr), name=function
            )
            continue
        cell = _cell_context(ctx, item.context_expr)
        if cell is not None:
            yield WITH_PLAIN_CLASS.finding(item.context_expr, name=cell)
            continue
        target = _class_of(ctx, item.context_expr)
        if target is None:
            library = _library_context(ctx, item.context_expr)
            if library is not None:
                yield WITH_PLAIN_CLASS.finding(item.context_expr, name=library)
            continue
        if target.is_jit_class:
            continue
        yield WITH_PLAIN_CLASS.finding(
            item.context_expr,
            related=[ctx.related(target.node, f"class `{target.name}` defined here")],
            name=target.name,
        )


def _module_function(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`make(...)` where `make` is a function defined at the module's top level (not bound in
    the compiled function). Measured on 2.10, LAX and STRICT: `with make() as v:` and `with
    guard():` fail ("issubclass() arg 1 must be a class") whether the function returns a
    `@jit_class` object or a plain one, in construct or in a helper, and so does a
    `@contextlib.contextmanager` function; `with self.make():`, `with Ctx.create():` (a
    `@staticmethod`), a factory nested in construct and `make = Ctx` (a class) compile."""
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Name):
        return None
    name = expr.func.id
    module = ctx.fn.module
    if name not in module.functions or name in module.imports or name in module.classes:
        return None
    if name in parameters(ctx.fn.node):
        return None
    stores: list[ast.Name] = ctx.of(ast.Name)
    if any(n.id == name and isinstance(n.ctx, ast.Store) for n in stores):
        return None
    defs: list[ast.FunctionDef] = ctx.of(ast.FunctionDef)
    if any(d.name == name for d in defs if d is not ctx.fn.node):
        return None
    return name


def _with_raise(ctx: FunctionContext, node: ast.With | ast.AsyncWith) -> Iterator[RawFinding]:
    """MS1062: a `raise` as a statement of the `with` block itself (a PyNative program runs it
    only when `__exit__` suppresses it). Measured on 2.10 with `@jit_class` context managers
    whose `__exit__` returns True (constant or `self.quiet`), in construct, LAX and STRICT:
    `with C(): raise E(...)` then `return x` fails "The name 'x' is not defined" (an
    UnboundLocalError when the `with` ends an `if` branch), naming the read after the block;
    with nothing read after it (`return 1`), the constant exception is raised while compiling,
    naming the `raise`. Reported at the first name the next statement reads, else at the
    `raise`. A `raise` under an `if` in the block is not reported (a false condition compiles;
    measured: `if x.shape[0] == 3: raise` under `__exit__` returning False); nor is a `with`
    in a loop (MindSpore named a statement of the block) or in a helper (it named the call in
    construct): only compiled entry points (construct, `@jit` functions)."""
    raised = next((s for s in node.body if isinstance(s, ast.Raise)), None)
    if raised is None or ctx.fn.caller is not None or _in_loop(ctx, node):
        return
    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
    statements: list[ast.stmt] = [
        s for block in blocks_of(ctx.fn.node) for s in block if (s.lineno, s.col_offset) >= end
    ]
    after = min(statements, key=lambda s: (s.lineno, s.col_offset), default=None)
    read = _first_read(after) if after is not None else None
    if read is not None:
        yield WITH_RAISE.finding(read, what=f"`{read.id}` is undefined after it")
    else:
        yield WITH_RAISE.finding(raised, what="the exception is raised while compiling")


def _in_loop(ctx: FunctionContext, node: ast.stmt) -> bool:
    loops: list[ast.For | ast.While] = ctx.of(ast.For, ast.While)
    return any(node in of_type(loop, ast.With) for loop in loops)


def _first_read(stmt: ast.stmt) -> Optional[ast.Name]:
    """The first name a statement reads in its own expressions (a compound statement's test
    or iterable, not its body)."""
    parts: list[ast.AST]
    if isinstance(stmt, (ast.If, ast.While)):
        parts = [stmt.test]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        parts = [stmt.iter]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        parts = [item.context_expr for item in stmt.items]
    elif isinstance(stmt, (ast.Return, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
        parts = [stmt]
    else:
        return None
    loads = [
        n
        for part in parts
        for n in ast.walk(part)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    ]
    return min(loads, key=lambda n: (n.lineno, n.col_offset), default=None)


def _cell_context(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`with self.block:`, `with self.blocks[0]:`, `with self:` in a Cell's method, or `with
    Block():` of a workspace Cell: a Cell is never a `@jit_class` (`jit_class` refuses Cells),
    so even one defining `__enter__`/`__exit__` fails, LAX and STRICT (measured on 2.10: "Only
    support jit_class instance, but got ValueAny", or "got ClassMember" for `self`)."""
    if receivers.kind_of(ctx, expr) == receivers.CELL:
        return ast.unparse(expr)
    if isinstance(expr, ast.Call):
        info = ctx.classes.resolve(ctx.fn.module.qualname(expr.func))
        if info is not None and info.is_cell:
            return info.name
    return None


def _library_context(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`with contextlib.suppress(E):`, `with np.errstate(...)`, `with open(p)`, even MindSpore's
    `with ms._no_grad():`: a context manager made by a library, never a `@jit_class`. Measured on
    2.10, LAX and STRICT: each fails ("Only support jit_class instance, but got
    PythonObject(type: <class 'contextlib.suppress'>...)"). A workspace callee may return a
    `@jit_class` object, so only imported and built-in callees count."""
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, (ast.Name, ast.Attribute)):
        return None
    module = ctx.fn.module
    if isinstance(expr.func, ast.Name):
        name = expr.func.id
        if name in BUILTIN_CONTEXTS and builtin(ctx, name):
            return name
        # `from contextlib import nullcontext` then `with nullcontext():` (measured: fails)
        qualname = module.qualname(expr.func) if name in module.imports else None
        if qualname is not None and "." in qualname and _from_library(ctx, qualname):
            return None if qualname.rsplit(".", 1)[-1] in STREAM_CONTEXTS else name
        return None
    root: ast.expr = expr.func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id not in module.imports:
        return None
    qualname = module.qualname(expr.func)
    if qualname is not None and qualname.rsplit(".", 1)[-1] in STREAM_CONTEXTS:
        return None  # graph mode's own stream contexts (`check_is_base_ctx` in its parser)
    return ast.unparse(expr.func) if _from_library(ctx, qualname) else None


def _from_library(ctx: FunctionContext, qualname: Optional[str]) -> bool:
    """A dotted name of an installed package's, not of a module of the workspace."""
    if qualname is None or "." not in qualname:
        return False
    workspace = ctx.classes.workspace
    parts = qualname.split(".")
    return not any(workspace.find_module(".".join(parts[:i])) for i in range(1, len(parts)))


BUILTIN_CONTEXTS = frozenset({"open"})
STREAM_CONTEXTS = frozenset({"StreamCtx", "StreamLimitCtx"})


def _class_of(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The workspace class of `self.attr` (assigned `Cls(...)` in the class) or of `Cls(...)`."""
    module = ctx.fn.module
    qualname: Optional[str] = None
    if (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "self"
        and ctx.fn.cls is not None
    ):
        attr = ctx.fn.cls.attr(expr.attr)
        if attr is not None and attr.kind == "object":
            qualname = attr.class_qualname
    elif isinstance(expr, ast.Call):
        qualname = module.qualname(expr.func)
    info = ctx.classes.resolve(qualname)
    if info is None or info.is_cell:
        return None
    return info
