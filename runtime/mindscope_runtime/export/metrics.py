"""Output errors and latency statistics (pure numpy)."""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

JsonDict = dict[str, Any]
Array = npt.NDArray[Any]


def output_errors(got: list[Array], want: list[Array]) -> list[JsonDict]:
    """Per output: max |got - want| and that error relative to max |want| (the output's
    scale: element-wise relative errors explode where the reference is near zero)."""
    if len(got) != len(want):
        raise ValueError(f"the artefact returned {len(got)} outputs, the Cell {len(want)}")
    out: list[JsonDict] = []
    for index, (a, b) in enumerate(zip(got, want)):
        a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        if a64.shape != b64.shape:
            raise ValueError(
                f"output {index}: shape {a64.shape} differs from the Cell's {b64.shape}"
            )
        abs_err = float(np.max(np.abs(a64 - b64))) if a64.size else 0.0
        scale = float(np.max(np.abs(b64))) if b64.size else 0.0
        out.append({"index": index, "maxAbsError": abs_err,
                    "maxRelError": abs_err / scale if scale > 0 else abs_err})  # fmt: skip
    return out


def merge_errors(rows: list[list[JsonDict]]) -> list[JsonDict]:
    """The worst error of each output over several batches."""
    merged: list[JsonDict] = []
    for per_batch in zip(*rows):
        merged.append({
            "index": per_batch[0]["index"],
            "maxAbsError": max(r["maxAbsError"] for r in per_batch),
            "maxRelError": max(r["maxRelError"] for r in per_batch),
        })  # fmt: skip
    return merged


def median_ms(run: Callable[[], object], runs: int, warmup: int = 2) -> JsonDict:
    """Median wall time of `runs` calls after `warmup` unmeasured ones."""
    for _ in range(warmup):
        run()
    times: list[float] = []
    for _ in range(max(1, runs)):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000.0)
    return {"median": round(statistics.median(times), 4), "min": round(min(times), 4),
            "runs": len(times)}  # fmt: skip


def histogram(op_types: list[str]) -> list[JsonDict]:
    """[{op, count}] most frequent first, then by name."""
    counts: dict[str, int] = {}
    for op in op_types:
        counts[op] = counts.get(op, 0) + 1
    return [{"op": op, "count": n} for op, n in sorted(counts.items(), key=lambda i: (-i[1], i[0]))]
