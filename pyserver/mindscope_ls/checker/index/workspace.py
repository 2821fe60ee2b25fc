"""The set of files the checker may look at to resolve classes and helpers across modules."""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator, Mapping
from itertools import count
from typing import Optional

from .module import ModuleInfo
from .parsing import ModuleParser
from .sources import MAX_BYTES, read_text

SKIP_DIRS = frozenset({".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"})
MAX_FILES = 5000


class Workspace:
    """Indexes Python files by path; each is parsed once and, when it changes, only its
    top-level blocks that changed are parsed again."""

    def __init__(self, sources: Optional[Mapping[str, str]] = None, root: Optional[str] = None):
        self.root = root
        self.version = 0  # bumped whenever a file is added, changed or removed
        self.cache: dict[str, tuple[int, object]] = {}  # results computed at a version
        self._modules: dict[str, ModuleInfo] = {}
        self._parsers: dict[str, ModuleParser] = {}
        # find_module's answers (paths), kept until a file is added or removed: an edit does
        # not change module names.
        self._found: dict[str, Optional[str]] = {}
        # Each file's version: a new number whenever it changes (never reused).
        self._serials: dict[str, int] = {}
        self._serial_sum = 0
        for path, source in (sources or {}).items():
            self.update(path, source)

    @classmethod
    def from_folder(cls, folder: str, max_bytes: int = MAX_BYTES) -> Workspace:
        """Index every `.py` file under `folder` (skipping virtualenvs, VCS and build dirs, and
        files larger than `max_bytes`)."""
        ws = cls(root=folder)
        for path in _python_files(folder):
            text = read_text(path, max_bytes)
            if text is not None:
                ws.update(path, text)
        return ws

    def update(self, path: str, source: str) -> ModuleInfo:
        """Add or replace a file; returns its index."""
        key = _key(path)
        current = self._modules.get(key)
        if current is not None and current.source == source:
            return current
        parser = self._parsers.get(key)
        if parser is None:
            parser = self._parsers[key] = ModuleParser(key)
        previous = self._serials.get(key)
        info = ModuleInfo.build(key, source, self.root, parser)
        if current is not None and current.env == info.env:
            info.env = current.env  # the same object: cached results compare it by identity
        if current is None:
            self._found.clear()
        self._modules[key] = info
        serial = self._serials[key] = next(_SERIALS)
        self._serial_sum += serial - (previous or 0)
        self.version += 1
        return info

    def remove(self, path: str) -> None:
        key = _key(path)
        self._parsers.pop(key, None)
        self._serial_sum -= self._serials.pop(key, 0)
        if self._modules.pop(key, None) is not None:
            self._found.clear()
            self.version += 1

    def others(self, path: str) -> tuple[int, int]:
        """The versions of every file but `path`, in brief: equal while none of them changed.
        A change gives a file a number greater than any before, so files changed, added or
        removed always change the count or raise the sum."""
        return (len(self._serials) - 1, self._serial_sum - self._serials.get(_key(path), 0))

    def block_counts(self, path: str) -> Optional[tuple[int, int, int]]:
        """For benchmarks and tests: the top-level blocks the latest update of `path` parsed,
        moved (re-numbered) and reused where they were; None for a file never updated."""
        parser = self._parsers.get(_key(path))
        if parser is None:
            return None
        blocks = parser.blocks
        return blocks.parsed, blocks.moved, blocks.reused - blocks.moved

    def get(self, path: str) -> Optional[ModuleInfo]:
        return self._modules.get(_key(path))

    def modules(self) -> Iterator[ModuleInfo]:
        return iter(list(self._modules.values()))

    def find_module(self, dotted: str) -> Optional[ModuleInfo]:
        """The module named `dotted`, or one whose name ends with it (imports relative to roots)."""
        if dotted not in self._found:
            self._found[dotted] = self._find_module(dotted)
        path = self._found[dotted]
        return self._modules[path] if path is not None else None

    def _find_module(self, dotted: str) -> Optional[str]:
        best: Optional[str] = None
        for path, info in self._modules.items():
            if info.name == dotted:
                return path
            if best is None and (
                info.name.endswith("." + dotted) or dotted.endswith("." + info.name)
            ):
                best = path
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


_SERIALS = count()


def _key(path: str) -> str:
    """Real paths are normalized; pseudo paths such as `<cell ...>` are kept as they are."""
    return os.path.normpath(path) if path and not path.startswith("<") else path


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
