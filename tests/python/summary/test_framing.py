"""Record framing and CRC checks on a file real MindSpore wrote, and on corrupted copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from mindscope_runtime.summary import crc, framing
from mindscope_runtime.summary.events import RunData
from mindscope_runtime.summary.runs import RunTail
from tests.python.summary.records import fixture_file, frame, record_offsets, scalar_event


def test_crc32c_matches_the_standard_check_value_in_both_implementations() -> None:
    assert crc.crc32c_python(b"123456789") == 0xE3069283
    assert crc.crc32c(b"123456789") == 0xE3069283
    data = bytes(range(256)) * 7
    assert crc.crc32c_python(data) == crc.crc32c(data)


def test_every_record_of_a_mindspore_file_passes_both_crcs() -> None:
    path = fixture_file()
    found = framing.read_records(path)
    assert found.issues == []
    assert [offset for offset, _ in found.records] == record_offsets(path.read_bytes())
    assert found.end == path.stat().st_size


def _copy(tmp_path: Path, data: bytes) -> Path:
    run = tmp_path / "run"
    run.mkdir(exist_ok=True)
    target = run / fixture_file().name
    target.write_bytes(data)
    return target


def test_a_corrupt_payload_is_reported_at_its_offset_and_the_others_are_kept(
    tmp_path: Path,
) -> None:
    data = bytearray(fixture_file().read_bytes())
    offsets = record_offsets(bytes(data))
    data[offsets[3] + 20] ^= 0xFF  # inside the 4th record's payload
    path = _copy(tmp_path, bytes(data))
    found = framing.read_records(path)
    assert [(i.kind, i.offset, i.file) for i in found.issues] == [
        ("corrupt-payload", offsets[3], str(path))
    ]
    assert [o for o, _ in found.records] == offsets[:3] + offsets[4:]


def test_a_corrupt_length_is_reported_and_reading_resumes_at_the_next_record(
    tmp_path: Path,
) -> None:
    data = bytearray(fixture_file().read_bytes())
    offsets = record_offsets(bytes(data))
    data[offsets[2] + 1] ^= 0x40  # the 3rd record's length: its CRC no longer matches
    path = _copy(tmp_path, bytes(data))
    found = framing.read_records(path)
    assert [(i.kind, i.offset) for i in found.issues] == [("corrupt-length", offsets[2])]
    assert f"resumed at byte {offsets[3]}" in found.issues[0].message
    assert [o for o, _ in found.records] == offsets[:2] + offsets[3:]


def test_a_truncated_tail_keeps_every_complete_record_and_is_reported_when_final(
    tmp_path: Path,
) -> None:
    data = fixture_file().read_bytes()
    offsets = record_offsets(data)
    cut = offsets[-1] + 30  # half of the last record
    path = _copy(tmp_path, data[:cut])
    tail = RunTail(path.parent)
    into = RunData()
    count, issues = tail.poll(into)
    assert (count, issues) == (len(offsets) - 1, [])  # a writer may still finish it
    assert tail.files[path.name].offset == offsets[-1]
    count, issues = tail.poll(into, final=True)
    assert count == 0
    assert [(i.kind, i.offset) for i in issues] == [("truncated-tail", offsets[-1])]
    # 5 losses in 4 summary events (MindSpore put steps 1 and 2 in one): the last one is cut
    assert len(into.scalars["loss"].values) == 4


def test_reading_resumes_at_the_offset_and_reads_only_new_records(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    path = run / "events.out.events.summary.1.0.host_MS"
    first = b"".join(frame(scalar_event(step, step / 10)) for step in range(1, 4))
    path.write_bytes(first)
    tail, data = RunTail(run), RunData()
    assert tail.poll(data)[0] == 3
    half = frame(scalar_event(4, 0.4))
    with path.open("ab") as handle:
        handle.write(half[:7])  # a writer mid-record
    assert tail.poll(data) == (0, [])
    with path.open("ab") as handle:
        handle.write(half[7:] + frame(scalar_event(5, 0.5)))
    assert tail.poll(data)[0] == 2
    assert data.scalars["loss"].steps == [1, 2, 3, 4, 5]
    assert data.scalars["loss"].values == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5])


def test_records_across_read_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(framing, "CHUNK", 37)  # records straddle every chunk boundary
    path = tmp_path / "events.out.events.summary.1.0.host_MS"
    payloads = [scalar_event(step, float(step)) for step in range(50)]
    path.write_bytes(b"".join(frame(p) for p in payloads))
    found = framing.read_records(path)
    assert [p for _, p in found.records] == payloads
    assert found.issues == []


def test_garbage_between_records_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "events.out.events.summary.1.0.host_MS"
    good = [frame(scalar_event(step, float(step))) for step in range(3)]
    path.write_bytes(good[0] + b"\x00garbage!" * 3 + good[1] + good[2])
    found = framing.read_records(path)
    assert len(found.records) == 3
    assert [i.kind for i in found.issues] == ["corrupt-length"]
