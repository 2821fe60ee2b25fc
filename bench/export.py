"""Export benchmark on the example ResNet-20 (issue 17), everything measured in one run.

Usage: .venv/bin/python bench/export.py [--batch B] [--runs N] [--quantize int8-static|int8-dynamic]
       [--json]

Prints, each beside its peer:
- export time: bare `mindspore.export` to MINDIR and to ONNX, and MindScope's whole `export`
  (both exports + verification in GraphCell and onnxruntime + int8 quantization + snippets)
  as a multiple of the bare exports;
- latency (median of N calls on the same batch): eager MindSpore (PyNative) vs the MINDIR in
  `nn.GraphCell` vs the ONNX model in onnxruntime, as ratios to eager;
- int8 vs float ONNX: latency and file size ratios, and the int8 output error.

Timings are noisy on shared cores: compare the ratios, measured side by side here.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "runtime"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--quantize", choices=("int8-static", "int8-dynamic"), default="int8-static"
    )
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()

    import mindspore as ms

    from mindscope_runtime.export.run import ExportOptions, export_cell
    from mindscope_runtime.progress import Progress
    from mindscope_runtime.targets import load_module

    ms.set_device("CPU")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    model = load_module(ROOT / "examples" / "cifar_resnet" / "model.py")
    inputs = list(model.make_inputs(args.batch))
    with tempfile.TemporaryDirectory(prefix="mindscope-bench-export-") as tmp:
        # One instance per export: a second ONNX export of the same Cell instance in one
        # process fails in MindSpore 2.10 ("i: 6 out of range" on BatchNorm), measured.
        bare = {fmt: _bare_export(ms, model.resnet20(), inputs, fmt, Path(tmp) / "bare")
                for fmt in ("MINDIR", "ONNX")}  # fmt: skip
        cell = model.resnet20()
        cell.set_train(False)
        options = ExportOptions(out_dir=Path(tmp) / "out", quantize=args.quantize,
                                runs=args.runs, calib=8, batches=3)  # fmt: skip
        started = time.perf_counter()
        doc = export_cell(ms, cell, inputs, target="examples/cifar_resnet/model.py:resnet20",
                          options=options, progress=Progress(quiet=True))  # fmt: skip
        total = time.perf_counter() - started
    figures = _figures(doc, bare, total)
    _print(figures, args)
    if args.json:
        print(json.dumps(figures, indent=2))


def _bare_export(ms: Any, cell: Any, inputs: list[Any], fmt: str, stem: Path) -> float:
    cell.set_train(False)
    started = time.perf_counter()
    ms.export(cell, *inputs, file_name=str(stem), file_format=fmt)
    return time.perf_counter() - started


def _figures(doc: dict[str, Any], bare: dict[str, float], total: float) -> dict[str, Any]:
    rows = {a["format"]: a for a in doc["artefacts"]}
    eager = doc["eager"]["latencyMs"]["median"]

    def latency(fmt: str) -> float:
        return float(rows[fmt]["verification"]["latencyMs"]["median"])

    int8 = rows["ONNX-int8"]
    return {
        "batch": doc["meta"]["inputs"][0]["shape"][0],
        "runs": doc["meta"]["latencyRuns"],
        "exportSeconds": {"bareMindir": round(bare["MINDIR"], 3),
                          "bareOnnx": round(bare["ONNX"], 3), "mindscopeExport": round(total, 3),
                          "mindscopeOverBare": round(total / (bare["MINDIR"] + bare["ONNX"]), 2)},
        "latencyMs": {"eager": eager, "graphCell": latency("MINDIR"),
                      "onnxruntime": latency("ONNX"), "onnxruntimeInt8": latency("ONNX-int8")},
        "ratioToEager": {"graphCell": round(latency("MINDIR") / eager, 3),
                         "onnxruntime": round(latency("ONNX") / eager, 4)},
        "int8VsFloat": {"latencyRatio": int8["quantization"]["latencyRatio"],
                        "sizeRatio": int8["quantization"]["sizeRatio"],
                        "bytes": int8["bytes"], "floatBytes": rows["ONNX"]["bytes"],
                        "maxAbsError": int8["verification"]["outputs"][0]["maxAbsError"]},
        "floatMaxAbsError": {f: rows[f]["verification"]["outputs"][0]["maxAbsError"]
                             for f in ("MINDIR", "ONNX")},
    }  # fmt: skip


def _print(f: dict[str, Any], args: argparse.Namespace) -> None:
    e, lat, r, q = f["exportSeconds"], f["latencyMs"], f["ratioToEager"], f["int8VsFloat"]
    print(f"ResNet-20, batch {f['batch']}, CPU, median of {f['runs']} calls, {args.quantize}")
    print(f"export   bare ms.export MINDIR {e['bareMindir']:.2f} s, ONNX {e['bareOnnx']:.2f} s; "
          f"MindScope export+verify+quantize {e['mindscopeExport']:.2f} s "
          f"= {e['mindscopeOverBare']:.1f}x the bare exports")  # fmt: skip
    print(f"latency  eager {lat['eager']:.2f} ms | GraphCell {lat['graphCell']:.2f} ms "
          f"({r['graphCell']:.2f}x eager) | onnxruntime {lat['onnxruntime']:.3f} ms "
          f"({r['onnxruntime']:.4f}x eager)")  # fmt: skip
    print(f"int8     latency {lat['onnxruntimeInt8']:.3f} ms = {q['latencyRatio']}x float ONNX; "
          f"size {q['bytes']:,} B = {q['sizeRatio']}x float ({q['floatBytes']:,} B); "
          f"max abs error {q['maxAbsError']:.2e}")  # fmt: skip
    floats = f["floatMaxAbsError"]
    print(f"float    max abs error MINDIR {floats['MINDIR']:.1e}, ONNX {floats['ONNX']:.1e}")


if __name__ == "__main__":
    main()
