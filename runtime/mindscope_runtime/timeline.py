"""A profile document's timeline as Chrome trace JSON (Perfetto, chrome://tracing).

The one exporter: `profile --trace-out`, `profile-dist` and the profile panel's "Export
Chrome trace" (`python -m mindscope_runtime trace PROFILE.json -o OUT.json`) all write this.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from mindscope_runtime.atomic import write_json_atomic
from mindscope_runtime.errors import RuntimeToolError

JsonDict = dict[str, Any]


def chrome_trace(document: JsonDict) -> JsonDict:
    """Metadata events first, then the rest by time (a stable sort: ties keep their order);
    timestamps stay in µs from the profile's origin."""
    meta = document.get("meta", {})
    events = list(document.get("timeline", {}).get("events", []))
    named = [e for e in events if e.get("ph") == "M"]
    timed = sorted((e for e in events if e.get("ph") != "M"), key=lambda e: e.get("ts") or 0)
    other: JsonDict = {
        "producer": "MindScope",
        "target": meta.get("target"),
        "mode": meta.get("mode"),
        "mindsporeVersion": meta.get("mindsporeVersion"),
        "steps": meta.get("steps"),
        "timeOriginUs": meta.get("timeOriginUs"),
    }
    ranks = document.get("ranks")
    if isinstance(ranks, dict):  # a merged distributed profile: each rank has its own pids
        other["ranks"] = ranks.get("count")
    return {"traceEvents": named + timed, "displayTimeUnit": "ms", "otherData": other}


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("trace", help="write a profile document's Chrome trace")
    parser.add_argument("profile", type=Path, help="a profile document (profile's -o)")
    parser.add_argument("-o", "--output", type=Path, default=Path("mindscope-trace.json"))
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> JsonDict:
    document = read_profile_document(args.profile)
    output = write_json_atomic(args.output, chrome_trace(document))
    events = len(document["timeline"]["events"])
    return {"ok": True, "command": "trace", "output": str(output), "events": events}


def read_profile_document(path: Path) -> JsonDict:
    """The document at `path`, or a one-line error saying why it is not a profile."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RuntimeToolError("file-not-found", f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RuntimeToolError("bad-document", f"{path} is not JSON: {exc}") from None
    if not isinstance(document, dict) or document.get("kind") != "mindscope.profile":
        raise RuntimeToolError("bad-document", f"{path} is not a MindScope profile document")
    timeline = document.get("timeline")
    if not isinstance(timeline, dict) or not isinstance(timeline.get("events"), list):
        raise RuntimeToolError("bad-document", f"{path} has no timeline events")
    return document
