"""Pure parsers for what `mindspore.Profiler(...).analyse()` writes on CPU (MindSpore 2.10).

`<run>/FRAMEWORK/cpu_op_detail_info_<rank>.csv`:
    op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms),op_avg_time(ms),
    total_proportion,subgraph,pid                      (total_proportion: a 0..1 fraction)
`<run>/FRAMEWORK/cpu_op_type_info_<rank>.csv`:
    op_type,type_occurrences,execution_frequency(per-step),total_compute_time,avg_time(ms),percent
`<run>/FRAMEWORK/cpu_op_execute_timestamp_<rank>.txt`, one op per line:
    <full name>;<category>;<start ns>,<duration ms>,<tid> <start ns>,<duration ms>,<tid> …
`<run>/ASCEND_PROFILER_OUTPUT/trace_view.json`: Chrome trace events whose ts/dur are strings (µs).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class OpExecution:
    full_name: str
    category: str
    start_ns: int
    dur_ms: float
    tid: int


def _float(value: Optional[str]) -> float:
    try:
        return float(value) if value not in (None, "") else 0.0
    except ValueError:
        return 0.0


def _int(value: Optional[str]) -> int:
    try:
        return int(float(value)) if value not in (None, "") else 0
    except ValueError:
        return 0


def parse_op_detail_csv(text: str) -> list[JsonDict]:
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        rows.append(
            {
                "side": row.get("op_side", ""),
                "type": row.get("op_type", ""),
                "name": row.get("op_name", ""),
                "fullName": row.get("full_op_name", ""),
                "calls": _int(row.get("op_occurrences")),
                "totalMs": _float(row.get("op_total_time(ms)")),
                "avgMs": _float(row.get("op_avg_time(ms)")),
                "share": _float(row.get("total_proportion")),
                "subgraph": row.get("subgraph", ""),
            }
        )
    return rows


def parse_op_type_csv(text: str) -> list[JsonDict]:
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        rows.append(
            {
                "type": row.get("op_type", ""),
                "calls": _int(row.get("type_occurrences")),
                "callsPerStep": _float(row.get("execution_frequency(per-step)")),
                "totalMs": _float(row.get("total_compute_time")),
                "avgMs": _float(row.get("avg_time(ms)")),
                "share": _float(row.get("percent")),
            }
        )
    return rows


def parse_execute_timestamps(text: str) -> list[OpExecution]:
    out: list[OpExecution] = []
    for line in text.splitlines():
        parts = line.strip().split(";")
        if len(parts) < 3:
            continue
        name, category, samples = parts[0], parts[1], ";".join(parts[2:])
        for sample in samples.split():
            fields = sample.split(",")
            if len(fields) < 2:
                continue
            out.append(
                OpExecution(
                    full_name=name,
                    category=category,
                    start_ns=_int(fields[0]),
                    dur_ms=_float(fields[1]),
                    tid=_int(fields[2]) if len(fields) > 2 else 0,
                )
            )
    out.sort(key=lambda e: e.start_ns)
    return out


def parse_trace_view(text: str) -> list[JsonDict]:
    """Chrome trace events with numeric `ts`/`dur` (MindSpore writes them as strings)."""
    data = json.loads(text) if text.strip() else []
    events = data.get("traceEvents", []) if isinstance(data, dict) else data
    out: list[JsonDict] = []
    for event in events if isinstance(events, list) else []:
        if not isinstance(event, dict):
            continue
        fixed = dict(event)
        for key in ("ts", "dur"):
            if key in fixed:
                fixed[key] = _float(str(fixed[key]))
        out.append(fixed)
    return out


@dataclass(frozen=True)
class ProfilerFiles:
    run_dir: Path
    op_detail: Optional[Path]
    op_type: Optional[Path]
    timestamps: Optional[Path]
    trace_view: Optional[Path]
    memory: Optional[Path] = None


def find_profiler_files(output_path: Path) -> Optional[ProfilerFiles]:
    """Locate the newest `*_ascend_ms` run folder under a Profiler `output_path`."""
    details = sorted(
        output_path.rglob("FRAMEWORK/cpu_op_detail_info_*.csv"), key=lambda p: p.stat().st_mtime
    )
    if not details:
        return None
    framework = details[-1].parent
    run_dir = framework.parent

    def first(pattern: str, folder: Path) -> Optional[Path]:
        found = sorted(folder.glob(pattern))
        return found[0] if found else None

    return ProfilerFiles(
        run_dir=run_dir,
        op_detail=details[-1],
        op_type=first("cpu_op_type_info_*.csv", framework),
        timestamps=first("cpu_op_execute_timestamp_*.txt", framework),
        trace_view=first("ASCEND_PROFILER_OUTPUT/trace_view.json", run_dir),
        memory=first("cpu_ms_memory_record_*.txt", framework),
    )
