"""MS1165-MS1169, MS2055, MS3055-MS3056: Python scopes and function objects, which a graph has not.

Measured with MindSpore 2.10 on CPU (round 37, `gl_`), at LAX and STRICT alike; each program
runs in PyNative:

- MS1165: `eval("...")` of a literal string, given no globals dict, in compiled code evaluates
  it with none of the function's names: a local (`eval("k + 1")`), a parameter (`eval("x *
  2")`), a module global (`eval("SCALE * 2")`) or an imported module (`eval("np.float32(2)")`)
  fails with "NameError: name 'k' is not defined" (no line named). Builtins (`eval("max(2,
  3)")`), `self` (`eval("self.k")`), constants and an explicit dict (`eval("k + 1", {"k": k})`)
  compile and agree.
- MS1166: `locals()` and `vars()` give an empty dict in compiled code, and `globals()` one
  holding only `globals` and `__builtins__`: `locals()["y"]`, `vars()["y"]`, `globals()["SCALE"]`
  fail with "The key y does not exist in the dict" (every level, in a helper or module function
  too).
- MS3055: the other reads of those dicts compile and see the same empty dict: `locals().get("y",
  x)` gives the default, `"y" in locals()` / `"SCALE" in globals()` are False, `len(locals())` is
  0 (PyNative: the function's names). `vars(obj)` of an object agrees.
- MS1167: a function as a constant the graph must compare or hash: `f is g` / `self.act is
  ops.relu` / `is not` with a function on the right ("For syntax like 'a is b', b supports Int,
  Bool, String, None and Type, but got DeadNode"), `self.act in (ops.relu, ops.tanh)` (LAX:
  "Unsupported element type[unknown]"; STRICT: "the inputs should be constant") and a dict
  display keyed by a function (`{ops.relu: 1}`: "make_dict evaluator key only supports string,
  number, type, none, constant tensor and tuple"). `self.act == ops.relu` and a dict of
  functions keyed by strs compile and agree.
- MS1168: `helper.__name__`, `helper.__doc__`, `str(helper)` of a `def` written inside compiled
  code fail at LAX ("name '__py_exec_index1_getattr__' is not defined") and STRICT (no such
  attribute); a module-level function's `__name__` and a lambda's compile at LAX.
  `type(helper)` of such a def fails alike ("name 'g' is not defined"), and so do `p.func` /
  `p.keywords` of a `p = functools.partial(...)` made in compiled code ("'Function' object
  has no attribute 'func'"): graph mode makes both graph functions, not Python objects.
- MS1169: `map(f, (x, x, x), (x, x))`: graph mode's `map` refuses sequences of different
  lengths ("For 'Map', the length of tuples must be the same"); Python stops at the shortest.
- MS2055: `str(helper)` of a module-level function or `str(ops.relu)` under STRICT ("cannot get
  attributes __str__"); LAX compiles it, and `repr(helper)` compiles at both levels.
- MS3056: `print(f)` of a function (a module `def`, a nested one, a lambda, `ops.relu`) prints
  `DeadNode` in graph mode (PyNative: `<function relu at 0x...>`).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin, local_names, module_function
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import WHOLE_MODULE, note_read
from .helpers.names import self_attribute
from .helpers.walk import of_type

EVAL_READS_NAME = Rule(
    "MS1165",
    "eval-reads-name",
    Group.FAILS,
    title="`eval()` of a string naming a local, a parameter or a module global, in compiled code",
    message=(
        "`{call}` evaluates its string without the function's names in compiled code: `{name}` "
        "is not defined there (NameError at every level); write the expression itself, or "
        "pass the names in a dict (`eval(s, {{'{name}': {name}}})`)."
    ),
    why=(
        "Graph mode runs `eval` through its Python fallback with a namespace of its own: the "
        "compiled function's locals and parameters, and the module's globals and imports, are "
        "not in it (builtins and `self` are)."
    ),
    remedy="Write the expression out, or give `eval` the names it reads in an explicit dict.",
    mindspore_says="NameError: name 'k' is not defined",
)

SCOPE_DICT_ITEM = Rule(
    "MS1166",
    "scope-dict-item",
    Group.FAILS,
    title="`locals()[k]`, `vars()[k]` or `globals()[k]` in compiled code",
    message=(
        "`{expr}` reads a key of `{call}()`, which in compiled code is {holds}: the key does not "
        "exist (fails at every level); read `{key}` by its name."
    ),
    why=(
        "Graph mode has no Python frame: `locals()` and `vars()` give an empty dict there, and "
        "`globals()` one holding only `globals` and `__builtins__`."
    ),
    remedy="Use the name directly, or pass the value in as an argument.",
    mindspore_says="ValueError: The key y does not exist in the dict:{}",
)

SCOPE_DICT_READ = Rule(
    "MS3055",
    "scope-dict-read",
    Group.DIVERGES,
    title="`locals()`, `vars()` or `globals()` read in compiled code: an empty dict",
    message=(
        "`{expr}` uses `{call}()`, which in compiled code is {holds}, not the names PyNative "
        "sees: what it reads (or writes) there differs."
    ),
    why=(
        "Graph mode has no Python frame: `locals()` and `vars()` give an empty dict there, and "
        "`globals()` one holding only `globals` and `__builtins__`: `.get` gives the default, "
        "`in` is False and `len` is 0."
    ),
    remedy="Use the names directly, or pass the values in as arguments.",
    mindspore_says="(compiles; result differs from PyNative)",
)

FUNCTION_AS_CONSTANT = Rule(
    "MS1167",
    "function-compared-or-hashed",
    Group.FAILS,
    title="A function compared with `is`, looked up with `in`, or used as a dict key",
    message=(
        "`{expr}` uses the function `{function}` as a constant graph mode must {how}: a function "
        "is no such constant in a graph (fails at every level); compare names or flags instead "
        "(`==` of functions compiles)."
    ),
    why=(
        "Graph mode's `is` takes an int, bool, str, None or a type on its right, a sequence "
        "looked up by `in` is made of graph values, and a dict's keys must be strs, numbers, "
        "types, None, constant Tensors or tuples: a function is none of them (its node is a "
        "`DeadNode`)."
    ),
    remedy="Keep a str or a flag beside the function and compare that, or use `==`.",
    mindspore_says=(
        "RuntimeError: For syntax like 'a is b', b supports Int, Bool, String, None and Type, "
        "but got DeadNode"
    ),
)

FUNCTION_PRINTED = Rule(
    "MS3056",
    "function-printed",
    Group.DIVERGES,
    title="`print()` of a function in compiled code prints `DeadNode`",
    message=(
        "`{expr}` prints the function `{function}`, which graph mode prints as `DeadNode` "
        "(PyNative: `<function ...>`)."
    ),
    why="A function is no value of the graph: its node prints as `DeadNode`.",
    remedy="Print its name as a str (`print('relu')`).",
    mindspore_says="(compiles; prints DeadNode)",
)

NESTED_FUNCTION_ATTRIBUTE = Rule(
    "MS1168",
    "nested-def-attribute",
    Group.FAILS,
    title="A dunder attribute, `str()` or `repr()` of a function defined inside compiled code",
    message=(
        "`{expr}` reads the function object `{function}`, defined inside compiled code, which "
        "graph mode cannot hand to Python (LAX: \"name '__py_exec_index1_getattr__' is not "
        'defined"; STRICT: no such attribute); write the name as a str.'
    ),
    why=(
        "A `def` inside compiled code becomes a graph of its own, not a Python function: LAX's "
        "fallback cannot find it to read `__name__`, `__doc__` or its text, and STRICT has no "
        "fallback. A module-level function's `__name__` and a lambda's compile at LAX."
    ),
    remedy="Use the name as a str literal, or define the function at module level.",
    mindspore_says="NameError: name '__py_exec_index1_getattr__' is not defined",
)

FUNCTION_TEXT_UNDER_STRICT = Rule(
    "MS2055",
    "function-text-under-strict",
    Group.STRICT,
    title="`str()` of a module-level function or an `ops` function in compiled code, under STRICT",
    message=(
        "`{expr}` makes text of the function `{function}`, which STRICT cannot do (no "
        "`__str__` on a function in the graph); write its name as a str, or use LAX."
    ),
    why=(
        "Under STRICT a function in the graph has no attributes: `str()` asks for `__str__`. "
        "LAX hands it to Python."
    ),
    remedy="Use the function's name as a str literal, or the default LAX level.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes __str__ or the Func object "
        "has no attribute: '__str__'."
    ),
)

MAP_LENGTHS_DIFFER = Rule(
    "MS1169",
    "map-lengths-differ",
    Group.FAILS,
    title="`map(f, a, b)` of sequences of different lengths in compiled code",
    message=(
        "`{expr}` maps sequences of {lengths} items: graph mode's `map` needs them all of one "
        "length (Python stops at the shortest; fails at every level); cut them to one length."
    ),
    why="Graph mode's `map` walks its sequences in step and refuses sequences of other lengths.",
    remedy="Slice the sequences to the same length (`a[:n]`), or zip them first.",
    mindspore_says="ValueError: For 'Map', the length of tuples must be the same.",
)

PARTIAL_ATTRIBUTES = frozenset({"func", "args", "keywords"})
SCOPE_CALLS = ("locals", "vars", "globals")
BUILTIN_NAMES = frozenset(dir(builtins)) | {"self"}
GLOBALS_KEYS = ("globals", "__builtins__")
READ_METHODS = frozenset({"get", "keys", "values", "items"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    text = "\n".join(ctx.lines[ctx.fn.node.lineno - 1 : ctx.fn.node.end_lineno or 0])
    if "eval" in text or "locals" in text or "vars" in text or "globals" in text:
        yield from _scope_calls(ctx)
    if "map(" in text:
        yield from _map_lengths(ctx)
    if " is " in text or " in " in text or "{" in text or "print" in text:
        yield from _function_values(ctx)
    if "__" in text or "str(" in text or "repr(" in text or "type(" in text or "partial" in text:
        yield from _nested_attributes(ctx)


def _nested_attributes(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    every: list[FunctionNode] = of_type(fn, ast.FunctionDef, ast.AsyncFunctionDef)
    defs = {d.name for d in every if d is not fn}
    yield from _module_function_text(ctx, defs)
    partials = _partials(ctx)
    if not defs and not partials and not ctx.of(ast.Lambda):
        return
    for node in ctx.of(ast.Attribute):
        if not (isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)):
            continue
        name = node.value.id
        if (
            node.attr.startswith("__") and name in defs and _function(ctx, node.value) is not None
        ) or (name in partials and node.attr in PARTIAL_ATTRIBUTES):
            yield NESTED_FUNCTION_ATTRIBUTE.finding(node, expr=ast.unparse(node), function=name)
    for call in ctx.of(ast.Call):
        func = call.func
        if (
            isinstance(func, ast.Name)
            and func.id in ("str", "repr", "type")
            and len(call.args) == 1
            and isinstance(call.args[0], ast.Name)
            and (call.args[0].id in defs or (func.id == "type" and _lambda_local(ctx, call)))
            and builtin(ctx, func.id)
            and _function(ctx, call.args[0]) is not None
        ):
            yield NESTED_FUNCTION_ATTRIBUTE.finding(
                call, expr=ast.unparse(call), function=call.args[0].id
            )


def _map_lengths(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in ctx.of(ast.Call):
        func = call.func
        if not (
            isinstance(func, ast.Name)
            and func.id == "map"
            and len(call.args) >= 3
            and not call.keywords
            and builtin(ctx, "map")
        ):
            continue
        lengths = [_display_length(ctx, a) for a in call.args[1:]]
        if all(n is not None for n in lengths) and len(set(lengths)) > 1:
            shown = " and ".join(str(n) for n in lengths)
            yield MAP_LENGTHS_DIFFER.finding(call, expr=ast.unparse(call), lengths=shown)


def _display_length(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    """The item count of a tuple/list display without `*`, or of a local bound once to one."""
    if isinstance(expr, ast.Name):
        assigns = [
            a
            for a in ctx.of(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == expr.id for t in a.targets)
        ]
        stores = [
            n for n in ctx.of(ast.Name) if n.id == expr.id and not isinstance(n.ctx, ast.Load)
        ]
        if len(assigns) != 1 or len(stores) != 1 or len(assigns[0].targets) != 1:
            return None
        expr = assigns[0].value
    if isinstance(expr, (ast.Tuple, ast.List)) and not any(
        isinstance(e, ast.Starred) for e in expr.elts
    ):
        return len(expr.elts)
    return None


def _partials(ctx: FunctionContext) -> set[str]:
    """Locals bound once, to `functools.partial(...)` written in the compiled function."""
    found: dict[str, int] = {}
    made: set[str] = set()
    for name in ctx.of(ast.Name):
        if not isinstance(name.ctx, ast.Load):
            found[name.id] = found.get(name.id, 0) + 1
    for assign in ctx.of(ast.Assign):
        value = assign.value
        if (
            len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
            and isinstance(value, ast.Call)
            and (ctx.fn.module.qualname(value.func) or "") == "functools.partial"
        ):
            made.add(assign.targets[0].id)
    return {n for n in made if found.get(n) == 1}


def _scope_calls(ctx: FunctionContext) -> Iterator[RawFinding]:
    parents: Optional[dict[int, ast.AST]] = None
    for call in ctx.of(ast.Call):
        func = call.func
        if not isinstance(func, ast.Name) or not builtin(ctx, func.id):
            continue
        if func.id == "eval":
            name = _eval_name(call)
            if name is not None:
                yield EVAL_READS_NAME.finding(call, call=ast.unparse(call), name=name)
            continue
        if func.id not in SCOPE_CALLS or call.args or call.keywords:
            continue
        if parents is None:
            parents = _parents(ctx)
        names = (
            _module_names(ctx)
            if func.id == "globals"
            else local_names(_scope_of(call, parents, ctx.fn.node))
        )
        yield from _scope_use(ctx, call, func.id, parents, names)
        held = _held_by(ctx, call, parents)
        for use in held:
            yield from _scope_use(ctx, use, func.id, parents, names)


def _held_by(ctx: FunctionContext, call: ast.Call, parents: dict[int, ast.AST]) -> list[ast.expr]:
    """The reads of a local bound once, to this call (`d = locals()`, then `d["y"]`)."""
    assign = parents.get(id(call))
    if not (
        isinstance(assign, ast.Assign)
        and len(assign.targets) == 1
        and isinstance(assign.targets[0], ast.Name)
    ):
        return []
    name = assign.targets[0].id
    uses = [n for n in ctx.of(ast.Name) if n.id == name]
    if sum(1 for n in uses if not isinstance(n.ctx, ast.Load)) != 1:
        return []
    return [n for n in uses if isinstance(n.ctx, ast.Load)]


def _eval_name(call: ast.Call) -> Optional[str]:
    """The first name the string of `eval("...")` reads that is not a builtin (or `self`)."""
    if len(call.args) != 1 or call.keywords:
        return None
    arg = call.args[0]
    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
        return None
    try:
        tree = ast.parse(arg.value.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return None
    bound = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)} | {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and node.id not in BUILTIN_NAMES
            and node.id not in bound
        ):
            return node.id
    return None


def _scope_use(
    ctx: FunctionContext,
    call: ast.expr,
    name: str,
    parents: dict[int, ast.AST],
    names: set[str],
) -> Iterator[RawFinding]:
    holds = "a dict of `globals` and `__builtins__` only" if name == "globals" else "an empty dict"
    parent = parents.get(id(call))
    if isinstance(parent, ast.Subscript) and parent.value is call:
        if isinstance(parent.ctx, ast.Store) and name == "globals":
            # `globals()["K"] = 5`: a dict of its own, the module's `K` unchanged (measured)
            yield SCOPE_DICT_READ.finding(parent, expr=ast.unparse(parent), call=name, holds=holds)
            return
        if not isinstance(parent.ctx, ast.Load):
            return
        key = parent.slice
        if isinstance(key, ast.Constant) and key.value in GLOBALS_KEYS and name == "globals":
            return
        key_text = key.value if isinstance(key, ast.Constant) else ast.unparse(key)
        yield SCOPE_DICT_ITEM.finding(
            parent, expr=ast.unparse(parent), call=name, holds=holds, key=key_text
        )
        return
    read: Optional[ast.AST] = None
    if isinstance(parent, ast.keyword) and parent.arg is None:
        # `f(**locals())`: no keywords at all in compiled code (measured: "Miss argument
        # input for parameter:a" when `f` needs them)
        outer = parents.get(id(parent))
        if isinstance(outer, ast.Call) and _needs_keywords(ctx, outer):
            yield SCOPE_DICT_ITEM.finding(
                outer, expr=ast.unparse(outer), call=name, holds=holds, key="its arguments"
            )
        elif isinstance(outer, ast.Call):
            yield SCOPE_DICT_READ.finding(outer, expr=ast.unparse(outer), call=name, holds=holds)
        return
    if isinstance(parent, ast.Attribute) and parent.attr in READ_METHODS:
        if parent.attr == "get":
            grand = parents.get(id(parent))
            if (
                isinstance(grand, ast.Call)
                and grand.args
                and not _names_bound(grand.args[0], names)
            ):
                return
        read = parents.get(id(parent)) or parent
    elif isinstance(parent, ast.Compare) and call in parent.comparators:
        if all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops) and _names_bound(
            parent.left, names
        ):
            read = parent
    elif (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id == "len"
        and parent.args == [call]
    ):
        read = parent
    if read is not None:
        yield SCOPE_DICT_READ.finding(read, expr=ast.unparse(read), call=name, holds=holds)


def _scope_of(node: ast.AST, parents: dict[int, ast.AST], outer: FunctionNode) -> FunctionNode:
    """The innermost `def` holding `node` (a nested def's `locals()` are its own)."""
    here = parents.get(id(node))
    while here is not None and not isinstance(here, (ast.FunctionDef, ast.AsyncFunctionDef)):
        here = parents.get(id(here))
    assert here is None or isinstance(here, (ast.FunctionDef, ast.AsyncFunctionDef))
    return here if here is not None else outer


def _needs_keywords(ctx: FunctionContext, call: ast.Call) -> bool:
    """`call` reaches a `def` of the module or of the function with a parameter without a
    default that its positional arguments leave unfilled."""
    func = call.func
    if not isinstance(func, ast.Name) or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    fn = ctx.fn.node
    nested = [d for d in of_type(fn, ast.FunctionDef) if d is not fn and d.name == func.id]
    target = nested[0] if len(nested) == 1 else module_function(ctx, func.id)
    if target is None:
        return False
    args = target.args
    positional = args.posonlyargs + args.args
    required = positional[: len(positional) - len(args.defaults)]
    named = {k.arg for k in call.keywords if k.arg}
    left = [a for a in required[len(call.args) :] if a.arg not in named]
    left += [
        a for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None and a.arg not in named
    ]
    return bool(left)


def _names_bound(key: ast.expr, names: set[str]) -> bool:
    """A key that may name what the dict holds in Python: not a str literal of another name."""
    if isinstance(key, ast.Constant):
        return isinstance(key.value, str) and key.value in names
    return True


def _module_names(ctx: FunctionContext) -> set[str]:
    """The module's top-level names (the whole text is noted as read: a cached finding is
    re-checked when any of it changes)."""
    note_read(ctx.lines, WHOLE_MODULE)
    module = ctx.fn.module
    found = set(module.functions) | set(module.classes) | set(module.imports)
    if module.tree is not None:
        for stmt in module.tree.body:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else []:
                found |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and isinstance(
                stmt.target, ast.Name
            ):
                found.add(stmt.target.id)
    return found


def _parents(ctx: FunctionContext) -> dict[int, ast.AST]:
    out: dict[int, ast.AST] = {}
    for node in ctx.nodes():
        for child in ast.iter_child_nodes(node):
            out[id(child)] = node
    return out


def _function_values(ctx: FunctionContext) -> Iterator[RawFinding]:
    for compare in ctx.of(ast.Compare):
        for op, right in zip(compare.ops, compare.comparators):
            if isinstance(op, (ast.Is, ast.IsNot)):
                if _parameter(ctx, compare.left):
                    break  # `fn is ops.relu` of a parameter given a function compiles
                function = _function(ctx, right) or _self_member(ctx, right)
                if function is not None:
                    yield FUNCTION_AS_CONSTANT.finding(
                        compare, expr=ast.unparse(compare), function=function, how="compare by `is`"
                    )
                    break
            elif isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List)):
                function = next(
                    (f for e in right.elts if (f := _function(ctx, e)) is not None), None
                )
                if function is not None and not isinstance(compare.left, ast.Constant):
                    yield FUNCTION_AS_CONSTANT.finding(
                        compare,
                        expr=ast.unparse(compare),
                        function=function,
                        how="look up in a sequence",
                    )
                    break
    for display in ctx.of(ast.Dict):
        for key in display.keys:
            function = _function(ctx, key) if key is not None else None
            if function is not None and key is not None:
                yield FUNCTION_AS_CONSTANT.finding(
                    key, expr=ast.unparse(display), function=function, how="hash as a dict key"
                )
                break
    for call in ctx.of(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == "print" and builtin(ctx, "print"):
            for arg in call.args:
                function = _function(ctx, arg)
                if function is None and isinstance(arg, ast.JoinedStr):
                    function = next(
                        (
                            f
                            for v in arg.values
                            if isinstance(v, ast.FormattedValue)
                            and v.format_spec is None
                            and (f := _function(ctx, v.value)) is not None
                        ),
                        None,
                    )
                if function is not None:
                    yield FUNCTION_PRINTED.finding(call, expr=ast.unparse(call), function=function)
                    break


def _lambda_local(ctx: FunctionContext, call: ast.Call) -> bool:
    """`type(f)` of a local bound only to lambdas (measured: "name 'f' is not defined")."""
    arg = call.args[0]
    if not isinstance(arg, ast.Name) or arg.id not in local_names(ctx.fn.node):
        return False
    return _function(ctx, arg) is not None


def _module_function_text(ctx: FunctionContext, defs: set[str]) -> Iterator[RawFinding]:
    """STRICT: `str(helper)` of a module-level `def` or of `ops.relu` (a nested one is
    MS1168's; `repr(helper)` compiles, measured)."""
    for call in ctx.of(ast.Call):
        func = call.func
        if not (
            isinstance(func, ast.Name)
            and func.id == "str"
            and len(call.args) == 1
            and not call.keywords
            and builtin(ctx, func.id)
        ):
            continue
        arg = call.args[0]
        if isinstance(arg, ast.Name) and (arg.id in defs or arg.id in local_names(ctx.fn.node)):
            continue
        function = _function(ctx, arg)
        if function is not None and function != "lambda":
            yield FUNCTION_TEXT_UNDER_STRICT.finding(
                call, expr=ast.unparse(call), function=function
            )


def _parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A parameter of the compiled function (measured: `fn is ops.relu` in a helper given
    `ops.relu` compiles, where `self.act is ops.relu` fails)."""
    if not isinstance(expr, ast.Name):
        return False
    return expr.id in {a.arg for a in ast.walk(ctx.fn.node.args) if isinstance(a, ast.arg)}


def _self_member(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`self.helper` (a plain method of the class) or `self.block` (a sub-Cell): on the right
    of `is` they fail as functions do (measured: "got DeadNode" / a Cell)."""
    attr = self_attribute(expr)
    cls = ctx.types.cls
    if attr is None or cls is None:
        return None
    held = cls.attr(attr)
    if held is not None:
        return ast.unparse(expr) if held.kind == "cell" else None
    found = cls.find_method(attr)
    if found is None or found[1].decorator_list:
        return None
    return ast.unparse(expr)


def _function(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The text of `expr` when it surely is a function: a `def` of the module or of the
    compiled function (bound only by it), a local bound only to lambdas, or a lower-case
    function of `mindspore.ops`."""
    if isinstance(expr, ast.Lambda):
        return "lambda"
    if isinstance(expr, ast.Attribute):
        qualname = ctx.fn.module.qualname(expr) or ""
        last = qualname.rsplit(".", 1)[-1]
        if (
            qualname.startswith("mindspore.ops.")
            and qualname.count(".") == 2
            and last[:1].islower()
            and not last.startswith("_")
        ):
            return ast.unparse(expr)
        return None
    if not isinstance(expr, ast.Name):
        return None
    name = expr.id
    fn = ctx.fn.node
    if name in local_names(fn):
        every: list[FunctionNode] = of_type(fn, ast.FunctionDef, ast.AsyncFunctionDef)
        defs = [d for d in every if d is not fn and d.name == name]
        stores = [
            n for n in of_type(fn, ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)
        ]
        params = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
        if name in params:
            return None
        if defs and not stores and len(defs) == 1:
            return name
        if not defs and stores:
            assigns = [
                a
                for a in of_type(fn, ast.Assign)
                if any(isinstance(t, ast.Name) and t.id == name for t in a.targets)
            ]
            if len(assigns) == len(stores) and all(
                isinstance(a.value, ast.Lambda) and len(a.targets) == 1 for a in assigns
            ):
                return name
            if len(assigns) == len(stores) == 1 and isinstance(assigns[0].value, ast.Name):
                source = assigns[0].value.id
                if source != name and any(d.name == source for d in of_type(fn, ast.FunctionDef)):
                    return name
        return None
    module = ctx.fn.module
    if (
        name in module.functions
        and name not in module.imports
        and name not in module.classes
        and isinstance(module.functions[name], ast.FunctionDef)
    ):
        return name
    return None
