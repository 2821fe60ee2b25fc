"""Summaries real MindSpore 2.10 writes in the test, decoded by the reader and compared with what
was recorded and with MindSpore's own `summary_pb2` (slow: two MindSpore processes, ~15 s)."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mindscope_runtime.schemacheck import load_schema, validate
from mindscope_runtime.summary.document import summary_document
from mindscope_runtime.summary.graph import summary_graph_document
from mindscope_runtime.summary.reader import SummaryReader
from tests.python.summary.records import reference_events

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
WRITERS = Path(__file__).parent / "writers"
JsonDict = dict[str, Any]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both writers run once, side by side: {"record": OUT, "train": OUT}."""
    outs = {name: tmp_path_factory.mktemp(name) for name in ("record", "train")}
    scripts = {"record": "write_record.py", "train": "train_collector.py"}

    def write(name: str) -> None:
        subprocess.run([sys.executable, str(WRITERS / scripts[name]), str(outs[name])],
                       check=True, capture_output=True, timeout=240)  # fmt: skip

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(write, outs))
    return outs


def _document(root: Path) -> JsonDict:
    runs, issues, _ = SummaryReader(root).poll(final=True)
    document = summary_document(root, runs, issues)
    # what the CLI writes: JSON without NaN
    loaded: JsonDict = json.loads(json.dumps(document, allow_nan=False))
    return loaded


def _tagged(run: JsonDict, kind: str, tag: str) -> Any:
    return next(item for item in run[kind] if item["tag"] == tag)


def test_summary_record_values_are_decoded_exactly(written: dict[str, Path]) -> None:
    out = written["record"]
    expected = json.loads((out / "expected.json").read_text())
    document = _document(out)
    assert validate(document, load_schema(ROOT / "schemas/summary-document.schema.json")) == []
    assert document["issues"] == []
    (run,) = document["runs"]
    assert run["name"] == "run" and run["version"] == "MindSpore.Event:1"
    assert _tagged(run, "scalars", "loss")["values"] == [e["value"] for e in expected["loss"]]
    lr = _tagged(run, "scalars", "learning_rate")["values"]
    assert lr == [e["value"] for e in expected["lr"]]
    for sample, recorded in zip(_tagged(run, "tensors", "activations")["samples"],
                                expected["tensor"], strict=True):  # fmt: skip
        assert sample["dims"] == [2, 3] and sample["dtype"] == "float32"
        assert sample["values"] == recorded["values"]
        finite = [v for v in recorded["values"] if v is not None]
        assert sample["stats"]["nanCount"] == (1 if recorded["step"] == 3 else 0)
        assert sample["stats"]["posInfCount"] == (1 if recorded["step"] == 3 else 0)
        assert sample["stats"]["mean"] == pytest.approx(np.mean(finite))
        assert sample["stats"]["std"] == pytest.approx(np.std(finite))


def test_histograms_count_every_recorded_weight_in_its_bucket(written: dict[str, Path]) -> None:
    out = written["record"]
    expected = json.loads((out / "expected.json").read_text())
    (run,) = _document(out)["runs"]
    samples = _tagged(run, "histograms", "dense.weight")["samples"]
    assert len(samples) == len(expected["weights"])
    for sample, recorded in zip(samples, expected["weights"], strict=True):
        values = np.asarray(recorded["values"], dtype=np.float32)
        assert sample["count"] == values.size == sum(b[2] for b in sample["buckets"])
        assert sample["min"] == pytest.approx(float(values.min()))
        assert sample["max"] == pytest.approx(float(values.max()))
        assert sample["sum"] == pytest.approx(float(values.sum()), rel=1e-5)
        for left, width, count in sample["buckets"][:-1]:  # [left, left + width)
            inside = (values >= np.float32(left)) & (values < np.float32(left + width))
            assert int(inside.sum()) == pytest.approx(count, abs=1)  # float32 edges


def test_images_decode_to_the_recorded_pixels(written: dict[str, Path]) -> None:
    from PIL import Image

    out = written["record"]
    expected = json.loads((out / "expected.json").read_text())
    (run,) = _document(out)["runs"]
    samples = _tagged(run, "images", "input")["samples"]
    assert len(samples) == len(expected["image"])
    path = next(out.rglob("events.out.events.summary.*_MS"))
    encoded = [v.image.encoded_image for e in reference_events(path) for v in e.summary.value
               if v.WhichOneof("value") == "image"]  # fmt: skip
    for sample, recorded, png in zip(samples, expected["image"], encoded, strict=True):
        assert (sample["width"], sample["height"], sample["colorspace"]) == (8, 6, 3)
        assert base64.b64decode(sample["png"]) == png
        pixels = np.asarray(Image.open(io.BytesIO(png)), dtype=np.int16)
        # MindSpore resamples (Lanczos) even at the same size: a few levels of ringing
        assert np.abs(pixels - np.asarray(recorded["hwc"], dtype=np.int16)).max() <= 8


def test_every_event_matches_mindsporeʼs_own_decoder(written: dict[str, Path]) -> None:
    for out in written.values():
        path = next(out.rglob("events.out.events.summary.*_MS"))
        reference = reference_events(path)
        (run,) = _document(out)["runs"]
        scalars = [(e.step, v.tag, v.scalar_value) for e in reference
                   for v in e.summary.value if v.WhichOneof("value") == "scalar_value"]  # fmt: skip
        ours = sorted((step, s["tag"], value) for s in run["scalars"]
                      for step, value in zip(s["steps"], s["values"]))  # fmt: skip
        assert ours == sorted(scalars)
        graphs = [(e.step, e.graph_def.name, len(e.graph_def.node)) for e in reference
                  if e.WhichOneof("what") == "graph_def"]  # fmt: skip
        assert [(g["step"], g["name"], g["nodes"]) for g in run["graphs"]] == graphs
        assert len(graphs) == 1


def test_summary_collector_through_model_train(written: dict[str, Path]) -> None:
    out = written["train"]
    expected = json.loads((out / "expected.json").read_text())
    document = _document(out)
    (run,) = document["runs"]
    assert run["name"] == "train"
    loss = _tagged(run, "scalars", "loss/auto")
    by_step = dict(zip(loss["steps"], loss["values"]))
    assert sorted(by_step) == [e["step"] for e in expected["loss"]]  # steps 1..8
    for recorded in expected["loss"]:
        assert by_step[recorded["step"]] == pytest.approx(recorded["value"], rel=1e-6)
    weights = _tagged(run, "histograms", "fc.weight/auto")["samples"][-1]
    assert weights["step"] == 8
    assert weights["count"] == expected["fc_weight"]["count"]
    assert weights["min"] == pytest.approx(expected["fc_weight"]["min"])
    assert weights["max"] == pytest.approx(expected["fc_weight"]["max"])
    assert _tagged(run, "images", "input_data/auto")["samples"][0]["width"] > 0


def test_the_recorded_graph_becomes_a_valid_graph_document(written: dict[str, Path]) -> None:
    runs, _, _ = SummaryReader(written["train"]).poll()
    ((_, data),) = runs
    step, _, graph = data.graphs[-1]
    document = summary_graph_document(graph, source=f"train (step {step})")
    assert validate(document, load_schema(ROOT / "schemas/graph-document.schema.json")) == []
    assert document["meta"]["capture"] == "summary"
    assert document["meta"]["rootCell"] == "TrainOneStepCell"
    ops = {node["opType"] for node in document["nodes"]}
    assert {"Conv2D", "ReLU", "MatMul"} <= ops or {"Conv2D", "ReLU", "Dense"} <= ops
    weights = {p["name"]: p["shape"] for p in document["parameters"] if p["kind"] == "weight"}
    assert weights["conv.weight"] == [4, 3, 3, 3]
    assert weights["fc.weight"] == [10, 256]
