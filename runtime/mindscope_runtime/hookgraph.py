"""A Cell-level graph captured in PyNative with forward hooks (fallback when compile fails)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Optional

from mindscope_runtime.errors import one_line

JsonDict = dict[str, Any]


@dataclass
class HookCapture:
    nodes: list[JsonDict] = field(default_factory=list)
    edges: list[JsonDict] = field(default_factory=list)
    inputs: list[JsonDict] = field(default_factory=list)
    error: Optional[str] = None


def describe_value(value: Any) -> JsonDict:
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(value, "dtype"):
        return {"type": "tensor", "dtype": str(value.dtype), "shape": [int(d) for d in shape]}
    if isinstance(value, (tuple, list)):
        return {"type": "tuple", "elements": [describe_value(v) for v in value]}
    return {"type": "other", "dtype": type(value).__name__}


def _flat(value: Any) -> list[Any]:
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _flat(item)]
    return [value]


def construct_location(cell: Any) -> Optional[JsonDict]:
    try:
        method = type(cell).construct
        file = inspect.getsourcefile(method)
        _, line = inspect.getsourcelines(method)
    except (OSError, TypeError):
        return None
    parts = (file or "").replace("\\", "/").split("/")
    return {
        "file": file,
        "line": line,
        "endLine": line,
        "column": None,
        "endColumn": None,
        "code": "def construct(…)",
        "framework": "mindspore" in parts,
    }


def capture_with_hooks(
    ms: Any, cell: Any, inputs: list[Any], scope_of: dict[str, str]
) -> HookCapture:
    """Run one PyNative forward; every leaf Cell call becomes a node, tensors become edges.

    `scope_of` maps attribute paths to scope paths (`block.conv` → `Default/block-Block/…`).
    """
    result = HookCapture()
    producer: dict[int, str] = {}
    keep: list[Any] = []  # keep outputs alive so that id() values stay unique
    for index, value in enumerate(inputs):
        pid = f"input{index}"
        producer[id(value)] = pid
        keep.append(value)
        result.inputs.append({"id": pid, "name": pid, **describe_value(value)})
    handles: list[Any] = []
    last: list[str] = []
    for path, sub in cell.cells_and_names():
        if any(True for _ in sub.cells()):
            continue  # containers show up in the scope tree; leaves are the nodes

        def post(c: Any, args: Any, output: Any, path: str = path) -> None:
            node_id = f"cell{len(result.nodes)}"
            ins: list[JsonDict] = []
            for i, arg in enumerate(_flat(args)):
                src = producer.get(id(arg))
                ins.append({"kind": "node", "ref": src, **describe_value(arg)})
                if src is not None:
                    result.edges.append({"from": src, "to": node_id, "toInput": i, "kind": "data"})
            if not any(e["to"] == node_id for e in result.edges) and last:
                result.edges.append(
                    {"from": last[-1], "to": node_id, "toInput": 0, "kind": "inferred"}
                )
            for out in _flat(output):
                producer[id(out)] = node_id
                keep.append(out)
            scope = scope_of.get(path, path)
            location = construct_location(c)
            result.nodes.append(
                {
                    "id": node_id,
                    "graph": "pynative",
                    "opType": type(c).__name__,
                    "primitive": type(c).__name__,
                    "name": path.rsplit(".", 1)[-1] or type(c).__name__,
                    "fullName": scope,
                    "scope": scope.rsplit("/", 1)[0] if "/" in scope else "",
                    "category": "cell",
                    "instanceName": path,
                    "inputs": ins,
                    "outputs": [describe_value(o) for o in _flat(output)],
                    "attrs": {},
                    "source": [location] if location else [],
                    "userSource": location if location and not location["framework"] else None,
                    "frameworkSource": location if location and location["framework"] else None,
                }
            )
            last.append(node_id)

        handles.append(sub.register_forward_hook(post))
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        cell(*inputs)
    except Exception as exc:
        result.error = one_line(f"{type(exc).__name__}: {exc}")
    finally:
        for handle in handles:
            handle.remove()
        ms.set_context(mode=mode)
    return result
