"""Input specs (`2,3,32,32:float32`) and building the input tensors for a target."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.targets import load_module, lookup, parse_target, user_code_error

DTYPES = (
    "float16",
    "float32",
    "float64",
    "bfloat16",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "bool",
)
_ALIASES = {"fp16": "float16", "fp32": "float32", "fp64": "float64", "bf16": "bfloat16"}


@dataclass(frozen=True)
class InputSpec:
    shape: tuple[int, ...]
    dtype: str

    def to_json(self) -> dict[str, object]:
        return {"shape": list(self.shape), "dtype": self.dtype}


# numpy's own limit on dimensions; a dimension that fits MindSpore's int32 shapes.
MAX_RANK = 32
MAX_DIM = 2**31 - 1
_ITEM_BYTES = {"float16": 2, "bfloat16": 2, "float64": 8, "int8": 1, "int16": 2, "int64": 8,
               "uint8": 1, "bool": 1}  # fmt: skip
_EXAMPLE = "(expected e.g. 2,3,32,32:float32, or :int32 for a scalar)"


def _bad_spec(text: str, why: str) -> RuntimeToolError:
    return RuntimeToolError("bad-input-spec", f"input {text!r}: {why} {_EXAMPLE}")


def parse_input_spec(text: str) -> InputSpec:
    """`2,3,32,32:float32` → InputSpec; the dtype defaults to float32; `:int32` is a scalar."""
    if not text.strip():
        raise _bad_spec(text, "is empty")
    shape_text, colon, dtype_text = text.strip().partition(":")
    if colon and not dtype_text.strip():
        raise _bad_spec(text, "nothing after ':'")
    dtype = _ALIASES.get(dtype_text.strip().lower(), dtype_text.strip().lower() or "float32")
    if dtype not in DTYPES:
        raise RuntimeToolError(
            "bad-input-spec",
            f"input {text!r}: unknown dtype {dtype_text!r} (use {', '.join(DTYPES)})",
        )
    cleaned = re.sub(r"(?<=\d)\s*x\s*(?=\d)", ",", shape_text.strip().strip("()[]"))
    parts = [p.strip() for p in cleaned.split(",")] if cleaned.strip() else []
    if len(parts) > MAX_RANK:
        raise _bad_spec(text, f"{len(parts)} dimensions (at most {MAX_RANK})")
    dims: list[int] = []
    for part in parts:
        if not part:
            raise _bad_spec(text, "an empty dimension")
        if not part.isdigit() or int(part) <= 0:
            raise _bad_spec(text, f"dimension {part!r} is not a positive integer")
        if int(part) > MAX_DIM:
            raise _bad_spec(text, f"dimension {part[:24]} is over {MAX_DIM:,}")
        dims.append(int(part))
    return InputSpec(tuple(dims), dtype)


def input_bytes(spec: InputSpec) -> int:
    elements = 1
    for dim in spec.shape:
        elements *= dim
    return elements * _ITEM_BYTES.get(spec.dtype, 4)


def check_input_sizes(specs: list[InputSpec], limit: int | None = None) -> None:
    """`input-too-large` when the inputs could not fit in this machine's memory."""
    total = sum(input_bytes(s) for s in specs)
    budget = _physical_memory() if limit is None else limit
    if budget and total > budget:
        shapes = ", ".join(",".join(map(str, s.shape)) + f":{s.dtype}" for s in specs)
        raise RuntimeToolError(
            "input-too-large",
            f"the inputs {shapes} need {_gib(total)}; this machine has {_gib(budget)} of memory",
        )


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # not POSIX: no check
        return 0


def _gib(n: int) -> str:
    return f"{n / 2**30:,.1f} GiB"


def make_tensors(specs: list[InputSpec], seed: int = 0) -> list[Any]:
    """Deterministic random tensors: normal floats, small non-negative ints, random bools."""
    import mindspore as ms
    import numpy as np

    rng = np.random.default_rng(seed)
    tensors: list[Any] = []
    for spec in specs:
        if spec.dtype == "bool":
            array = rng.integers(0, 2, size=spec.shape).astype(np.bool_)
        elif spec.dtype.startswith(("int", "uint")):
            array = rng.integers(0, 10, size=spec.shape).astype(spec.dtype)
        else:
            array = rng.standard_normal(size=spec.shape).astype(np.float32)
        tensor = ms.Tensor(array)
        if spec.dtype in ("float16", "float64", "bfloat16"):
            tensor = tensor.astype(getattr(ms, spec.dtype))
        tensors.append(tensor)
    return tensors


def inputs_from(spec: str, default_file: Path) -> list[Any]:
    """Call the user's `make_inputs()`; a Tensor, array or a tuple/list of them is accepted."""
    import mindspore as ms
    import numpy as np

    target = parse_target(spec, default_file=default_file)
    factory = lookup(load_module(target.file), target)
    if not callable(factory):
        raise RuntimeToolError("bad-target", f"{target.name} is not callable")
    try:
        made = factory()
    except (Exception, SystemExit) as exc:
        raise user_code_error("inputs-failed", f"{target.name}() failed", exc) from exc
    items = list(made) if isinstance(made, (tuple, list)) else [made]
    out: list[Any] = []
    for item in items:
        if isinstance(item, np.ndarray):
            item = ms.Tensor(item)
        out.append(item)
    return out


def describe(values: list[Any]) -> list[dict[str, object]]:
    """Shape and dtype of each input, for the documents' meta."""
    out: list[dict[str, object]] = []
    for value in values:
        shape = getattr(value, "shape", None)
        dtype = getattr(value, "dtype", None)
        out.append(
            {
                "shape": list(shape) if shape is not None else None,
                "dtype": str(dtype) if dtype is not None else type(value).__name__,
            }
        )
    return out
