"""The graph a summary records (`anf_ir.proto` GraphProto, written by `SummaryRecord` with a
network, or `SummaryCollector(collect_graph=True)`) → the graph document (`capture: "summary"`).

The GraphProto becomes the `IRModule` the text-IR parser produces, so nodes, edges, the Cell
scope tree and patterns come out as for a captured graph. `inputsN` parameters are the
network's inputs, the other parameters its weights; `cstN` constants become constant
arguments of the nodes that use them.
"""

from __future__ import annotations

import re
import time
from typing import Any

from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.irparse import IRGraph, IRModule, IRNode, IRParam
from mindscope_runtime.summary import schema_descriptors

JsonDict = dict[str, Any]
_INPUT = re.compile(r"inputs\d+$")
_ROOT_CELL = re.compile(r"_([A-Za-z][A-Za-z0-9]*)_construct_\d+$")
# anf_ir.proto DataType numbers → the dtype names MindSpore's IR uses.
_DTYPES = {
    1: "Bool", 2: "Int8", 3: "Int16", 4: "Int32", 5: "Int64", 6: "UInt8", 7: "UInt16",
    8: "UInt32", 9: "UInt64", 10: "Float16", 11: "Float32", 12: "Float64", 13: "String",
    43: "Complex64", 44: "Complex128", 46: "BFloat16",
}  # fmt: skip
_DT_TENSOR, _DT_TUPLE, _DT_LIST, _DT_NONE = 14, 31, 32, 34


def type_abstract(type_proto: Any) -> JsonDict:
    """A TypeProto as the graph document's abstract: tensor, tuple, monad or other."""
    kind = type_proto.data_type
    if kind == _DT_TENSOR:
        tensor = type_proto.tensor_type
        shape = [int(d.size) for d in tensor.shape.dim]
        return {"kind": "tensor", "dtype": _DTYPES.get(tensor.elem_type, "unknown"), "shape": shape}
    if kind in (_DT_TUPLE, _DT_LIST):
        elements = [type_abstract(e) for e in type_proto.sequence_type.elem_types]
        return {"kind": "tuple" if kind == _DT_TUPLE else "list", "elements": elements}
    if kind in _DTYPES:
        return {"kind": "scalar", "dtype": _DTYPES[kind]}
    if kind >= 49:  # UMonad / IOMonad and other non-values
        return {"kind": "monad"}
    return {"kind": "other"}


def value_text(value: Any) -> str:
    """A ValueProto constant as IR-like text (`(4, 3)`, `True`, `"U"`)."""
    # ValueProto has no oneof: its dtype says which field holds the value.
    if value.dtype in (_DT_TUPLE, _DT_LIST):
        inner = ", ".join(value_text(v) for v in value.values)
        return f"({inner})" if value.dtype == _DT_TUPLE else f"[{inner}]"
    if value.dtype == 1:
        return str(value.bool_val)
    if value.dtype in (2, 3, 4, 5):
        return str(value.int_val)
    if value.dtype in (6, 7, 8, 9):
        return str(value.uint_val)
    if value.dtype in (10, 11):
        return repr(value.float_val)
    if value.dtype == 12:
        return repr(value.double_val)
    if value.dtype == _DT_TENSOR:
        dims = ", ".join(str(d) for d in value.tensor_val.dims)
        return f"Tensor(shape=[{dims}])"
    if value.dtype == _DT_NONE:
        return "None"
    return repr(value.str_val) if value.str_val else "<constant>"


def _attr_value(value: Any) -> Any:
    if value.dtype in (_DT_TUPLE, _DT_LIST):
        return [_attr_value(v) for v in value.values]
    if value.dtype == 13 or (value.dtype == 0 and value.str_val):
        return value.str_val
    text = value_text(value)
    return value.bool_val if value.dtype == 1 else _number(text)


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def to_ir_module(graph: Any) -> IRModule:
    name = graph.name
    module = IRModule(entry=name, attrs={}, jit_config={}, params=[], graphs=[])
    out = IRGraph(name=name, params=[])
    refs: dict[str, str] = {}
    abstracts: dict[str, JsonDict] = {}
    for param in graph.parameters:
        is_weight = not _INPUT.match(param.name)
        pid = f"%para{len(module.params) + 1}_{param.name}"
        abstract = type_abstract(param.type)
        module.params.append(IRParam(pid, param.name, abstract, is_weight, None))
        refs[param.name] = pid
        abstracts[pid] = abstract
        if not is_weight:
            out.params.append(pid)
    for const in graph.const_vals:
        refs[const.key] = value_text(const.value)
    for node in graph.node:
        local = f"%{node.name}"
        args = [refs.get(i.name, f"%{i.name}") for i in node.input]
        attrs = {"primitive_attrs": {a.name: _attr_value(a.value) for a in node.attribute}}
        if node.instance_name:
            attrs["instance_name"] = node.instance_name
        output = type_abstract(node.output_type)
        ir_node = IRNode(
            graph=name, local_id=local, debug_name=node.name, op=node.op_type, args=args,
            attrs=attrs, inputs=[abstracts.get(a, {"kind": "other"}) for a in args],
            outputs=[output], full_name=node.full_name,
        )  # fmt: skip
        out.nodes.append(ir_node)
        refs[node.name] = local
        abstracts[local] = output
    module.graphs.append(out)
    return module


def summary_graph_document(graph: Any, *, source: str) -> JsonDict:
    module = to_ir_module(graph)
    found = _ROOT_CELL.search(graph.name)
    root_type = found.group(1) if found else None
    inputs = [{"shape": p.abstract.get("shape"), "dtype": p.abstract.get("dtype") or "unknown"}
              for p in module.params if not p.is_weight]  # fmt: skip
    meta: JsonDict = {
        "mindsporeVersion": schema_descriptors.MINDSPORE_VERSION,
        "mode": "GRAPH_MODE",
        "syntaxLevel": "unknown",
        "capture": "summary",
        "device": "none",
        "target": source,
        "inputs": inputs,
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    if root_type:
        meta["rootCell"] = root_type
    return build_graph_document(module, meta=meta, root_type=root_type)
