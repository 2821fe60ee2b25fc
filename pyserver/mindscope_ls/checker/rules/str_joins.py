"""MS1110, MS3001: a str chosen by a Tensor condition, then used as a str.

Measured with MindSpore 2.10 on CPU (round 36, `sf_`), LAX and STRICT alike, against PyNative:
both paths of a Tensor `if` / `while` / conditional expression are compiled and a local bound
to two different strs on them is joined into a value that is no longer a str (MS307: a
`construct` returning it alone gives a Tensor). Every str operation on it afterwards fails,
naming no line: `s == 'b'`, `s != self.mode`, `s in 'abc'`, `s + 'c'`, `'pre_' + s`
("Kernel select failed"), `s.startswith('b')`, `d[s]`
("dict_getitem evaluator key only supports string, ... but got ValueAny"), `s.upper()`
("StringUpper expected to get a string as input, but got:ValueAny"), `len(s)`, `f'<{s}>'`
("Invalid host tensor size:1 and kernel tensor size:0 for pyexecute"), and so does returning it
inside a tuple (`return x, s`: "The input shape size 1 exceeds device address data size 0"), as
does `if t: return x, 'big'` before `return x, 'small'`. Joined by `s = 'a'` before and
`s = 'b'` in the body of `if t:` / `while t:` (also an `if` inside a `for`), by if/else, by
`s = 'big' if t else 'small'`, or from a str attribute (`s = self.mode`). `print(s)` compiles
and writes an empty line (PyNative the chosen str): MS3001. What compiles: the same strs on both
paths, a join decided by a Python condition (`if self.k > 2:`), a str never read after, a read
inside the branch that binds it, and `s in ('a', 'c')` (a tuple: compiles and agrees). The same
in a helper method `construct` calls.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared, outputs
from .divergence_str_case import _known_str
from .helpers.base import FunctionContext, cacheable
from .helpers.reaching import reaching

JOINED_STR_USED = Rule(
    "MS1110",
    "tensor-joined-str-used",
    Group.FAILS,
    title="A str chosen by a Tensor condition, then used as a str",
    message=(
        "`{name}` is {texts} depending on a Tensor condition: graph mode compiles both paths "
        "and joins the strs into a value that is no longer a str, so {use} fails (at every "
        "level); decide the str with a Python condition, or keep a Tensor flag instead."
    ),
    why=(
        "Both paths of a Tensor `if`/`while` are compiled; two different strs bound to one "
        "name are joined into a run-time value, and no str operation (`==`, `+`, `in`, a "
        "method, a dict key, `len`, an f-string, a tuple output) accepts it."
    ),
    remedy=(
        "Choose the str from a Python value (an attribute, a constant), or compute with Tensors "
        "(`ops.select`) and turn the result into a str outside the graph."
    ),
    mindspore_says=(
        "RuntimeError: Kernel select failed / dict_getitem evaluator key only supports string, "
        "... but got ValueAny / The input shape size 1 exceeds device address data size 0"
    ),
)

JOINED_STR_PRINTED = Rule(
    "MS3001",
    "tensor-joined-str-printed",
    Group.DIVERGES,
    title="`print` of a str chosen by a Tensor condition",
    message=(
        "`{name}` is {texts} depending on a Tensor condition: graph mode joins them into a "
        "value that prints as an empty line (PyNative prints the chosen str); print inside "
        "each branch instead."
    ),
    why=(
        "Both paths of a Tensor `if` are compiled and the two strs joined into a value that is "
        "no longer a str: `print(s)` wrote an empty line in GRAPH_MODE where PyNative wrote "
        "'big'."
    ),
    remedy="Call `print('big')` / `print('small')` in the branches themselves.",
    mindspore_says="(compiles; prints differently from PyNative)",
)

_LOOPS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    texts, once = _candidates(ctx)
    if not texts and not once:
        return
    for read, parent, pair, _ in _joined_reads(ctx, texts, once):
        use = _use(ctx, read, parent)
        if use is None:
            continue
        shown = f"{pair[0]!r} or {pair[1]!r}"
        if use == "print":
            yield JOINED_STR_PRINTED.finding(read, name=read.id, texts=shown)
        else:
            yield JOINED_STR_USED.finding(read, name=read.id, texts=shown, use=use)


def check_outputs(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS307 (outputs.py) where its if/else and conditional-expression forms do not reach: a
    str picked by `s = 'a'` then `if t: s = 'b'` (or a `while t:`, an `if` in a `for`, a str
    attribute), and `if t: return x, 'big'` before `return x, 'small'`; measured on 2.10: the
    output holds no str (reading it fails: "The input shape size 1 exceeds device address data
    size 0"). Not cacheable: whether `construct` is the graph's entry depends on its callers."""
    cls = ctx.fn.cls
    node = ctx.fn.node
    if ctx.fn.caller is not None or cls is None or not cls.is_cell:
        return
    if getattr(node, "name", None) != "construct":
        return
    texts, _ = _candidates(ctx)
    if texts:
        covered = _if_else_bindings(ctx)
        for read, parent, pair, bindings in _joined_reads(ctx, texts, {}):
            if bindings is None or any(bindings <= each for each in covered):
                continue  # outputs.py's if/else form
            if _output(ctx, read, parent):
                yield _output_finding(ctx, read, pair)
    yield from _early_returns(ctx)


def _if_else_bindings(ctx: FunctionContext) -> list[frozenset[int]]:
    """For each Tensor `if` with an `else`: the names its two blocks bind directly."""
    found: list[frozenset[int]] = []
    for stmt in ctx.of(ast.If):
        if not stmt.orelse or not ctx.types.is_condition(stmt.test):
            continue
        ids = [
            id(each.targets[0])
            for each in (*stmt.body, *stmt.orelse)
            if isinstance(each, ast.Assign) and len(each.targets) == 1
        ]
        found.append(frozenset(ids))
    return found


def _output(ctx: FunctionContext, read: ast.Name, parent: ast.AST) -> bool:
    returns: list[ast.Return] = ctx.of(ast.Return)
    if isinstance(parent, ast.Return):
        return True
    return isinstance(parent, ast.Tuple) and any(r.value is parent for r in returns)


def _output_finding(ctx: FunctionContext, at: ast.expr, pair: tuple[str, str]) -> RawFinding:
    return outputs.JOINED_CONSTANTS_DIVERGE.finding(
        at, what=f"the strs {pair[0]!r} and {pair[1]!r}", becomes="a value that is not a str"
    )


def _str_operand(ctx: FunctionContext, expr: ast.expr) -> bool:
    return _known_str(ctx, expr, 0) is not None


def _early_returns(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`if t: return x, 'big'` then `return x, 'small'` (tuples of one length)."""
    body = getattr(ctx.fn.node, "body", [])
    last = body[-1] if body else None
    if not isinstance(last, ast.Return) or not isinstance(last.value, ast.Tuple):
        return
    for stmt in body[:-1]:
        if not isinstance(stmt, ast.If) or stmt.orelse or not stmt.body:
            continue
        early = stmt.body[-1]
        if not isinstance(early, ast.Return) or not isinstance(early.value, ast.Tuple):
            continue
        if len(early.value.elts) != len(last.value.elts):
            continue
        if not ctx.types.is_condition(stmt.test):
            continue
        for a, b in zip(early.value.elts, last.value.elts):
            pair = _two_strs(ctx, a, b)
            if pair is not None:
                yield _output_finding(ctx, b, pair)
                return


def _maybe_str(value: ast.expr) -> bool:
    return isinstance(value, (ast.Constant, ast.Attribute, ast.BinOp))


def _two_strs(ctx: FunctionContext, a: ast.expr, b: ast.expr) -> Optional[tuple[str, str]]:
    left, right = _known_str(ctx, a, 0), _known_str(ctx, b, 0)
    if left is None or right is None or left == right:
        return None
    return left, right


class _Walk:
    """Each binding's enclosing Tensor `if`/`while` statements, each read of a candidate name
    with its parent and enclosing Tensor flows (nested functions and comprehensions skipped)."""

    def __init__(self, ctx: FunctionContext, names: set[str]):
        self.ctx = ctx
        self.names = names
        self.bound: dict[int, frozenset[int]] = {}
        self.reads: list[tuple[ast.Name, ast.AST, frozenset[int]]] = []

    def run(self, fn: ast.AST) -> None:
        for stmt in getattr(fn, "body", []):
            self._visit(stmt, fn, frozenset())

    def _visit(self, node: ast.AST, parent: ast.AST, flows: frozenset[int]) -> None:
        if isinstance(node, (*_LOOPS, *_COMPREHENSIONS)):
            return
        if isinstance(node, ast.Name):
            if node.id in self.names:
                if isinstance(node.ctx, ast.Store):
                    self.bound[id(node)] = flows
                else:
                    self.reads.append((node, parent, flows))
            return
        if isinstance(node, (ast.If, ast.While)) and self.ctx.types.is_condition(node.test):
            self._visit(node.test, node, flows)
            inner = flows | {id(node)}
            for stmt in (*node.body, *node.orelse):
                self._visit(stmt, node, inner)
            return
        for child in ast.iter_child_nodes(node):
            self._visit(child, node, flows)


def _joined_reads(
    ctx: FunctionContext, texts: dict[int, str], once: dict[str, tuple[str, str]]
) -> Iterator[tuple[ast.Name, ast.AST, tuple[str, str], Optional[frozenset[int]]]]:
    """Each read of a str a Tensor condition picks: (read, its parent, the two strs, the
    bindings that reach it; None for a name bound once to a conditional expression)."""
    fn = ctx.fn.node
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    names = set(once)
    for node in assigns:
        target = node.targets[0] if len(node.targets) == 1 else None
        if isinstance(target, ast.Name) and id(target) in texts:
            names.add(target.id)
    walk = _Walk(ctx, names)
    walk.run(fn)
    flow = reaching(fn)
    for read, parent, flows in walk.reads:
        bindings = flow.of(read)
        pair = _joined(read, flows, texts, once, walk.bound, bindings)
        if pair is not None:
            yield read, parent, pair, bindings


def _candidates(ctx: FunctionContext) -> tuple[dict[int, str], dict[str, tuple[str, str]]]:
    """The function's `name = <str>` bindings (id -> str) and names bound once to
    `a if t else b` of two different strs under a Tensor test."""
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    texts: dict[int, str] = {}
    once: dict[str, tuple[str, str]] = {}
    for node in assigns:
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        value = node.value
        if isinstance(value, ast.IfExp):
            pair = _two_strs(ctx, value.body, value.orelse)
            if pair is not None and ctx.types.is_condition(value.test):
                once[node.targets[0].id] = pair
            continue
        if not _maybe_str(value):
            continue
        text = _known_str(ctx, value, 0)
        if text is not None:
            texts[id(node.targets[0])] = text
    return texts, once


def _joined(
    read: ast.Name,
    flows: frozenset[int],
    texts: dict[int, str],
    once: dict[str, tuple[str, str]],
    bound: dict[int, frozenset[int]],
    bindings: Optional[frozenset[int]],
) -> Optional[tuple[str, str]]:
    """The two strs the read may hold, when a Tensor condition the read is outside of picks."""
    if bindings is None:
        return once.get(read.id)
    if not all(b in texts for b in bindings):
        return None
    values = sorted({texts[b] for b in bindings})
    if len(values) < 2:
        return None
    if not any(bound.get(b, frozenset()) - flows for b in bindings):
        return None  # chosen by Python values (or the read is inside the same branch)
    return values[0], values[1]


def _use(ctx: FunctionContext, read: ast.Name, parent: ast.AST) -> Optional[str]:
    """What the read does with the str, when graph mode fails on it ("print" for MS3001)."""
    text = f"`{read.id}`"
    if isinstance(parent, ast.Compare):
        membership = any(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
        # `s in ('a', 'c')` compiles (measured); `s in 'abc'` fails
        if membership and (parent.left is not read or not _str_operand(ctx, parent.comparators[0])):
            return None
        return f"comparing {text}"
    if isinstance(parent, ast.BinOp):
        return f"`{ast.unparse(parent)}`"
    if isinstance(parent, ast.Subscript) and parent.value is read:
        return f"`{ast.unparse(parent)}`"  # as a key it is MS189's
    if isinstance(parent, ast.Attribute):
        return f"`{ast.unparse(parent)}`"
    if isinstance(parent, ast.FormattedValue):
        return f"formatting {text} into an f-string"
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name):
        if read in parent.args and parent.func.id == "len" and calls_shared.builtin(ctx, "len"):
            return f"`len({read.id})`"
        if parent.args == [read] and not parent.keywords and parent.func.id == "print":
            return "print" if calls_shared.builtin(ctx, "print") else None
        return None
    return None
