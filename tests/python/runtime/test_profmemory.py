"""Memory in the profile document, from real `cpu_ms_memory_record_0.txt` lines (MindSpore
2.10, CPU, `Profiler(profile_memory=True)`)."""

from __future__ import annotations

from pathlib import Path

from mindscope_runtime.profmemory import (
    MemorySample,
    memory_events,
    memory_section,
    parse_memory_record,
)
from mindscope_runtime.schemacheck import load_schema, validate

ROOT = Path(__file__).resolve().parents[3]
RECORD = """Timestamp(ns),Total Allocated(Byte),Total Reserved(Byte),Total Active(Byte)
1796029309533109792,6656,1073741824,6656
1796029309533421867,10752,1073741824,10752
1796029309533445421,13824,1073741824,13824
1796029309533551340,9728,1073741824,9728
1796029309533690150,7168,1073741824,7168
"""


def test_parse_and_summarise() -> None:
    samples = parse_memory_record(RECORD + "garbage\n1,2\n")
    assert len(samples) == 5 and samples[0] == MemorySample(1796029309533109792, 6656,
                                                             1073741824, 6656)  # fmt: skip
    marks = [(1796029309533400000, 1796029309533500000), (1796029309533700000, 1796029309533800000)]
    origin_us = 1796029309533109792 / 1e3
    memory = memory_section(samples, marks, origin_us)
    assert memory is not None
    assert memory["peakAllocatedBytes"] == 13824 and memory["peakReservedBytes"] == 1073741824
    assert memory["steps"] == [
        {"step": 0, "peakAllocatedBytes": 13824, "peakActiveBytes": 13824},
        {"step": 1, "peakAllocatedBytes": None, "peakActiveBytes": None},
    ]
    assert memory["curve"][0] == [0.0, 6656, 6656]
    events = memory_events(memory)
    assert events[0]["ph"] == "M" and [e["ph"] for e in events[1:]] == ["C"] * 5
    assert events[3]["args"] == {"allocatedMB": round(13824 / 2**20, 4),
                                 "activeMB": round(13824 / 2**20, 4)}  # fmt: skip
    schema = load_schema(ROOT / "schemas" / "profile-document.schema.json")
    assert validate(memory, schema["properties"]["memory"]) == []


def test_curve_is_bounded_and_keeps_peaks() -> None:
    samples = [MemorySample(i, 100 if i == 4321 else i % 50, 0, 0) for i in range(10_000)]
    memory = memory_section(samples, [], 0.0, max_points=100)
    assert memory is not None and len(memory["curve"]) == 100
    assert max(point[1] for point in memory["curve"]) == 100
    assert memory_section([], [], 0.0) is None and memory_events(None) == []
