"""Summary reading throughput (issue 14's benchmark).

Usage: .venv/bin/python bench/summary_read.py [--mb 100] [--mindinsight /tmp/mi/bin/python]

Writes a ~100 MB summary file in MindSpore's format (its framing and its `Event` schema,
built from the same descriptors the reader uses): 1,000,000 scalar points plus weight
histograms every 10 steps, then prints:
- MindScope's full read (framing, both CRCs, Event decoding, values grouped by tag): MB/s and
  records/s;
- the incremental cost of reading 100 new records appended at the end of that file (what a
  live dashboard pays per update), beside a full re-read;
- MindInsight 2.3.1's own loader (`mindinsight.datavisual.data_transform.ms_data_loader`) on the
  same file in the same run, and the ratio, when a separate venv with MindInsight is given
  (`python -m venv /tmp/mi && /tmp/mi/bin/pip install mindinsight==2.3.1`); otherwise why not.
"""

from __future__ import annotations

import argparse
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "runtime"))

from mindscope_runtime.summary.crc import IMPLEMENTATION, masked_crc32c  # noqa: E402
from mindscope_runtime.summary.proto import event_class  # noqa: E402
from mindscope_runtime.summary.reader import SummaryReader  # noqa: E402

SCALARS = 1_000_000
BUCKETS = 90


def frame(payload: bytes) -> bytes:
    length = struct.pack("<Q", len(payload))
    return (length + struct.pack("<I", masked_crc32c(length)) + payload
            + struct.pack("<I", masked_crc32c(payload)))  # fmt: skip


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def scalar_payload(step: int) -> bytes:
    """Event{wall_time, step, summary{value{tag "loss", scalar_value}}}, encoded directly (a
    million protobuf objects would take a minute to build); checked against protobuf below."""
    value = b"\x0a\x04loss\x1d" + struct.pack("<f", 2.0 / (1 + step * 1e-4))
    summary = b"\x0a" + _varint(len(value)) + value
    head = b"\x09" + struct.pack("<d", 1.7e9 + step * 0.01) + b"\x10" + _varint(step)
    return head + b"\x2a" + _varint(len(summary)) + summary


def scalar_record(step: int) -> bytes:
    return frame(scalar_payload(step))


def check_scalar_payload() -> None:
    event = event_class()()
    event.ParseFromString(scalar_payload(12345))
    (value,) = event.summary.value
    assert (event.step, value.tag, event.WhichOneof("what")) == (12345, "loss", "summary")
    assert abs(value.scalar_value - 2.0 / (1 + 12345e-4)) < 1e-6


def histogram_record(step: int, tag: str) -> bytes:
    event = event_class()(wall_time=1.7e9 + step * 0.01, step=step)
    value = event.summary.value.add()
    value.tag = tag
    histogram = value.histogram
    for b in range(BUCKETS):
        bucket = histogram.buckets.add()
        bucket.left, bucket.width, bucket.count = -1 + b / 45, 1 / 45, (b * step) % 97
    histogram.count, histogram.min, histogram.max, histogram.sum = 4000, -1.0, 1.0, 0.5
    return frame(event.SerializeToString())


def write_file(path: Path, target_mb: float) -> tuple[int, int]:
    """(records, bytes): SCALARS scalar events, and a weight histogram (90 buckets) every
    `every` steps, as often as brings the file to `target_mb`."""
    version = event_class()(wall_time=1.7e9, version="MindSpore.Event:1")
    scalar_bytes = len(scalar_record(1)) * SCALARS
    per_histogram = len(histogram_record(1, "layer0.weight"))
    room = target_mb * 1e6 - scalar_bytes
    every = max(1, round(per_histogram * SCALARS / room)) if room > 0 else SCALARS + 1
    records = 1
    with path.open("wb") as out:
        out.write(frame(version.SerializeToString()))
        chunk: list[bytes] = []
        for step in range(1, SCALARS + 1):
            chunk.append(scalar_record(step))
            if step % every == 0:
                chunk.append(histogram_record(step, "layer0.weight"))
            if len(chunk) > 20_000:
                records += len(chunk)
                out.write(b"".join(chunk))
                chunk = []
        records += len(chunk)
        out.write(b"".join(chunk))
    return records, path.stat().st_size


def mindscope_read(run: Path) -> tuple[float, float, int, SummaryReader]:
    """(wall seconds, CPU seconds, records, reader)."""
    reader = SummaryReader(run)
    started, cpu = time.perf_counter(), time.process_time()
    _, issues, records = reader.poll(final=True)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert not issues, issues[:3]
    return seconds, cpu, records, reader


def incremental(reader: SummaryReader, path: Path) -> tuple[float, int]:
    with path.open("ab") as out:
        out.write(b"".join(scalar_record(SCALARS + k) for k in range(1, 101)))
    started = time.perf_counter()
    _, _, records = reader.poll()
    return time.perf_counter() - started, records


MINDINSIGHT_READ = """
import json, sys, time
from mindinsight.datavisual.data_transform.ms_data_loader import MSDataLoader
started, cpu = time.perf_counter(), time.process_time()
loader = MSDataLoader(sys.argv[1])
loader.load()
seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
events = loader.get_events_data()
tags = events.list_tags_by_plugin("scalar")
points = sum(len(events.tensors(tag)) for tag in tags)
print(json.dumps({"seconds": seconds, "cpu": cpu, "scalarTags": tags, "scalarPoints": points}))
"""


def mindinsight_read(python: str, run: Path, timeout: float) -> dict[str, Any]:
    try:
        done = subprocess.run([python, "-c", MINDINSIGHT_READ, str(run)], capture_output=True,
                              text=True, timeout=timeout)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": tail}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=100.0)
    parser.add_argument("--mindinsight", default="/tmp/mi/bin/python",
                        help="a Python with mindinsight==2.3.1 (a separate venv)")  # fmt: skip
    parser.add_argument("--peer-timeout", type=float, default=3600.0,
                        help="wall seconds MindInsight gets to finish")  # fmt: skip
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mindscope-summary-bench-"))
    try:
        run = work / "run"
        run.mkdir()
        path = run / "events.out.events.summary.1700000000.0.bench_MS"
        check_scalar_payload()
        started = time.perf_counter()
        records, size = write_file(path, args.mb)
        mb = size / 1e6
        written = time.perf_counter() - started
        print(f"file: {mb:.1f} MB, {records:,} records ({SCALARS:,} scalar points), written in "
              f"{written:.1f} s; CRC32C: {IMPLEMENTATION}")  # fmt: skip
        print("(2 shared cores: CPU time is the steadier figure; wall time in brackets)")
        seconds, cpu, read, reader = mindscope_read(run)
        assert read == records, (read, records)
        print(
            f"MindScope full read: {cpu:.2f} s CPU = {mb / cpu:.1f} MB/s, "
            f"{read / cpu:,.0f} records/s [wall {seconds:.2f} s = {mb / seconds:.1f} MB/s]"
        )
        inc, new = incremental(reader, path)
        print(f"MindScope incremental: {new} new records at the end read in {inc * 1000:.2f} ms "
              f"wall ({seconds / inc:,.0f}x cheaper than the full read)")  # fmt: skip
        python = args.mindinsight
        if not shutil.which(python) and not Path(python).exists():
            print(f"MindInsight: not measured: no {python} (python -m venv /tmp/mi && "
                  "/tmp/mi/bin/pip install mindinsight==2.3.1)")  # fmt: skip
            return
        peer = mindinsight_read(python, run, args.peer_timeout)
        if "timeout" in peer:
            limit = peer["timeout"]
            print(f"MindInsight 2.3.1 MSDataLoader.load: not finished after {limit:.0f} s wall; "
                  f"ratio (wall) > {limit / seconds:.1f}x")  # fmt: skip
            return
        if "error" in peer:
            print(f"MindInsight 2.3.1: could not read the file: {peer['error']}")
            return
        print(
            f"MindInsight 2.3.1 MSDataLoader.load: {peer['cpu']:.2f} s CPU = "
            f"{mb / peer['cpu']:.1f} MB/s [wall {peer['seconds']:.2f} s] "
            f"({peer['scalarPoints']:,} scalar points kept of tags {peer['scalarTags']})"
        )
        print(f"ratio (MindInsight CPU time / MindScope CPU time): {peer['cpu'] / cpu:.1f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
