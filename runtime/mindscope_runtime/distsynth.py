"""Synthetic ranks for the merge's unit tests and its benchmark (pure, deterministic).

Each rank runs `steps` steps of `ops_per_step` compute ops followed by one AllReduce that ends
at the same true time on every rank; rank r's compute takes `1 + slow[r]` times as long, and
its clock reads `skew_us[r]` ahead. The Chrome trace mirrors the timestamps, as MindSpore's
trace_view.json does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from mindscope_runtime.distmerge import RankData
from mindscope_runtime.profparse import OpExecution

OP_US = 100.0  # one compute op
GAP_US = 10.0  # idle between ops
STEP_GAP_US = 500.0  # idle between steps (the data pipeline, the Python loop)
T0_NS = 1_796_000_000_000_000_000


def synthetic_rank(
    rank: int,
    *,
    steps: int,
    ops_per_step: int,
    slow: Sequence[float],
    skew_us: Sequence[float],
    host: Optional[str] = None,
) -> RankData:
    """Rank `rank` of a job whose ranks differ by `slow` (compute factor) and `skew_us`."""
    slowest = max(1.0 + s for s in slow)
    compute_us = ops_per_step * (OP_US + GAP_US)
    step_us = compute_us * slowest + 200.0 + STEP_GAP_US  # the slowest rank's, AllReduce incl.
    executions: list[OpExecution] = []
    marks: list[tuple[int, int]] = []
    factor = 1.0 + slow[rank]
    for step in range(steps):
        start_us = step * step_us + skew_us[rank]
        t = start_us
        for op in range(ops_per_step):
            dur = OP_US * factor
            executions.append(_op(f"Default/net/Conv2D-op{op}", t, dur))
            t += dur + GAP_US
        allreduce_end = step * step_us + compute_us * slowest + 200.0 + skew_us[rank]
        executions.append(_op("Default/AllReduce-op0", t, allreduce_end - t))
        marks.append((_ns(start_us), _ns(allreduce_end + 1.0)))
    detail = _detail(executions)
    trace = [
        {"ph": "X", "name": e.full_name, "pid": 2, "tid": 0, "ts": e.start_ns / 1e3,
         "dur": e.dur_ms * 1e3, "cat": "", "args": {"type": "HostCpuOps"}}
        for e in executions
    ]  # fmt: skip
    return RankData(
        rank=rank, detail=detail, type_rows=[], executions=executions, trace=trace,
        marks=marks, host=host if host is not None else "node0", pid=1000 + rank,
    )  # fmt: skip


def synthetic_job(
    ranks: int, *, steps: int, ops_per_step: int, slow_rank: int = 1, slow: float = 0.5
) -> list[RankData]:
    factors = [slow if r == slow_rank else 0.0 for r in range(ranks)]
    return [
        synthetic_rank(r, steps=steps, ops_per_step=ops_per_step, slow=factors,
                       skew_us=[0.0] * ranks)
        for r in range(ranks)
    ]  # fmt: skip


def _ns(us: float) -> int:
    return T0_NS + round(us * 1e3)


def _op(name: str, start_us: float, dur_us: float) -> OpExecution:
    return OpExecution(name, "HostCpuOps", _ns(start_us), dur_us / 1e3, 0)


def _detail(executions: list[OpExecution]) -> list[dict[str, object]]:
    sums: dict[str, list[float]] = {}
    for e in executions:
        acc = sums.setdefault(e.full_name, [0, 0.0])
        acc[0] += 1
        acc[1] += e.dur_ms
    grand = sum(total for _, total in sums.values()) or 1.0
    return [
        {"side": "Host", "type": name.rsplit("/", 1)[-1].split("-op")[0], "name":
         name.rsplit("/", 1)[-1], "fullName": name, "calls": int(calls), "totalMs": total,
         "avgMs": total / calls, "share": total / grand, "subgraph": "Default"}
        for name, (calls, total) in sums.items()
    ]  # fmt: skip
