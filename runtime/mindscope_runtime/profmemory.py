"""Memory in the profile document, from the Profiler's `profile_memory=True` output.

On CPU (MindSpore 2.10) that is `FRAMEWORK/cpu_ms_memory_record_<rank>.txt`, one line per
allocation event: `Timestamp(ns),Total Allocated(Byte),Total Reserved(Byte),Total Active(Byte)`
(epoch nanoseconds, the clock of `time.time_ns()`). Pure: imports no MindSpore.
"""

from __future__ import annotations

import csv
import io
from typing import Any, NamedTuple, Optional

JsonDict = dict[str, Any]
MEMORY_PID = 5


class MemorySample(NamedTuple):
    ts_ns: int
    allocated: int
    reserved: int
    active: int


def parse_memory_record(text: str) -> list[MemorySample]:
    """Rows of `cpu_ms_memory_record_*.txt`, by time; malformed lines are skipped."""
    out: list[MemorySample] = []
    for row in csv.reader(io.StringIO(text)):
        if len(row) < 4:
            continue
        try:
            out.append(MemorySample(*(_int(v) for v in row[:4])))
        except ValueError:
            continue  # the header
    out.sort(key=lambda s: s.ts_ns)
    return out


def _int(text: str) -> int:
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() else int(float(text))


def memory_section(
    samples: list[MemorySample],
    marks: list[tuple[int, int]],
    origin_us: float,
    max_points: int = 1000,
) -> Optional[JsonDict]:
    """Peaks overall and per profiled step, and a curve of at most `max_points` samples
    (`[tUs, allocated, active]`, µs on the timeline's clock; each bucket keeps its peak)."""
    if not samples:
        return None
    steps = []
    for index, (start, end) in enumerate(marks):
        inside = [s for s in samples if start <= s.ts_ns <= end]
        steps.append({
            "step": index,
            "peakAllocatedBytes": max((s.allocated for s in inside), default=None),
            "peakActiveBytes": max((s.active for s in inside), default=None),
        })  # fmt: skip
    return {
        "source": "cpu_ms_memory_record",
        "unit": "bytes",
        "peakAllocatedBytes": max(s.allocated for s in samples),
        "peakReservedBytes": max(s.reserved for s in samples),
        "peakActiveBytes": max(s.active for s in samples),
        "sampleCount": len(samples),
        "steps": steps,
        "curve": [
            [round(s.ts_ns / 1e3 - origin_us, 3), s.allocated, s.active]
            for s in _peaks(samples, max_points)
        ],
    }


def memory_events(memory: Optional[JsonDict]) -> list[JsonDict]:
    """Chrome-trace counter events (`ph: "C"`) of the curve, for Perfetto's memory track."""
    if not memory:
        return []
    events: list[JsonDict] = [
        {"ph": "M", "name": "process_name", "pid": MEMORY_PID, "tid": 0,
         "args": {"name": "Memory (MindSpore)"}}
    ]  # fmt: skip
    for ts, allocated, active in memory["curve"]:
        events.append({
            "ph": "C", "name": "memory", "pid": MEMORY_PID, "tid": 0, "ts": ts, "cat": "memory",
            "args": {"allocatedMB": round(allocated / 2**20, 4),
                     "activeMB": round(active / 2**20, 4)},
        })  # fmt: skip
    return events


def _peaks(samples: list[MemorySample], max_points: int) -> list[MemorySample]:
    if len(samples) <= max_points:
        return samples
    size = -(-len(samples) // max_points)  # ceil
    return [max(samples[i : i + size], key=lambda s: s.allocated)
            for i in range(0, len(samples), size)]  # fmt: skip
