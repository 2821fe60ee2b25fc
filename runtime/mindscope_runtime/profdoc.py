"""Build the versioned profile document from parsed Profiler output (pure)."""

from __future__ import annotations

from collections import Counter
from math import gcd
from typing import Any, Optional

from mindscope_runtime import PROFILE_DOC_VERSION
from mindscope_runtime.expansions import fold_expansions
from mindscope_runtime.profmemory import MemorySample, memory_events, memory_section
from mindscope_runtime.profparse import OpExecution

JsonDict = dict[str, Any]

# A Cell's interval during a profiled step: (scope path, start ns, end ns).
CellInterval = tuple[str, int, int]


def scope_of(full_name: str) -> str:
    return full_name.rpartition("/")[0] if "/" in full_name else ""


def attribute(execution: OpExecution, intervals: list[CellInterval]) -> Optional[str]:
    """The innermost (shortest) Cell interval that contains the op's start."""
    best: Optional[CellInterval] = None
    for interval in intervals:
        _, start, end = interval
        if start <= execution.start_ns <= end and (best is None or end - start < best[2] - best[1]):
            best = interval
    return best[0] if best else None


def op_rows(
    detail: list[JsonDict],
    executions: list[OpExecution],
    intervals: list[CellInterval],
    scopes: Optional[dict[str, str]] = None,
) -> list[JsonDict]:
    """One row per op of MindSpore's detail CSV; with Cell intervals (PyNative), a row per
    (op, Cell) with times summed from the timestamps, so the totals still agree. `scopes`
    (graph mode) gives an op's scope by its full name where MindSpore's name is wrong about
    its Cell instance (see sharedscopes.py)."""
    grand = sum(r["totalMs"] for r in detail) or 1.0
    rows: list[JsonDict] = []
    for row in detail:
        scope = (scopes or {}).get(row["fullName"]) or scope_of(row["fullName"])
        if intervals and not _is_scoped(scope):
            rows.extend(_split_by_cell(row, executions, intervals, grand))
            continue
        rows.append(_row(row, scope, "mindspore" if scope else "none", row["calls"],
                         row["totalMs"], grand))  # fmt: skip
    rows.sort(key=lambda r: r["totalMs"], reverse=True)
    return rows


def _is_scoped(scope: str) -> bool:
    return "/" in scope  # "Default/conv-Conv2d" has a Cell; bare "Default" has none


def _split_by_cell(
    row: JsonDict, executions: list[OpExecution], intervals: list[CellInterval], grand: float
) -> list[JsonDict]:
    mine = [e for e in executions if e.full_name == row["fullName"]]
    if not mine:
        return [_row(row, scope_of(row["fullName"]), "none", row["calls"], row["totalMs"], grand)]
    groups: dict[str, list[OpExecution]] = {}
    for execution in mine:
        groups.setdefault(attribute(execution, intervals) or "", []).append(execution)
    return [
        _row(row, scope, "hooks" if scope else "none", len(group),
             sum(e.dur_ms for e in group), grand)
        for scope, group in groups.items()
    ]  # fmt: skip


def _row(
    row: JsonDict, scope: str, source: str, calls: int, total: float, grand: float
) -> JsonDict:
    return {
        "name": row["name"],
        "fullName": row["fullName"],
        "type": row["type"],
        "scope": scope,
        "scopeSource": source,
        "calls": calls,
        "totalMs": round(total, 6),
        "avgMs": round(total / calls, 6) if calls else 0.0,
        "share": round(total / grand, 6),
    }


def by_type(rows: list[JsonDict], type_rows: list[JsonDict]) -> list[JsonDict]:
    """Per op type; MindSpore's own type CSV when present, else summed from the op rows."""
    if type_rows:
        out = [dict(r) for r in type_rows]
    else:
        sums: dict[str, JsonDict] = {}
        for row in rows:
            acc = sums.setdefault(row["type"], {"type": row["type"], "calls": 0, "totalMs": 0.0})
            acc["calls"] += row["calls"]
            acc["totalMs"] += row["totalMs"]
        grand = sum(a["totalMs"] for a in sums.values()) or 1.0
        out = [
            {**a, "avgMs": a["totalMs"] / a["calls"] if a["calls"] else 0.0,
             "share": a["totalMs"] / grand}
            for a in sums.values()
        ]  # fmt: skip
    return sorted(out, key=lambda r: r["totalMs"], reverse=True)


def by_cell(
    rows: list[JsonDict], steps: int = 0, hooked: Optional[Counter[str]] = None
) -> list[JsonDict]:
    """Self and total (self + descendants) time per Cell scope, deepest scopes included.

    With `steps`, each Cell also gets `callCount`, the times it ran over those steps, and
    `perCallMs`, its total over that: a Cell called k times per step makes its own ops k
    times (ReLU-op0, -op1, -op2 of one shared `relu`), so for a leaf Cell k is the greatest
    common divisor of its own op counts by type; a Cell with sub-Cells runs once per step (a
    ViT Block's two residual Adds are one call's).
    `hooked` (PyNative) counts the calls forward hooks saw per scope: those are used as is."""
    grand = sum(r["totalMs"] for r in rows) or 1.0
    cells: dict[str, JsonDict] = {}
    own_types: dict[str, Counter[str]] = {}
    for row in rows:
        scope = row["scope"] or "(no scope)"
        parts = scope.split("/")
        for depth in range(1, len(parts) + 1):
            path = "/".join(parts[:depth])
            acc = cells.setdefault(
                path, {"scope": path, "selfMs": 0.0, "totalMs": 0.0, "calls": 0, "ops": 0}
            )
            acc["totalMs"] += row["totalMs"]
            if depth == len(parts):
                acc["selfMs"] += row["totalMs"]
                acc["calls"] += row["calls"]
                acc["ops"] += 1
                own_types.setdefault(path, Counter())[row.get("type", "")] += 1
    out = []
    for acc in cells.values():
        acc["selfMs"] = round(acc["selfMs"], 6)
        acc["totalMs"] = round(acc["totalMs"], 6)
        acc["share"] = round(acc["totalMs"] / grand, 6)
        if steps > 0:
            seen = (hooked or Counter())[acc["scope"]]
            leaf = not any(other.startswith(acc["scope"] + "/") for other in cells)
            own = own_types.get(acc["scope"]) if leaf else None
            acc["callCount"] = seen or steps * _calls_per_step(own)
            acc["perCallMs"] = round(acc["totalMs"] / acc["callCount"], 6)
        out.append(acc)
    return sorted(out, key=lambda c: c["scope"])


def _calls_per_step(own: Optional[Counter[str]]) -> int:
    per_step = 0
    for count in (own or {}).values():
        per_step = gcd(per_step, count)
    return per_step or 1


def step_rows(marks: list[tuple[int, int]], executions: list[OpExecution]) -> list[JsonDict]:
    """Wall time of each profiled step and the op time that started inside it."""
    out = []
    for index, (start, end) in enumerate(marks):
        inside = [e for e in executions if start <= e.start_ns <= end]
        out.append(
            {
                "index": index,
                "startNs": start,
                "wallMs": round((end - start) / 1e6, 6),
                "opMs": round(sum(e.dur_ms for e in inside), 6),
                "opCount": len(inside),
            }
        )
    return out


def timeline_events(
    trace: list[JsonDict],
    executions: list[OpExecution],
    marks: list[tuple[int, int]],
    intervals: list[CellInterval],
) -> tuple[list[JsonDict], float]:
    """Chrome-trace events (µs, rebased to the first event) and the origin in epoch µs."""
    ops = [e for e in trace if e.get("ph") == "X"] or [
        {"ph": "X", "name": e.full_name, "pid": 2, "tid": e.tid, "ts": e.start_ns / 1e3,
         "dur": e.dur_ms * 1e3, "cat": e.category, "args": {}}
        for e in executions
    ]  # fmt: skip
    extra: list[JsonDict] = [
        {"ph": "X", "name": f"step {i}", "pid": 1, "tid": 0, "ts": s / 1e3,
         "dur": (end - s) / 1e3, "cat": "step", "args": {"step": i}}
        for i, (s, end) in enumerate(marks)
    ] + [
        {"ph": "X", "name": scope.rsplit("/", 1)[-1], "pid": 4, "tid": 0, "ts": s / 1e3,
         "dur": (end - s) / 1e3, "cat": "cell", "args": {"scope": scope}}
        for scope, s, end in intervals
    ]  # fmt: skip
    timed = ops + extra
    origin = min((float(e["ts"]) for e in timed), default=0.0)
    events: list[JsonDict] = [
        _meta(1, "Steps"),
        _meta(2, "CPU ops"),
        _meta(3, "Scope layer (MindSpore)"),
    ]
    if intervals:
        events.append(_meta(4, "Cells (forward hooks)"))
    for event in timed:
        fixed: JsonDict = {k: event[k] for k in ("ph", "name", "pid", "tid", "cat") if k in event}
        fixed["ts"] = round(float(event["ts"]) - origin, 3)
        fixed["dur"] = round(float(event.get("dur", 0.0)), 3)
        fixed["args"] = event.get("args", {})
        if fixed.get("cat") == "":
            fixed["cat"] = "op"
        events.append(fixed)
    return events, origin


def _meta(pid: int, name: str) -> JsonDict:
    return {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}}


def build_profile_document(
    *,
    meta: JsonDict,
    detail: list[JsonDict],
    type_rows: list[JsonDict],
    executions: list[OpExecution],
    trace: list[JsonDict],
    marks: list[tuple[int, int]],
    intervals: Optional[list[CellInterval]] = None,
    memory: Optional[list[MemorySample]] = None,
    scopes: Optional[dict[str, str]] = None,
) -> JsonDict:
    cells = intervals or []
    if scopes:  # the CPU backend's own kernels (`Expand/_InplaceAddExt/…`) go to their Cell
        scopes = {**scopes, **fold_expansions(executions, scopes)}
    rows = op_rows(detail, executions, cells, scopes)
    steps = step_rows(marks, executions)
    events, origin = timeline_events(trace, executions, marks, cells)
    memory_json = memory_section(memory or [], marks, origin)
    events.extend(memory_events(memory_json))
    total = round(sum(r["totalMs"] for r in rows), 6)
    walls = [s["wallMs"] for s in steps]
    return {
        "kind": "mindscope.profile",
        "version": PROFILE_DOC_VERSION,
        "meta": {**meta, "timeOriginUs": origin},
        "ops": rows,
        "byType": by_type(rows, type_rows),
        "byCell": by_cell(rows, len(steps), Counter(scope for scope, _, _ in cells)),
        "steps": steps,
        "totals": {
            "opMs": total,
            "meanStepMs": round(sum(walls) / len(walls), 6) if walls else 0.0,
            "steps": len(steps),
            "opRows": len(rows),
        },
        "timeline": {"unit": "us", "events": events},
        "memory": memory_json,
    }
