"""Checker findings as LSP diagnostics and quick fixes (pure functions, no server state).

Findings count columns in code points; LSP counts UTF-16 units: `to_client` converts ranges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Optional

from lsprotocol import types

from mindscope_ls.checker import Finding, Group, Range, Severity

SOURCE = "MindScope"
# docs/ sits beside pyserver/ in a checkout and in the packaged extension.
DOCS_ROOT = Path(__file__).resolve().parents[3]

ToClient = Callable[[types.Range], types.Range]

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


def lsp_range(r: Range, line_offset: int = 0) -> types.Range:
    """Checker ranges are 1-based lines; LSP's are 0-based."""
    return types.Range(
        start=types.Position(line=max(r.line - 1 - line_offset, 0), character=r.col),
        end=types.Position(line=max(r.end_line - 1 - line_offset, 0), character=r.end_col),
    )


def doc_uri(finding: Finding) -> Optional[str]:
    if not finding.doc:
        return None
    page = DOCS_ROOT / finding.doc
    return page.as_uri() if page.is_file() else None


def to_diagnostic(finding: Finding, to_client: ToClient, line_offset: int = 0) -> types.Diagnostic:
    href = doc_uri(finding)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=Path(r.path).resolve().as_uri() if r.path.startswith("/") else r.path,
                range=lsp_range(r.range, line_offset if r.path == finding.path else 0),
            ),
            message=r.message,
        )
        for r in finding.related
        if r.path.startswith("/") or r.path == finding.path
    ]
    return types.Diagnostic(
        range=to_client(lsp_range(finding.range, line_offset)),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Deprecated] if finding.group == Group.DEPRECATED else None,
        data={"fix": _fix_data(finding, line_offset)} if finding.fix else None,
    )


def _fix_data(finding: Finding, line_offset: int) -> dict[str, Any]:
    assert finding.fix is not None
    return {
        "title": finding.fix.title,
        "edits": [
            {"range": _range_json(lsp_range(e.range, line_offset)), "newText": e.new_text}
            for e in finding.fix.edits
        ],
    }


def _range_json(r: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def _range_from_json(raw: Any) -> types.Range:
    return types.Range(
        start=types.Position(line=raw["start"]["line"], character=raw["start"]["character"]),
        end=types.Position(line=raw["end"]["line"], character=raw["end"]["character"]),
    )


def code_actions(
    uri: str,
    lines: Sequence[str],
    diagnostics: Sequence[types.Diagnostic],
    to_client: ToClient,
) -> list[types.CodeAction]:
    """A quick fix for every diagnostic that carries one, and a suppression comment for each."""
    actions: list[types.CodeAction] = []
    for diagnostic in diagnostics:
        if diagnostic.source != SOURCE or not isinstance(diagnostic.code, str):
            continue
        fix = diagnostic.data.get("fix") if isinstance(diagnostic.data, dict) else None
        if isinstance(fix, dict):
            edits = [
                types.TextEdit(range=to_client(_range_from_json(e["range"])), new_text=e["newText"])
                for e in fix["edits"]
            ]
            actions.append(
                types.CodeAction(
                    title=f"{fix['title']} ({diagnostic.code})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=True,
                    edit=types.WorkspaceEdit(changes={uri: edits}),
                )
            )
        actions.append(_suppress_action(uri, lines, diagnostic, diagnostic.code))
    return actions


def _suppress_action(
    uri: str, lines: Sequence[str], diagnostic: types.Diagnostic, code: str
) -> types.CodeAction:
    line = diagnostic.range.start.line
    text = lines[line].rstrip("\r\n") if line < len(lines) else ""
    end = types.Position(line=line, character=len(text.encode("utf-16-le")) // 2)
    comment = f"  # mindscope: ignore[{code}]"
    return types.CodeAction(
        title=f"Ignore {code} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(
            changes={uri: [types.TextEdit(range=types.Range(start=end, end=end), new_text=comment)]}
        ),
    )
