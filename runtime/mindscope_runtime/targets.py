"""Target specs (`path/to/file.py:Name`): parse them, load the file, resolve the Cell."""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from mindscope_runtime.errors import RuntimeToolError, one_line


@dataclass(frozen=True)
class TargetSpec:
    """`file` is absolute; `name` may be dotted (`Outer.make`) for attribute lookups."""

    file: Path
    name: str

    def __str__(self) -> str:
        return f"{self.file}:{self.name}"


def parse_target(spec: str, *, default_file: Path | None = None) -> TargetSpec:
    """Split `file.py:Name`; `:Name` or `Name` alone use `default_file` when given."""
    file_part, sep, name = spec.rpartition(":")
    if not sep:
        file_part, name = "", spec
    # A Windows drive letter (`C:\\x.py`) has no name after it: treat the spec as a file.
    if not name or not name.replace(".", "_").isidentifier():
        raise RuntimeToolError("bad-target", f"target {spec!r} must look like path/to/file.py:Name")
    if not file_part:
        if default_file is None:
            raise RuntimeToolError("bad-target", f"target {spec!r} names no file (file.py:Name)")
        return TargetSpec(default_file, name)
    return TargetSpec(Path(file_part).expanduser().resolve(), name)


def load_module(path: Path) -> ModuleType:
    """Import a user file as a fresh module; its folder goes first on sys.path, as with
    `python file.py`."""
    if not path.is_file():
        raise RuntimeToolError("file-not-found", f"no such file: {path}")
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module_name = f"_mindscope_target_{abs(hash(str(path)))}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise RuntimeToolError("bad-target", f"cannot import {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # sys.exit() at import is the user's error too
        del sys.modules[module_name]
        raise user_code_error("import-failed", f"importing {path.name} failed", exc) from exc
    return module


def lookup(module: ModuleType, target: TargetSpec) -> Any:
    obj: Any = module
    for part in target.name.split("."):
        if not hasattr(obj, part):
            raise RuntimeToolError(
                "name-not-found",
                f"{target.file.name} has no {target.name!r}",
                file=str(target.file),
            )
        obj = getattr(obj, part)
    return obj


def resolve_cell(target: TargetSpec, cell_type: type) -> Any:
    """Return a Cell instance: the module-level instance, `Class()`, or `factory()`."""
    obj = lookup(load_module(target.file), target)
    if isinstance(obj, cell_type):
        return obj
    if inspect.isclass(obj) and not issubclass(obj, cell_type):
        raise RuntimeToolError(
            "bad-target", f"{target.name} is a class but not a mindspore.nn.Cell subclass"
        )
    if not callable(obj):
        raise RuntimeToolError(
            "bad-target",
            f"{target.name} is a {type(obj).__name__}, not a Cell, Cell class or factory",
        )
    _check_callable_without_args(obj, target.name)
    try:
        made = obj()
    except (Exception, SystemExit) as exc:
        raise user_code_error("init-failed", f"creating {target.name}() failed", exc) from exc
    if not isinstance(made, cell_type):
        raise RuntimeToolError(
            "bad-target", f"{target.name}() returned {type(made).__name__}, not a Cell"
        )
    return made


def _check_callable_without_args(obj: Any, name: str) -> None:
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return
    required = [
        p.name
        for p in signature.parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    if required:
        raise RuntimeToolError(
            "bad-target",
            f"{name} needs arguments ({', '.join(required)}): "
            "name a factory function that takes none instead",
        )


def user_code_error(kind: str, what: str, exc: BaseException) -> RuntimeToolError:
    """An error in user code, located at the innermost frame that is not in site-packages."""
    file, line = innermost_user_frame(exc)
    removed = removed_mindspore_api(exc)
    message = one_line(f"{what}: {removed or f'{type(exc).__name__}: {exc}'}")
    return RuntimeToolError(kind, message, file=file, line=line)


def removed_mindspore_api(exc: BaseException) -> str | None:
    """For an installed package importing a MindSpore module this MindSpore lacks (mindocr
    0.5.0: `mindspore.parallel._transformer`): which package, which import, and that the
    package does not support this MindSpore. None for any other error."""
    missing = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
    if not missing or not str(missing).startswith("mindspore."):
        return None
    package = _importing_package(exc)
    if package is None:
        return None
    import importlib.metadata as metadata

    def version(name: str) -> str:
        try:
            return " " + metadata.version(name)
        except metadata.PackageNotFoundError:
            return ""

    return (
        f"{package}{version(package)} imports {missing}, which MindSpore{version('mindspore')} "
        f"does not have ({exc}): {package} does not support this MindSpore"
    )


def _importing_package(exc: BaseException) -> str | None:
    """The top-level installed package (not MindSpore) of the innermost importing frame."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        norm = frame.filename.replace("\\", "/")
        for marker in ("/site-packages/", "/dist-packages/"):
            if marker in norm:
                top = norm.split(marker, 1)[1].split("/", 1)[0]
                if top != "mindspore" and not top.endswith((".py", ".pth")):
                    return top
    return None


def innermost_user_frame(exc: BaseException) -> tuple[str | None, int | None]:
    frames = traceback.extract_tb(exc.__traceback__)
    here = os.path.dirname(__file__)
    for frame in reversed(frames):
        path = frame.filename
        if "site-packages" in path or path.startswith(here) or path.startswith("<"):
            continue
        return path, frame.lineno
    return None, None
