"""Where a class or function typed in a cell lives; preparing cells for the checker is shared
with the language server in mindscope_ls.documents.notebook.

The checker is imported on first use, not at kernel start (it costs a few hundred ms).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from mindscope_ls.documents.notebook import Prepared

__all__ = ["blank_magics", "locate", "prepare", "source_file"]


def prepare(code: str, previous: Iterable[str]) -> Prepared:
    """The cell with the notebook's imports in front (see mindscope_ls.documents.notebook)."""
    from mindscope_ls.documents.notebook import prepare as _prepare

    return _prepare(code, previous)


def blank_magics(source: str) -> str:
    from mindscope_ls.documents.notebook import blank_magics as _blank

    return _blank(source)


def locate(obj: Any, source: str) -> Optional[tuple[int, int]]:
    """1-based first and last line of a class or function defined in `source`."""
    target = obj if inspect.isclass(obj) or inspect.isfunction(obj) else type(obj)
    try:
        tree = ast.parse(blank_magics(source))
    except SyntaxError:
        return None
    hint = _first_line(target)
    kinds = (ast.ClassDef,) if inspect.isclass(target) else (ast.FunctionDef, ast.AsyncFunctionDef)
    matches = [
        node for node in ast.walk(tree) if isinstance(node, kinds) and node.name == target.__name__
    ]
    for node in matches:
        end = node.end_lineno or node.lineno
        if hint is None or node.lineno <= hint <= end:
            return node.lineno, end
    return None


def source_file(obj: Any) -> Optional[str]:
    """The file a class or function was compiled from (classes: through their methods)."""
    target = obj if inspect.isclass(obj) or inspect.isfunction(obj) else type(obj)
    if inspect.isfunction(target):
        return str(target.__code__.co_filename)
    for member in vars(target).values():
        func = getattr(member, "__func__", member)
        func = getattr(func, "__wrapped__", func)
        code = getattr(func, "__code__", None)
        if code is not None:
            return str(code.co_filename)
    return None


def _first_line(target: Any) -> Optional[int]:
    if inspect.isfunction(target):
        return int(target.__code__.co_firstlineno)
    lines = [
        int(getattr(m, "__func__", m).__code__.co_firstlineno)
        for m in vars(target).values()
        if hasattr(getattr(m, "__func__", m), "__code__")
    ]
    return min(lines) if lines else None
