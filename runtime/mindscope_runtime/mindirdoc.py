"""A decoded MINDIR model → the graph document (`meta.capture: "mindir"`), without MindSpore.

The model is translated into the same `IRModule` the text-IR parser produces, so nodes,
edges, the Cell scope tree, parameters and fusion patterns come out exactly as for a
captured graph. Node names become `%1, %2…` per graph; parameters `%paraN_<name>`; `Constant`
nodes become constant arguments of the nodes that use them.
"""

from __future__ import annotations

import gc
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.irparse import IRGraph, IRModule, IRNode, IRParam
from mindscope_runtime.mindir import (
    ATTR_TYPES,
    TENSOR_DTYPES,
    attr_value,
    read_model,
    tensor_abstract,
)
from mindscope_runtime.protowire import Message

JsonDict = dict[str, Any]

MAX_SCOPE_SEGMENTS = 200
_ROOT_CELL = re.compile(r"_([A-Za-z][A-Za-z0-9]*)_construct_\d+$")


def read_mindir_document(path: Path) -> JsonDict:
    started = time.perf_counter()
    with gc_paused():
        model = read_model(path)
        module = to_ir_module(model)
        for graph in [model["graph"], *model.get("functions", [])]:
            # converted: drop the decoded nodes before the document doubles the memory
            graph.pop("node", None)
            graph.pop("parameter", None)
        document = mindir_document(model, source=str(path), module=module)
    document["meta"]["parseSeconds"] = round(time.perf_counter() - started, 4)
    document["meta"]["mindir"]["fileBytes"] = path.stat().st_size
    return document


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a model becomes a document: both are trees of
    millions of fresh dicts and lists (no cycles), which the collector would otherwise scan
    again and again as they grow (a fifth of a 50k-op read)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def mindir_document(model: Message, *, source: str, module: Optional[IRModule] = None) -> JsonDict:
    """The graph document of a decoded model (`module`: its IR module, if converted already)."""
    module = module or to_ir_module(model)
    _check_scope_depth(module)
    main = model["graph"]
    found = _ROOT_CELL.search(str(main.get("name", "")))
    root_type = found.group(1) if found else None
    inputs = [
        {"shape": p.abstract.get("shape"), "dtype": p.abstract.get("dtype") or "unknown"}
        for p in module.params
        if not p.is_weight and p.graph is None
    ]
    meta: JsonDict = {
        "mindsporeVersion": model.get("model_version") or model.get("producer_version") or "",
        "mode": "GRAPH_MODE",
        "syntaxLevel": "unknown",
        "capture": "mindir",
        "device": "none",
        "target": source,
        "inputs": inputs,
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "mindir": {
            "irVersion": model.get("ir_version", ""),
            "mindIrVersion": model.get("mind_ir_version"),
            "producer": model.get("producer_name", ""),
            "graph": main.get("name", ""),
            "functions": len(model.get("functions", [])),
            "primitives": len(model.get("primitives", [])),
            "graphAttrs": {a.get("name", ""): _jsonable(attr_value(a))
                           for a in main.get("attribute", [])},
        },
    }  # fmt: skip
    if root_type:
        meta["rootCell"] = root_type
    return build_graph_document(module, meta=meta, root_type=root_type)


def _check_scope_depth(module: IRModule) -> None:
    """The scope tree nests two JSON levels per segment: bound it so that the document can be
    written and drawn (real models stay far below; a crafted file had 1,000+ segments)."""
    for graph in module.graphs:
        for node in graph.nodes:
            depth = node.full_name.count("/") + 1
            if depth > MAX_SCOPE_SEGMENTS:
                raise RuntimeToolError(
                    "bad-mindir",
                    f"node {node.debug_name[:80]!r} has a scope of {depth:,} segments "
                    f"(at most {MAX_SCOPE_SEGMENTS} are supported)",
                )


def to_ir_module(model: Message) -> IRModule:
    primitives = {p.get("name", ""): p for p in model.get("primitives", [])}
    graphs: list[Message] = [model["graph"], *model.get("functions", [])]
    graph_names = {str(g.get("name", "")) for g in graphs}
    module = IRModule(entry=str(model["graph"].get("name", "")), attrs={}, jit_config={},
                      params=[], graphs=[])  # fmt: skip
    for index, graph in enumerate(graphs):
        module.graphs.append(_graph(graph, index == 0, module, primitives, graph_names))
    return module


def _graph(
    graph: Message,
    is_main: bool,
    module: IRModule,
    primitives: dict[str, Message],
    graph_names: set[str],
) -> IRGraph:
    name = str(graph.get("name", ""))
    refs: dict[str, str] = {}  # MINDIR value name → IR argument text
    abstracts: dict[str, JsonDict] = {}
    constants: dict[str, JsonDict] = {}  # a Constant's output → its type (scalar, tuple…)
    out = IRGraph(name=name, params=[])
    for value in graph.get("input", []):
        pid = _add_param(module, value.get("name", ""), _value_abstract(value), False,
                         None if is_main else name)  # fmt: skip
        refs[value.get("name", "")] = pid
        abstracts[pid] = module.params[-1].abstract
        out.params.append(pid)
    for tensor in graph.get("parameter", []):
        pid = _add_param(module, tensor.get("name", ""), tensor_abstract(tensor), True, None)
        refs[tensor.get("name", "")] = pid
        abstracts[pid] = module.params[-1].abstract
    for node in graph.get("node", []):
        if node.get("op_type") == "Constant":
            for output in node.get("output", []) or [node.get("name", "")]:
                refs[output] = _constant_text(node)
                constants[output] = _constant_abstract(node)
            continue
        local = f"%{len(out.nodes) + 1}"
        op, attrs = _op(str(node.get("op_type", "")), primitives, graph_names)
        names = node.get("input", [])
        args = [_arg(i, refs, graph_names) for i in names]
        inputs = [
            constants.get(i) or abstracts.get(a, {"kind": "other"}) for i, a in zip(names, args)
        ]
        outputs = [_shape_attr(node)]
        ir_node = IRNode(
            graph=name, local_id=local, debug_name=str(node.get("name", "")), op=op, args=args,
            attrs=attrs, inputs=inputs, outputs=outputs, full_name=str(node.get("domain", "")),
        )  # fmt: skip
        out.nodes.append(ir_node)
        for output in node.get("output", []) or [node.get("name", "")]:
            refs[output] = local
        abstracts[local] = outputs[0]
    return out


def _add_param(
    module: IRModule, full: str, abstract: JsonDict, is_weight: bool, graph: Optional[str]
) -> str:
    short = full.rpartition(":")[2] or full
    pid = f"%para{len(module.params) + 1}_{short}"
    module.params.append(IRParam(pid, short, abstract, is_weight, graph))
    return pid


def _value_abstract(value: Message) -> JsonDict:
    tensors = value.get("tensor", [])
    if tensors:
        return tensor_abstract(tensors[0])
    if "attr_info" in value:
        return _attr_abstract(value["attr_info"])
    return {"kind": "other"}


def _op(
    op_type: str, primitives: dict[str, Message], graph_names: set[str]
) -> tuple[str, JsonDict]:
    """`REF::Conv2D:4` → ("Conv2D", attrs of primitive `Conv2D:4`); a graph → ("@g", {})."""
    ref = op_type[len("REF::") :] if op_type.startswith("REF::") else op_type
    prim = primitives.get(ref)
    if prim is not None:
        attrs: JsonDict = {"primitive_attrs": {a.get("name", ""): _jsonable(attr_value(a))
                                               for a in prim.get("attribute", [])}}  # fmt: skip
        if prim.get("instance_name"):
            attrs["instance_name"] = prim["instance_name"]
        return str(prim.get("op_type") or ref.rpartition(":")[0] or ref), attrs
    if ref in graph_names:
        return "@" + ref, {}
    base = ref.rpartition(":")[0] if re.search(r":\d+$", ref) else ref
    return base or "Unknown", {}


def _arg(name: str, refs: dict[str, str], graph_names: set[str]) -> str:
    if name in refs:
        return refs[name]
    if name in graph_names:
        return "@" + name
    return name


def _shape_attr(node: Message) -> JsonDict:
    for attr in node.get("attribute", []):
        if attr.get("name") == "shape":
            return _attr_abstract(attr)
    return {"kind": "other"}


def _attr_abstract(attr: Message) -> JsonDict:
    """A node's `shape` attribute (its output abstract) → the IR parser's abstract dict."""
    kind = ATTR_TYPES.get(attr.get("type", 0), "UNDEFINED")
    if kind in ("TENSORS", "TENSOR"):
        tensors = attr.get("tensors") or ([attr["t"]] if "t" in attr else [])
        return tensor_abstract(tensors[0]) if tensors else {"kind": "tensor", "dtype": None,
                                                            "shape": None}  # fmt: skip
    if kind in ("TUPLE", "LIST"):
        return {
            "kind": kind.lower(),
            "elements": [_attr_abstract(v) for v in attr.get("values", [])],
        }
    if kind in ("UMONAD", "IOMONAD"):
        return {"kind": "monad", "dtype": "UMonad" if kind == "UMONAD" else "IOMonad"}
    if kind == "NONE":
        return {"kind": "none"}
    number = attr.get("type", 0)
    if number in TENSOR_DTYPES and number <= 16:
        return {"kind": "scalar", "dtype": TENSOR_DTYPES[number]}
    return {"kind": "other"}


def _constant_abstract(node: Message) -> JsonDict:
    """A Constant's type from its `value` attribute: `-1` is an Int64 scalar, not "other"."""
    attr = next((a for a in node.get("attribute", []) if a.get("name") == "value"), None)
    return _attr_abstract(attr) if attr is not None else {"kind": "none"}


def _constant_text(node: Message) -> str:
    attr = next((a for a in node.get("attribute", []) if a.get("name") == "value"), None)
    if attr is None:
        return "None"
    kind = ATTR_TYPES.get(attr.get("type", 0), "UNDEFINED")
    if kind == "UMONAD":
        return "UMonad"
    if kind == "IOMONAD":
        return "IOMonad"
    value = _jsonable(attr_value(attr))
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(", ", ": "))
    return str(value)


def _jsonable(value: Any) -> Any:
    """Tensor abstracts in attributes are kept as {dtype, shape}; everything else as is."""
    if isinstance(value, dict) and value.get("kind") == "tensor":
        return {"dtype": value.get("dtype"), "shape": value.get("shape")}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value
