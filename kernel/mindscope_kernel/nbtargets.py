"""Turn a name in the notebook into a `file.py:Name` target the runtime CLI can load.

The runtime compiles in a fresh child process (MindSpore decides IR dumping at a process's first
compile), so a Cell defined in notebook cells is rebuilt there from a module made of the cells'
definitions: imports, functions, classes, constant assignments and the assignment of the name
itself. Other statements (training loops, prints, set_context) are left out.
"""

from __future__ import annotations

import ast
import inspect
import os
import tempfile
from collections.abc import Iterable
from typing import Any, Callable

KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class TargetError(Exception):
    pass


def target_for(
    name: str,
    namespace: dict[str, Any],
    cell_sources: Iterable[str],
    transform: Callable[[str], str],
    is_cell_file: Callable[[str], bool],
) -> str:
    if not name.replace(".", "_").isidentifier():
        raise TargetError(f"{name!r} is not a name defined in the notebook")
    try:
        obj = eval(name, namespace)
    except Exception as exc:
        raise TargetError(f"{name} is not defined ({type(exc).__name__}: {exc})") from exc
    module_file = _module_file(obj)
    if module_file and not is_cell_file(module_file) and "." not in name:
        return f"{module_file}:{getattr(obj, '__qualname__', name)}"
    sources = [transform(code) for code in cell_sources]
    return f"{write_module(synthesize(sources, name.split('.')[0]))}:{name}"


def _module_file(obj: Any) -> str | None:
    """The file of a class or function defined in a real module (not a cell)."""
    if not (inspect.isclass(obj) or inspect.isfunction(obj)):
        return None
    if getattr(obj, "__module__", "__main__") == "__main__":
        return None
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        return None
    return os.path.abspath(path) if path else None


def synthesize(sources: Iterable[str], name: str) -> str:
    """Definitions from the cells, in execution order; later definitions win as in Python."""
    kept: list[str] = []
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        kept += [
            ast.get_source_segment(source, node) or "" for node in tree.body if _keep(node, name)
        ]
    return "\n\n".join(kept) + "\n"


def _keep(node: ast.stmt, name: str) -> bool:
    if isinstance(node, KEEP):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if len(names) != len(targets) or node.value is None:
            return False
        if name in names:
            return True
        try:
            ast.literal_eval(node.value)
        except ValueError:
            return False
        return True
    return False


def write_module(text: str) -> str:
    folder = tempfile.mkdtemp(prefix="mindscope-nb-")
    path = os.path.join(folder, "notebook_definitions.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path
