"""A small, defensive decoder of the protobuf wire format, driven by message tables.

No generated code and no dependency on the `protobuf` package. A message table maps field
numbers to `(name, kind, repeated)`; kinds are scalar names (`string`, `bytes`, `int`,
`uint`, `sint`, `bool`, `float`, `double`, `enum`), `size` (a bytes field of which only the
length is kept: weights need not be copied) or a nested table. Unknown fields are
skipped, as protobuf requires. Every read is bounds-checked: truncated or corrupt input
raises `ProtoDecodeError` (with the byte offset), never IndexError or a hang.
"""

from __future__ import annotations

import struct
from typing import Any, Union

Table = dict[int, tuple[str, Union[str, "Table"], bool]]
Message = dict[str, Any]

VARINT, FIXED64, LENGTH, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5
MAX_DEPTH = 64


class ProtoDecodeError(ValueError):
    """The bytes are not a valid encoding of the expected message."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} at byte {offset}")
        self.offset = offset


def read_varint(data: memoryview, pos: int, end: int) -> tuple[int, int]:
    """(value, next position) of the base-128 varint at `pos` (at most 10 bytes)."""
    result = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            raise ProtoDecodeError("truncated varint", start)
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result & 0xFFFFFFFFFFFFFFFF, pos
        shift += 7
        if shift >= 70:
            raise ProtoDecodeError("varint longer than 10 bytes", start)


def _signed64(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _zigzag(value: int) -> int:
    return (value >> 1) ^ -(value & 1)


def decode(data: Union[bytes, bytearray, memoryview], table: Table) -> Message:
    """Decode one whole buffer as the message described by `table`."""
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
    return _message(view, 0, len(view), table, 0)


def _message(data: memoryview, pos: int, end: int, table: Table, depth: int) -> Message:
    # The hot loop of reading a model (75,000 messages in a 10k-op MINDIR): one-byte varints
    # and the common field kinds are handled inline, the rest by the helpers below.
    if depth > MAX_DEPTH:
        raise ProtoDecodeError("messages nested too deeply", pos)
    out: Message = {}
    while pos < end:
        key_at = pos
        key = data[pos]
        if key < 0x80:
            pos += 1
        else:
            key, pos = read_varint(data, pos, end)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise ProtoDecodeError("field number 0", key_at)
        spec = table.get(number)
        if wire == LENGTH:
            if pos < end and data[pos] < 0x80:
                length = data[pos]
                pos += 1
            else:
                length, pos = read_varint(data, pos, end)
            if length > end - pos:
                raise ProtoDecodeError(f"length {length} runs past the end", pos)
            if spec is not None:
                name, kind, repeated = spec
                if kind == "string":
                    value: Any = str(data[pos : pos + length], "utf-8", "replace")
                    if repeated:
                        out.setdefault(name, []).append(value)
                    else:
                        out[name] = value
                elif isinstance(kind, dict):
                    value = _message(data, pos, pos + length, kind, depth + 1)
                    if repeated:
                        out.setdefault(name, []).append(value)
                    else:
                        out[name] = value
                else:
                    _length_field(out, spec, data, pos, pos + length, depth)
            pos += length
        elif wire == VARINT:
            if pos < end and data[pos] < 0x80:
                raw = data[pos]
                pos += 1
            else:
                raw, pos = read_varint(data, pos, end)
            if spec is not None:
                _store(out, spec, _scalar_varint(raw, spec[1], key_at))
        elif wire in (FIXED64, FIXED32):
            size = 8 if wire == FIXED64 else 4
            if pos + size > end:
                raise ProtoDecodeError("truncated fixed-width field", pos)
            chunk = bytes(data[pos : pos + size])
            pos += size
            if spec is not None:
                _store(out, spec, _scalar_fixed(chunk, spec[1], key_at))
        else:  # groups are not used by mind_ir.proto; anything else is corrupt
            raise ProtoDecodeError(f"unsupported wire type {wire}", key_at)
    if pos != end:
        raise ProtoDecodeError("field runs past its message", pos)
    return out


def _store(out: Message, spec: tuple[str, Any, bool], value: Any) -> None:
    name, _, repeated = spec
    if repeated:
        out.setdefault(name, []).append(value)
    else:
        out[name] = value


def _scalar_varint(raw: int, kind: Any, at: int) -> Any:
    if kind in ("int", "enum"):
        return _signed64(raw)
    if kind == "uint":
        return raw
    if kind == "sint":
        return _zigzag(raw)
    if kind == "bool":
        return raw != 0
    raise ProtoDecodeError(f"varint where a {kind if isinstance(kind, str) else 'message'} "
                           "was expected", at)  # fmt: skip


def _scalar_fixed(chunk: bytes, kind: Any, at: int) -> Any:
    if kind == "float" and len(chunk) == 4:
        return struct.unpack("<f", chunk)[0]
    if kind == "double" and len(chunk) == 8:
        return struct.unpack("<d", chunk)[0]
    if kind in ("int", "uint", "enum") and len(chunk) == 8:
        return int.from_bytes(chunk, "little", signed=kind != "uint")
    if kind in ("int", "uint", "enum") and len(chunk) == 4:
        return int.from_bytes(chunk, "little", signed=kind != "uint")
    raise ProtoDecodeError(f"fixed-width value where a {kind!s:.20} was expected", at)


def _length_field(
    out: Message, spec: tuple[str, Any, bool], data: memoryview, pos: int, end: int, depth: int
) -> None:
    name, kind, repeated = spec
    if isinstance(kind, dict):
        _store(out, spec, _message(data, pos, end, kind, depth + 1))
    elif kind == "string":
        _store(out, spec, bytes(data[pos:end]).decode("utf-8", errors="replace"))
    elif kind == "bytes":
        _store(out, spec, bytes(data[pos:end]))
    elif kind == "size":
        _store(out, spec, end - pos)
    elif repeated:  # a packed repeated scalar
        out.setdefault(name, []).extend(_packed(data, pos, end, kind))
    else:
        raise ProtoDecodeError(f"length-delimited data where a {kind} was expected", pos)


def _packed(data: memoryview, pos: int, end: int, kind: str) -> list[Any]:
    if kind in ("float", "double"):
        size, fmt = (4, "<f") if kind == "float" else (8, "<d")
        if (end - pos) % size:
            raise ProtoDecodeError(f"packed {kind}s not a multiple of {size} bytes", pos)
        return [v[0] for v in struct.iter_unpack(fmt, bytes(data[pos:end]))]
    values: list[Any] = []
    while pos < end:
        at = pos
        raw, pos = read_varint(data, pos, end)
        values.append(_scalar_varint(raw, kind, at))
    return values
