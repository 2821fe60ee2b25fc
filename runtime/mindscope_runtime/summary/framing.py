"""Split a summary file into records: u64 little-endian length, masked CRC32C of those 8 bytes,
payload, masked CRC32C of the payload (the TFRecord framing MindSpore's summary writer uses).

A record whose payload CRC fails is reported and skipped (its length was checked, so the next
record starts where it ends). A length whose CRC fails cannot be trusted: the reader reports it
and scans forward for the next offset where a length and its CRC agree. An incomplete record at
the end of the file is left unread (`FileRecords.end` stops before it): a training may still be
writing it, and the next read resumes there.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from mindscope_runtime.summary.crc import MASK_DELTA, crc32c, masked_crc32c

HEADER = 12  # u64 length + u32 masked CRC of the length
FOOTER = 4
MAX_RECORD = 1 << 31  # larger lengths are corruption, even with a matching CRC
CHUNK = 8 << 20

_LENGTH = struct.Struct("<QI")
_CRC = struct.Struct("<I")


@dataclass(frozen=True)
class Issue:
    """A problem found at `offset` of `file` (`kind`: corrupt-length, corrupt-payload,
    bad-event, truncated-tail)."""

    file: str
    offset: int
    kind: str
    message: str

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "offset": self.offset,
            "kind": self.kind,
            "message": self.message,
        }


@dataclass
class FileRecords:
    """The complete records found from `start`: (offset, payload) pairs, the problems, and
    `end`, the offset after the last complete record (where the next read starts)."""

    start: int
    end: int
    records: list[tuple[int, bytes]] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)


def read_records(path: Path, start: int = 0, *, stop: int | None = None) -> FileRecords:
    """Records from byte `start` (a record boundary) up to `stop` (default: the current end)."""
    with path.open("rb") as handle:
        return read_stream(handle, str(path), start, stop=stop)


def read_stream(handle: BinaryIO, name: str, start: int, *, stop: int | None = None) -> FileRecords:
    handle.seek(start)
    result = FileRecords(start=start, end=start)
    buffer = b""
    base = start  # file offset of buffer[0]
    remaining = None if stop is None else max(0, stop - start)
    while True:
        want = CHUNK if remaining is None else min(CHUNK, remaining)
        chunk = handle.read(want) if want else b""
        if remaining is not None:
            remaining -= len(chunk)
        eof = not chunk
        buffer = buffer[result.end - base :] + chunk  # keep the unread part
        base = result.end
        _scan(buffer, base, name, result, eof=eof)
        if eof:
            return result


def _scan(buffer: bytes, base: int, name: str, result: FileRecords, *, eof: bool) -> None:
    """Append the complete records of `buffer` (file offset `base`) to `result`."""
    pos = result.end - base
    size = len(buffer)
    records = result.records
    unpack_header, unpack_crc, crc = _LENGTH.unpack_from, _CRC.unpack_from, crc32c
    while size - pos >= HEADER:
        length, length_crc = unpack_header(buffer, pos)
        c = crc(buffer[pos : pos + 8])  # the mask inlined: this loop runs once per record
        if (
            length >= MAX_RECORD
            or (((c >> 15) | (c << 17)) + MASK_DELTA) & 0xFFFFFFFF != length_crc
        ):
            found = _resync(buffer, pos + 1)
            skipped_to = base + (found if found is not None else max(pos + 1, size - HEADER + 1))
            result.issues.append(
                Issue(
                    name,
                    base + pos,
                    "corrupt-length",
                    f"length CRC mismatch at byte {base + pos}; resumed at byte {skipped_to}",
                )
            )
            if found is None:  # no valid header in this buffer: keep its last bytes for more
                result.end = skipped_to
                return
            pos = found
            result.end = base + pos
            continue
        body = pos + HEADER
        after = body + length + FOOTER
        if after > size:
            break
        payload = buffer[body : body + length]
        c = crc(payload)
        if (((c >> 15) | (c << 17)) + MASK_DELTA) & 0xFFFFFFFF != unpack_crc(buffer, body + length)[
            0
        ]:
            result.issues.append(
                Issue(
                    name,
                    base + pos,
                    "corrupt-payload",
                    f"record payload CRC mismatch at byte {base + pos} ({length} bytes)",
                )
            )
        else:
            records.append((base + pos, payload))
        pos = after
        result.end = base + pos


def _resync(buffer: bytes, pos: int) -> int | None:
    """The first offset ≥ `pos` where a plausible length and its CRC agree."""
    unpack_header = _LENGTH.unpack_from
    for candidate in range(pos, len(buffer) - HEADER + 1):
        length, length_crc = unpack_header(buffer, candidate)
        if length < MAX_RECORD and masked_crc32c(buffer[candidate : candidate + 8]) == length_crc:
            return candidate
    return None


def tail_issue(name: str, end: int, size: int) -> Issue | None:
    """The truncated-tail issue of a file whose writer has finished (`size` > `end`, the
    offset after its last complete record)."""
    if size <= end:
        return None
    return Issue(
        name, end, "truncated-tail", f"incomplete last record at byte {end} ({size - end} bytes)"
    )
