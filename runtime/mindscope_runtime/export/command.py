"""The `export` CLI command: options → export_cell → the report next to the artefacts."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mindscope_runtime.atomic import write_json_atomic
from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.progress import Progress

JsonDict = dict[str, Any]
REPORT_NAME = "export-report.json"
FORMAT_CHOICES = ("MINDIR", "ONNX", "both")


def add_parser(commands: Any, common: Any) -> None:
    """Add `export` to the CLI's subparsers; `common` adds TARGET, --input and friends."""
    from mindscope_runtime.export.quantize import MODES

    parser = commands.add_parser("export", help="export MINDIR/ONNX, verify, quantize")
    common(parser, default_out="mindscope-export")
    parser.add_argument("--format", type=str.upper, default="BOTH",
                        choices=[c.upper() for c in FORMAT_CHOICES])  # fmt: skip
    parser.add_argument("--quantize", choices=MODES, help="also an int8 ONNX model")
    parser.add_argument("--calib", type=int, default=8, help="calibration batches (int8-static)")
    parser.add_argument("--batches", type=int, default=3, help="extra random verification batches")
    parser.add_argument("--runs", type=int, default=10, help="timed runs per runtime (median)")
    parser.add_argument("--name", help="file name stem of the artefacts (default: the Cell class)")
    parser.add_argument("--train", action="store_true", help=argparse.SUPPRESS)  # always False


def export(
    args: argparse.Namespace, ms: Any, cell: Any, inputs: list[Any], progress: Progress
) -> JsonDict:
    from mindscope_runtime.export.run import FORMATS, ExportOptions, export_cell

    if args.calib < 1 or args.batches < 0 or args.runs < 1:
        raise RuntimeToolError("usage", "--calib and --runs must be ≥ 1, --batches ≥ 0")
    out_dir = Path(args.output)
    if out_dir.exists() and not out_dir.is_dir():
        raise RuntimeToolError("usage", f"-o {out_dir} is a file: export writes into a folder")
    formats = FORMATS if args.format == "BOTH" else (args.format,)
    options = ExportOptions(
        out_dir=out_dir, formats=formats, quantize=args.quantize, calib=args.calib,
        batches=args.batches, runs=args.runs, name=args.name, syntax_level=args.syntax_level,
    )  # fmt: skip
    ms.set_context(mode=ms.PYNATIVE_MODE)  # the reference is the eager Cell
    document = export_cell(ms, cell, inputs, target=args.target, options=options,
                           progress=progress)  # fmt: skip
    report = write_json_atomic(out_dir / REPORT_NAME, document)
    return {"ok": True, "command": "export", "output": str(report), "summary": summary(document)}


def summary(document: JsonDict) -> JsonDict:
    rows = document["artefacts"]
    return {
        "artefacts": [r["file"] for r in rows],
        "verified": all(r["verification"]["ok"] for r in rows),
        "maxAbsError": {
            r["format"]: max((o["maxAbsError"] for o in r["verification"]["outputs"]), default=None)
            for r in rows
        },
    }


def add_onnx_parser(commands: Any) -> None:
    onnx = commands.add_parser("onnx", help="read an .onnx file into a graph document")
    onnx.add_argument("file", type=Path, help="an ONNX model (e.g. from mindspore.export)")
    onnx.add_argument("-o", "--output", type=Path, default=Path("mindscope-graph.json"))
    onnx.add_argument("--quiet", action="store_true", help="no progress on stderr")


def onnx(args: argparse.Namespace, progress: Progress) -> JsonDict:
    """`onnx FILE`: runs none of the user's code and needs no MindSpore (only `onnx`)."""
    from mindscope_runtime.commands import model_file
    from mindscope_runtime.export.onnxdoc import read_onnx_document

    return model_file(args, progress, "onnx", read_onnx_document, "reading")
