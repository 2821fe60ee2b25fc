"""The loss a stats run or a training-step profile differentiates.

By default the sum of every floating-point output (so each output element gets gradient 1).
`--loss-from file.py:loss_fn` names the user's own: it is called as `loss_fn(output, *inputs)`
and must return a scalar Tensor (it may build labels from the inputs, or ignore them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.targets import load_module, lookup, parse_target

LossFn = Callable[..., Any]


def sum_loss(output: Any, *inputs: Any) -> Any:
    """Sum of all floating-point tensors in `output` (a Tensor or a nested tuple/list)."""
    if isinstance(output, (tuple, list)):
        total = None
        for item in output:
            part = sum_loss(item)
            if part is not None:
                total = part if total is None else total + part
        return total
    if hasattr(output, "dtype") and output.dtype.is_floating_point:
        return output.sum()
    return None


def load_loss(spec: Optional[str], default_file: Path) -> tuple[LossFn, str]:
    """The loss function and how the document names it (`sum` or `file.py:name`)."""
    if not spec:
        return sum_loss, "sum"
    target = parse_target(spec, default_file=default_file)
    loss = lookup(load_module(target.file), target)
    if not callable(loss):
        raise RuntimeToolError("bad-target", f"loss {target.name} is not callable")
    return loss, f"{target.file.name}:{target.name}"


def forward_with_loss(cell: Any, loss: LossFn) -> LossFn:
    """`(*inputs) -> loss(cell(*inputs), *inputs)`, the function value_and_grad differentiates."""

    def forward(*inputs: Any) -> Any:
        return loss(cell(*inputs), *inputs)  # compiled in GRAPH_MODE: no raise, no checks

    return forward
