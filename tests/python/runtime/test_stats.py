"""Tensor statistics and the flag rules (pure numpy: no MindSpore)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mindscope_runtime.schemacheck import load_schema, validate
from mindscope_runtime.statsdoc import build_stats_document
from mindscope_runtime.statsflags import Thresholds, first_non_finite, flag_all
from mindscope_runtime.tensorstats import dead_unit_fraction, non_finite_count, summarize

SCHEMA = Path(__file__).resolve().parents[3] / "schemas" / "stats-document.schema.json"


def test_summary_of_plain_values() -> None:
    stats = summarize(np.array([[0.0, 1.0], [2.0, 3.0]], np.float32), dtype="Float32")
    assert stats["shape"] == [2, 2] and stats["dtype"] == "Float32" and stats["size"] == 4
    assert stats["mean"] == 1.5 and stats["min"] == 0.0 and stats["max"] == 3.0
    assert stats["std"] == pytest.approx(np.std([0, 1, 2, 3]))
    assert stats["rms"] == pytest.approx(np.sqrt(14 / 4))
    assert stats["zeroFraction"] == 0.25 and stats["nanCount"] == stats["infCount"] == 0
    hist = stats["histogram"]
    assert len(hist["edges"]) == len(hist["counts"]) + 1 == 17 and sum(hist["counts"]) == 4


def test_nan_and_inf_are_counted_and_excluded_from_moments() -> None:
    stats = summarize(np.array([1.0, np.nan, np.inf, -np.inf, 3.0]))
    assert stats["nanCount"] == 1 and stats["infCount"] == 2 and stats["finiteCount"] == 2
    assert stats["mean"] == 2.0 and stats["max"] == 3.0
    assert non_finite_count(np.array([np.nan, 1.0, np.inf])) == 2
    assert non_finite_count(np.array([1, 2])) == 0


@pytest.mark.parametrize(
    "array",
    [np.array([np.nan, np.nan]), np.zeros((0, 3)), np.array(["a"]), np.array([5.0])],
)
def test_degenerate_tensors_give_nulls_not_nan(array: Any) -> None:
    stats = summarize(array)
    for key in ("mean", "std", "min", "max"):
        value = stats[key]
        assert value is None or np.isfinite(value)
    assert sum(stats["histogram"]["counts"]) == stats["finiteCount"]


def test_bool_tensors_and_overflowing_float16() -> None:
    assert summarize(np.array([True, False, False]))["zeroFraction"] == pytest.approx(2 / 3)
    big = summarize(np.full((4,), 60000, np.float16))
    assert big["max"] == 60000.0 and big["rms"] == pytest.approx(60000.0)


def test_dead_unit_fraction_looks_at_axis_1() -> None:
    x = np.ones((2, 4, 3, 3), np.float32)
    x[:, 1] = 0
    x[0, 2] = 0  # dead for one sample only: alive
    assert dead_unit_fraction(x) == 0.25
    assert dead_unit_fraction(np.zeros((5,))) is None


def record(cell: str, stats_array: Any, order: int, **extra: Any) -> dict[str, Any]:
    return {"order": order, "cell": cell, "scope": f"Default/{cell}-X", "cellType": "X",
            "call": 0, "index": 0, "stats": summarize(stats_array), "inputNonFinite": 0,
            **extra}  # fmt: skip


def grad(name: str, scale: float) -> dict[str, Any]:
    return {"parameter": name, "scope": "Default", "stats": summarize(np.full((3,), scale))}


def test_vanishing_and_exploding_gradients_with_their_rules() -> None:
    grads = [grad("a", 1e-9), grad("b", 0.5), grad("c", 0.2), grad("d", 5e-6), grad("e", 2e4)]
    flags, first = flag_all([], [], grads, 1.0, Thresholds())
    assert first is None
    kinds = {(f["kind"], f["name"]) for f in flags}
    assert ("vanishing-gradient", "a") in kinds  # absolute: RMS < 1e-7
    assert ("vanishing-gradient", "d") in kinds  # relative: < 1e-4 x the median
    assert ("exploding-gradient", "e") in kinds
    assert not {"b", "c"} & {name for _, name in kinds}
    assert all(f["rule"] and f["threshold"] is not None for f in flags)


def test_a_planted_vanishing_layer_does_not_make_the_others_explode() -> None:
    grads = [grad("w1", 1e-13), grad("w2", 1e-13), grad("w3", 1e-12), grad("b3", 4.0)]
    flags, _ = flag_all([], [], grads, 1.0, Thresholds())
    assert [f["kind"] for f in flags] == ["vanishing-gradient"] * 3


def test_first_non_finite_inside_a_cell_or_before_it() -> None:
    ok = np.ones(3)
    bad = np.array([1.0, np.nan, 2.0])
    inside = [record("a", ok, 0), record("b", bad, 1), record("", bad, 2)]
    assert first_non_finite([], inside) == {
        "subject": "output", "where": "inside", "cell": "b", "scope": "Default/b-X",
        "cellType": "X", "name": "b", "order": 1, "after": "a", "nanCount": 1, "infCount": 0,
    }  # fmt: skip
    before = [record("a", ok, 0), record("b", bad, 1, inputNonFinite=3)]
    found = first_non_finite([], before)
    assert found is not None and found["where"] == "before" and found["after"] == "a"
    flags, _ = flag_all([], before, [], None, Thresholds())
    assert [f["kind"] for f in flags] == ["non-finite", "non-finite-loss"]
    assert "construct after a" in flags[0]["message"]
    inputs = [{"name": "input0", "stats": summarize(bad)}]
    found = first_non_finite(inputs, before)
    assert found is not None and found["where"] == "input"


def test_dead_relu_flag_and_document_schema() -> None:
    relu = record("relu", np.zeros((2, 4)), 0, deadUnitFraction=1.0)
    relu["cellType"] = "ReLU"
    meta = {"mindsporeVersion": "2.10.0", "mode": "PYNATIVE_MODE", "target": "x.py:Net",
            "rootCell": "Net", "inputs": [{"shape": [2, 4], "dtype": "Float32"}],
            "device": "CPU", "train": False, "loss": {"name": "sum", "value": 0.0}}  # fmt: skip
    document = build_stats_document(
        meta=meta, inputs=[], outputs=[relu], gradients=[grad("w", 0.1)], thresholds=Thresholds()
    )
    assert [f["kind"] for f in document["flags"]] == ["dead-relu"]
    assert document["meta"]["thresholds"]["deadUnitFraction"] == 0.5
    assert document["meta"]["counts"]["warnings"] == 1
    assert validate(document, load_schema(SCHEMA)) == []
