"""The edits of quick fixes for closures compiled code cannot translate: `nonlocal` (MS104)
and a lambda capturing a comprehension variable through a default argument (MS118)."""

from __future__ import annotations

import ast
from typing import Optional

from ..model import SyntaxLevel, TextEdit
from ..rules.helpers.base import FunctionContext
from ..rules.helpers.walk import walk
from .edits import owns_lines, replace_node, segment

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def nonlocal_edits(ctx: FunctionContext, node: ast.Nonlocal) -> Optional[list[TextEdit]]:
    """Keep the shared state in `self.<name>`: every use of the names in the method becomes an
    attribute, and the `nonlocal` statement goes. LAX only: STRICT refuses attribute writes."""
    fn, names = ctx.fn.node, set(node.names)
    args = fn.args.posonlyargs + fn.args.args
    if ctx.level == SyntaxLevel.STRICT or ctx.fn.cls is None or not args or args[0].arg != "self":
        return None
    if any(ctx.fn.cls.attr(name) is not None for name in names) or not _safe_scopes(fn, names):
        return None
    edits: list[TextEdit] = []
    for sub in walk(fn):
        if isinstance(sub, ast.Name) and sub.id in names:
            edits.append(replace_node(sub, f"self.{sub.id}"))
        elif isinstance(sub, ast.Nonlocal) and names & set(sub.names):
            if set(sub.names) != names or not owns_lines(ctx.lines, sub):
                return None
            edits.append(replace_node(sub, "pass"))
    return edits


def _safe_scopes(fn: ast.AST, names: set[str]) -> bool:
    """No parameter or comprehension variable has one of the names, and every nested function
    that binds one declares it `nonlocal` (else it is a different, local variable)."""
    for sub in walk(fn):
        if isinstance(sub, ast.arguments):
            every = [*sub.posonlyargs, *sub.args, *sub.kwonlyargs, sub.vararg, sub.kwarg]
            if any(a is not None and a.arg in names for a in every):
                return False
        elif isinstance(sub, ast.comprehension):
            if any(isinstance(n, ast.Name) and n.id in names for n in walk(sub.target)):
                return False
        elif isinstance(sub, SCOPES) and sub is not fn:
            declared = {n for s in walk(sub) if isinstance(s, ast.Nonlocal) for n in s.names}
            stored = {
                n.id
                for n in walk(sub)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in names
            }
            if stored - declared:
                return False
    return True


def lambda_default_edit(ctx: FunctionContext, node: ast.Lambda) -> Optional[TextEdit]:
    """`lambda v, k=k: e` -> `(lambda k: lambda v: e)(k)`: the loop value is captured by a
    closure made per item instead of by a default argument."""
    args = node.args
    if args.posonlyargs or args.vararg or args.kwarg or args.kwonlyargs or not args.defaults:
        return None
    split = len(args.args) - len(args.defaults)
    plain, defaulted = args.args[:split], args.args[split:]
    body = segment(ctx.lines, node.body)
    values = [segment(ctx.lines, d) for d in args.defaults]
    if body is None or any(v is None or "\n" in v for v in values) or "\n" in body:
        return None
    outer = ", ".join(a.arg for a in defaulted)
    inner = ", ".join(a.arg for a in plain)
    inner_lambda = f"lambda {inner}: {body}" if inner else f"lambda: {body}"
    text = f"(lambda {outer}: {inner_lambda})({', '.join(v for v in values if v is not None)})"
    return replace_node(node, text)
