"""Build the versioned stats document from the records of a stats run (pure)."""

from __future__ import annotations

from typing import Any

from mindscope_runtime import STATS_DOC_VERSION
from mindscope_runtime.statsflags import Thresholds, flag_all

JsonDict = dict[str, Any]


def build_stats_document(
    *,
    meta: JsonDict,
    inputs: list[JsonDict],
    outputs: list[JsonDict],
    gradients: list[JsonDict],
    thresholds: Thresholds,
) -> JsonDict:
    """{kind, version, meta, inputs, outputs, gradients, flags, firstNonFinite}.

    `outputs` are per Cell call and output leaf, in the order the Cells returned; `gradients`
    per trainable parameter. `meta.loss.value` is null when the loss was NaN or Inf."""
    loss = meta.get("loss", {}).get("value")
    default_loss = meta.get("loss", {}).get("name") == "sum"
    flags, first = flag_all(inputs, outputs, gradients, loss, thresholds, default_loss)
    full_meta = {**meta, "thresholds": thresholds.to_json()}
    full_meta["counts"] = {
        "outputs": len(outputs),
        "cells": len({o["cell"] for o in outputs}),
        "gradients": len(gradients),
        "flags": len(flags),
        "errors": sum(1 for f in flags if f["severity"] == "error"),
        "warnings": sum(1 for f in flags if f["severity"] == "warning"),
    }
    return {
        "kind": "mindscope.stats",
        "version": STATS_DOC_VERSION,
        "meta": full_meta,
        "inputs": inputs,
        "outputs": outputs,
        "gradients": gradients,
        "flags": flags,
        "firstNonFinite": first,
    }
