"""Align the ranks' clocks on the ends of their collectives (pure).

Every rank stamps its events in epoch time from its own clock. A collective (AllReduce…)
completes on all ranks at nearly the same moment, so the k-th execution of the same
collective op should end at the same time everywhere: the median difference of those ends
estimates each rank's clock offset to rank `reference`. Ranks on one host share one clock and
are not shifted; the differences that remain are reported as the residual skew (an upper
bound: it includes each rank's own completion jitter).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from mindscope_runtime.diststeps import is_comm_type, op_type_of
from mindscope_runtime.profparse import OpExecution

JsonDict = dict[str, Any]


def collective_ends(
    executions: Sequence[OpExecution], types: dict[str, str]
) -> dict[tuple[str, int], int]:
    """(op full name, occurrence) → end ns, for the rank's communication ops."""
    seen: dict[str, int] = {}
    out: dict[tuple[str, int], int] = {}
    for e in sorted(executions, key=lambda x: x.start_ns):
        if not is_comm_type(types.get(e.full_name) or op_type_of(e.full_name)):
            continue
        k = seen.get(e.full_name, 0)
        seen[e.full_name] = k + 1
        out[(e.full_name, k)] = e.start_ns + int(e.dur_ms * 1e6)
    return out


def align_clocks(
    ends: dict[int, dict[tuple[str, int], int]], hosts: dict[int, str], reference: int
) -> JsonDict:
    """`offsetsUs[rank]`: µs to add to the rank's times; `residualSkewUs`: the median
    |difference| of matched collective ends after the shift (None: no collective matched)."""
    ref_ends = ends.get(reference, {})
    offsets: dict[int, float] = {}
    residuals: list[float] = []
    shared = len(set(hosts.values())) <= 1
    for rank, mine in ends.items():
        diffs = [(ref_ends[key] - end) / 1e3 for key, end in mine.items() if key in ref_ends]
        offset = 0.0 if shared or rank == reference or not diffs else statistics.median(diffs)
        offsets[rank] = round(offset, 3)
        if rank != reference:
            residuals.extend(abs(d - offset) for d in diffs)
    return {
        "method": "shared-clock" if shared else "collective-ends",
        "referenceRank": reference,
        "offsetsUs": {str(rank): offsets[rank] for rank in sorted(offsets)},
        "residualSkewUs": round(statistics.median(residuals), 3) if residuals else None,
        "matchedCollectives": len(residuals),
    }
