"""Go to definition: a MindSpore name goes to its `def`/`class` in the installed MindSpore
sources (found from the catalogue's defining module, read with `ast`, never imported); any
other name goes where jedi says."""

from __future__ import annotations

import ast
import logging
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path
from typing import Optional, Union

import jedi
from lsprotocol import types

from mindscope_ls.analysis.completion import JEDI_LOCK
from mindscope_ls.analysis.inference import Api, Inferencer
from mindscope_ls.analysis.sourcemodel import model_of
from mindscope_ls.analysis.textscan import expression_at
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.catalogue.model import Catalogue

log = logging.getLogger(__name__)
_MAX_HOPS = 6  # re-exports followed from one module to the next
Defined = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign]


def definition(
    source: str,
    line: int,
    character: int,
    path: Optional[str] = None,
    root: Optional[str] = None,
    catalogue: Optional[Catalogue] = None,
) -> list[types.Location]:
    """Where the name at a 0-based position (code points) is defined; [] when unknown."""
    cat = catalogue if catalogue is not None else catalogue_for()
    expr = expression_at(source, line, character)
    if cat is not None and expr is not None:
        inferencer = Inferencer(model_of(source, line), cat)
        value = inferencer.infer(expr, inferencer.scope_at(line + 1))
        if isinstance(value, Api):
            # A MindSpore name: the catalogue knows the real object; jedi would have to parse
            # MindSpore (seconds) and can land on a definition that a star import overrides.
            found = locate(value.entry.ident, cat)
            return [found] if found is not None else []
    return jedi_definition(source, line, character, path, root)


@cache
def mindspore_root() -> Optional[Path]:
    """The installed `mindspore` package folder, from its dist-info: no import."""
    try:
        folder = Path(str(metadata.distribution("mindspore").locate_file("mindspore")))
    except metadata.PackageNotFoundError:
        return None
    return folder if (folder / "__init__.py").is_file() else None


def locate(
    ident: str, cat: Catalogue, root: Optional[Path] = None, hops: int = 0
) -> Optional[types.Location]:
    """The location of a catalogue id (`mindspore.ops.function.math_func.matmul`)."""
    root = root or mindspore_root()
    if root is None or hops > _MAX_HOPS:
        return None
    parts = ident.split(".")
    for cut in range(len(parts), 0, -1):
        file = _module_file(root, parts[:cut])
        if file is not None:
            found = _find(root, file, parts[cut:], hops)
            if found is not None:
                return found
            break
    # A public alias (`mindspore.Tensor.add`): the catalogue knows where its owner lives.
    for cut in range(len(parts) - 1, 1, -1):
        owner = cat.lookup(".".join(parts[:cut]))
        if owner is not None and owner.ident != ".".join(parts[:cut]):
            return locate(".".join([owner.ident, *parts[cut:]]), cat, root, hops + 1)
    file = _module_file(root, parts)
    return _location(file, None) if file is not None else None


def _module_file(root: Path, parts: list[str]) -> Optional[Path]:
    if not parts or parts[0] != "mindspore":
        return None
    base = root.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py") if len(parts) > 1 else None, base / "__init__.py"):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def _find(root: Path, file: Path, qualname: list[str], hops: int) -> Optional[types.Location]:
    """`qualname` inside the module `file`, following `from x import name` re-exports."""
    if not qualname:
        return _location(file, None)
    tree = _parse(file, file.stat().st_mtime_ns)
    if tree is None:
        return None
    body, node = tree.body, None
    for depth, name in enumerate(qualname):
        found = _defined(body, name)
        if found is None:
            if depth == 0:
                return _reexported(root, file, tree, qualname, hops)
            break  # a method set up at run time: the class is the best answer
        node = found
        body = found.body if isinstance(found, ast.ClassDef) else []
    return _location(file, node)


def _defined(body: list[ast.stmt], name: str) -> Optional[Defined]:
    found: Optional[Defined] = None
    for stmt in body:  # the last binding wins, as at run time
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if stmt.name == name:
                found = stmt
        elif isinstance(stmt, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                found = stmt
        elif isinstance(stmt, ast.AnnAssign):
            if isinstance(stmt.target, ast.Name) and stmt.target.id == name:
                found = stmt
        elif isinstance(stmt, (ast.If, ast.Try)):
            inner = _defined([*stmt.body, *getattr(stmt, "orelse", [])], name)
            found = inner or found
    return found


def _reexported(
    root: Path, file: Path, tree: ast.Module, qualname: list[str], hops: int
) -> Optional[types.Location]:
    if hops >= _MAX_HOPS:
        return None
    package = _package_of(root, file)
    stars: list[str] = []
    for stmt in tree.body:
        if not isinstance(stmt, ast.ImportFrom):
            continue
        module = _absolute(package, stmt)
        for alias in stmt.names:
            if alias.name == "*":
                stars.append(module)
            elif (alias.asname or alias.name) == qualname[0]:
                target = _module_file(root, module.split("."))
                sub = _module_file(root, [*module.split("."), alias.name])
                if sub is not None:  # `from pkg import submodule`
                    return _find(root, sub, qualname[1:], hops + 1)
                if target is not None:
                    return _find(root, target, [alias.name, *qualname[1:]], hops + 1)
    for module in reversed(stars):  # a later star import overrides an earlier one
        target = _module_file(root, module.split("."))
        found = _find(root, target, qualname, hops + 1) if target is not None else None
        if found is not None:
            return found
    return None


def _package_of(root: Path, file: Path) -> list[str]:
    """The package a relative import starts from: the folder, for `__init__.py` too."""
    return list(file.relative_to(root.parent).parts[:-1])


def _absolute(package: list[str], stmt: ast.ImportFrom) -> str:
    if stmt.level == 0:
        return stmt.module or ""
    base = package[: len(package) - (stmt.level - 1)] if stmt.level > 1 else package
    return ".".join([*base, *([stmt.module] if stmt.module else [])])


@lru_cache(maxsize=16)  # MindSpore's generated op files are large: parse each once
def _parse(file: Path, mtime: int) -> Optional[ast.Module]:
    try:
        return ast.parse(file.read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        log.info("cannot parse %s", file)
        return None


def _location(file: Path, node: Optional[Defined]) -> types.Location:
    line, column, name = 0, 0, None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        line, column, name = node.lineno - 1, node.col_offset, node.name
    elif node is not None:
        line, column = node.lineno - 1, node.col_offset
    start = end = column
    if name is not None:
        text = _line(file, line)
        found = text.find(name, column)
        if found >= 0:
            start = _utf16(text[:found])
            end = start + _utf16(name)
    return types.Location(
        uri=file.as_uri(),
        range=types.Range(
            start=types.Position(line=line, character=start),
            end=types.Position(line=line, character=end),
        ),
    )


def _line(file: Path, line: int) -> str:
    try:
        with file.open(encoding="utf-8", errors="replace") as handle:
            for index, text in enumerate(handle):
                if index == line:
                    return text
    except OSError:
        pass
    return ""


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def jedi_definition(
    source: str, line: int, character: int, path: Optional[str], root: Optional[str]
) -> list[types.Location]:
    with JEDI_LOCK:
        try:
            script = jedi.Script(source, path=path, project=jedi.Project(root) if root else None)
            names = script.goto(line + 1, character, follow_imports=True)
        except Exception:  # jedi raises on some half-typed code: no answer, not an error
            return []
        found = []
        for name in names:
            if name.module_path is None or name.line is None:
                continue
            prefix = (name.get_line_code() or "")[: name.column]
            start = types.Position(line=name.line - 1, character=_utf16(prefix))
            end = types.Position(line=start.line, character=start.character + _utf16(name.name))
            found.append(
                types.Location(uri=Path(name.module_path).as_uri(), range=types.Range(start, end))
            )
        return found
