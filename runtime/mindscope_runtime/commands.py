"""The CLI's commands once the target is loaded: run, write the document, return the status."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

from mindscope_runtime.atomic import write_json_atomic
from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.interrupts import temp_dir
from mindscope_runtime.msenv import working_directory
from mindscope_runtime.progress import Progress

JsonDict = dict[str, Any]


def graph(
    args: argparse.Namespace, ms: Any, cell: Any, inputs: list[Any], progress: Progress
) -> JsonDict:
    from mindscope_runtime.capture_graph import capture_graph

    document = capture_graph(
        ms, cell, inputs, target=args.target, progress=progress, keep_ir=args.keep_ir
    )
    output = write_json_atomic(args.output, document)
    counts = document["meta"].get("counts", {})
    status: JsonDict = {"ok": document["error"] is None, "command": "graph"}
    status["output"] = str(output)
    status["summary"] = {**counts, "capture": document["meta"].get("capture")}
    if document["error"] is not None:
        err = document["error"]
        status["error"] = {k: err[k] for k in ("kind", "message", "file", "line") if err.get(k)}
        if err.get("rule"):
            status["error"]["rule"] = err["rule"]["code"]
    return status


def profile(
    args: argparse.Namespace, ms: Any, cell: Any, inputs: list[Any], progress: Progress
) -> JsonDict:
    from mindscope_runtime.losses import load_loss
    from mindscope_runtime.msenv import mode_name
    from mindscope_runtime.profile_run import profile_cell
    from mindscope_runtime.targets import parse_target
    from mindscope_runtime.timeline import chrome_trace
    from mindscope_runtime.trainstep import make_train_step

    if args.steps < 1 or args.warmup < 0:
        raise RuntimeToolError("usage", "--steps must be ≥ 1 and --warmup ≥ 0")
    step, step_meta = None, None
    if args.train:
        loss, loss_name = load_loss(args.loss_from, parse_target(args.target).file)
        graph_mode = mode_name(ms) == "GRAPH_MODE"
        step = make_train_step(
            ms, cell, loss, optimizer=args.optimizer, lr=args.lr, graph=graph_mode
        )
        step_meta = {"kind": "train", "optimizer": args.optimizer, "lr": args.lr,
                     "loss": loss_name}  # fmt: skip
    with temp_dir("mindscope-cwd-") as cwd, working_directory(cwd):
        try:
            document = profile_cell(
                ms, cell, inputs, target=args.target, steps=args.steps, warmup=args.warmup,
                progress=progress, keep_output=args.keep_profiler_output, step=step,
                step_meta=step_meta,
            )  # fmt: skip
        except RuntimeToolError:
            raise
        except Exception as exc:  # the warm-up (first call) compiles: map compile errors
            raise run_error(exc, args.syntax_level, cell, inputs) from exc
    output = write_json_atomic(args.output, document)
    status: JsonDict = {"ok": True, "command": "profile", "output": str(output)}
    if args.trace_out:
        status["trace"] = str(write_json_atomic(args.trace_out, chrome_trace(document)))
    status["summary"] = {
        "ops": len(document["ops"]),
        "steps": len(document["steps"]),
        "step": document["meta"]["step"]["kind"],
        "totalOpMs": document["totals"]["opMs"],
        "meanStepMs": document["totals"]["meanStepMs"],
        "peakMemoryBytes": (document["memory"] or {}).get("peakAllocatedBytes"),
    }
    return status


def stats(
    args: argparse.Namespace, ms: Any, cell: Any, inputs: list[Any], progress: Progress
) -> JsonDict:
    from mindscope_runtime.losses import load_loss
    from mindscope_runtime.stats_run import collect_stats
    from mindscope_runtime.statsflags import Thresholds
    from mindscope_runtime.targets import parse_target

    loss, loss_name = load_loss(args.loss_from, parse_target(args.target).file)
    thresholds = Thresholds(
        vanishing_rms=args.vanishing_rms,
        vanishing_ratio=args.vanishing_ratio,
        exploding_rms=args.exploding_rms,
        dead_unit_fraction=args.dead_fraction,
    )
    document = collect_stats(
        ms, cell, inputs, target=args.target, loss=loss, loss_name=loss_name,
        thresholds=thresholds, progress=progress,
    )  # fmt: skip
    output = write_json_atomic(args.output, document)
    counts = document["meta"]["counts"]
    flags = list(dict.fromkeys(f["kind"] for f in document["flags"]))  # each kind once
    return {
        "ok": True,
        "command": "stats",
        "output": str(output),
        "summary": {**counts, "loss": document["meta"]["loss"]["value"], "flagKinds": flags},
    }


def mindir(args: argparse.Namespace, progress: Progress) -> JsonDict:
    from mindscope_runtime.mindirdoc import read_mindir_document

    return model_file(args, progress, "mindir", read_mindir_document, "decoding")


def model_file(
    args: argparse.Namespace,
    progress: Progress,
    command: str,
    read: Callable[[Path], JsonDict],
    verb: str,
) -> JsonDict:
    """`mindir FILE` / `onnx FILE`: a model file read into a graph document (no user code)."""
    if not args.file.is_file():
        raise RuntimeToolError("file-not-found", f"no such file: {args.file}")
    with progress.phase(f"{verb} {args.file.name}"):
        document = read(args.file)
    output = write_json_atomic(args.output, document)
    counts = document["meta"]["counts"]
    return {"ok": True, "command": command, "output": str(output),
            "summary": {**counts, "capture": command}}  # fmt: skip


def run_error(exc: BaseException, level: str, cell: Any, inputs: list[Any]) -> RuntimeToolError:
    """A failure while running the target: `input-mismatch` when MindSpore rejected an input's
    shape or dtype; a compile error (located, with the checker's rule) when its message has
    the "Traceback of Net Construct Code"; else `run-failed`."""
    from mindscope_runtime.capture_graph import compile_error_json
    from mindscope_runtime.inputs import describe
    from mindscope_runtime.runfail import is_input_mismatch, run_failure

    if is_input_mismatch(exc) or "Traceback of Net Construct Code" not in str(exc):
        return run_failure(
            exc, kind="run-failed", inputs=describe(inputs), root=type(cell).__name__
        )
    info = compile_error_json(exc, level=level.upper())
    extra = {"rule": info["rule"]["code"]} if info.get("rule") else {}
    return RuntimeToolError(
        "compile-failed", info["message"], file=info["file"], line=info["line"], extra=extra
    )
