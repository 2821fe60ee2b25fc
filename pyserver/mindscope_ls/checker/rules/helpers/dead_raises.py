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
"""

from __future__ import annotations

import ast

from .discovery import CompiledFunction

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


def _start(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def inside(found: list[Span], line: int, col: int) -> bool:
    return any(start <= (line, col) <= end for start, end in found)
