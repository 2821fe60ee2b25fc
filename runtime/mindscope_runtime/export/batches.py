"""The numpy batches an export is verified on: the user's inputs, random batches of the same
shapes and dtypes, and the same with a different batch size (dynamic-shape check)."""

from __future__ import annotations

from typing import Any

from mindscope_runtime.export.metrics import Array
from mindscope_runtime.inputs import InputSpec, make_tensors

Arrays = list[Array]

_NUMPY_DTYPES = {"bool": "bool", "float16": "float16", "float32": "float32", "float64": "float64"}


def specs_of(arrays: Arrays) -> list[InputSpec]:
    return [InputSpec(tuple(int(d) for d in a.shape), str(a.dtype)) for a in arrays]


def random_batches(arrays: Arrays, count: int, *, first_seed: int = 1) -> list[Arrays]:
    """`count` batches drawn like `make_tensors` (same shapes and dtypes, other seeds)."""
    specs = specs_of(arrays)
    return [_arrays(make_tensors(specs, seed=first_seed + i)) for i in range(count)]


def resized_batch(arrays: Arrays, seed: int = 99) -> tuple[int, Arrays] | None:
    """A batch whose leading dimension is doubled; None when an input is a scalar."""
    if not arrays or any(a.ndim == 0 for a in arrays):
        return None
    specs = [InputSpec((2 * s.shape[0], *s.shape[1:]), s.dtype) for s in specs_of(arrays)]
    return specs[0].shape[0], _arrays(make_tensors(specs, seed=seed))


def _arrays(tensors: list[Any]) -> Arrays:
    return [t.asnumpy() for t in tensors]
