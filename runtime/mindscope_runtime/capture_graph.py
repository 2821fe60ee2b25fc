"""`graph`: compile in GRAPH_MODE with the IR dump on, parse the executed IR into a document."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime import GRAPH_DOC_VERSION
from mindscope_runtime.errormap import map_compile_error
from mindscope_runtime.errors import one_line
from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.hookgraph import capture_with_hooks
from mindscope_runtime.inputs import describe
from mindscope_runtime.interrupts import temp_dir
from mindscope_runtime.irparse import find_execute_ir, parse_ir_file
from mindscope_runtime.msenv import (
    cell_infos,
    env_vars,
    framework_root,
    mode_name,
    syntax_level_name,
    weights,
    working_directory,
)
from mindscope_runtime.progress import Progress
from mindscope_runtime.runfail import (
    construct_locations,
    is_input_mismatch,
    run_failure,
    user_location,
)
from mindscope_runtime.scopes import build_scope_tree, scope_of_cell

JsonDict = dict[str, Any]


def capture_graph(
    ms: Any,
    cell: Any,
    inputs: list[Any],
    *,
    target: str,
    progress: Optional[Progress] = None,
    keep_ir: Optional[Path] = None,
) -> JsonDict:
    """Compile `cell(*inputs)` in GRAPH_MODE and return the graph document.

    MindSpore latches its IR dump switch at a process's first compile: call `enable_ir_dump`
    before anything compiles (or run the CLI, which does), else no IR is written.

    A compile error does not raise: the document carries it (`error`) and a Cell-level graph
    captured in PyNative with forward hooks. Inputs MindSpore rejects (a shape, rank or dtype
    check failed) raise `RuntimeToolError("input-mismatch")`: there is no graph to show.
    """
    progress = progress or Progress(quiet=True)
    meta: JsonDict = {
        "mindsporeVersion": ms.__version__,
        "mode": "GRAPH_MODE",
        "device": ms.get_context("device_target"),
        "target": target,
        "rootCell": type(cell).__name__,
        "inputs": describe(inputs),
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    ms.set_context(mode=ms.GRAPH_MODE)
    meta["syntaxLevel"] = syntax_level_name(ms)
    cells = cell_infos(cell)
    with temp_dir("mindscope-ir-") as tmp:
        started = time.perf_counter()
        error: Optional[BaseException] = None
        with (
            progress.phase("compiling in GRAPH_MODE with the IR dump on"),
            env_vars(MS_DEV_SAVE_GRAPHS="1", MS_DEV_SAVE_GRAPHS_PATH=tmp),
        ):
            try:
                with working_directory(tmp):  # a failed compile writes rank_0/om/ into cwd
                    cell.compile(*inputs)
            except Exception as exc:
                error = exc
        meta["compileSeconds"] = round(time.perf_counter() - started, 4)
        if keep_ir is not None:
            shutil.copytree(tmp, keep_ir, dirs_exist_ok=True)
        ir_file = find_execute_ir(Path(tmp)) if error is None else None
        if error is None and ir_file is None:
            error = RuntimeError(
                "MindSpore wrote no *_execute_*.ir file: its IR dump switch is read at the "
                "first compile of a process, so capture in a fresh process (the CLI does)"
            )
        if error is not None and is_input_mismatch(error):
            raise run_failure(
                error, kind="compile-failed", inputs=meta["inputs"], root=meta["rootCell"]
            ) from error
        if error is not None or ir_file is None:
            return _failure_document(ms, cell, inputs, error, meta, cells, progress)
        with progress.phase(f"parsing {ir_file.name}"):
            parse_started = time.perf_counter()
            module = parse_ir_file(ir_file)
            meta.update({"capture": "ir-dump", "irFile": ir_file.name})
            document = build_graph_document(
                module,
                meta=meta,
                cells=cells,
                framework_roots=(framework_root(ms),),
                root_type=type(cell).__name__,
            )
            document["meta"]["parseSeconds"] = round(time.perf_counter() - parse_started, 4)
    return document


def compile_error_json(error: BaseException, level: Optional[str] = None) -> JsonDict:
    """The message's first line, its type, the innermost `# In file` of MindSpore's
    "Traceback of Net Construct Code" (the user's line that failed), and the checker's rule
    for that line (`rule`, null when none is known)."""
    text = str(error)
    location = user_location(construct_locations(text))
    head = text.split("\n----", 1)[0]
    out: JsonDict = {
        "kind": "compile-failed",
        "type": type(error).__name__,
        "message": one_line(head, 300),
        "detail": text[:4000],
        "file": location.file if location else None,
        "line": location.line if location else None,
        "column": location.column if location else None,
    }
    out["rule"] = map_compile_error(head, out["file"], out["line"], level)
    return out


def _failure_document(
    ms: Any,
    cell: Any,
    inputs: list[Any],
    error: Optional[BaseException],
    meta: JsonDict,
    cells: list[Any],
    progress: Progress,
) -> JsonDict:
    error_json = compile_error_json(
        error or RuntimeError("compile failed"), level=meta.get("syntaxLevel")
    )
    types = {c.path: c.cell_type for c in cells}
    scope_of = {c.path: scope_of_cell(c.path, types) for c in cells}
    with progress.phase("compile failed; capturing the Cell structure in PyNative"):
        hooked = capture_with_hooks(ms, cell, inputs, scope_of)
    if hooked.error:
        error_json["pynativeError"] = hooked.error
    scopes = build_scope_tree(
        [n["fullName"] for n in hooked.nodes], cells, weights(cell), type(cell).__name__
    )
    parameters = [
        {"id": i["id"], "name": i["name"], "kind": "input", "dtype": i.get("dtype"),
         "shape": i.get("shape"), "size": _size(i.get("shape")), "graph": None}
        for i in hooked.inputs
    ] + [
        {"id": name, "name": name, "kind": "weight", "dtype": None, "shape": None, "size": size,
         "graph": None}
        for name, size in weights(cell)
    ]  # fmt: skip
    meta.update({"capture": "pynative-hooks", "mode": mode_name(ms)})
    meta["mode"] = "PYNATIVE_MODE"
    meta["counts"] = {
        "nodes": len(hooked.nodes),
        "computeOps": 0,
        "edges": len(hooked.edges),
        "graphs": 0,
        "parameters": sum(1 for p in parameters if p["kind"] == "weight"),
        "parameterElements": sum(p["size"] for p in parameters if p["kind"] == "weight"),
    }
    return {
        "kind": "mindscope.graph",
        "version": GRAPH_DOC_VERSION,
        "meta": meta,
        "error": error_json,
        "graphs": [],
        "nodes": hooked.nodes,
        "edges": hooked.edges,
        "parameters": parameters,
        "scopes": scopes,
        "patterns": [],
    }


def _size(shape: Any) -> int:
    if not isinstance(shape, list):
        return 0
    total = 1
    for dim in shape:
        total *= int(dim)
    return total
