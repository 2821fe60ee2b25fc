"""Notebook cells as the checker needs them: magics blanked, the notebook's imports in front.

A cell is checked on its own, but `class Net(nn.Cell)` only means something when `nn` is known
to be MindSpore's: the imports of the other cells go in front, and `offset` tells how many lines
to take off the findings' line numbers. Used by the language server and the kernel alike.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass

_MAGIC_LINE = re.compile(r"^\s*[%!]")


@dataclass(frozen=True)
class Prepared:
    source: str
    offset: int


def blank_magics(code: str) -> str:
    """IPython magics and shell escapes become empty lines, so line numbers stay put."""
    return "\n".join("" if _MAGIC_LINE.match(line) else line for line in code.split("\n"))


def imports_of(sources: Iterable[str]) -> list[str]:
    found: list[str] = []
    for source in sources:
        try:
            tree = ast.parse(blank_magics(source))
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                text = ast.unparse(node)
                if text not in found:
                    found.append(text)
    return found


def prepare(code: str, others: Iterable[str]) -> Prepared:
    header = imports_of(others)
    return Prepared("\n".join([*header, blank_magics(code)]), len(header))
