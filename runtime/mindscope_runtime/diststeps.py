"""Per-rank step breakdown (communication / compute / idle) and stragglers (pure).

Within a step's wall-clock window, `commMs` is the union of communication-op intervals,
`computeMs` the union of every other op's intervals not already counted as communication
(ops run on several threads: overlap is counted once) and `idleMs` the rest of the window.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from mindscope_runtime.profparse import OpExecution

JsonDict = dict[str, Any]
Interval = tuple[int, int]  # ns

# Collective and point-to-point op types (MindSpore's names on CPU, GPU and Ascend's Hcom*).
_COMM = re.compile(
    r"(?:Hcom|Dist)?(?:AllReduce|AllGather|AllGatherV|AllToAll|AlltoAll|AlltoAllV|Broadcast|"
    r"ReduceScatter|ReduceScatterV|Reduce|Send|Receive|Recv|Barrier|CollectivePermute|"
    r"BatchISendIRecv|ISend|IRecv)",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)
def is_comm_type(op_type: str) -> bool:
    return bool(_COMM.fullmatch(op_type))


def op_type_of(full_name: str) -> str:
    """`Default/network/AllReduce-op20` → `AllReduce` (the type when no CSV row names it)."""
    last = full_name.rsplit("/", 1)[-1]
    return re.sub(r"-op\d+$", "", last)


def merge_intervals(intervals: Iterable[Interval]) -> list[Interval]:
    out: list[Interval] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


class Coverage:
    """Time covered by disjoint sorted intervals inside any window, in O(log n) a window."""

    def __init__(self, merged: Sequence[Interval]) -> None:
        self.starts = [a for a, _ in merged]
        self.ends = [b for _, b in merged]
        self.prefix = [0]
        for a, b in merged:
            self.prefix.append(self.prefix[-1] + b - a)

    def within(self, lo: int, hi: int) -> int:
        first = bisect.bisect_right(self.ends, lo)  # the first interval ending after lo
        last = bisect.bisect_left(self.starts, hi)  # intervals [first, last) start before hi
        if first >= last:
            return 0
        total = self.prefix[last] - self.prefix[first]
        total -= max(0, lo - self.starts[first])  # the part of the first before lo
        total -= max(0, self.ends[last - 1] - hi)  # the part of the last after hi
        return max(0, total)


def step_breakdown(
    marks: Sequence[Interval], executions: Sequence[OpExecution], types: dict[str, str]
) -> list[JsonDict]:
    """One row per step: wall, comm, compute and idle ms. `types` maps full name → op type."""
    comm_spans: list[Interval] = []
    all_spans: list[Interval] = []
    for e in executions:
        span = (e.start_ns, e.start_ns + int(e.dur_ms * 1e6))
        all_spans.append(span)
        if is_comm_type(types.get(e.full_name) or op_type_of(e.full_name)):
            comm_spans.append(span)
    comm, busy = Coverage(merge_intervals(comm_spans)), Coverage(merge_intervals(all_spans))
    rows = []
    for index, (start, end) in enumerate(marks):
        wall = max(0, end - start)
        comm_ns = comm.within(start, end)
        busy_ns = max(comm_ns, busy.within(start, end))
        rows.append(
            {
                "index": index,
                "startNs": start,
                "wallMs": round(wall / 1e6, 6),
                "commMs": round(comm_ns / 1e6, 6),
                "computeMs": round((busy_ns - comm_ns) / 1e6, 6),
                "idleMs": round(max(0, wall - busy_ns) / 1e6, 6),
            }
        )
    return rows


def shares(steps: Sequence[JsonDict]) -> JsonDict:
    """The rank's comm / compute / idle totals over its steps, and their shares of the wall."""
    wall = sum(s["wallMs"] for s in steps)
    out: JsonDict = {"wallMs": round(wall, 6)}
    for key in ("commMs", "computeMs", "idleMs"):
        total = sum(s[key] for s in steps)
        out[key] = round(total, 6)
        out[key.replace("Ms", "Share")] = round(total / wall, 6) if wall else 0.0
    return out


def stragglers(per_rank: Mapping[int, Sequence[JsonDict]]) -> list[JsonDict]:
    """For each step index every rank has: the straggler, the rank the others wait for (most
    compute, i.e. least time waiting in collectives), and the spread of wall and compute
    times between ranks."""
    if not per_rank:
        return []
    count = min(len(steps) for steps in per_rank.values())
    out = []
    for index in range(count):
        wall = {rank: steps[index]["wallMs"] for rank, steps in per_rank.items()}
        compute = {rank: steps[index]["computeMs"] for rank, steps in per_rank.items()}
        slowest = max(compute, key=lambda r: (compute[r], wall[r], -r))
        fastest = min(compute.values())
        out.append(
            {
                "index": index,
                "straggler": slowest,
                "wallMsByRank": [wall[r] for r in sorted(wall)],
                "computeMsByRank": [compute[r] for r in sorted(compute)],
                "wallSpreadMs": round(max(wall.values()) - min(wall.values()), 6),
                "computeSpreadMs": round(compute[slowest] - fastest, 6),
            }
        )
    return out
