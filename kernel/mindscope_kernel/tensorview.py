"""One-line and structured views of a MindSpore Tensor for the debugger's Variables pane."""

from __future__ import annotations

from typing import Any

PREVIEW_ITEMS = 6
STATS_LIMIT = 1 << 22  # elements; above this, min/max/mean would stall a debug stop


def is_tensor(value: Any) -> bool:
    cls = type(value)
    return any(
        base.__name__ == "Tensor" and base.__module__.startswith("mindspore")
        for base in cls.__mro__
    )


def shape_text(value: Any) -> str:
    return (
        "("
        + ", ".join(str(int(d)) for d in value.shape)
        + ("," if len(value.shape) == 1 else "")
        + ")"
    )


def summary(value: Any) -> str:
    """`Tensor(shape=(2, 4), dtype=Float32) [0.1, 0.2, 0.3, …]`."""
    kind = "Parameter" if type(value).__name__ == "Parameter" else "Tensor"
    head = f"{kind}(shape={shape_text(value)}, dtype={value.dtype})"
    return f"{head} {preview(value)}"


def preview(value: Any) -> str:
    try:
        flat = value.asnumpy().reshape(-1)
    except Exception as exc:  # e.g. a Parameter not initialized yet
        return f"<no value: {type(exc).__name__}>"
    items = [_fmt(v) for v in flat[:PREVIEW_ITEMS].tolist()]
    more = ", …" if flat.size > PREVIEW_ITEMS else ""
    return "[" + ", ".join(items) + more + "]"


def details(value: Any) -> dict[str, Any]:
    """Children shown when the tensor is expanded."""
    out: dict[str, Any] = {"shape": tuple(int(d) for d in value.shape), "dtype": value.dtype}
    try:
        array = value.asnumpy()
    except Exception as exc:
        out["value"] = f"<no value: {type(exc).__name__}>"
        return out
    out["size"] = int(array.size)
    if 0 < array.size <= STATS_LIMIT and array.dtype.kind in "biuf":
        out["min"], out["max"] = array.min().item(), array.max().item()
        out["mean"] = float(array.mean())
    out["value"] = array
    return out


def _fmt(item: Any) -> str:
    return f"{item:.4g}" if isinstance(item, float) else str(item)
