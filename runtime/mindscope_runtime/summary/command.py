"""`python -m mindscope_runtime summary DIR [--tag T] [--format json|csv] [-o OUT] [--follow]`.

Once: every run under DIR into one summary document (or CSV of the scalars) at `-o`, and the
usual one-line status. `--follow`: the full document as one JSON line on stdout, then a line with
only the new values (`meta.incremental: true`) each time records arrive — polling file sizes
every `--interval` seconds and reading only new bytes — until killed or `--max-seconds`.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any, TextIO

from mindscope_runtime.atomic import write_json_atomic, write_text_atomic
from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.progress import Progress
from mindscope_runtime.summary.document import scalars_csv, summary_document
from mindscope_runtime.summary.reader import SummaryReader

JsonDict = dict[str, Any]
ISSUES_IN_STATUS = 5


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("summary", help="read MindSpore summary files under DIR")
    parser.add_argument("dir", type=Path, help="a summary directory, or a folder of runs")
    parser.add_argument(
        "--tag",
        action="append",
        default=[],
        metavar="GLOB",
        help="keep only these tags (repeatable; * and ? match)",
    )
    parser.add_argument("--format", choices=("json", "csv"), default="json")
    parser.add_argument(
        "-o", "--output", type=Path, default=None, help="default mindscope-summary.json / .csv"
    )
    parser.add_argument("--graph-out", help="also write the recorded graph here")
    parser.add_argument("--run", help="the run whose graph --graph-out writes (default: first)")
    parser.add_argument("--follow", action="store_true", help="stream updates as JSON lines")
    parser.add_argument("--interval", type=float, default=0.2, help="--follow poll seconds")
    parser.add_argument("--max-seconds", type=float, default=0.0, help="stop following after")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace, out: TextIO, progress: Progress) -> JsonDict:
    root = args.dir.resolve()
    if not root.exists():
        raise RuntimeToolError("file-not-found", f"no such folder: {args.dir}")
    reader = SummaryReader(root, tuple(args.tag))
    if args.follow:
        return follow(reader, out, interval=args.interval, max_seconds=args.max_seconds)
    with progress.phase(f"reading summaries under {root}"):
        runs, issues, records = reader.poll(final=True)
    if not runs:
        message = f"no summary files (events.out.events.summary.*) under {args.dir}"
        raise RuntimeToolError("no-summaries", message)
    document = summary_document(root, runs, issues, tags=tuple(args.tag))
    default = "mindscope-summary.csv" if args.format == "csv" else "mindscope-summary.json"
    target = args.output or Path(default)
    if args.format == "csv":
        output = write_text_atomic(target, scalars_csv(document))
    else:
        output = write_json_atomic(target, document)
    status: JsonDict = {
        "ok": True,
        "command": "summary",
        "output": str(output),
        "summary": {**document["meta"]["counts"], "records": records},
    }
    if issues:
        status["issues"] = document["issues"][:ISSUES_IN_STATUS]
    if args.graph_out:
        status["graph"] = str(write_graph(runs, root, args.run, args.graph_out))
    return status


def write_graph(runs: list[Any], root: Path, wanted: str | None, target: Path) -> Path:
    from mindscope_runtime.summary.graph import summary_graph_document
    from mindscope_runtime.summary.runs import run_name

    for tail, data in runs:
        if wanted is not None and run_name(tail.path, root) != wanted:
            continue
        if data.graphs:
            step, _, graph = data.graphs[-1]
            source = f"{tail.path} (step {step})"
            return write_json_atomic(target, summary_graph_document(graph, source=source))
    which = f"run {wanted}" if wanted else "any run"
    raise RuntimeToolError("no-graph", f"no graph recorded in {which} under {root}")


def follow(reader: SummaryReader, out: TextIO, *, interval: float, max_seconds: float) -> JsonDict:
    started = time.monotonic()
    parent = os.getppid()
    runs, issues, _ = reader.poll()
    _line(out, summary_document(reader.root, runs, issues, tags=reader.tags))
    updates = 0
    while not max_seconds or time.monotonic() - started < max_seconds:
        time.sleep(max(0.02, interval))
        if os.getppid() != parent:  # the editor went away: stop reading
            break
        runs, issues, records = reader.poll()
        if records or issues or runs:
            doc = summary_document(reader.root, runs, issues, tags=reader.tags, incremental=True)
            _line(out, doc)
            updates += 1
    return {"ok": True, "command": "summary", "follow": True, "updates": updates}


def _line(out: TextIO, document: JsonDict) -> None:
    out.write(json.dumps(document, ensure_ascii=False, allow_nan=False) + "\n")
    out.flush()
