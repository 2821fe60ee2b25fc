"""Export a loaded Cell, verify every artefact, quantize, write the snippets: the report."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime.atomic import write_text_atomic
from mindscope_runtime.export import EXPORT_DOC_VERSION, deps
from mindscope_runtime.export.artefacts import export_format, remove
from mindscope_runtime.export.batches import random_batches, resized_batch
from mindscope_runtime.export.metrics import histogram
from mindscope_runtime.export.runners import (
    Arrays,
    Runner,
    array_signature,
    eager_runner,
    graphcell_runner,
    onnx_runner,
    onnx_session,
    onnx_signature,
    to_numpy,
)
from mindscope_runtime.export.snippets import script_name, snippet_text
from mindscope_runtime.export.verify import FLOAT_TOLERANCE, verify
from mindscope_runtime.inputs import describe
from mindscope_runtime.progress import Progress

JsonDict = dict[str, Any]
FORMATS = ("MINDIR", "ONNX")


@dataclass(frozen=True)
class ExportOptions:
    out_dir: Path
    formats: tuple[str, ...] = FORMATS
    quantize: Optional[str] = None
    calib: int = 8
    batches: int = 3
    runs: int = 10
    name: Optional[str] = None
    syntax_level: str = "lax"


@dataclass
class _Reference:
    """The eager Cell's outputs on every verification batch."""

    batches: list[Arrays]
    expected: list[Arrays]
    resized: Optional[tuple[int, Arrays, Arrays]]


def export_cell(
    ms: Any, cell: Any, inputs: list[Any], *, target: str, options: ExportOptions,
    progress: Progress,
) -> JsonDict:  # fmt: skip
    """Export `cell(*inputs)` in every requested format; verify, quantize; the report."""
    if "ONNX" in options.formats or options.quantize:
        deps.onnx(), deps.onnxruntime()  # fail before the slow part
    cell.set_train(False)
    options.out_dir.mkdir(parents=True, exist_ok=True)
    stem = options.out_dir.resolve() / (options.name or type(cell).__name__)
    with progress.phase("running the Cell eagerly on the verification batches"):
        eager = eager_runner(ms, cell)
        ref = _reference(eager, [to_numpy(t) for t in inputs], options.batches)
    artefacts: list[JsonDict] = []
    started = time.perf_counter()
    float_onnx: Optional[JsonDict] = None
    for fmt in formats(options):
        with progress.phase(f"exporting {fmt}"):
            t0 = time.perf_counter()
            path = export_format(ms, cell, inputs, fmt, stem, syntax_level=options.syntax_level)
            took = time.perf_counter() - t0
        runtime = "GraphCell" if fmt == "MINDIR" else "onnxruntime"
        with progress.phase(f"verifying {path.name} in {runtime}"):
            entry = _artefact(ms, fmt, path, ref, options, tolerance=FLOAT_TOLERANCE)
        entry["exportSeconds"] = round(took, 4)
        artefacts.append(entry)
        if fmt == "ONNX":
            float_onnx = entry
    if options.quantize:
        artefacts.append(_quantized(ms, stem, float_onnx, ref, options, progress))
    with progress.phase("writing deployment snippets"):
        for entry in artefacts:
            entry["snippet"] = _write_snippet(entry)
    eager_ms = _eager_latency(eager, ref, options.runs)
    return {
        "kind": "mindscope.export",
        "version": EXPORT_DOC_VERSION,
        "meta": {
            "mindsporeVersion": ms.__version__,
            "onnxVersion": _version("onnx"),
            "onnxruntimeVersion": _version("onnxruntime"),
            "target": target,
            "rootCell": type(cell).__name__,
            "inputs": describe(inputs),
            "device": ms.get_context("device_target"),
            "outputDir": str(options.out_dir.resolve()),
            "formats": list(formats(options)),
            "quantize": options.quantize,
            "verificationBatches": len(ref.batches),
            "latencyRuns": options.runs,
            "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "seconds": round(time.perf_counter() - started, 3),
        },
        "eager": {
            "runtime": "MindSpore (PyNative)",
            "latencyMs": eager_ms,
            "outputs": array_signature(
                [f"output{i}" for i in range(len(ref.expected[0]))], ref.expected[0]
            ),
        },
        "artefacts": artefacts,
    }


def formats(options: ExportOptions) -> tuple[str, ...]:
    """The formats to export: quantizing needs the float ONNX model too."""
    if options.quantize and "ONNX" not in options.formats:
        return (*options.formats, "ONNX")
    return options.formats


def _reference(eager: Runner, first: Arrays, extra: int) -> _Reference:
    batches = [first, *random_batches(first, extra)]
    expected = [eager(b) for b in batches]
    resized = resized_batch(first)
    second = (resized[0], resized[1], eager(resized[1])) if resized else None
    return _Reference(batches, expected, second)


def _artefact(
    ms: Any, fmt: str, path: Path, ref: _Reference, options: ExportOptions,
    *, tolerance: Optional[float],
) -> JsonDict:  # fmt: skip
    names_out = [f"output{i}" for i in range(len(ref.expected[0]))]
    if fmt == "MINDIR":
        from mindscope_runtime.mindirdoc import read_mindir_document

        doc = read_mindir_document(path)
        ops = [n["opType"] for n in doc["nodes"] if n["category"] == "compute"]
        in_names = [p["name"] for p in doc["parameters"] if p["kind"] == "input"]
        inputs = array_signature(in_names or [f"input{i}" for i in range(len(ref.batches[0]))],
                                 ref.batches[0])  # fmt: skip
        outputs = array_signature(names_out, ref.expected[0])
        run: Runner = graphcell_runner(ms, path)
        runtime = "GraphCell"
    else:
        model = deps.onnx().load(str(path))
        ops = [n.op_type for n in model.graph.node]
        session = onnx_session(path)
        inputs, outputs = onnx_signature(session)
        run, runtime = onnx_runner(session), "onnxruntime"
    verification = verify(run, ref.batches, ref.expected, tolerance=tolerance, runs=options.runs,
                          resized=ref.resized)  # fmt: skip
    return {"format": fmt, "file": str(path.resolve()), "bytes": path.stat().st_size,
            "runtime": runtime, "inputs": inputs, "outputs": outputs,
            "opHistogram": histogram(ops), "verification": verification,
            "quantization": None, "snippet": None, "exportSeconds": None}  # fmt: skip


def _quantized(
    ms: Any, stem: Path, float_onnx: Optional[JsonDict], ref: _Reference,
    options: ExportOptions, progress: Progress,
) -> JsonDict:  # fmt: skip
    from mindscope_runtime.export.quantize import quantize

    assert options.quantize is not None
    if float_onnx is None:  # `formats()` adds ONNX whenever quantizing
        raise ValueError("quantization needs the float ONNX export")
    source = Path(float_onnx["file"])
    names = [i["name"] for i in float_onnx["inputs"]]
    calib = random_batches(ref.batches[0], options.calib, first_seed=1000)
    out = stem.with_name(stem.name + ".int8.onnx")
    remove(out)
    with progress.phase(f"quantizing to {options.quantize}"):
        t0 = time.perf_counter()
        worst = quantize(source, out, options.quantize, names, calib, ref.batches)
        took = time.perf_counter() - t0
    with progress.phase(f"verifying {out.name} in onnxruntime"):
        entry = _artefact(ms, "ONNX", out, ref, options, tolerance=None)
    entry["format"] = "ONNX-int8"
    entry["exportSeconds"] = round(took, 4)
    note = None
    if options.quantize == "int8-dynamic":
        note = "dynamic quantization: onnxruntime's qdq_loss_debug needs a QDQ (static) model"
    float_ms = float_onnx["verification"].get("latencyMs") or {}
    int8_ms = (entry["verification"].get("latencyMs") or {}).get("median")
    entry["quantization"] = {
        "mode": options.quantize,
        "calibBatches": len(calib) if options.quantize == "int8-static" else 0,
        "source": str(source),
        "sizeRatio": round(entry["bytes"] / source.stat().st_size, 4),
        "latencyRatio": round(int8_ms / float_ms["median"], 4)
        if int8_ms and float_ms.get("median")
        else None,
        "worstLayers": worst,
        "note": note,
    }  # fmt: skip
    return entry


def _write_snippet(entry: JsonDict) -> str:
    path = Path(entry["file"])
    fmt = "MINDIR" if entry["format"] == "MINDIR" else "ONNX"
    script = path.with_name(script_name(path))
    write_text_atomic(script, snippet_text(path, fmt, entry["inputs"], entry["outputs"]))
    return str(script)


def _eager_latency(eager: Runner, ref: _Reference, runs: int) -> JsonDict:
    from mindscope_runtime.export.metrics import median_ms

    return median_ms(lambda: eager(ref.batches[0]), runs)


def _version(name: str) -> Optional[str]:
    try:
        return str(__import__(name).__version__)
    except ImportError:
        return None
