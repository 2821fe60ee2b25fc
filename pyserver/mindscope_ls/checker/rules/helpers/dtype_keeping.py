"""The ops and Tensor methods whose result has their operand's dtype (shape, selection and
elementwise ops that do not promote): one list, read by the abstract values of a function
(`abstract.py`) and by a sub-Cell's return dtype (`cell_returns.py`)."""

from __future__ import annotations

# Tensor methods: `x.reshape(...)`, `x.max()`, `x.relu()` keep `x`'s dtype.
KEEPS_DTYPE_METHODS = frozenset(
    {"reshape", "view", "transpose", "permute", "squeeze", "unsqueeze", "expand_dims"}
    | {"flatten", "clone", "copy", "contiguous", "swapaxes", "repeat", "tile", "broadcast_to"}
    | {"expand_as", "max", "min", "abs", "neg", "relu"}
)
# `ops.` functions whose result has their first argument's dtype.
KEEPS_DTYPE_OPS = frozenset(
    {"softmax", "log_softmax", "relu", "gelu", "silu", "sigmoid", "tanh", "abs", "neg"}
    | {"reshape", "transpose", "squeeze", "expand_dims", "flatten"}
)
