"""Decode a MINDIR file (`mindspore.export(..., file_format="MINDIR")`) without MindSpore.

The tables below transcribe the subset of MindSpore's public `mind_ir.proto` (package
`mind_ir`, proto2) that a graph view needs: ModelProto → GraphProto → NodeProto /
ValueInfoProto / TensorProto / AttributeProto, plus PrimitiveProto (the ops' attributes).
Tensor contents (`raw_data`) are not copied: only their byte length is kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.protowire import Message, ProtoDecodeError, Table, decode

EXTERNAL_DATA: Table = {1: ("location", "string", False), 2: ("offset", "int", False),
                        3: ("length", "int", False)}  # fmt: skip
TENSOR: Table = {
    1: ("dims", "int", True),
    2: ("data_type", "int", False),
    7: ("name", "string", False),
    8: ("doc_string", "string", False),
    9: ("raw_data", "size", False),
    12: ("external_data", EXTERNAL_DATA, False),
    13: ("ref_key", "string", False),
}
ATTRIBUTE: Table = {
    1: ("name", "string", False),
    2: ("f", "float", False),
    3: ("i", "int", False),
    4: ("d", "double", False),
    5: ("s", "bytes", False),
    6: ("t", TENSOR, False),
    8: ("floats", "float", True),
    9: ("doubles", "double", True),
    10: ("ints", "int", True),
    11: ("strings", "bytes", True),
    12: ("tensors", TENSOR, True),
    14: ("doc_string", "string", False),
    15: ("ref_attr_name", "string", False),
    16: ("type", "enum", False),
}
ATTRIBUTE[17] = ("values", ATTRIBUTE, True)  # tuple, list and dict elements
VALUE_INFO: Table = {
    1: ("name", "string", False),
    2: ("tensor", TENSOR, True),
    3: ("doc_string", "string", False),
    4: ("denotation", "string", False),
    5: ("attr_info", ATTRIBUTE, False),
}
NODE: Table = {
    1: ("input", "string", True),
    2: ("output", "string", True),
    3: ("name", "string", False),
    4: ("op_type", "string", False),
    5: ("attribute", ATTRIBUTE, True),
    6: ("doc_string", "string", False),
    7: ("domain", "string", False),  # the full scope name: Default/conv-Conv2d/Conv2D-op0
    8: ("node_attr", ATTRIBUTE, True),
    9: ("primal_attr", ATTRIBUTE, True),
}
GRAPH: Table = {
    1: ("node", NODE, True),
    2: ("name", "string", False),
    3: ("parameter", TENSOR, True),
    4: ("doc_string", "string", False),
    5: ("input", VALUE_INFO, True),
    6: ("output", VALUE_INFO, True),
    7: ("bprop_hash", "string", False),
    8: ("attribute", ATTRIBUTE, True),
}
ATTRIBUTE[7] = ("g", GRAPH, False)
ATTRIBUTE[13] = ("graphs", GRAPH, True)
PRIMITIVE: Table = {
    1: ("name", "string", False),
    2: ("op_type", "string", False),
    3: ("attribute", ATTRIBUTE, True),
    4: ("instance_name", "string", False),
    5: ("prim_type", "enum", False),
}
MODEL: Table = {
    1: ("ir_version", "string", False),
    2: ("producer_name", "string", False),
    3: ("producer_version", "string", False),
    4: ("domain", "string", False),
    5: ("model_version", "string", False),
    6: ("doc_string", "string", False),
    7: ("graph", GRAPH, False),
    8: ("functions", GRAPH, True),
    10: ("little_endian", "bool", False),
    12: ("primitives", PRIMITIVE, True),
    13: ("mind_ir_version", "int", False),
}

# TensorProto.DataType → MindSpore's dtype names as the IR text prints them.
TENSOR_DTYPES = {
    1: "Float32", 2: "UInt8", 3: "Int8", 4: "UInt16", 5: "Int16", 6: "Int32", 7: "Int64",
    8: "String", 9: "Bool", 10: "Float16", 11: "Float64", 12: "UInt32", 13: "UInt64",
    14: "Complex64", 15: "Complex128", 16: "BFloat16", 17: "Float64", 18: "Int4",
}  # fmt: skip
# AttributeProto.AttributeType names (the scalar ones share TensorProto's numbering).
ATTR_TYPES = {
    0: "UNDEFINED", 1: "FLOAT", 2: "UINT8", 3: "INT8", 4: "UINT16", 5: "INT16", 6: "INT32",
    7: "INT64", 8: "STRING", 9: "BOOL", 10: "FLOAT16", 11: "DOUBLE", 12: "UINT32",
    13: "UINT64", 14: "COMPLEX64", 15: "COMPLEX128", 16: "BFLOAT16", 17: "TENSOR",
    18: "GRAPH", 19: "TENSORS", 20: "TUPLE", 21: "LIST", 22: "DICT", 23: "UMONAD",
    24: "IOMONAD", 25: "NONE", 26: "PRIMITIVECLOSURE", 27: "FUNCGRAPHCLOSURE",
    28: "PARTIALCLOSURE", 29: "UNIONFUNCCLOSURE", 30: "CSR_TENSOR", 31: "COO_TENSOR",
    32: "ROW_TENSOR", 33: "CLASS_TYPE", 34: "NAME_SPACE", 35: "SYMBOL", 36: "TYPE_NULL",
    37: "MAP_TENSOR", 38: "FUNCTOR", 39: "SCALAR",
}  # fmt: skip

MAX_FILE_BYTES = 4 << 30


def decode_model(data: bytes) -> Message:
    """Decode a ModelProto; raise RuntimeToolError(`bad-mindir`) when it is not one."""
    if not data:
        raise RuntimeToolError("bad-mindir", "the file is empty")
    try:
        model = decode(data, MODEL)
    except ProtoDecodeError as exc:
        raise RuntimeToolError("bad-mindir", f"not a valid MINDIR file: {exc}") from exc
    except RecursionError as exc:
        raise RuntimeToolError("bad-mindir", "not a valid MINDIR file: nested too deep") from exc
    graph = model.get("graph")
    if not isinstance(graph, dict) or not graph.get("node"):
        raise RuntimeToolError("bad-mindir", "not a MINDIR file: it holds no graph with nodes")
    return model


def read_model(path: Path) -> Message:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RuntimeToolError("bad-mindir", f"{path.name} is over 4 GiB")
        data = path.read_bytes()
    except OSError as exc:
        raise RuntimeToolError("file-not-found", f"cannot read {path}: {exc.strerror}") from exc
    return decode_model(data)


def attr_value(attr: Message) -> Any:
    """An AttributeProto as a JSON value (tensors as {dtype, shape}; graphs by name)."""
    kind = ATTR_TYPES.get(attr.get("type", 0), "UNDEFINED")
    if kind in ("TUPLE", "LIST"):
        return [attr_value(v) for v in attr.get("values", [])]
    if kind == "DICT":
        return {str(v.get("name", i)): attr_value(v) for i, v in enumerate(attr.get("values", []))}
    if kind in ("UMONAD", "IOMONAD", "NONE"):
        return None
    if kind == "TENSORS" or kind == "TENSOR":
        tensors = attr.get("tensors") or ([attr["t"]] if "t" in attr else [])
        described = [tensor_abstract(t) for t in tensors]
        return described[0] if len(described) == 1 else described
    if kind == "GRAPH":
        return {"graph": attr.get("g", {}).get("name", "")}
    if kind == "BOOL":
        return bool(attr.get("i", 0))
    if kind in ("FLOAT", "FLOAT16", "BFLOAT16"):
        return _finite(attr.get("f", 0.0))
    if kind == "DOUBLE":
        return _finite(attr.get("d", 0.0))
    if kind == "STRING":
        return _text(attr.get("s", b""))
    if "ints" in attr or "floats" in attr or "strings" in attr:
        return _first_of(attr)
    return attr.get("i", 0)


def _first_of(attr: Message) -> Any:
    if attr.get("ints"):
        return attr["ints"][0] if len(attr["ints"]) == 1 else list(attr["ints"])
    if attr.get("floats"):
        values = [_finite(f) for f in attr["floats"]]
        return values[0] if len(values) == 1 else values
    strings = [_text(s) for s in attr.get("strings", [])]
    return strings[0] if len(strings) == 1 else strings


def tensor_abstract(tensor: Message) -> dict[str, Any]:
    return {
        "kind": "tensor",
        "dtype": TENSOR_DTYPES.get(tensor.get("data_type", 0)),
        "shape": [int(d) for d in tensor.get("dims", [])],
    }


def _text(value: Any) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)


def _finite(value: float) -> Any:
    return value if value == value and value not in (float("inf"), float("-inf")) else str(value)
