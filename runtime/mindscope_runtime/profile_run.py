"""`profile`: run warm-up steps, then N steps under `mindspore.Profiler`, and parse its output."""

from __future__ import annotations

import contextlib
import shutil
import time
from pathlib import Path
from typing import Any, Callable, Optional

from mindscope_runtime.errors import RuntimeToolError, one_line
from mindscope_runtime.inputs import describe
from mindscope_runtime.interrupts import reclaim_sigint, temp_dir
from mindscope_runtime.irscopes import ir_dump, scopes_by_name
from mindscope_runtime.msenv import (
    cell_infos,
    mode_name,
    quiet_cpu_synchronize,
    syntax_level_name,
)
from mindscope_runtime.profdoc import CellInterval, build_profile_document, scope_of
from mindscope_runtime.profmemory import parse_memory_record
from mindscope_runtime.profparse import (
    find_profiler_files,
    parse_execute_timestamps,
    parse_op_detail_csv,
    parse_op_type_csv,
    parse_trace_view,
)
from mindscope_runtime.progress import Progress
from mindscope_runtime.scopes import scope_of_cell

JsonDict = dict[str, Any]


def profile_cell(
    ms: Any,
    cell: Any,
    inputs: list[Any],
    *,
    target: str,
    steps: int,
    warmup: int,
    progress: Optional[Progress] = None,
    keep_output: Optional[Path] = None,
    step: Optional[Callable[..., Any]] = None,
    step_meta: Optional[JsonDict] = None,
) -> JsonDict:
    """Profile `steps` calls of `step(*inputs)` (default: the forward `cell(*inputs)`) in the
    current mode; `step_meta` describes a custom step (e.g. a training step) in `meta.step`."""
    progress = progress or Progress(quiet=True)
    quiet_cpu_synchronize(ms)
    pynative = mode_name(ms) == "PYNATIVE_MODE"
    run = step or cell
    # A graph-mode forward: its IR corrects the Cells MindSpore's op names give (irscopes.py).
    # A training step (`ms.jit` of a function) has no Cell scopes to correct.
    with ir_dump(not pynative and step is None) as ir_folder:
        with progress.phase(f"warm-up ({warmup} step(s), includes the compile)"):
            for _ in range(warmup):
                _step(ms, run, inputs)
        document = _profile_steps(ms, cell, run, inputs, steps, progress, keep_output)
        scopes = scopes_by_name(ir_folder, cell_infos(cell))
    meta: JsonDict = {
        "mindsporeVersion": ms.__version__,
        "mode": mode_name(ms),
        "syntaxLevel": syntax_level_name(ms),
        "device": ms.get_context("device_target"),
        "target": target,
        "rootCell": type(cell).__name__,
        "inputs": describe(inputs),
        "steps": steps,
        "warmup": warmup,
        "scopeAttribution": "hooks" if pynative else "mindspore",
        "step": step_meta or {"kind": "forward"},
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "profilerFiles": document.pop("files"),
    }
    result = build_profile_document(meta=meta, scopes=scopes, **document)
    moved = [row for row in result["ops"] if row["scope"] != scope_of(row["fullName"])]
    result["meta"]["rehomedOps"] = None if scopes is None else len(moved)
    return result


def _profile_steps(
    ms: Any,
    cell: Any,
    run: Callable[..., Any],
    inputs: list[Any],
    steps: int,
    progress: Progress,
    keep_output: Optional[Path],
) -> JsonDict:
    """Run `steps` steps under the Profiler; return what it recorded, parsed."""
    pynative = mode_name(ms) == "PYNATIVE_MODE"
    intervals: list[CellInterval] = []
    handles = _cell_hooks(ms, cell, intervals) if pynative else []
    marks: list[tuple[int, int]] = []
    profiler: Any = None
    with temp_dir("mindscope-prof-") as tmp:
        try:
            with progress.phase(f"profiling {steps} step(s)"):
                profiler = ms.Profiler(output_path=tmp, profile_memory=True)
                for _ in range(steps):
                    start = time.time_ns()
                    _step(ms, run, inputs)
                    marks.append((start, time.time_ns()))
            with progress.phase("MindSpore Profiler analyse()"):
                profiler.analyse()
        except Exception as exc:
            _stop_quietly(profiler)
            if isinstance(exc, RuntimeToolError):
                raise
            raise RuntimeToolError(
                "profile-failed", one_line(f"{type(exc).__name__}: {exc}", 300)
            ) from exc
        except BaseException:  # Ctrl-C
            _stop_quietly(profiler)  # else it keeps writing into `tmp` (memory records)
            raise
        finally:
            for handle in handles:
                handle.remove()
        if keep_output is not None:
            shutil.copytree(tmp, keep_output, dirs_exist_ok=True)
        files = find_profiler_files(Path(tmp))
        if files is None or files.op_detail is None:
            raise RuntimeToolError("profile-failed", "the Profiler wrote no cpu_op_detail_info")
        return {
            "files": [str(p.relative_to(files.run_dir)) for p in _existing(files)],
            "detail": parse_op_detail_csv(_read(files.op_detail)),
            "type_rows": parse_op_type_csv(_read(files.op_type)),
            "executions": parse_execute_timestamps(_read(files.timestamps)),
            "trace": parse_trace_view(_read(files.trace_view)),
            "marks": marks,
            "intervals": intervals,
            "memory": parse_memory_record(_read(files.memory)),
        }


def _stop_quietly(profiler: Any) -> None:
    if profiler is None:
        return
    with contextlib.suppress(Exception):  # already stopped, or half torn down by Ctrl-C
        profiler.stop()


def _step(ms: Any, run: Callable[..., Any], inputs: list[Any]) -> None:
    run(*inputs)
    ms.runtime.synchronize()
    reclaim_sigint()  # each graph run re-installs MindSpore's native SIGINT handler


def _cell_hooks(ms: Any, cell: Any, intervals: list[CellInterval]) -> list[Any]:
    """PyNative: record each Cell call's interval (synchronising so ops land inside it)."""
    infos = cell_infos(cell)
    types = {c.path: c.cell_type for c in infos}
    handles: list[Any] = []
    starts: dict[int, list[int]] = {}
    for path, sub in cell.cells_and_names():
        scope = scope_of_cell(path, types)

        def pre(c: Any, args: Any) -> None:
            ms.runtime.synchronize()
            starts.setdefault(id(c), []).append(time.time_ns())

        def post(c: Any, args: Any, output: Any, scope: str = scope) -> None:
            ms.runtime.synchronize()
            begun = starts.get(id(c))
            if begun:
                intervals.append((scope, begun.pop(), time.time_ns()))

        handles.append(sub.register_forward_pre_hook(pre))
        handles.append(sub.register_forward_hook(post))
    return handles


def _existing(files: Any) -> list[Path]:
    paths = [files.op_detail, files.op_type, files.timestamps, files.trace_view, files.memory]
    return [p for p in paths if p is not None]


def _read(path: Optional[Path]) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path is not None else ""
