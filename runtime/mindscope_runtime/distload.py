"""Read a job's shared Profiler output directory into one merged profile document."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime.distfiles import JobOutput, RankOutput, find_rank_outputs
from mindscope_runtime.distmerge import RankData, merge_ranks
from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.profparse import (
    parse_execute_timestamps,
    parse_op_detail_csv,
    parse_op_type_csv,
    parse_trace_view,
)

JsonDict = dict[str, Any]


def load_rank(output: RankOutput, logs: Optional[dict[int, str]] = None) -> RankData:
    files = output.files
    record = output.steps or {}
    existing = [
        p for p in (files.op_detail, files.op_type, files.timestamps, files.trace_view) if p
    ]
    return RankData(
        rank=output.rank,
        detail=parse_op_detail_csv(_read(files.op_detail)),
        type_rows=parse_op_type_csv(_read(files.op_type)),
        executions=parse_execute_timestamps(_read(files.timestamps)),
        trace=parse_trace_view(_read(files.trace_view)),
        marks=[(int(s), int(e)) for s, e in record.get("marks", [])],
        host=str(record.get("host") or files.run_dir.name.split("_", 1)[0]),
        pid=record.get("pid"),
        files=[str(p.relative_to(files.run_dir.parent)) for p in existing],
        log=(logs or {}).get(output.rank),
    )


def merge_directory(
    root: Path,
    *,
    target: str,
    logs: Optional[dict[int, str]] = None,
    job: Optional[JobOutput] = None,
) -> JsonDict:
    """The merged document of every rank under `root` (a Profiler `output_path` shared by
    the ranks, possibly copied together from several machines)."""
    job = job or find_rank_outputs(root)
    if not job.ranks:
        detail = "; ".join(u["message"] for u in job.unreadable)
        raise RuntimeToolError(
            "no-profiler-output",
            detail or f"no FRAMEWORK/cpu_op_detail_info_<rank>.csv under {root}",
        )
    ranks = [load_rank(output, logs) for output in job.ranks]
    record = next((o.steps for o in job.ranks if o.steps), None) or {}
    meta: JsonDict = {
        "mindsporeVersion": str(record.get("mindsporeVersion", "unknown")),
        "mode": record.get("mode") or "GRAPH_MODE",
        "syntaxLevel": str(record.get("syntaxLevel", "unknown")),
        "device": str(record.get("device", "CPU")),
        "target": target,
        "inputs": [],
        "steps": 1,
        "warmup": int(record.get("warmup", 0)),
        "scopeAttribution": "mindspore",
        "step": {"kind": "train"},
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "profilerFiles": [f for r in ranks for f in r.files],
    }
    return merge_ranks(ranks, meta, job.unreadable)


def _read(path: Optional[Path]) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path is not None else ""
