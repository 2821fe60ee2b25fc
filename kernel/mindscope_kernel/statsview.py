"""The runtime's stats document as a rich output: flags, Cell outputs and gradients as tables."""

from __future__ import annotations

from typing import Any, Optional

from mindscope_kernel.display import STATS_MIME, Row, bundle


def _num(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.4g}"


def _shape(stats: dict[str, Any]) -> str:
    return f"{stats.get('dtype', '')}{list(stats.get('shape') or [])}"


def title(doc: dict[str, Any]) -> str:
    meta, counts = doc["meta"], doc["meta"]["counts"]
    loss = meta["loss"]
    text = (
        f"Stats of {meta.get('rootCell') or meta.get('target')}: loss ({loss['name']}) "
        f"{_num(loss['value'])}, {counts['outputs']} outputs, {counts['gradients']} gradients, "
        f"{counts['errors']} error(s), {counts['warnings']} warning(s)"
    )
    first = doc.get("firstNonFinite")
    if first:
        text += f"; NaN/Inf first {first['where']} {first.get('cell') or first['name']}"
    return text


def stats_bundle(doc: dict[str, Any]) -> dict[str, Any]:
    flags: list[Row] = [
        (f["severity"], f["kind"], f["name"], f["message"]) for f in doc.get("flags", [])
    ]
    outputs: list[Row] = [
        (
            o["cell"] or "(root)",
            o["cellType"],
            _shape(o["stats"]),
            _num(o["stats"]["mean"]),
            _num(o["stats"]["std"]),
            _num(o["stats"]["min"]),
            _num(o["stats"]["max"]),
            f"{100 * o['stats']['zeroFraction']:.0f}%",
        )
        for o in doc.get("outputs", [])
    ]
    gradients: list[Row] = [
        (g["parameter"], _shape(g["stats"]), _num(g["stats"]["rms"]), _num(g["stats"]["absMax"]))
        for g in doc.get("gradients", [])
    ]
    sections = [
        ("Flags", ("severity", "kind", "name", "message"), flags),
        ("Cell outputs", ("cell", "type", "shape", "mean", "std", "min", "max", "zeros"), outputs),
        ("Gradients", ("parameter", "shape", "rms", "abs max"), gradients),
    ]
    return bundle(STATS_MIME, doc, title(doc), [s for s in sections if s[2]])
