"""Export a profile document's timeline as Chrome trace JSON (opens in Perfetto/chrome://tracing)."""

from __future__ import annotations

from typing import Any

JsonDict = dict[str, Any]


def chrome_trace(document: JsonDict) -> JsonDict:
    meta = document.get("meta", {})
    return {
        "traceEvents": list(document.get("timeline", {}).get("events", [])),
        "displayTimeUnit": "ms",
        "otherData": {
            "producer": "mindscope",
            "target": meta.get("target"),
            "mindsporeVersion": meta.get("mindsporeVersion"),
            "timeOriginUs": meta.get("timeOriginUs"),
        },
    }
