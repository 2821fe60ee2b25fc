"""Code graph mode never infers: the branch of an `if` on a value known when compiling (a shape,
a dtype, an int argument, `isinstance`, `self.flag`) that ends in `raise`, and the message of an
`assert` on such a value.

Measured on MindSpore 2.10 (STRICT): `if x.shape[0] > 10: raise ValueError("bad %d" %
x.shape[0])`, `"... {}".format(x)`, `"..." + str(x)`, `", ".join(...)` in such a branch, and
`assert x.shape[0] == 2, "bad %d" % x.shape[0]` compile, where the same expression outside the
branch fails STRICT: the folded test drops the branch before its values are inferred. Were the
branch taken, PyNative would raise too, so the program is no case either way. So do
`f"{x.tolist()}"` and `f"{x.device}"` (STRICT), and `np.mean(x)` and `round(x.sum().item(), 2)`
(LAX and STRICT) there. The engine drops those value rules' findings (`FOLDED_AWAY`) there; a
refusal of the parser (MS1000's exception classes) still fails in a dropped branch.

Also folded before inference (round 36, `unpassed_none_branches`): the branch of `if p is not
None:` when every call of the entry point leaves its None-default `p` out.
"""

from __future__ import annotations

import ast
from typing import Optional

from . import names
from .discovery import CompiledFunction
from .module_values import entry_point, passed_expression, table

Span = tuple[tuple[int, int], tuple[int, int]]


def spans(fn: CompiledFunction) -> list[Span]:
    """(start, end) positions of the dead branches and assert messages of `fn`'s own code."""
    types = fn.types()
    out: list[Span] = []

    def visit(block: list[ast.stmt]) -> None:
        for stmt in block:
            if isinstance(stmt, ast.If):
                if not types.is_runtime_test(stmt.test):
                    for branch in (stmt.body, stmt.orelse):
                        if branch and isinstance(branch[-1], ast.Raise):
                            out.append((_start(branch[0]), _end(branch[-1])))
                visit(stmt.body)
                visit(stmt.orelse)
            elif isinstance(stmt, ast.Assert):
                if stmt.msg is not None and not types.is_runtime_test(stmt.test):
                    out.append((_start(stmt.msg), _end(stmt.msg)))
            elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                visit(stmt.body)
                visit(stmt.orelse)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                visit(stmt.body)

    visit(fn.node.body)
    return out


def raised(fn: CompiledFunction) -> list[Span]:
    """The exceptions `fn`'s own `raise` statements build (measured, LAX: `raise
    ValueError(f"bad {np.mean(x)}")` under a Tensor condition compiles, where `np.mean(x)`
    elsewhere fails: the raised value is built by the fallback when it is raised)."""
    out: list[Span] = []
    stack: list[ast.AST] = list(fn.node.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Raise):
            if node.exc is not None:
                out.append((_start(node.exc), _end(node.exc)))
            continue
        if isinstance(node, ast.stmt):
            stack.extend(ast.iter_child_nodes(node))
    return out


def unpassed_none_branches(fn: CompiledFunction) -> list[Span]:
    """The branch of `if p is not None:` (the `else` of `if p is None:`) where `p` is a
    parameter of an entry point defaulting to None that no call in the module passes: graph
    mode folds the test and never infers the branch (measured on 2.10: `mask.asnumpy()` under
    STRICT, an int32/float32 join, `isinstance(mask, List)` there compile when the call leaves
    `mask` out, and fail when it passes one). With no call in the module nothing is dropped."""
    node = fn.node
    optional = {a.arg for a in names.none_default_parameters(node)}
    if optional:  # a parameter the body rebinds may hold anything at the test
        optional -= {
            n.id
            for n in ast.walk(node)
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
        }
    guards = [
        (stmt, branch)
        for stmt in ast.walk(node)
        if isinstance(stmt, ast.If) and optional
        for branch in [_none_guarded(stmt, optional)]
        if branch is not None
    ]
    if not guards:
        return []
    entry = entry_point(fn.types(), node)
    found = table(fn.module) if entry is not None else None
    sites = found.calls.get(entry) if found is not None and entry is not None else None
    if not sites:
        return []
    args = node.args
    positional = [a.arg for a in [*args.posonlyargs, *args.args]]
    if fn.cls is not None:
        positional = positional[1:]
    out: list[Span] = []
    for stmt, branch in guards:
        param = _tested(stmt)
        index = positional.index(param) if param in positional else len(positional) + 99
        if all(_left_out(call, index, param) for call, _ in sites):
            out.append((_start(branch[0]), _end(branch[-1])))
    return out


def _tested(stmt: ast.If) -> str:
    test = stmt.test
    assert isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
    return test.left.id


def _none_guarded(stmt: ast.If, optional: set[str]) -> Optional[list[ast.stmt]]:
    """The branch `p is not None` / `p is None` leaves dead when `p` is None."""
    test = stmt.test
    if not (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id in optional
        and len(test.ops) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return None
    if isinstance(test.ops[0], ast.IsNot):
        return stmt.body or None
    if isinstance(test.ops[0], ast.Is):
        return stmt.orelse or None
    return None


def _left_out(call: ast.Call, index: int, param: str) -> bool:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        kw.arg is None for kw in call.keywords
    ):
        return False  # `*args` / `**kwargs` may pass it
    value = passed_expression(call, index, param)
    return value is None or (isinstance(value, ast.Constant) and value.value is None)


def _start(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def inside(found: list[Span], line: int, col: int) -> bool:
    return any(start <= (line, col) <= end for start, end in found)
