"""The summary document (schemas/summary-document.schema.json) and its CSV form."""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path
from typing import Any

from mindscope_runtime.summary.crc import IMPLEMENTATION
from mindscope_runtime.summary.events import RunData, finite
from mindscope_runtime.summary.framing import Issue
from mindscope_runtime.summary.runs import RunTail, run_name

JsonDict = dict[str, Any]
SUMMARY_DOC_VERSION = 1


def run_json(tail: RunTail, data: RunData, root: Path) -> JsonDict:
    return {
        "name": run_name(tail.path, root),
        "path": str(tail.path),
        "version": data.version,
        "files": [
            {"name": name, "size": s.size, "offset": s.offset, "records": s.records}
            for name, s in sorted(tail.files.items())
        ],
        "firstWallTime": data.first_wall_time,
        "lastWallTime": data.last_wall_time,
        "scalars": [
            {
                "tag": tag,
                "steps": s.steps,
                "wallTimes": s.wall_times,
                "values": [finite(v) for v in s.values],
            }
            for tag, s in data.scalars.items()
        ],
        "histograms": [{"tag": t, "samples": v} for t, v in data.histograms.items()],
        "images": [{"tag": t, "samples": v} for t, v in data.images.items()],
        "tensors": [{"tag": t, "samples": v} for t, v in data.tensors.items()],
        "graphs": [
            {"step": step, "wallTime": wall, "name": graph.name, "nodes": len(graph.node)}
            for step, wall, graph in data.graphs
        ],
    }


def summary_document(
    root: Path,
    runs: list[tuple[RunTail, RunData]],
    issues: list[Issue],
    *,
    tags: tuple[str, ...] = (),
    incremental: bool = False,
) -> JsonDict:
    run_docs = [run_json(tail, data, root) for tail, data in runs]
    counts = {
        "runs": len(run_docs),
        "files": sum(len(r["files"]) for r in run_docs),
        "events": sum(data.events for _, data in runs),
        "scalarPoints": sum(len(s.steps) for _, data in runs for s in data.scalars.values()),
        "issues": len(issues),
    }
    meta = {
        "root": str(root),
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "incremental": incremental,
        "tags": list(tags),
        "crc32c": IMPLEMENTATION,
        "counts": counts,
    }
    return {
        "kind": "mindscope.summary",
        "version": SUMMARY_DOC_VERSION,
        "meta": meta,
        "runs": run_docs,
        "issues": [issue.to_json() for issue in issues],
    }


def scalars_csv(document: JsonDict) -> str:
    """`run,tag,step,wall_time,value` rows, one per scalar point (NaN/Inf as empty)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["run", "tag", "step", "wall_time", "value"])
    for run in document["runs"]:
        for series in run["scalars"]:
            for step, wall, value in zip(series["steps"], series["wallTimes"], series["values"]):
                writer.writerow(
                    [
                        run["name"],
                        series["tag"],
                        step,
                        repr(wall),
                        "" if value is None else repr(value),
                    ]
                )
    return out.getvalue()
