"""One line for an export that failed: which op, in which Cell (pure; the scope comes from a
graph document of the same Cell, e.g. its MINDIR export read by `mindirdoc`)."""

from __future__ import annotations

import re
from typing import Any, Optional

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.runfail import message_head

JsonDict = dict[str, Any]

# MindSpore 2.10's ONNX exporter (onnx_exporter.cc ExportPrimitive), measured:
# "Can not find key CumProd in convert map. Exporting CumProd operator is not yet supported."
_NO_MAPPING = re.compile(r"Can not find key (\w+) in convert map")


def unmapped_op(message: str) -> Optional[str]:
    """The primitive MindSpore could not convert to ONNX, if that is why the export failed."""
    found = _NO_MAPPING.search(message)
    return found.group(1) if found else None


def op_scopes(graph_document: JsonDict, op: str) -> list[JsonDict]:
    """Where `op` runs: [{scope, cell, attrPath}] for every node of that type, in order."""
    cells = {}
    stack = list(graph_document.get("scopes", []))
    while stack:
        node = stack.pop()
        cells[node["path"]] = node
        stack.extend(node.get("children", []))
    out: list[JsonDict] = []
    for node in graph_document.get("nodes", []):
        if node.get("opType") != op:
            continue
        scope = node.get("scope") or "Default"
        info = cells.get(scope, {})
        out.append({"scope": scope, "cell": info.get("cellType"),
                    "attrPath": info.get("attrPath", "")})  # fmt: skip
    return out


def describe_cell(where: JsonDict, root: str) -> str:
    """`layer1.0 (BasicBlock)`; the root Cell by its class name."""
    cell_type = where.get("cell") or "Cell"
    if not where.get("attrPath"):
        return f"{root} (the root Cell)"
    return f"{where['attrPath']} ({cell_type})"


def no_mapping_error(op: str, places: list[JsonDict], root: str, fmt: str) -> RuntimeToolError:
    if places:
        first = describe_cell(places[0], root)
        more = f" and {len(places) - 1} more place(s)" if len(places) > 1 else ""
        where = f" in Cell {first}, scope {places[0]['scope']}{more}"
    else:
        where = f" in {root}"
    message = (
        f"{fmt} export failed: MindSpore has no {fmt} mapping for op {op}{where}; "
        f"rewrite that code with other ops or export MINDIR"
    )
    extra = {"op": op, "scopes": [p["scope"] for p in places], "format": fmt}
    return RuntimeToolError("export-unsupported-op", message, extra=extra)


def export_failed(exc: BaseException, fmt: str) -> RuntimeToolError:
    return RuntimeToolError(
        "export-failed", f"{fmt} export failed: {type(exc).__name__}: {message_head(str(exc))}",
        extra={"format": fmt},
    )  # fmt: skip
