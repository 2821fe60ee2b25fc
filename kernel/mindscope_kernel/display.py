"""Rich output bundles: a MindScope MIME type, escaped HTML and a plain-text fallback."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

GRAPH_MIME = "application/vnd.mindscope.graph+json"
PROFILE_MIME = "application/vnd.mindscope.profile+json"
STATS_MIME = "application/vnd.mindscope.stats+json"
FINDINGS_MIME = "application/vnd.mindscope.findings+json"
PARITY_MIME = "application/vnd.mindscope.parity+json"
MAX_ROWS = 30

Row = Sequence[Any]


def table_text(headers: Row, rows: Sequence[Row]) -> str:
    cells = [[str(c) for c in headers], *[[str(c) for c in r] for r in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def table_html(headers: Row, rows: Sequence[Row]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def bundle(
    mime: str, document: Any, title: str, sections: Sequence[tuple[str, Row, Sequence[Row]]]
) -> dict[str, Any]:
    """`sections` are (heading, headers, rows); rows beyond MAX_ROWS are elided."""
    texts, htmls = [title], [f"<p><b>{escape(title)}</b></p>"]
    for heading, headers, rows in sections:
        shown = rows[:MAX_ROWS]
        more = f"… {len(rows) - MAX_ROWS} more" if len(rows) > MAX_ROWS else ""
        texts += ["", heading, table_text(headers, shown)] + ([more] if more else [])
        htmls += [f"<p>{escape(heading)}</p>", table_html(headers, shown)]
        htmls += [f"<p>{escape(more)}</p>"] if more else []
    return {mime: document, "text/html": "\n".join(htmls), "text/plain": "\n".join(texts)}


def _shapes(values: list[dict[str, Any]]) -> str:
    return ", ".join(f"{v.get('dtype', '')}{list(v.get('shape') or [])}" for v in values)


def cell_tree_rows(scopes: list[dict[str, Any]], depth: int = 0) -> list[Row]:
    rows: list[Row] = []
    for scope in scopes:
        name = ("  " * depth) + (scope.get("name") or scope.get("path", ""))
        rows.append(
            (
                name,
                scope.get("cellType", ""),
                scope.get("paramCount", 0),
                scope.get("totalOpCount", ""),
            )
        )
        rows += cell_tree_rows(scope.get("children", []), depth + 1)
    return rows


def graph_bundle(doc: dict[str, Any]) -> dict[str, Any]:
    meta, counts = doc["meta"], doc["meta"].get("counts", {})
    title = (
        f"Graph of {meta.get('rootCell') or meta.get('target')} ({meta.get('mode')}, "
        f"{meta.get('syntaxLevel')}): {counts.get('computeOps', 0)} compute ops, "
        f"{counts.get('parameterElements', 0)} parameter elements"
    )
    if doc.get("error"):
        title += f" - compile failed: {doc['error'].get('message', '')}"
    ops = [n for n in doc.get("nodes", []) if n.get("category") != "aux"]
    op_rows: list[Row] = [
        (
            n["opType"],
            n.get("scope", ""),
            _shapes(n.get("inputs", [])),
            _shapes(n.get("outputs", [])),
        )
        for n in ops
    ]
    return bundle(
        GRAPH_MIME,
        doc,
        title,
        [
            ("Ops", ("op", "scope", "inputs", "outputs"), op_rows),
            ("Cell tree", ("cell", "type", "params", "ops"), cell_tree_rows(doc.get("scopes", []))),
        ],
    )


def profile_bundle(doc: dict[str, Any]) -> dict[str, Any]:
    meta, totals = doc["meta"], doc["totals"]
    title = (
        f"Profile of {meta.get('rootCell') or meta.get('target')} ({meta.get('mode')}): "
        f"{totals['steps']} steps, mean step {totals['meanStepMs']:.3f} ms, "
        f"ops {totals['opMs']:.3f} ms"
    )
    ops: list[Row] = [
        (
            o["type"],
            o["scope"],
            o["calls"],
            f"{o['totalMs']:.4f}",
            f"{o['avgMs']:.4f}",
            f"{100 * o['share']:.1f}%",
        )
        for o in sorted(doc["ops"], key=lambda o: -o["totalMs"])
    ]
    cells: list[Row] = [
        (c["scope"], f"{c['totalMs']:.4f}", f"{c['selfMs']:.4f}", f"{100 * c['share']:.1f}%")
        for c in doc["byCell"]
    ]
    return bundle(
        PROFILE_MIME,
        doc,
        title,
        [
            ("Ops by time", ("op", "scope", "calls", "total ms", "avg ms", "share"), ops),
            ("Cells", ("scope", "total ms", "self ms", "share"), cells),
        ],
    )
