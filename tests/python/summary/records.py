"""Test helpers: frame payloads as MindSpore's writer does, and decode a file with MindSpore's
own generated `summary_pb2` (the reference the reader is compared with)."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from mindscope_runtime.summary.crc import masked_crc32c
from mindscope_runtime.summary.proto import event_class

FIXTURE = Path(__file__).parent / "fixtures" / "record_run"


def frame(payload: bytes) -> bytes:
    length = struct.pack("<Q", len(payload))
    crcs = struct.pack("<I", masked_crc32c(length)), struct.pack("<I", masked_crc32c(payload))
    return length + crcs[0] + payload + crcs[1]


def scalar_event(step: int, value: float, tag: str = "loss") -> bytes:
    event = event_class()(wall_time=1000.0 + step, step=step)
    item = event.summary.value.add()
    item.tag = tag
    item.scalar_value = value
    data: bytes = event.SerializeToString()
    return data


def fixture_file() -> Path:
    return next(FIXTURE.glob("events.out.events.summary.*"))


def record_offsets(data: bytes) -> list[int]:
    """Offsets of the records of a well-formed file."""
    offsets, pos = [], 0
    while pos < len(data):
        offsets.append(pos)
        (length,) = struct.unpack_from("<Q", data, pos)
        pos += 16 + length
    return offsets


def reference_events(path: Path) -> list[Any]:
    """The events as MindSpore's own `summary_pb2` decodes them (needs MindSpore)."""
    from mindspore.train import summary_pb2

    data = path.read_bytes()
    events = []
    for offset in record_offsets(data):
        (length,) = struct.unpack_from("<Q", data, offset)
        event = summary_pb2.Event()
        event.ParseFromString(data[offset + 12 : offset + 12 + length])
        events.append(event)
    return events
