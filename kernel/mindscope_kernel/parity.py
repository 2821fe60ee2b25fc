"""Compare two (nested) outputs tensor by tensor: where they differ and by how much."""

from __future__ import annotations

from typing import Any

import numpy as np

from mindscope_kernel.tensorview import is_tensor

RTOL, ATOL = 1e-5, 1e-6


def flatten(value: Any, path: str = "out") -> list[tuple[str, Any]]:
    if is_tensor(value) or isinstance(value, np.ndarray):
        return [(path, value)]
    if isinstance(value, (list, tuple)):
        return [p for i, item in enumerate(value) for p in flatten(item, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [p for k, item in value.items() for p in flatten(item, f"{path}[{k!r}]")]
    return [(path, value)]


def compare(pynative: Any, graph: Any) -> dict[str, Any]:
    left, right = flatten(pynative), flatten(graph)
    outputs: list[dict[str, Any]] = []
    if len(left) != len(right):
        note = f"PyNative gave {len(left)} outputs, GRAPH_MODE {len(right)}"
        outputs.append(_row("out", None, None, note))
    for (path, a), (_, b) in zip(left, right):
        outputs.append(_compare_one(path, a, b))
    equal = all(o["equal"] for o in outputs)
    close = all(o["close"] for o in outputs)
    return {
        "kind": "mindscope.parity",
        "version": 1,
        "equal": equal,
        "close": close,
        "rtol": RTOL,
        "atol": ATOL,
        "outputs": outputs,
    }


def _compare_one(path: str, a: Any, b: Any) -> dict[str, Any]:
    if not (is_tensor(a) or isinstance(a, np.ndarray)):
        same = bool(a == b) if not is_tensor(b) else False
        return {
            **_row(path, None, None, "" if same else f"{a!r} vs {b!r}"),
            "equal": same,
            "close": same,
        }
    x = a.asnumpy() if is_tensor(a) else a
    y = b.asnumpy() if is_tensor(b) else np.asarray(b)
    if x.shape != y.shape:
        return _row(path, list(x.shape), str(x.dtype), f"shape {x.shape} vs {y.shape}")
    xf, yf = x.astype(np.float64), y.astype(np.float64)
    diff = np.abs(xf - yf)
    rel = diff / np.maximum(np.abs(xf), 1e-12)
    row = _row(path, list(x.shape), str(x.dtype), "" if x.dtype == y.dtype else f"dtype {y.dtype}")
    row["equal"] = bool(np.array_equal(x, y)) and x.dtype == y.dtype
    row["close"] = bool(np.allclose(xf, yf, rtol=RTOL, atol=ATOL, equal_nan=True))
    if diff.size:
        worst = np.unravel_index(int(np.nanargmax(diff)), diff.shape)
        row["maxAbsDiff"] = float(diff[worst])
        row["maxRelDiff"] = float(np.nanmax(rel))
        row["where"] = [int(i) for i in worst]
        row["mismatched"] = int(np.count_nonzero(~np.isclose(xf, yf, rtol=RTOL, atol=ATOL)))
    return row


def _row(path: str, shape: Any, dtype: Any, note: str) -> dict[str, Any]:
    return {
        "path": path,
        "shape": shape,
        "dtype": dtype,
        "equal": False,
        "close": False,
        "maxAbsDiff": None,
        "maxRelDiff": None,
        "where": None,
        "note": note,
    }
