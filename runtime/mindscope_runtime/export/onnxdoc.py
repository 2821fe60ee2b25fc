"""An .onnx file → the graph document (`meta.capture: "onnx"`), read with the `onnx` package.

The model becomes the same `IRModule` the IR and MINDIR readers produce, so the graph view
draws it unchanged. ONNX keeps no Cell scopes, so they are inferred: an op that uses weights
belongs to the Cell that owns them (`layer1.0.conv1.weight` → `layer1.0.conv1`); any other op
to the innermost Cell that contains the Cells of all its producers. Scope segments carry no
Cell class (`Default/layer1-/0-/conv1-`): ONNX does not record it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime.export import deps
from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.irparse import IRGraph, IRModule, IRNode, IRParam
from mindscope_runtime.mindir import TENSOR_DTYPES  # ONNX's TensorProto numbering, too

JsonDict = dict[str, Any]


def read_onnx_document(path: Path) -> JsonDict:
    onnx = deps.onnx()
    started = time.perf_counter()
    try:
        model = onnx.load(str(path))
        model = onnx.shape_inference.infer_shapes(model)
    except Exception as exc:
        from mindscope_runtime.errors import RuntimeToolError, one_line

        message = one_line(f"{path.name} is not a readable ONNX model: {exc}", 300)
        raise RuntimeToolError("bad-onnx", message) from exc
    document = onnx_document(model, source=str(path))
    document["meta"]["parseSeconds"] = round(time.perf_counter() - started, 4)
    document["meta"]["onnx"]["fileBytes"] = path.stat().st_size
    return document


def onnx_document(model: Any, *, source: str) -> JsonDict:
    graph = model.graph
    module = to_ir_module(graph)
    inputs = [{"shape": p.abstract.get("shape"), "dtype": p.abstract.get("dtype") or "unknown"}
              for p in module.params if not p.is_weight]  # fmt: skip
    meta: JsonDict = {
        "mindsporeVersion": "",
        "mode": "GRAPH_MODE",
        "syntaxLevel": "unknown",
        "capture": "onnx",
        "device": "none",
        "target": source,
        "inputs": inputs,
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "onnx": {
            "irVersion": int(model.ir_version),
            "producer": f"{model.producer_name} {model.producer_version}".strip(),
            "opsets": {(o.domain or "ai.onnx"): int(o.version) for o in model.opset_import},
            "graph": graph.name,
            "outputs": [o.name for o in graph.output],
        },
    }
    return build_graph_document(module, meta=meta, root_type=None)


def to_ir_module(graph: Any) -> IRModule:
    module = IRModule(entry=graph.name or "main", attrs={}, jit_config={}, params=[], graphs=[])
    out = IRGraph(name=module.entry, params=[])
    refs: dict[str, str] = {}
    abstracts: dict[str, JsonDict] = {}
    scopes: dict[str, str] = {}  # tensor name → attribute path of the Cell that made it
    weights = {t.name: t for t in graph.initializer}
    for value in graph.input:
        if value.name not in weights:
            abstracts[value.name] = _value_abstract(value)
            refs[value.name] = _param(module, value.name, abstracts[value.name], False)
            out.params.append(refs[value.name])
    for name, tensor in weights.items():
        abstracts[name] = {"kind": "tensor", "dtype": TENSOR_DTYPES.get(tensor.data_type),
                           "shape": [int(d) for d in tensor.dims]}  # fmt: skip
        refs[name] = _param(module, name, abstracts[name], True)
    for info in list(graph.value_info) + list(graph.output):
        abstracts[info.name] = _value_abstract(info)
    counts: dict[str, int] = {}
    for node in graph.node:
        local = f"%{len(out.nodes) + 1}"
        scope = _scope(node, weights, scopes)
        index = counts.get(node.op_type, 0)
        counts[node.op_type] = index + 1
        out.nodes.append(IRNode(
            graph=out.name, local_id=local, debug_name=node.name, op=node.op_type,
            args=[refs.get(i, i) for i in node.input if i],
            attrs={"primitive_attrs": {a.name: _attr(a) for a in node.attribute}},
            inputs=[abstracts.get(i, {"kind": "other"}) for i in node.input if i],
            outputs=[abstracts.get(o, {"kind": "other"}) for o in node.output],
            full_name=_full_name(scope, f"{node.op_type}-op{index}"),
        ))  # fmt: skip
        for output in node.output:
            refs[output], scopes[output] = local, scope
    out.nodes.append(IRNode(graph=out.name, local_id=None, debug_name="return", op="Return",
                            args=[refs.get(o.name, o.name) for o in graph.output],
                            attrs={}))  # fmt: skip
    module.graphs.append(out)
    return module


def _param(module: IRModule, name: str, abstract: JsonDict, is_weight: bool) -> str:
    pid = f"%para{len(module.params) + 1}_{name}"
    module.params.append(IRParam(pid, name, abstract, is_weight, None))
    return pid


def _scope(node: Any, weights: dict[str, Any], made_in: dict[str, str]) -> str:
    owners: list[str] = [str(w).rpartition(".")[0] for w in node.input if w in weights and "." in w]
    if owners:
        return owners[0]
    parents = [made_in[i].rpartition(".")[0] for i in node.input if i in made_in]
    return _common_prefix(parents) if parents else ""


def _common_prefix(paths: list[str]) -> str:
    split = [p.split(".") if p else [] for p in paths]
    common: list[str] = []
    for parts in zip(*split):
        if any(part != parts[0] for part in parts):
            break
        common.append(parts[0])
    return ".".join(common)


def _full_name(scope: str, name: str) -> str:
    segments = ["Default", *(f"{part}-" for part in scope.split(".") if part)]
    return "/".join([*segments, name])


def _value_abstract(value: Any) -> JsonDict:
    kind = value.type.WhichOneof("value")
    if kind != "tensor_type":
        return {"kind": "other"}
    tensor = value.type.tensor_type
    shape: Optional[list[int]] = None
    if tensor.HasField("shape"):  # -1: a symbolic dimension, as MindSpore writes dynamic ones
        shape = [d.dim_value if d.HasField("dim_value") else -1 for d in tensor.shape.dim]
    return {"kind": "tensor", "dtype": TENSOR_DTYPES.get(tensor.elem_type), "shape": shape}


def _attr(attr: Any) -> Any:
    """Scalars and lists as JSON; tensors and graphs by shape/name only."""
    onnx = deps.onnx()
    value = onnx.helper.get_attribute_value(attr)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, list):
        return [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in value
                if isinstance(v, (int, float, str, bytes))]  # fmt: skip
    if hasattr(value, "dims"):
        return {"dtype": TENSOR_DTYPES.get(value.data_type), "shape": [int(d) for d in value.dims]}
    return str(type(value).__name__)
