"""Cell source as the checker needs it: magics blanked, the notebook's imports in front.

A cell is checked on its own, but `class Net(nn.Cell)` only means something to the checker when
`nn` is known to be MindSpore's: the imports of the executed cells are put in front, and
`offset` tells how many lines to take off the findings' line numbers.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Optional

_MAGIC_LINE = re.compile(r"^\s*[%!]")


@dataclass(frozen=True)
class Prepared:
    source: str
    offset: int


def blank_magics(code: str) -> str:
    return "\n".join("" if _MAGIC_LINE.match(line) else line for line in code.split("\n"))


def imports_of(sources: Iterable[str]) -> list[str]:
    found: list[str] = []
    for source in sources:
        try:
            tree = ast.parse(blank_magics(source))
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                text = ast.unparse(node)
                if text not in found:
                    found.append(text)
    return found


def prepare(code: str, previous: Iterable[str]) -> Prepared:
    header = imports_of(previous)
    return Prepared("\n".join([*header, blank_magics(code)]), len(header))


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
