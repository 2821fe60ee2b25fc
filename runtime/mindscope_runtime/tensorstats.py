"""Summary statistics of one tensor's values (pure numpy: no MindSpore needed).

Moments, extremes and the histogram are taken over the finite values only, so one NaN does not
hide the rest; NaN and Inf are counted separately. A statistic with no finite value is `None`
(JSON `null`): documents never carry NaN or Infinity.
"""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

JsonDict = dict[str, Any]

HISTOGRAM_BINS = 16


def _finite_float(value: Any) -> Optional[float]:
    number = float(value)
    return number if math.isfinite(number) else None


def summarize(array: Any, *, dtype: Optional[str] = None, bins: int = HISTOGRAM_BINS) -> JsonDict:
    """Shape, dtype, mean, std, min, max, rms, L2 norm, zero fraction, NaN/Inf counts, histogram.

    `dtype` names the framework's dtype (e.g. `Float16`) when the array was converted.
    """
    values = np.asarray(array)
    size = int(values.size)
    out: JsonDict = {
        "shape": [int(d) for d in values.shape],
        "dtype": dtype or str(values.dtype),
        "size": size,
    }
    if values.dtype == np.bool_:
        values = values.astype(np.float64)
    elif not np.issubdtype(values.dtype, np.number):
        return {**out, **_empty()}
    flat = values.astype(np.float64, copy=False).ravel()
    nan = int(np.isnan(flat).sum()) if size else 0
    inf = int(np.isinf(flat).sum()) if size else 0
    finite = flat[np.isfinite(flat)] if (nan or inf) else flat
    out.update(_moments(finite))
    out["zeroFraction"] = float(np.count_nonzero(flat == 0) / size) if size else 0.0
    out["nanCount"] = nan
    out["infCount"] = inf
    out["finiteCount"] = int(finite.size)
    out["histogram"] = histogram(finite, bins)
    return out


def _moments(finite: Any) -> JsonDict:
    if finite.size == 0:
        return {key: None for key in ("mean", "std", "min", "max", "rms", "l2Norm", "absMax")}
    with np.errstate(over="ignore", invalid="ignore"):
        mean = finite.mean()
        std = finite.std()
        sq = np.square(finite).sum()
    return {
        "mean": _finite_float(mean),
        "std": _finite_float(std),
        "min": _finite_float(finite.min()),
        "max": _finite_float(finite.max()),
        "rms": _finite_float(math.sqrt(sq / finite.size)) if math.isfinite(sq) else None,
        "l2Norm": _finite_float(math.sqrt(sq)) if math.isfinite(sq) else None,
        "absMax": _finite_float(np.abs(finite).max()),
    }


def histogram(finite: Any, bins: int = HISTOGRAM_BINS) -> JsonDict:
    """`bins` equal-width bins over [min, max] of the finite values: edges and counts."""
    if finite.size == 0:
        return {"edges": [], "counts": []}
    low, high = float(finite.min()), float(finite.max())
    if not (math.isfinite(low) and math.isfinite(high)):
        return {"edges": [], "counts": []}
    if low == high:
        return {"edges": [low, high], "counts": [int(finite.size)]}
    counts, edges = np.histogram(finite, bins=bins, range=(low, high))
    return {"edges": [float(e) for e in edges], "counts": [int(c) for c in counts]}


def _empty() -> JsonDict:
    return {
        "mean": None,
        "std": None,
        "min": None,
        "max": None,
        "rms": None,
        "l2Norm": None,
        "absMax": None,
        "zeroFraction": 0.0,
        "nanCount": 0,
        "infCount": 0,
        "finiteCount": 0,
        "histogram": {"edges": [], "counts": []},
    }


def dead_unit_fraction(array: Any) -> Optional[float]:
    """Share of units (axis 1: channels or features) that are exactly 0 for every sample and
    position in the batch: the classic "dead ReLU" measure. `None` for tensors under 2-D."""
    values = np.asarray(array)
    if values.ndim < 2 or values.shape[1] == 0 or values.size == 0:
        return None
    moved = np.moveaxis(values, 1, 0).reshape(values.shape[1], -1)
    dead = np.count_nonzero(~np.any(moved != 0, axis=1))
    return float(dead / values.shape[1])


def non_finite_count(array: Any) -> int:
    """NaN plus Inf values (0 for non-float arrays)."""
    values = np.asarray(array)
    if not np.issubdtype(values.dtype, np.floating):
        return 0
    return int(values.size - np.count_nonzero(np.isfinite(values)))
