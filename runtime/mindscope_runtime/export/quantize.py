"""int8 quantization of the exported ONNX model with onnxruntime's own tools, and the layers
that lose the most (per-tensor SQNR from `onnxruntime.quantization.qdq_loss_debug`)."""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Optional

import numpy as np

from mindscope_runtime.errors import RuntimeToolError, one_line
from mindscope_runtime.export import deps
from mindscope_runtime.export.metrics import Array

JsonDict = dict[str, Any]
Arrays = list[Array]
MODES = ("int8-dynamic", "int8-static")
WORST = 5


class _Reader:
    """A `CalibrationDataReader` over fixed batches (a fresh iterator per `rewind`)."""

    def __init__(self, names: list[str], batches: list[Arrays]) -> None:
        self._feeds = [dict(zip(names, b)) for b in batches]
        self._it: Iterator[dict[str, Array]] = iter(self._feeds)

    def get_next(self) -> Optional[dict[str, Array]]:
        return next(self._it, None)

    def rewind(self) -> None:
        self._it = iter(self._feeds)

    # The iterator protocol of onnxruntime's CalibrationDataReader (collect_activations).
    def __iter__(self) -> _Reader:
        return self

    def __next__(self) -> dict[str, Array]:
        feed = self.get_next()
        if feed is None:
            raise StopIteration
        return feed


def quantize(
    float_model: Path, out: Path, mode: str, input_names: list[str], calib: list[Arrays],
    checks: list[Arrays],
) -> Optional[list[JsonDict]]:  # fmt: skip
    """Write the int8 model to `out`: dynamic (weights int8, activations quantized at run
    time) or static QDQ (activation ranges calibrated on `calib`). onnxruntime's
    pre-processing runs first (it folds BatchNormalization into Conv, which the quantizer
    would otherwise leave in float). Static: return the worst layers on `checks`."""
    deps.onnx()
    q = _quantization()
    logging.getLogger().setLevel(logging.ERROR)  # the tools log a pre-processing hint
    with tempfile.TemporaryDirectory(prefix="mindscope-quant-") as tmp:
        pre = Path(tmp) / "preprocessed.onnx"
        try:
            from onnxruntime.quantization.shape_inference import quant_pre_process

            # sympy (symbolic shapes) is not needed: MindSpore exports static shapes.
            quant_pre_process(str(float_model), str(pre), skip_symbolic_shape=True)
            if mode == "int8-dynamic":
                q.quantize_dynamic(str(pre), str(out), weight_type=q.QuantType.QInt8)
                return None
            q.quantize_static(
                str(pre), str(out), _Reader(input_names, calib),
                quant_format=q.QuantFormat.QDQ, activation_type=q.QuantType.QInt8,
                weight_type=q.QuantType.QInt8,
            )  # fmt: skip
        except Exception as exc:
            message = one_line(f"{type(exc).__name__}: {exc}", 300)
            raise RuntimeToolError(
                "quantize-failed", f"{mode} quantization failed: {message}"
            ) from exc
        return worst_layers(pre, out, input_names, checks)


def worst_layers(
    float_model: Path, qdq_model: Path, input_names: list[str], batches: list[Arrays]
) -> list[JsonDict]:
    """The tensors whose quantization loses the most: qdq_loss_debug's SQNR (dB, higher is
    better) of each activation against the float model's, lowest first, with the node that
    produces it. Only a QDQ (static) model has the matching pairs the tool needs."""
    _quantization()
    from onnxruntime.quantization import qdq_loss_debug as dbg

    onnx = deps.onnx()
    producers = {o: n for n in onnx.load(str(float_model)).graph.node for o in n.output}
    with tempfile.TemporaryDirectory(prefix="mindscope-qdq-") as tmp:
        aug_float, aug_qdq = Path(tmp) / "float.onnx", Path(tmp) / "qdq.onnx"
        dbg.modify_model_output_intermediate_tensors(str(float_model), str(aug_float))
        dbg.modify_model_output_intermediate_tensors(str(qdq_model), str(aug_qdq))
        float_acts = dbg.collect_activations(str(aug_float), _Reader(input_names, batches))
        qdq_acts = dbg.collect_activations(str(aug_qdq), _Reader(input_names, batches))
    matched = dbg.create_activation_matching(qdq_acts, float_acts)
    errors = dbg.compute_activation_error(matched)
    rows: list[JsonDict] = []
    for tensor, err in errors.items():
        node = producers.get(tensor)
        if node is None or "xmodel_err" not in err:
            continue  # a model input
        sqnr, local = _db(err["xmodel_err"]), _db(err.get("qdq_err"))
        rows.append({"tensor": tensor, "node": node.name, "op": node.op_type,
                     "sqnrDb": sqnr, "localSqnrDb": local})  # fmt: skip
    rows.sort(key=lambda r: (r["sqnrDb"] is None, r["sqnrDb"] if r["sqnrDb"] is not None else 0))
    return rows[:WORST]


def _db(value: Any) -> Optional[float]:
    number = float(value) if value is not None else float("nan")
    return round(number, 3) if np.isfinite(number) else None


def _quantization() -> Any:
    deps.onnxruntime()
    import onnxruntime.quantization as q

    return q
