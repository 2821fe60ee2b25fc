"""A training step for `profile --train`: forward, backward (`value_and_grad`) and optimizer."""

from __future__ import annotations

from typing import Any, Callable

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.losses import LossFn, forward_with_loss

OPTIMIZERS = ("sgd", "momentum", "adam")


def make_optimizer(ms: Any, params: list[Any], name: str, lr: float) -> Any:
    if name == "sgd":
        return ms.nn.SGD(params, learning_rate=lr)
    if name == "momentum":
        return ms.nn.Momentum(params, learning_rate=lr, momentum=0.9)
    if name == "adam":
        return ms.nn.Adam(params, learning_rate=lr)
    raise RuntimeToolError("usage", f"unknown optimizer {name!r} (use {', '.join(OPTIMIZERS)})")


def make_train_step(
    ms: Any, cell: Any, loss: LossFn, *, optimizer: str, lr: float, graph: bool
) -> Callable[..., Any]:
    """`step(*inputs) -> loss`, updating the Cell's trainable parameters; `ms.jit`-compiled
    as one graph in GRAPH_MODE (forward, gradients and the update together)."""
    params = list(cell.trainable_params())
    if not params:
        raise RuntimeToolError("usage", "--train needs a Cell with trainable parameters")
    cell.set_train(True)
    opt = make_optimizer(ms, params, optimizer, lr)
    grad_fn = ms.value_and_grad(forward_with_loss(cell, loss), None, opt.parameters)

    def train_step(*inputs: Any) -> Any:
        value, grads = grad_fn(*inputs)
        opt(grads)
        return value

    return ms.jit(train_step) if graph else train_step
