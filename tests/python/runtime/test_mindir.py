"""The pure-Python MINDIR decoder: wire format, a real exported file, and fuzzing."""

from __future__ import annotations

import json
import random
import struct
from collections import Counter
from pathlib import Path

import pytest

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.mindir import decode_model, messages
from mindscope_runtime.mindirdoc import MAX_SCOPE_SEGMENTS, mindir_document, read_mindir_document
from mindscope_runtime.protowire import Message, ProtoDecodeError, Table, decode, read_varint
from mindscope_runtime.schemacheck import load_schema, validate

FIXTURE = Path(__file__).parent / "fixtures" / "tiny_net.mindir"
SCHEMA = Path(__file__).resolve().parents[3] / "schemas" / "graph-document.schema.json"


def varint(value: int) -> bytes:
    value &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number: int, wire: int, payload: bytes) -> bytes:
    if wire == 2:
        return varint(number << 3 | 2) + varint(len(payload)) + payload
    return varint(number << 3 | wire) + payload


INNER: Table = {1: ("n", "int", False), 2: ("xs", "int", True), 3: ("f", "float", False)}
OUTER: Table = {1: ("name", "string", False), 2: ("inner", INNER, True),
                3: ("ok", "bool", False), 4: ("d", "double", False)}  # fmt: skip


def test_message_tables_from_proto_declarations_nest_each_other() -> None:
    tables = messages("message A { repeated int xs = 1; B b = 3; }  message B { B again = 2; }")
    a, b = tables["A"], tables["B"]
    assert a == {1: ("xs", "int", True), 3: ("b", b, False)}
    assert b[2] == ("again", b, False)  # a message may hold itself
    with pytest.raises(ValueError, match="bad field declaration in A"):
        messages("message A { optional int x = 1; }")


def test_varints_round_trip() -> None:
    for value in (0, 1, 127, 128, 300, 2**32, 2**63 - 1):
        assert read_varint(memoryview(varint(value)), 0, len(varint(value))) == (
            value,
            len(varint(value)),
        )


def test_decode_nested_packed_unpacked_negative_and_unknown_fields() -> None:
    inner = (
        field(1, 0, varint(-5))
        + field(2, 0, varint(7))
        + field(2, 2, varint(8) + varint(9))  # packed and unpacked mix
        + field(3, 5, struct.pack("<f", 1.5))
        + field(9, 2, b"skipped")  # unknown: skipped
        + field(10, 1, b"\0" * 8)
    )
    data = field(1, 2, "héllo".encode()) + field(2, 2, inner) + field(2, 2, b"")
    data += field(3, 0, varint(1)) + field(4, 1, struct.pack("<d", -2.25))
    message = decode(data, OUTER)
    assert message["name"] == "héllo" and message["ok"] is True and message["d"] == -2.25
    assert message["inner"] == [{"n": -5, "xs": [7, 8, 9], "f": 1.5}, {}]


@pytest.mark.parametrize(
    "data",
    [
        b"\x0a\x05abc",  # length past the end
        b"\x08",  # truncated varint
        b"\x08" + b"\xff" * 11,  # over-long varint
        b"\x00\x01",  # field number 0
        b"\x0b",  # wire type 3 (group)
        b"\x25\x00\x00",  # truncated fixed32
        b"\x12\x03\x0a\x05x",  # a nested length past its parent's end
    ],
)
def test_corrupt_bytes_raise_decode_errors(data: bytes) -> None:
    with pytest.raises(ProtoDecodeError):
        decode(data, OUTER)


def test_real_export_decodes_to_a_valid_graph_document() -> None:
    model = decode_model(FIXTURE.read_bytes())
    assert model["producer_name"] == "MindSpore" and model["model_version"] == "2.10.0"
    document = read_mindir_document(FIXTURE)
    assert validate(document, load_schema(SCHEMA)) == []
    meta = document["meta"]
    assert meta["capture"] == "mindir" and meta["rootCell"] == "TinyNet"
    assert meta["inputs"] == [{"shape": [1, 3, 4, 4], "dtype": "Float32"}]
    compute = [n for n in document["nodes"] if n["category"] == "compute"]
    assert Counter(n["opType"] for n in compute) == Counter(
        ["Conv2D", "BatchNorm", "ReLU", "Flatten", "MatMul", "BiasAdd"]
    )
    conv = next(n for n in compute if n["opType"] == "Conv2D")
    assert conv["fullName"] == "Default/block-Block/conv-Conv2d/Conv2D-op0"
    assert conv["inputs"][0] == {"kind": "param", "ref": "%para1_x", "type": "tensor",
                                 "dtype": "Float32", "shape": [1, 3, 4, 4]}  # fmt: skip
    assert conv["outputs"] == [{"type": "tensor", "dtype": "Float32", "shape": [1, 4, 4, 4]}]
    assert conv["attrs"]["pad_mode"] == "same" and conv["attrs"]["kernel_size"] == [3, 3]
    weights = {p["name"]: p for p in document["parameters"] if p["kind"] == "weight"}
    assert weights["block.conv.weight"]["shape"] == [4, 3, 3, 3]
    assert weights["fc.weight"]["size"] == 3 * 64
    (root,) = document["scopes"]
    assert root["cellType"] == "TinyNet" and root["paramCount"] == 108 + 16 + 192 + 3
    assert [p["kind"] for p in document["patterns"]] == ["Conv-BN-Act", "MatMul-Bias"]
    assert any(e["from"] == conv["id"] and e["kind"] == "data" for e in document["edges"])


@pytest.mark.parametrize("data", [b"", b"\x00", b"not a mindir file at all", b"\x3a\x00"])
def test_non_mindir_bytes_give_a_clear_error(data: bytes) -> None:
    with pytest.raises(RuntimeToolError) as raised:
        decode_model(data)
    assert raised.value.kind == "bad-mindir"


def _decode_or_clear_error(data: bytes) -> None:
    try:
        model = decode_model(data)
    except RuntimeToolError as exc:
        assert exc.kind == "bad-mindir" and "\n" not in exc.message
        return
    mindir_document(model, source="fuzz")  # whatever decodes must also convert


def test_fuzz_truncations_never_crash() -> None:
    data = FIXTURE.read_bytes()
    for cut in range(0, len(data), 7):
        _decode_or_clear_error(data[:cut])


def test_fuzz_byte_flips_never_crash() -> None:
    data = FIXTURE.read_bytes()
    rng = random.Random(5)
    for _ in range(600):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        _decode_or_clear_error(bytes(mutated))


def _with_scope_depth(segments: int) -> Message:
    model = decode_model(FIXTURE.read_bytes())
    scope = "Default/" + "/".join(f"s{i}-Block" for i in range(segments - 2)) + "/Conv2D-op0"
    for node in model["graph"]["node"]:
        node["domain"] = scope
    return model


def test_deep_scopes_render_up_to_the_bound() -> None:
    document = mindir_document(_with_scope_depth(MAX_SCOPE_SEGMENTS), source="deep")
    assert json.loads(json.dumps(document))["scopes"]  # the document can be written…
    depth, node = 1, document["scopes"][0]
    while node["children"]:
        node, depth = node["children"][0], depth + 1
    assert depth == MAX_SCOPE_SEGMENTS - 1  # …and holds the whole tree


@pytest.mark.parametrize("segments", [MAX_SCOPE_SEGMENTS + 1, 1_000, 20_000])
def test_scopes_deeper_than_the_bound_are_a_bad_mindir(segments: int) -> None:
    with pytest.raises(RuntimeToolError) as raised:
        mindir_document(_with_scope_depth(segments), source="deep")
    assert raised.value.kind == "bad-mindir"
    assert f"{segments:,} segments" in raised.value.message
