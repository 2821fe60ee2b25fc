"""The export report as a rich output: its MIME type, escaped HTML and plain text."""

from __future__ import annotations

from typing import Any

from mindscope_kernel.display import Row, bundle

EXPORT_MIME = "application/vnd.mindscope.export+json"


def _error(value: Any) -> str:
    return "—" if value is None else f"{value:.2e}"


def _worst(artefact: dict[str, Any], key: str) -> Any:
    values = [o[key] for o in artefact["verification"]["outputs"]]
    return max(values) if values else None


def export_bundle(doc: dict[str, Any]) -> dict[str, Any]:
    meta, eager = doc["meta"], doc["eager"]
    eager_ms = eager["latencyMs"]["median"]
    title = (
        f"Export of {meta['rootCell']}: {len(doc['artefacts'])} artefacts in "
        f"{meta['outputDir']}, verified on {meta['verificationBatches']} batches; "
        f"eager {eager_ms:.3f} ms ({eager['runtime']})"
    )
    rows: list[Row] = []
    for a in doc["artefacts"]:
        check = a["verification"]
        latency = (check.get("latencyMs") or {}).get("median")
        dynamic = check.get("dynamicShape")
        verdict = "FAILED: " + str(check["error"]) if not check["ok"] else (
            "ok" if check["tolerance"] is not None else "measured"
        )  # fmt: skip
        rows.append((
            a["format"], a["file"].rsplit("/", 1)[-1], a["runtime"], f"{a['bytes']:,}",
            _error(_worst(a, "maxAbsError")), _error(_worst(a, "maxRelError")),
            "—" if latency is None else f"{latency:.3f}",
            "—" if dynamic is None else f"{dynamic['batch']}: {'yes' if dynamic['ok'] else 'no'}",
            verdict,
        ))  # fmt: skip
    sections: list[tuple[str, Row, list[Row]]] = [(
        "Verification against the eager Cell",
        ("format", "file", "runtime", "bytes", "max abs err", "max rel err", "latency ms",
         "2nd batch", "verified"),
        rows,
    )]  # fmt: skip
    for a in doc["artefacts"]:
        quant = a.get("quantization")
        if quant and quant.get("worstLayers"):
            layers: list[Row] = [(w["node"], w["op"], w["sqnrDb"], w["localSqnrDb"])
                      for w in quant["worstLayers"]]  # fmt: skip
            ratios = f"size x{quant['sizeRatio']}, latency x{quant['latencyRatio']} of float"
            heading = f"{quant['mode']}: {ratios}; the layers that lose the most"
            sections.append((heading, ("node", "op", "SQNR dB", "own QDQ SQNR dB"), layers))
    for a in doc["artefacts"]:
        ops: list[Row] = [(h["op"], h["count"]) for h in a["opHistogram"]]
        sections.append((f"Op types of {a['format']}", ("op", "count"), ops))
    return bundle(EXPORT_MIME, doc, title, sections)
