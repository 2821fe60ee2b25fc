"""`stats`: one forward and backward step in PyNative, recording tensor statistics.

Every Cell's output is summarised by a forward hook as the forward runs (then dropped, so
memory stays flat); `mindspore.value_and_grad` gives each trainable parameter's gradient.
PyNative is used whatever the context says: hooks and concrete values need it.
"""

from __future__ import annotations

import math
import time
from typing import Any, Optional

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.hookgraph import _flat
from mindscope_runtime.inputs import describe
from mindscope_runtime.losses import LossFn, forward_with_loss
from mindscope_runtime.msenv import cell_infos, syntax_level_name
from mindscope_runtime.progress import Progress
from mindscope_runtime.runfail import run_failure
from mindscope_runtime.scopes import owner_scope, scope_of_cell
from mindscope_runtime.statsdoc import build_stats_document
from mindscope_runtime.statsflags import RELU_TYPES, Thresholds
from mindscope_runtime.tensorstats import dead_unit_fraction, non_finite_count, summarize

JsonDict = dict[str, Any]


def collect_stats(
    ms: Any,
    cell: Any,
    inputs: list[Any],
    *,
    target: str,
    loss: LossFn,
    loss_name: str,
    thresholds: Optional[Thresholds] = None,
    progress: Optional[Progress] = None,
) -> JsonDict:
    """Run `loss(cell(*inputs), *inputs)` forward and backward; return the stats document."""
    progress = progress or Progress(quiet=True)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    infos = cell_infos(cell)
    types = {c.path: c.cell_type for c in infos}
    scopes = {c.path: scope_of_cell(c.path, types) for c in infos}
    outputs: list[JsonDict] = []
    handles = _hooks(cell, scopes, outputs)
    weights = list(cell.trainable_params())
    started = time.perf_counter()
    try:
        with progress.phase("forward and backward step (PyNative)"):
            value, grads = _step(ms, cell, inputs, loss, weights)
    except RuntimeToolError:
        raise
    except Exception as exc:
        raise run_failure(
            exc, kind="stats-failed", inputs=describe(inputs), root=type(cell).__name__
        ) from exc
    finally:
        for handle in handles:
            handle.remove()
    step_seconds = time.perf_counter() - started
    with progress.phase(f"summarising {len(grads)} gradient(s)"):
        gradients = [
            {
                "parameter": param.name,
                "scope": owner_scope(param.name, scopes),
                "stats": summarize(to_numpy(grad), dtype=str(grad.dtype)),
            }
            for param, grad in zip(weights, grads)
        ]
        input_records = [
            {"name": f"input{i}", "stats": summarize(to_numpy(t), dtype=str(t.dtype))}
            for i, t in enumerate(inputs)
            if hasattr(t, "asnumpy")
        ]
    meta: JsonDict = {
        "mindsporeVersion": ms.__version__,
        "mode": "PYNATIVE_MODE",
        "syntaxLevel": syntax_level_name(ms),
        "device": ms.get_context("device_target"),
        "target": target,
        "rootCell": type(cell).__name__,
        "inputs": describe(inputs),
        "train": bool(cell.training),
        "loss": {"name": loss_name, "value": _scalar(value)},
        "stepSeconds": round(step_seconds, 4),
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    return build_stats_document(
        meta=meta,
        inputs=input_records,
        outputs=outputs,
        gradients=gradients,
        thresholds=thresholds or Thresholds(),
    )


def _step(
    ms: Any, cell: Any, inputs: list[Any], loss: LossFn, weights: list[Any]
) -> tuple[Any, list[Any]]:
    forward = forward_with_loss(cell, loss)

    def checked(*args: Any) -> Any:  # PyNative runs this as Python: it may raise
        value = forward(*args)
        if value is None or not hasattr(value, "dtype"):
            raise RuntimeToolError(
                "bad-loss",
                f"the loss is {type(value).__name__}, not a Tensor (an output with no "
                "floating-point tensor to sum? give --loss-from)",
            )
        return value

    if not weights:
        return checked(*inputs), []
    value, grads = ms.value_and_grad(checked, None, weights)(*inputs)
    return value, list(grads)


def _hooks(cell: Any, scopes: dict[str, str], outputs: list[JsonDict]) -> list[Any]:
    calls: dict[str, int] = {}
    handles: list[Any] = []
    for path, sub in cell.cells_and_names():

        def post(c: Any, args: Any, output: Any, path: str = path) -> None:
            call = calls.get(path, 0)
            calls[path] = call + 1
            relu = type(c).__name__ in RELU_TYPES
            bad_inputs = sum(non_finite_count(to_numpy(a)) for a in _flat(args) if _is_tensor(a))
            for index, leaf in enumerate(_flat(output)):
                if not _is_tensor(leaf):
                    continue
                array = to_numpy(leaf)
                record: JsonDict = {
                    "order": len(outputs),
                    "cell": path,
                    "scope": scopes.get(path, path),
                    "cellType": type(c).__name__,
                    "call": call,
                    "index": index,
                    "stats": summarize(array, dtype=str(leaf.dtype)),
                    "inputNonFinite": bad_inputs,
                }
                if relu:
                    record["deadUnitFraction"] = dead_unit_fraction(array)
                outputs.append(record)

        handles.append(sub.register_forward_hook(post))
    return handles


def _is_tensor(value: Any) -> bool:
    return hasattr(value, "asnumpy") and hasattr(value, "dtype")


def to_numpy(tensor: Any) -> Any:
    """`asnumpy()`, going through float32 for dtypes numpy lacks (bfloat16)."""
    if "bfloat16" in str(tensor.dtype).lower():
        import mindspore as ms

        tensor = tensor.astype(ms.float32)
    return tensor.asnumpy()


def _scalar(value: Any) -> Optional[float]:
    try:
        number = float(value.asnumpy().sum()) if hasattr(value, "asnumpy") else float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None
