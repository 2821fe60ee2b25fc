"""Statistics (and, when small, the values) of a summary's `TensorProto`."""

from __future__ import annotations

import math
from typing import Any

JsonDict = dict[str, Any]
VALUES_KEPT = 1024  # tensors up to this many elements keep their values in the document

# anf_ir.proto DataType → numpy dtype name, for raw_data.
_RAW_DTYPES = {
    1: "bool", 2: "int8", 3: "int16", 4: "int32", 5: "int64", 6: "uint8", 7: "uint16",
    8: "uint32", 9: "uint64", 10: "float16", 11: "float32", 12: "float64",
}  # fmt: skip
_LIST_FIELDS = ("float_data", "double_data", "int32_data", "int64_data", "uint64_data")


def dtype_name(data_type: int) -> str:
    return _RAW_DTYPES.get(data_type, f"type{data_type}")


def tensor_array(tensor: Any) -> Any:
    """The tensor's values as a numpy array of its dims."""
    import numpy as np

    dims = [int(d) for d in tensor.dims]
    if tensor.raw_data:
        name = _RAW_DTYPES.get(tensor.data_type)
        if name is None:
            raise ValueError(f"tensor data type {tensor.data_type} cannot be read")
        flat = np.frombuffer(tensor.raw_data, dtype=np.dtype(name).newbyteorder("<"))
    else:
        data: Any = next((getattr(tensor, f) for f in _LIST_FIELDS if len(getattr(tensor, f))), [])
        flat = np.asarray(list(data), dtype=np.float64)
    if int(np.prod(dims)) == flat.size:
        return flat.reshape(dims)
    return flat


def tensor_sample(step: int, wall: float, tensor: Any) -> JsonDict:
    import numpy as np

    sample: JsonDict = {"step": step, "wallTime": wall, "dims": [int(d) for d in tensor.dims],
                        "dtype": dtype_name(tensor.data_type)}  # fmt: skip
    try:
        values = tensor_array(tensor)
    except ValueError as exc:
        sample["error"] = str(exc)
        return sample
    as_float = values.astype(np.float64, copy=False).ravel()
    finite = as_float[np.isfinite(as_float)]
    stats: JsonDict = {
        "count": int(as_float.size),
        "nanCount": int(np.isnan(as_float).sum()),
        "posInfCount": int(np.isposinf(as_float).sum()),
        "negInfCount": int(np.isneginf(as_float).sum()),
        "min": None, "max": None, "mean": None, "std": None,
    }  # fmt: skip
    if finite.size:
        stats.update(min=float(finite.min()), max=float(finite.max()),
                     mean=float(finite.mean()), std=float(finite.std()))  # fmt: skip
    sample["stats"] = stats
    if as_float.size <= VALUES_KEPT:
        sample["values"] = [v if math.isfinite(v) else None for v in as_float.tolist()]
    return sample
