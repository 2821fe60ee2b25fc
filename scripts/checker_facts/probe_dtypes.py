"""What each Tensor method returns, measured: called with no arguments on small Tensors.

usage: python probe_dtypes.py METHOD...   (prints one JSON object: method -> input dtype -> result)

Run in its own process (MindSpore is imported here, in PyNative, never in the builder): a
result is `Tensor[Int64]`, `tuple[Tensor[Float32], Tensor[Int64]]`, a Python type name, or
absent when the method needs arguments. Only the kind and dtype are kept, never values.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

INPUTS = ("float32", "float16", "int32", "bool")
# Methods that change global state, block or allocate a lot: not worth calling blind.
SKIP = {"register_hook", "move_to", "to", "data", "value_", "itemset", "resize", "copy_"}


def describe(value: Any) -> str:
    import mindspore as ms

    if isinstance(value, ms.Tensor):
        return f"Tensor[{value.dtype}]"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(describe(v) for v in value[:4])
        return f"{type(value).__name__}[{inner}]"
    return type(value).__name__


def probe(names: list[str]) -> dict[str, dict[str, str]]:
    import mindspore as ms
    import numpy as np

    ms.set_context(mode=ms.PYNATIVE_MODE)
    samples = {
        "float32": ms.Tensor(np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)),
        "float16": ms.Tensor(np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float16)),
        "int32": ms.Tensor(np.array([[1, -2, 3], [0, 4, -1]], np.int32)),
        "bool": ms.Tensor(np.array([[True, False, True], [False, True, True]])),
    }
    out: dict[str, dict[str, str]] = {}
    for name in names:
        if name in SKIP or name.endswith("_"):
            continue  # trailing `_`: in-place, would change the sample for the next method
        row = {}
        for dtype in INPUTS:
            method = getattr(samples[dtype], name, None)
            if not callable(method):
                continue
            try:
                row[dtype] = describe(method())
            except Exception:  # needs arguments or rejects this dtype: nothing stated
                continue
        if row:
            out[name] = row
    return out


def main() -> None:
    real_stdout = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # MindSpore's own prints and warnings go to stderr
    result = probe(sys.argv[1:])
    print(json.dumps(result, sort_keys=True), file=real_stdout)


if __name__ == "__main__":
    main()
