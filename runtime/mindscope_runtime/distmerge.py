"""Merge the ranks of one msrun job into one profile document (pure).

Each rank goes through the single-process builder (`profdoc.build_profile_document`) first;
the merge then puts every rank's trace in its own process lanes (every rank writes `pid: 2`),
shifts it onto one clock (`distclock.py`), and adds the optional, versioned `ranks` section:
per-rank steps with communication / compute / idle (`diststeps.py`), the straggler of each
step and the spread between ranks. The top-level fields stay a valid single-process document:
`ops` holds every rank's rows (each with its `rank`), `byType`/`byCell` are summed over ranks,
and `steps[i]` spans step i from the first rank's start to the last rank's end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from mindscope_runtime import PROFILE_DOC_VERSION
from mindscope_runtime.distclock import align_clocks, collective_ends
from mindscope_runtime.diststeps import (
    is_comm_type,
    shares,
    step_breakdown,
    stragglers,
)
from mindscope_runtime.profdoc import build_profile_document, by_cell, by_type
from mindscope_runtime.profparse import OpExecution

JsonDict = dict[str, Any]
RANKS_SECTION_VERSION = 1
_LANE_NAMES = {1: "Steps", 2: "CPU ops", 3: "Scope layer", 4: "Cells"}


@dataclass
class RankData:
    """What one rank's Profiler wrote, parsed (profparse.py), plus the bootstrap's step marks."""

    rank: int
    detail: list[JsonDict]
    type_rows: list[JsonDict]
    executions: list[OpExecution]
    trace: list[JsonDict]
    marks: list[tuple[int, int]] = field(default_factory=list)
    host: str = ""
    pid: Optional[int] = None
    files: list[str] = field(default_factory=list)
    log: Optional[str] = None


def lane_pid(rank: int, pid: int) -> int:
    """Rank r's process p in the merged trace: rank 0 → 101, 102…, rank 1 → 201, 202…"""
    return 100 * (rank + 1) + pid


def span_marks(executions: list[OpExecution]) -> list[tuple[int, int]]:
    """No step marks (a job not started by profile-dist): one step over all profiled ops."""
    if not executions:
        return []
    end = max(e.start_ns + int(e.dur_ms * 1e6) for e in executions)
    return [(executions[0].start_ns, end)]


def merge_ranks(
    ranks: list[RankData], meta: JsonDict, unreadable: Optional[list[JsonDict]] = None
) -> JsonDict:
    """The merged document. `meta` holds the job's fields (target, mode, mindsporeVersion…)."""
    if not ranks:
        raise ValueError("no rank to merge")
    ranks = sorted(ranks, key=lambda r: r.rank)
    step_source = "marks" if all(r.marks for r in ranks) else "span"
    per_rank: dict[int, JsonDict] = {}
    types: dict[int, dict[str, str]] = {}
    for data in ranks:
        if step_source == "span":
            data.marks = span_marks(data.executions)
        per_rank[data.rank] = build_profile_document(
            meta=meta, detail=data.detail, type_rows=data.type_rows,
            executions=data.executions, trace=data.trace, marks=data.marks,
        )  # fmt: skip
        types[data.rank] = {row["fullName"]: row["type"] for row in data.detail}
    reference = ranks[0].rank
    clock = align_clocks(
        {r.rank: collective_ends(r.executions, types[r.rank]) for r in ranks},
        {r.rank: r.host for r in ranks},
        reference,
    )
    offsets = {int(k): v for k, v in clock["offsetsUs"].items()}
    starts = {r: doc["meta"]["timeOriginUs"] + offsets[r] for r, doc in per_rank.items()}
    origin = min(starts.values())
    events: list[JsonDict] = []
    for rank, doc in per_rank.items():
        events.extend(_rank_events(rank, doc["timeline"]["events"], starts[rank] - origin))
    breakdown = {d.rank: step_breakdown(d.marks, d.executions, types[d.rank]) for d in ranks}
    rows = [{**row, "rank": rank} for rank, doc in per_rank.items() for row in doc["ops"]]
    rows.sort(key=lambda r: r["totalMs"], reverse=True)
    steps = _job_steps(per_rank)
    walls = [s["wallMs"] for s in steps]
    return {
        "kind": "mindscope.profile",
        "version": PROFILE_DOC_VERSION,
        "meta": {**meta, "steps": max(len(s) for s in breakdown.values()), "timeOriginUs": origin},
        "ops": rows,
        "byType": by_type(rows, []),
        "byCell": by_cell(rows),
        "steps": steps,
        "totals": {
            "opMs": round(sum(r["totalMs"] for r in rows), 6),
            "meanStepMs": round(sum(walls) / len(walls), 6) if walls else 0.0,
            "steps": len(steps),
            "opRows": len(rows),
        },
        "timeline": {"unit": "us", "events": events},
        "memory": None,
        "ranks": {
            "version": RANKS_SECTION_VERSION,
            "count": len(ranks),
            "stepSource": step_source,
            "clock": clock,
            "commTypes": sorted({t for m in types.values() for t in m.values() if is_comm_type(t)}),
            "ranks": [_rank_summary(d, per_rank[d.rank], breakdown[d.rank]) for d in ranks],
            "steps": stragglers(breakdown),
            "unreadable": list(unreadable or []),
        },
    }


def _rank_events(rank: int, events: list[JsonDict], shift_us: float) -> list[JsonDict]:
    out = []
    for event in events:
        moved = {**event, "pid": lane_pid(rank, int(event["pid"]))}
        if event.get("ph") == "M":
            if event.get("name") == "process_name":
                base = _LANE_NAMES.get(int(event["pid"]), str(event.get("args", {}).get("name")))
                moved["args"] = {"name": f"rank {rank} · {base}"}
            elif event.get("name") == "process_sort_index":
                moved["args"] = {"sort_index": moved["pid"]}
        elif "ts" in event:
            moved["ts"] = round(float(event["ts"]) + shift_us, 3)
        out.append(moved)
    return out


def _rank_summary(data: RankData, doc: JsonDict, steps: list[JsonDict]) -> JsonDict:
    for row, own in zip(steps, doc["steps"]):
        row["opMs"], row["opCount"] = own["opMs"], own["opCount"]
    walls = [s["wallMs"] for s in steps]
    return {
        "rank": data.rank,
        "host": data.host,
        "pid": data.pid,
        "lanePid": lane_pid(data.rank, 2),
        "log": data.log,
        "profilerFiles": data.files,
        "steps": steps,
        "totals": {
            "opMs": doc["totals"]["opMs"],
            "opRows": doc["totals"]["opRows"],
            "meanStepMs": round(sum(walls) / len(walls), 6) if walls else 0.0,
            **shares(steps),
        },
    }


def _job_steps(per_rank: dict[int, JsonDict]) -> list[JsonDict]:
    count = min(len(doc["steps"]) for doc in per_rank.values())
    out = []
    for index in range(count):
        rows = [doc["steps"][index] for doc in per_rank.values()]
        start = min(r["startNs"] for r in rows)
        end = max(r["startNs"] + int(r["wallMs"] * 1e6) for r in rows)
        out.append(
            {
                "index": index,
                "startNs": start,
                "wallMs": round((end - start) / 1e6, 6),
                "opMs": round(sum(r["opMs"] for r in rows), 6),
                "opCount": sum(r["opCount"] for r in rows),
            }
        )
    return out
