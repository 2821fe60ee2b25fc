"""MS159, MS165, MS224: `for` loops over values that cannot be iterated, names a loop binds
read after it, and str lengths.

Measured with MindSpore 2.10 (`generated/iteration/`): a `for` over None, a scalar, a 0-d
Tensor or an instance of a plain class without `__iter__`/`__getitem__` fails; under STRICT
`len()` of a str and a `for` over a str fail too. A name that only a `for` binds (its
target, or a name its body assigns) cannot be read after the loop, whatever it iterates; the
same holds for a `while` body.

An Enum class is not iterable in graph mode either (round31 `ob_it_*`, both levels: "'typetype'
object is not iterable"): `for m in Mode`, `[m.value for m in Mode]`, `list(Mode)` (so
`tuple(Mode)`) and a `self.modes = Mode` looped over all fail; `len(Mode)`,
`len(Mode.__members__)` and a loop over `(Mode.TRAIN, Mode.EVAL)` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import describe, instance, missing_advice
from .helpers import python_objects, receivers, strs
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext
from .helpers.instances import lacks
from .unpacking import zero_d

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

LOOP_NAME_AFTER_LOOP = Rule(
    "MS165",
    "loop-name-after-loop",
    Group.FAILS,
    title="A name only a `for` / `while` loop binds, read after the loop",
    message=(
        "`{name}` is bound only inside this loop and read after it (line {line}); "
        "bind `{name}` before the loop."
    ),
    why=(
        "Graph mode compiles a `for` or `while` body as its own scope: a name that the loop's "
        "target or body binds, and nothing binds before the loop, does not exist after it."
    ),
    remedy="Give the name a value before the `for` (`i = 0`, `y = x`), or use it inside the loop.",
    mindspore_says=(
        "UnboundLocalError: The local variable 'i' defined in the 'for' loop body cannot be used "
        "outside of the loop body. Please define variable 'i' before 'for'."
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


def iterated(ctx: FunctionContext, values: Abstract, node: ast.For) -> Iterator[RawFinding]:
    """What the `for` iterates (its names read after the loop: `read_after`)."""
    if zero_d(values, node.iter):
        yield ITERATE_NON_ITERABLE.finding(
            node.iter, what="a 0-d Tensor", advice="loop over a Tensor with at least one axis"
        )
        return
    cls = instance(ctx, node.iter)
    if cls is not None:
        module = ctx.fn.module
        if lacks(module, cls, "__iter__") and lacks(module, cls, "__getitem__"):
            yield ITERATE_NON_ITERABLE.finding(
                node.iter, what=f"a `{cls.name}` object", advice=missing_advice(cls, "__iter__")
            )
        return
    known = values.of(node.iter)
    if known is None:
        if strs.is_str(ctx, values, node.iter):  # a Cell's str attribute, `self.tag.upper()`
            yield STR_LENGTH_UNDER_STRICT.finding(
                node.iter, what="A `for` over", advice="loop over a tuple of strs"
            )
        return
    if known.kind in ("None", "scalar"):
        advice = "loop over `range(n)`" if known.kind == "scalar" else "loop over a tuple or list"
        yield ITERATE_NON_ITERABLE.finding(node.iter, what=describe(known), advice=advice)
    elif known.kind == "str":
        yield STR_LENGTH_UNDER_STRICT.finding(
            node.iter, what="A `for` over", advice="loop over a tuple of strs"
        )


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def read_after(ctx: FunctionContext, loop: ast.For | ast.While) -> Iterator[RawFinding]:
    """MS165 at the loop statement that binds the name (where MindSpore points first), or at
    the read when a branch inside the loop binds it (MindSpore then names only the read)."""
    block = _blocks(ctx.fn.node).get(id(loop))
    if block is None or loop.orelse:
        return  # nested in another loop, a branch or a nested scope: later paths may differ
    after = block[block.index(loop) + 1 :]
    if not after or not _may_read_after(ctx, loop):
        return
    bound = _loop_bindings(loop)
    if not bound:
        return
    later = list(_own_names(after))
    if not any(isinstance(n.ctx, ast.Load) and n.id in bound for n in later):
        return  # the common case: nothing the loop binds is read after it
    before = _names_before(ctx, loop)
    later_stores = {n.id for n in later if not isinstance(n.ctx, ast.Load)}
    reported: set[str] = set()
    for read in later:
        name = read.id
        if (
            isinstance(read.ctx, ast.Load)
            and name in bound
            and name not in before
            and name not in later_stores
            and name not in reported
        ):
            reported.add(name)
            where = bound[name] or read
            yield LOOP_NAME_AFTER_LOOP.finding(where, name=name, line=read.lineno)


def _loop_bindings(loop: ast.For | ast.While) -> dict[str, Optional[ast.AST]]:
    """name -> the node that first binds it: the `for` for its target, a statement directly in
    the body, or None when only a nested statement (a branch) binds it."""
    found: dict[str, Optional[ast.AST]] = {}
    if isinstance(loop, ast.For):
        for target in _own_names([loop.target]):
            found.setdefault(target.id, loop)
    for stmt in loop.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # a `def` in the body binds its name there too (measured, round 37: `def f` in a
            # `for` body, `f(x)` after the loop fails, naming the read)
            found.setdefault(stmt.name, None)
            continue
        direct = isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        for n in _own_names([stmt]):
            if not isinstance(n.ctx, ast.Load):
                found.setdefault(n.id, stmt if direct else None)
    return found


def _names_before(ctx: FunctionContext, loop: ast.For | ast.While) -> set[str]:
    """Names the function may bind before `loop`: its parameters, declared globals, and any
    binding written above the loop's line (from the node index: no walk)."""
    args = ctx.fn.node.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    for decl in ctx.of(ast.Global, ast.Nonlocal):
        if isinstance(decl, (ast.Global, ast.Nonlocal)):
            names.update(decl.names)
    for name in ctx.of(ast.Name):
        if name.lineno < loop.lineno and not isinstance(name.ctx, ast.Load):
            names.add(name.id)
    for node in ctx.of(ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom):
        if node.lineno >= loop.lineno:
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _own_names(nodes: list[ast.stmt] | list[ast.expr]) -> Iterator[ast.Name]:
    """The names in `nodes` that belong to the function's own scope (not to a nested def,
    lambda, class or comprehension), in source order."""
    stack: list[ast.AST] = list(reversed(nodes))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            yield node
            continue
        if isinstance(node, _SCOPES + _COMPREHENSIONS):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


_SPANS = "_mindscope_loop_name_spans"  # kept on the function node: freed with its tree


def _may_read_after(ctx: FunctionContext, loop: ast.For | ast.While) -> bool:
    """Some name is first bound inside the loop's lines and read below them: a cheap test from
    the node index that spares the exact walk for almost every loop."""
    end = loop.end_lineno or loop.lineno
    return any(loop.lineno <= first <= end < last for first, last in _name_spans(ctx).values())


def _name_spans(ctx: FunctionContext) -> dict[str, tuple[int, int]]:
    """name -> (the line of its first binding, the line of its last read), in the function
    and its nested scopes."""
    fn = ctx.fn.node
    # Keyed on the def's line: a re-check keeps an unchanged function's node but moves its
    # lines when text above it changes, and these spans are absolute line numbers.
    kept: Optional[tuple[int, dict[str, tuple[int, int]]]] = fn.__dict__.get(_SPANS)
    held = kept[1] if kept is not None and kept[0] == fn.lineno else None
    if held is None:
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        for name in ctx.of(ast.Name):
            if isinstance(name.ctx, ast.Load):
                last[name.id] = max(last.get(name.id, 0), name.lineno)
            elif name.id not in first or name.lineno < first[name.id]:
                first[name.id] = name.lineno
        defs: list[ast.FunctionDef | ast.AsyncFunctionDef] = ctx.of(
            ast.FunctionDef, ast.AsyncFunctionDef
        )
        for node in defs:  # a nested `def` binds its name (MS165 of a `def` in a loop body)
            if node is not fn and (node.name not in first or node.lineno < first[node.name]):
                first[node.name] = node.lineno
        held = {n: (line, last[n]) for n, line in first.items() if n in last}
        fn.__dict__[_SPANS] = (fn.lineno, held)
    return held


_BLOCKS = "_mindscope_loop_blocks"  # kept on the function node: freed with its tree


def _blocks(fn: FunctionNode) -> dict[int, list[ast.stmt]]:
    """id(loop) -> the statement list it sits in, for the `for`/`while` loops directly in the
    function's body or in a `with` there (not in a branch, loop or nested scope)."""
    held: Optional[dict[int, list[ast.stmt]]] = fn.__dict__.get(_BLOCKS)
    if held is None:
        held = {}
        pending = [fn.body]
        while pending:
            body = pending.pop()
            for stmt in body:
                if isinstance(stmt, (ast.For, ast.While)):
                    held[id(stmt)] = body
                elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                    pending.append(stmt.body)
        fn.__dict__[_BLOCKS] = held
    return held


# Calls that iterate their first argument, as graph mode compiles them.
_ITERATING = frozenset({"list", "tuple"})


def check_enum_classes(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS159 for an Enum class iterated by a `for`, a comprehension or `list()`/`tuple()`.
    Not cacheable: reads the module's other classes."""
    module = ctx.fn.module
    if not python_objects.enum_classes(module):
        return
    loops: list[ast.For | ast.comprehension] = ctx.of(ast.For, ast.comprehension)
    iterated: list[ast.expr] = [node.iter for node in loops]
    for call in ctx.of(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in _ITERATING and call.args:
            iterated.append(call.args[0])
    stores = {n.id for n in ctx.of(ast.Name) if isinstance(n.ctx, ast.Store)}
    for expr in sorted(iterated, key=lambda e: (e.lineno, e.col_offset)):
        name = _enum_class_name(ctx, expr, stores)
        if name is not None:
            yield ITERATE_NON_ITERABLE.finding(
                expr,
                what=f"the Enum class `{name}`",
                advice=f"loop over a tuple of its members (`({name}.A, {name}.B)`) instead",
            )


def _enum_class_name(ctx: FunctionContext, expr: ast.expr, stores: set[str]) -> Optional[str]:
    module = ctx.fn.module
    if isinstance(expr, ast.Name):
        if expr.id in stores or python_objects.enum_class(module, expr.id) is None:
            return None
        return expr.id
    attr = receivers.self_attr_name(expr)
    cls = ctx.fn.cls
    if attr is None or cls is None or cls.attr_varies(attr):
        return None
    held = cls.attr(attr)
    node = held.node if held is not None else None
    if isinstance(node, ast.Name) and python_objects.enum_class(module, node.id) is not None:
        return node.id
    return None
