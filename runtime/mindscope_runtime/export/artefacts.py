"""`ms.export` of one format, with failures turned into one line naming the op and the Cell."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.export.failure import export_failed, no_mapping_error, op_scopes, unmapped_op
from mindscope_runtime.msenv import working_directory

SUFFIX = {"MINDIR": ".mindir", "ONNX": ".onnx"}


def remove(path: Path) -> None:
    """MindSpore writes its artefacts read-only (mode 0400): make room for a new one."""
    if path.exists():
        os.chmod(path, 0o600)
        path.unlink()


def export_format(
    ms: Any, cell: Any, tensors: list[Any], fmt: str, stem: Path, *, syntax_level: str = "lax"
) -> Path:
    """Export `cell(*tensors)` as `stem.mindir` / `stem.onnx`; raise a one-line error."""
    path = stem.with_suffix(SUFFIX[fmt])
    remove(path)
    try:
        with working_directory(str(stem.parent)):  # a failed compile writes rank_0/ into cwd
            ms.export(cell, *tensors, file_name=str(stem), file_format=fmt)
    except Exception as exc:
        raise _explain(ms, cell, tensors, fmt, exc, syntax_level) from exc
    if not path.is_file():
        raise RuntimeToolError("export-failed", f"{fmt} export wrote no {path.name}")
    return path


def _explain(
    ms: Any, cell: Any, tensors: list[Any], fmt: str, exc: Exception, syntax_level: str
) -> RuntimeToolError:
    from mindscope_runtime.commands import run_error

    op = unmapped_op(str(exc))
    root = type(cell).__name__
    if op is not None:
        return no_mapping_error(op, _scopes_via_mindir(ms, cell, tensors, op), root, fmt)
    if "Traceback of Net Construct Code" in str(exc):
        error = run_error(exc, syntax_level, cell, tensors)
        error.message = f"{fmt} export failed: {root} does not compile: {error.message}"
        return error
    return export_failed(exc, fmt)


def _scopes_via_mindir(ms: Any, cell: Any, tensors: list[Any], op: str) -> list[dict[str, Any]]:
    """ONNX export names the op but not where it is: MINDIR keeps every node's Cell scope."""
    from mindscope_runtime.mindirdoc import read_mindir_document

    with (
        tempfile.TemporaryDirectory(prefix="mindscope-scope-") as tmp,
        contextlib.suppress(Exception),
        working_directory(tmp),
    ):
        stem = Path(tmp) / "scope"
        ms.export(cell, *tensors, file_name=str(stem), file_format="MINDIR")
        return op_scopes(read_mindir_document(stem.with_suffix(".mindir")), op)
    return []
