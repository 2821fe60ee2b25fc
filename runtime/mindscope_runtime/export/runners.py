"""Run the Cell and each artefact on numpy inputs, returning numpy outputs: eager MindSpore,
a MINDIR file through `ms.load` + `nn.GraphCell`, an ONNX file through onnxruntime."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np

from mindscope_runtime.export import deps
from mindscope_runtime.export.metrics import Array

JsonDict = dict[str, Any]
Arrays = list[Array]
Runner = Callable[[Arrays], Arrays]

# onnxruntime's type strings → numpy dtype names.
ORT_DTYPES = {
    "tensor(float)": "float32", "tensor(float16)": "float16", "tensor(double)": "float64",
    "tensor(int8)": "int8", "tensor(int16)": "int16", "tensor(int32)": "int32",
    "tensor(int64)": "int64", "tensor(uint8)": "uint8", "tensor(bool)": "bool",
}  # fmt: skip


def flatten(value: Any) -> list[Any]:
    """A Cell's output (a Tensor or nested tuples/lists of them) → its leaves, in order."""
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in flatten(item)]
    return [value]


def to_numpy(value: Any) -> Array:
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def eager_runner(ms: Any, cell: Any) -> Runner:
    def run(arrays: Arrays) -> Arrays:
        return [to_numpy(v) for v in flatten(cell(*[ms.Tensor(a) for a in arrays]))]

    return run


def graphcell_runner(ms: Any, path: Path) -> Runner:
    net = ms.nn.GraphCell(ms.load(str(path)))

    def run(arrays: Arrays) -> Arrays:
        return [to_numpy(v) for v in flatten(net(*[ms.Tensor(a) for a in arrays]))]

    return run


def onnx_session(path: Path) -> Any:
    ort = deps.onnxruntime()
    options = ort.SessionOptions()
    options.log_severity_level = 3  # errors only: its warnings would flood the progress log
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def onnx_runner(session: Any) -> Runner:
    names = [i.name for i in session.get_inputs()]

    def run(arrays: Arrays) -> Arrays:
        if len(arrays) != len(names):
            raise ValueError(f"the model takes {len(names)} inputs, got {len(arrays)}")
        return [np.asarray(o) for o in session.run(None, dict(zip(names, arrays)))]

    return run


def onnx_signature(session: Any) -> tuple[list[JsonDict], list[JsonDict]]:
    """Real input/output names, shapes (a string for a symbolic dim) and dtypes."""

    def describe(values: Any) -> list[JsonDict]:
        return [{"name": v.name, "shape": [d if isinstance(d, int) else str(d) for d in v.shape],
                 "dtype": ORT_DTYPES.get(v.type, v.type)} for v in values]  # fmt: skip

    return describe(session.get_inputs()), describe(session.get_outputs())


def array_signature(names: list[str], arrays: Arrays) -> list[JsonDict]:
    return [{"name": name, "shape": list(a.shape), "dtype": str(a.dtype)}
            for name, a in zip(names, arrays)]  # fmt: skip
