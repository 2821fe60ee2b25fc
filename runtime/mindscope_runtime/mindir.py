"""Decode a MINDIR file (`mindspore.export(..., file_format="MINDIR")`) without MindSpore.

The tables below transcribe the subset of MindSpore's public `mind_ir.proto` (package
`mind_ir`, proto2) that a graph view needs: ModelProto → GraphProto → NodeProto /
ValueInfoProto / TensorProto / AttributeProto, plus PrimitiveProto (the ops' attributes).
Tensor contents (`raw_data`) are not copied: only their byte length is kept.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.protowire import Message, ProtoDecodeError, Table, decode

_FIELD = re.compile(r"(repeated\s+)?(\w+)\s+(\w+)\s*=\s*(\d+)")


def messages(proto: str) -> dict[str, Table]:
    """Message tables from `.proto` declarations (`message Name { [repeated] kind field = n;
    … }`), kind a protowire kind or a message declared anywhere in `proto` (they nest)."""
    bodies = dict(re.findall(r"message\s+(\w+)\s*\{([^}]*)\}", proto))
    tables: dict[str, Table] = {name: {} for name in bodies}
    for name, body in bodies.items():
        for field in filter(None, (f.strip() for f in body.split(";"))):
            match = _FIELD.fullmatch(field)
            if match is None:
                raise ValueError(f"bad field declaration in {name}: {field!r}")
            label, kind, field_name, number = match.groups()
            tables[name][int(number)] = (field_name, tables.get(kind, kind), bool(label))
    return tables


# protowire kinds for proto2 types: int64/int32 → int; a bytes field whose length alone is
# kept → size. NodeProto.domain holds the full scope name (Default/conv-Conv2d/Conv2D-op0);
# AttributeProto.values the elements of a tuple, list or dict.
_MIND_IR = messages("""
message ModelProto { string ir_version = 1; string producer_name = 2;
    string producer_version = 3; string domain = 4; string model_version = 5;
    string doc_string = 6; GraphProto graph = 7; repeated GraphProto functions = 8;
    bool little_endian = 10; repeated PrimitiveProto primitives = 12; int mind_ir_version = 13; }
message GraphProto { repeated NodeProto node = 1; string name = 2;
    repeated TensorProto parameter = 3; string doc_string = 4; repeated ValueInfoProto input = 5;
    repeated ValueInfoProto output = 6; string bprop_hash = 7;
    repeated AttributeProto attribute = 8; }
message NodeProto { repeated string input = 1; repeated string output = 2; string name = 3;
    string op_type = 4; repeated AttributeProto attribute = 5; string doc_string = 6;
    string domain = 7; repeated AttributeProto node_attr = 8;
    repeated AttributeProto primal_attr = 9; }
message ValueInfoProto { string name = 1; repeated TensorProto tensor = 2; string doc_string = 3;
    string denotation = 4; AttributeProto attr_info = 5; }
message AttributeProto { string name = 1; float f = 2; int i = 3; double d = 4; bytes s = 5;
    TensorProto t = 6; GraphProto g = 7; repeated float floats = 8; repeated double doubles = 9;
    repeated int ints = 10; repeated bytes strings = 11; repeated TensorProto tensors = 12;
    repeated GraphProto graphs = 13; string doc_string = 14; string ref_attr_name = 15;
    enum type = 16; repeated AttributeProto values = 17; }
message TensorProto { repeated int dims = 1; int data_type = 2; string name = 7;
    string doc_string = 8; size raw_data = 9; ExternalDataProto external_data = 12;
    string ref_key = 13; }
message ExternalDataProto { string location = 1; int offset = 2; int length = 3; }
message PrimitiveProto { string name = 1; string op_type = 2;
    repeated AttributeProto attribute = 3; string instance_name = 4; enum prim_type = 5; }
""")
MODEL, GRAPH, NODE = _MIND_IR["ModelProto"], _MIND_IR["GraphProto"], _MIND_IR["NodeProto"]
VALUE_INFO, ATTRIBUTE = _MIND_IR["ValueInfoProto"], _MIND_IR["AttributeProto"]
TENSOR, EXTERNAL_DATA = _MIND_IR["TensorProto"], _MIND_IR["ExternalDataProto"]
PRIMITIVE = _MIND_IR["PrimitiveProto"]

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
