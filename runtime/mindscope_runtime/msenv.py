"""Importing and configuring MindSpore, and describing a live Cell (needs MindSpore)."""

from __future__ import annotations

import inspect
import linecache
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Optional

from mindscope_runtime.errors import RuntimeToolError, one_line
from mindscope_runtime.scopes import CellInfo

SYNTAX_LEVELS = ("strict", "compatible", "lax")
MODES = ("graph", "pynative")


def import_mindspore() -> ModuleType:
    try:
        import mindspore
    except ImportError as exc:
        raise RuntimeToolError(
            "mindspore-missing",
            f"MindSpore is not importable in this interpreter: {one_line(str(exc), 200)}",
        ) from exc
    module: ModuleType = mindspore
    return module


def configure(ms: Any, *, mode: str, syntax_level: str, device: str) -> None:
    ms.set_device(device)
    quiet_cpu_synchronize(ms)
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_context(jit_syntax_level=getattr(ms, syntax_level.upper()))


def quiet_cpu_synchronize(ms: Any) -> None:
    """`ms.runtime.synchronize()` works on CPU but logs "[ERROR] CPU device is not supported"
    at its first call; mark that warning as given (best effort, MindSpore 2.x internals)."""
    if str(ms.get_context("device_target")).upper() != "CPU":
        return
    try:
        from mindspore.runtime import stream
    except ImportError:
        return
    status = getattr(stream, "function_stream_status", None)
    if isinstance(status, dict):
        status["synchronize"] = True


def syntax_level_name(ms: Any) -> str:
    value = ms.get_context("jit_syntax_level")
    for name in SYNTAX_LEVELS:
        if getattr(ms, name.upper(), None) == value:
            return name.upper()
    return str(value)


def mode_name(ms: Any) -> str:
    return "GRAPH_MODE" if ms.get_context("mode") == ms.GRAPH_MODE else "PYNATIVE_MODE"


def cell_infos(cell: Any) -> list[CellInfo]:
    """Every sub-Cell by attribute path, with the parameters it owns directly."""
    out: list[CellInfo] = []
    for path, sub in cell.cells_and_names():
        own = list(sub.get_parameters(expand=False))
        out.append(
            CellInfo(
                path=path,
                cell_type=type(sub).__name__,
                param_count=sum(_numel(p.shape) for p in own),
                param_tensors=len(own),
                construct=construct_site(type(sub)),
            )
        )
    return out


def construct_site(cls: type) -> Optional[tuple[str, int]]:
    """(file, line of `def construct`) of the construct a Cell class runs: the header that
    MindSpore's `# In file` chains show for ops made in it. None without Python source."""
    function = getattr(cls, "construct", None)
    code = getattr(inspect.unwrap(function), "__code__", None) if function else None
    if code is None:
        return None
    for line in range(code.co_firstlineno, code.co_firstlineno + 50):  # past decorators
        if linecache.getline(code.co_filename, line).lstrip().startswith(("def ", "async def ")):
            return (os.path.normpath(code.co_filename), line)
    return (os.path.normpath(code.co_filename), code.co_firstlineno)


def weights(cell: Any) -> list[tuple[str, int]]:
    return [(p.name, _numel(p.shape)) for p in cell.get_parameters()]


def _numel(shape: Any) -> int:
    total = 1
    for dim in shape:
        total *= int(dim)
    return total


IR_DUMP_FLAG = "MS_DEV_SAVE_GRAPHS"
IR_DUMP_PATH = "MS_DEV_SAVE_GRAPHS_PATH"


def enable_ir_dump(folder: str) -> None:
    """Turn MindSpore's IR dump on for this process. Measured on 2.10: MS_DEV_SAVE_GRAPHS is
    latched at the process's *first* compile (not at import); later changes of the flag are
    ignored either way, while MS_DEV_SAVE_GRAPHS_PATH is re-read at every compile. So this must
    run before anything compiles (the user's module may compile at import)."""
    os.environ[IR_DUMP_FLAG] = "1"
    os.environ[IR_DUMP_PATH] = folder


@contextmanager
def env_vars(**values: str) -> Iterator[None]:
    """Set environment variables for a block."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def framework_root(ms: Any) -> str:
    folder: str = os.path.dirname(os.path.abspath(str(ms.__file__)))
    return folder + os.sep


@contextmanager
def working_directory(folder: str) -> Iterator[None]:
    """Run a block in `folder` (MindSpore drops `rank_0/om/analyze_fail.ir` into the cwd)."""
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)
