"""The `profile-dist` command: options, then run-and-merge or `--from DIR` merge-only."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime.atomic import write_json_atomic
from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.progress import Progress

JsonDict = dict[str, Any]


def add_parser(commands: Any) -> None:
    dist = commands.add_parser(
        "profile-dist",
        help="profile every msrun rank of a script; merge them (script args after --)",
    )
    dist.add_argument("script", nargs="?", type=Path, help="the training script (not with --from)")
    dist.add_argument("--from", dest="from_dir", type=Path, metavar="DIR",
                      help="merge a job's ranks from its Profiler output_path")  # fmt: skip
    dist.add_argument("--workers", type=int, default=2, help="ranks in the job (default 2)")
    dist.add_argument("--local-workers", type=int, help="ranks on this machine (default: all)")
    dist.add_argument("--node-rank", type=int, help="this machine's msrun --node_rank")
    dist.add_argument("--master-addr", help="msrun --master_addr (the scheduler's host)")
    dist.add_argument("--master-port", type=int, help="msrun --master_port (default: a free one)")
    dist.add_argument("--steps", type=int, default=3, help="profiled steps per rank (default 3)")
    dist.add_argument("--warmup", type=int, default=1, help="unprofiled steps first (default 1)")
    dist.add_argument("--work-dir", type=Path,
                      help="msrun logs and Profiler output (default: OUTPUT.job)")  # fmt: skip
    dist.add_argument("-o", "--output", type=Path, default=Path("mindscope-profile-dist.json"))
    dist.add_argument("--trace-out", help="also write Chrome trace JSON here")
    dist.add_argument("--quiet", action="store_true", help="no progress on stderr")


def parse_args(
    parser: argparse.ArgumentParser, argv: Optional[Sequence[str]]
) -> argparse.Namespace:
    """Parse the CLI; for `profile-dist`, everything after the first `--` is the script's."""
    words = list(sys.argv[1:] if argv is None else argv)
    script_args: list[str] = []
    if words[:1] == ["profile-dist"] and "--" in words:
        cut = words.index("--")
        words, script_args = words[:cut], words[cut + 1 :]
    args = parser.parse_args(words)
    args.script_args = script_args
    return args


def profile_dist(args: argparse.Namespace, progress: Progress) -> JsonDict:
    from mindscope_runtime.dist_run import DistJob, run_job
    from mindscope_runtime.distload import merge_directory
    from mindscope_runtime.timeline import chrome_trace

    script_args = list(args.script_args)
    if args.from_dir is not None:
        if args.script is not None:
            raise RuntimeToolError("usage", "give either SCRIPT or --from DIR, not both")
        if not args.from_dir.is_dir():
            raise RuntimeToolError("file-not-found", f"no such directory: {args.from_dir}")
        with progress.phase(f"merging the ranks under {args.from_dir}"):
            document = merge_directory(args.from_dir, target=str(args.from_dir))
        return _written(args, document, chrome_trace, {})
    if args.script is None:
        raise RuntimeToolError("usage", "give the training SCRIPT.py, or --from DIR")
    if not args.script.is_file():
        raise RuntimeToolError("file-not-found", f"no such file: {args.script}")
    if args.workers < 1 or args.steps < 1 or args.warmup < 0:
        raise RuntimeToolError("usage", "--workers and --steps must be ≥ 1 and --warmup ≥ 0")
    work = args.work_dir or args.output.with_suffix(".job")
    job = DistJob(
        script=args.script.resolve(), script_args=script_args, work_dir=work.resolve(),
        workers=args.workers, local_workers=args.local_workers, steps=args.steps,
        warmup=args.warmup, node_rank=args.node_rank, master_addr=args.master_addr,
        master_port=args.master_port,
    )  # fmt: skip
    logs = run_job(job, progress)
    extra: JsonDict = {
        "workDir": str(job.work_dir),
        "logs": {str(r): str(p) for r, p in logs.items()},
    }
    if (args.local_workers or args.workers) < args.workers:
        extra["note"] = (
            f"this machine's ranks wrote to {job.profiler_dir}; once every machine is done, "
            f"merge them with profile-dist --from {job.profiler_dir}"
        )
        return {"ok": True, "command": "profile-dist", **extra}
    with progress.phase(f"merging {args.workers} rank(s)"):
        try:
            document = merge_directory(
                job.profiler_dir, target=str(args.script), logs={r: str(p) for r, p in logs.items()}
            )
        except RuntimeToolError as exc:
            if exc.kind != "no-profiler-output":
                raise
            raise RuntimeToolError(
                "no-profiler-output",
                f"the ranks wrote no profiler output: did {args.script.name} run more than "
                f"--warmup {args.warmup} step(s)? A step is an outermost call of a jit "
                f"function or a Cell (logs: {job.log_dir})",
            ) from exc
    if document["ranks"]["count"] != args.workers:
        extra["warning"] = (
            f"{document['ranks']['count']} of {args.workers} ranks wrote profiler output"
        )
    return _written(args, document, chrome_trace, extra)


def _written(
    args: argparse.Namespace, document: JsonDict, chrome_trace: Any, extra: JsonDict
) -> JsonDict:
    output = write_json_atomic(args.output, document)
    status: JsonDict = {"ok": True, "command": "profile-dist", "output": str(output), **extra}
    if args.trace_out:
        status["trace"] = str(write_json_atomic(args.trace_out, chrome_trace(document)))
    ranks = document["ranks"]
    status["summary"] = {
        "ranks": ranks["count"],
        "steps": document["totals"]["steps"],
        "meanStepMs": document["totals"]["meanStepMs"],
        "totalOpMs": document["totals"]["opMs"],
        "residualSkewUs": ranks["clock"]["residualSkewUs"],
        "stragglers": [s["straggler"] for s in ranks["steps"]],
        "unreadable": [u["message"] for u in ranks["unreadable"]],
    }
    return status
