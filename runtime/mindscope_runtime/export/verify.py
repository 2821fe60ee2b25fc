"""Verify one artefact against the eager Cell: errors on every batch, latency, a second batch
size. Whatever fails is recorded in the report, not raised: the user sees every artefact."""

from __future__ import annotations

from typing import Any, Optional

from mindscope_runtime.errors import one_line
from mindscope_runtime.export.metrics import median_ms, merge_errors, output_errors
from mindscope_runtime.export.runners import Arrays, Runner

JsonDict = dict[str, Any]
FLOAT_TOLERANCE = 1e-5


def verify(
    run: Runner,
    batches: list[Arrays],
    expected: list[Arrays],
    *,
    tolerance: Optional[float],
    runs: int,
    resized: Optional[tuple[int, Arrays, Arrays]],
) -> JsonDict:
    """`batches[i]` → `expected[i]` (eager outputs). `tolerance` None: errors are measured but
    not judged (a quantized model). `resized`: (batch size, inputs, eager outputs)."""
    out: JsonDict = {"ok": False, "tolerance": tolerance, "batches": len(batches), "outputs": [],
                     "error": None, "latencyMs": None, "dynamicShape": None}  # fmt: skip
    try:
        rows = [output_errors(run(b), e) for b, e in zip(batches, expected)]
    except Exception as exc:
        out["error"] = one_line(f"{type(exc).__name__}: {exc}", 300)
        return out
    out["outputs"] = merge_errors(rows)
    out["ok"] = tolerance is None or all(r["maxAbsError"] <= tolerance for r in out["outputs"])
    out["latencyMs"] = median_ms(lambda: run(batches[0]), runs)
    if resized is not None:
        out["dynamicShape"] = _second_batch(run, *resized, tolerance)
    return out


def _second_batch(
    run: Runner, batch: int, inputs: Arrays, expected: Arrays, tolerance: Optional[float]
) -> JsonDict:
    """Does the artefact take another batch size, and still compute the same thing?"""
    try:
        errors = output_errors(run(inputs), expected)
    except Exception as exc:
        return {"batch": batch, "ok": False, "maxAbsError": None,
                "error": one_line(f"{type(exc).__name__}: {exc}", 300)}  # fmt: skip
    worst = max((r["maxAbsError"] for r in errors), default=0.0)
    ok = tolerance is None or worst <= tolerance
    return {"batch": batch, "ok": bool(ok), "maxAbsError": worst,
            "error": None if ok else f"runs but differs from the Cell by {worst:.3g}"}  # fmt: skip
