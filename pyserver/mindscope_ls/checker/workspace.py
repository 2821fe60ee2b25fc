"""The set of files the checker may look at to resolve classes and helpers across modules."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator, Mapping
from typing import Optional

from .index import ModuleInfo
from .sources import read_text

SKIP_DIRS = frozenset({".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"})
MAX_FILES = 5000


class Workspace:
    """Indexes Python files by path; each is parsed once and re-parsed only when it changes."""

    def __init__(self, sources: Optional[Mapping[str, str]] = None, root: Optional[str] = None):
        self.root = root
        self.version = 0  # bumped whenever a file is added, changed or removed
        self.cache: dict[str, tuple[int, object]] = {}  # results computed at a version
        self._modules: dict[str, ModuleInfo] = {}
        for path, source in (sources or {}).items():
            self.update(path, source)

    @classmethod
    def from_folder(cls, folder: str) -> Workspace:
        """Index every `.py` file under `folder` (skipping virtualenvs, VCS and build dirs)."""
        ws = cls(root=folder)
        for path in _python_files(folder):
            text = read_text(path)
            if text is not None:
                ws.update(path, text)
        return ws

    def update(self, path: str, source: str) -> ModuleInfo:
        """Add or replace a file; returns its index."""
        key = os.path.normpath(path) if path and not path.startswith("<") else path
        current = self._modules.get(key)
        if current is not None and current.source == source:
            return current
        info = ModuleInfo.build(key, source, self.root)
        self._modules[key] = info
        self.version += 1
        return info

    def remove(self, path: str) -> None:
        if self._modules.pop(os.path.normpath(path), None) is not None:
            self.version += 1

    def get(self, path: str) -> Optional[ModuleInfo]:
        return self._modules.get(os.path.normpath(path) if not path.startswith("<") else path)

    def modules(self) -> Iterator[ModuleInfo]:
        return iter(list(self._modules.values()))

    def find_module(self, dotted: str) -> Optional[ModuleInfo]:
        """The module named `dotted`, or one whose name ends with it (imports relative to roots)."""
        best: Optional[ModuleInfo] = None
        for info in self._modules.values():
            if info.name == dotted:
                return info
            if best is None and (
                info.name.endswith("." + dotted) or dotted.endswith("." + info.name)
            ):
                best = info
        return best

    def resolve_class(self, qualname: str) -> Optional[tuple[ModuleInfo, ast.ClassDef]]:
        """The class definition a dotted name refers to, if it is in the workspace."""
        return self._resolve(qualname, "classes")

    def resolve_function(self, qualname: str) -> Optional[tuple[ModuleInfo, ast.AST]]:
        """The module-level function a dotted name refers to, if it is in the workspace."""
        return self._resolve(qualname, "functions")

    def _resolve(self, qualname: str, kind: str) -> Optional[tuple[ModuleInfo, ast.ClassDef]]:
        if "." not in qualname or qualname.startswith("mindspore."):
            return None
        module_name, _, name = qualname.rpartition(".")
        info = self.find_module(module_name)
        if info is not None:
            table = info.classes if kind == "classes" else info.functions
            node = table.get(name)
            if node is not None:
                return info, node  # type: ignore[return-value]
            target = info.imports.get(name)  # re-exported, e.g. from a package __init__
            if target and target != qualname:
                return self._resolve(target, kind)
        return None


def _python_files(folder: str) -> Iterator[str]:
    count = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".py"):
                count += 1
                if count > MAX_FILES:
                    return
                yield os.path.join(dirpath, name)
