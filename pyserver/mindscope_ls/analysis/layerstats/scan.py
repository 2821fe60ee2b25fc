"""The layer constructors that Cell `__init__`s call, in source order: pure `ast`, model code
is read and never imported."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

# Completion ranks these namespaces' members; a layer is a capitalized name in one of them.
LAYER_NAMESPACES = ("mindspore.nn", "mindspore.mint.nn")
CELL_BASES = frozenset({"mindspore.nn.Cell", "mindspore.nn.cell.Cell"})


@dataclass(frozen=True)
class Layer:
    namespace: str  # mindspore.nn
    name: str  # Conv2d


@dataclass(frozen=True)
class ClassScan:
    name: str
    bases: tuple[str, ...]  # dotted paths through the file's imports (`mindspore.nn.Cell`)
    layers: tuple[Layer, ...]  # constructor calls in `__init__`, in source order


def scan_source(text: str) -> list[ClassScan]:
    """Every class of a module; [] for a file that does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    names = _import_bindings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = tuple(filter(None, (_dotted(base, names) for base in node.bases)))
            init = next(
                (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"),
                None,
            )
            layers = _layer_calls(init, names) if init is not None else ()
            found.append(ClassScan(node.name, bases, layers))
    return found


def cell_classes(classes: list[ClassScan]) -> set[str]:
    """Names of the classes that derive from `nn.Cell`, through bases defined anywhere in the
    scanned code (matched by name: model packages subclass their own blocks across files)."""
    cells: set[str] = set()
    changed = True
    while changed:
        changed = False
        for scanned in classes:
            if scanned.name in cells:
                continue
            for base in scanned.bases:
                if base in CELL_BASES or base.rpartition(".")[2] in cells:
                    cells.add(scanned.name)
                    changed = True
                    break
    return cells


def layer_of(path: Optional[str]) -> Optional[Layer]:
    """`mindspore.nn.Conv2d` -> Layer("mindspore.nn", "Conv2d"); None for anything else."""
    if not path:
        return None
    namespace, _, name = path.rpartition(".")
    if namespace in LAYER_NAMESPACES and name[:1].isupper():
        return Layer(namespace, name)
    return None


def _layer_calls(init: ast.FunctionDef, names: dict[str, str]) -> tuple[Layer, ...]:
    calls = [node for node in ast.walk(init) if isinstance(node, ast.Call)]
    # Source order, so `SequentialCell([Conv2d(…), ReLU()])` reads as the user typed it.
    calls.sort(key=lambda call: (call.lineno, call.col_offset))
    found = (layer_of(_dotted(call.func, names)) for call in calls)
    return tuple(layer for layer in found if layer is not None)


def _import_bindings(tree: ast.Module) -> dict[str, str]:
    """Local name -> dotted path, for every import in the file, nested ones included."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    head = alias.name.split(".", 1)[0]
                    names[head] = head
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name != "*":
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _dotted(expr: ast.expr, names: dict[str, str]) -> Optional[str]:
    if isinstance(expr, ast.Name):
        return names.get(expr.id, expr.id)
    if isinstance(expr, ast.Attribute):
        head = _dotted(expr.value, names)
        return f"{head}.{expr.attr}" if head else None
    return None
