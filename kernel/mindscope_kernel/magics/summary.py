"""`%ms_summary DIR [--tag GLOB]`: the training summaries under DIR, inline (the dashboard's
scalars, histograms, images and tensor statistics), read without MindSpore."""

from __future__ import annotations

import html
from argparse import Namespace
from pathlib import Path
from typing import Any

from IPython.core.magic import line_magic, magics_class

from mindscope_kernel.magics.common import KernelMagics, arg, fail, ms_magic, show

SUMMARY_MIME = "application/vnd.mindscope.summary+json"
IMAGES_INLINE = 3  # per tag: a notebook keeps its outputs, images are the bulk


@magics_class
class SummaryMagics(KernelMagics):
    @line_magic
    @ms_magic(
        arg("dir", help="a summary directory or a folder of runs"),
        arg("--tag", action="append", default=[], help="keep only these tags"),
    )
    def ms_summary(self, args: Namespace) -> None:
        """The training summaries under DIR, inline."""
        root = Path(args.dir).expanduser().resolve()
        if not root.exists():
            return fail(f"no such folder: {args.dir}")
        show(summary_bundle(read_summary(root, tuple(args.tag))))
        return None


def read_summary(root: Path, tags: tuple[str, ...]) -> dict[str, Any]:
    from mindscope_runtime.summary.document import summary_document
    from mindscope_runtime.summary.reader import SummaryReader

    runs, issues, _ = SummaryReader(root, tags).poll(final=True)
    document = summary_document(root, runs, issues, tags=tags)
    for run in document["runs"]:
        for images in run["images"]:
            del images["samples"][:-IMAGES_INLINE]
    return document


def _latest(run: dict[str, Any]) -> list[tuple[str, int, str]]:
    rows = []
    for series in run["scalars"]:
        value = series["values"][-1] if series["values"] else None
        shown = "NaN/Inf" if value is None else f"{value:.6g}"
        rows.append((series["tag"], len(series["steps"]), shown))
    return rows


def summary_bundle(document: dict[str, Any]) -> dict[str, Any]:
    """The MIME bundle: the document for MindScope's renderer, HTML and text fallbacks."""
    runs = document["runs"]
    if not runs:
        text = f"MindScope: no summary files under {document['meta']['root']}"
        return {SUMMARY_MIME: document, "text/plain": text, "text/html": html.escape(text)}
    lines, rows = [], []
    for run in runs:
        counts = (f"{len(run['histograms'])} histograms, {len(run['images'])} images, "
                  f"{len(run['tensors'])} tensors")  # fmt: skip
        lines.append(f"{run['name']}: {counts}")
        for tag, points, value in _latest(run):
            lines.append(f"  {tag}: {points} points, last {value}")
            cells = (run["name"], tag, str(points), value)
            rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    issues = len(document["issues"])
    if issues:
        lines.append(f"{issues} damaged records (first: {document['issues'][0]['message']})")
    head = "<tr><th>run</th><th>tag</th><th>points</th><th>last</th></tr>"
    table = f"<table class='mindscope-summary'>{head}{''.join(rows)}</table>"
    return {SUMMARY_MIME: document, "text/plain": "\n".join(lines), "text/html": table}
