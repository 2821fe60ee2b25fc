"""Reads a `MINDSCOPE_TRACE` file: each request, its time, and what ran while it waited.

usage: python -m mindscope_ls.infra.trace FILE [--min-ms 30]

One line per request slower than `--min-ms` (timed from the first bytes read since the
previous answer: the keystrokes before a request are handled first), then one line per span
or garbage collection that overlapped it: the thread, the name, how long it overlapped.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional


@dataclass
class Interval:
    start: float
    end: float
    thread: str
    label: str


def load(path: Path) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return sorted(records, key=lambda r: float(r["t"]))


def requests(records: list[dict[str, Any]]) -> list[Interval]:
    """From the first bytes read since the previous answer (the keystrokes typed before the
    request: the main thread handles them first) to the request's answer."""
    arrived: dict[str, dict[str, Any]] = {}
    burst: Optional[float] = None  # the first read since the latest answer
    found: list[Interval] = []
    for record in records:
        ev = record["ev"]
        if ev == "read" and burst is None:
            burst = record["t"]
        elif ev == "request":
            arrived[str(record["id"])] = {**record, "burst": burst}
        elif ev == "answer":
            burst = None
            start = arrived.pop(str(record["id"]), None)
            if start is not None:
                begin = start["burst"] if start["burst"] is not None else start["t"]
                label = (
                    f"{start['method']} #{record['id']}: read {begin:.1f}, "
                    f"handled {start['t']:.1f}, answered {record['t']:.1f}"
                )
                found.append(Interval(begin, record["t"], start["thread"], label))
    return found


_OWN_FIELDS = ("t", "thread", "ev", "name", "ms", "cpu_ms")


def work(records: list[dict[str, Any]]) -> list[Interval]:
    """Spans (begin to end, per thread and name) and garbage collections."""
    open_spans: dict[tuple[str, str], list[dict[str, Any]]] = {}
    found: list[Interval] = []
    for record in records:
        ev = record["ev"]
        if ev == "gc":
            label = f"gc gen{record['gen']} (collected {record['collected']}, {_cpu(record)})"
            found.append(Interval(record["t"], record["t"] + record["ms"], record["thread"], label))
        elif ev == "begin":
            open_spans.setdefault((record["thread"], record["name"]), []).append(record)
        elif ev == "end":
            stack = open_spans.get((record["thread"], record["name"]))
            if stack:
                begin = stack.pop()
                extra = {k: v for k, v in begin.items() if k not in _OWN_FIELDS}
                label = f"{record['name']}{f' {extra}' if extra else ''} ({_cpu(record)})"
                found.append(Interval(begin["t"], record["t"], record["thread"], label))
    last = records[-1]["t"] if records else 0.0
    for (thread, name), stack in open_spans.items():  # still running when the trace ends
        found.extend(Interval(begin["t"], last, thread, f"{name} (not ended)") for begin in stack)
    return found


def _cpu(record: dict[str, Any]) -> str:
    """The thread's CPU time: far below the span's time when it waited."""
    return f"{record.get('cpu_ms', 0):.1f} of {record.get('ms', 0):.1f} ms on CPU"


def overlap(a: Interval, b: Interval) -> float:
    return max(0.0, min(a.end, b.end) - max(a.start, b.start))


def report(path: Path, min_ms: float) -> None:
    records = load(path)
    spans = work(records)
    for request in requests(records):
        took = request.end - request.start
        if took < min_ms:
            continue
        print(f"{took:7.1f} ms  {request.label}")
        for item in sorted(spans, key=lambda s: s.start):
            shared = overlap(request, item)
            if shared > 0.5:
                print(f"{'':11}{item.thread:<22} {item.label}: {shared:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m mindscope_ls.infra.trace")
    parser.add_argument("file", type=Path)
    parser.add_argument("--min-ms", type=float, default=30.0)
    args = parser.parse_args()
    report(args.file, args.min_ms)
