"""Map a failed GRAPH_MODE compile to the checker's rule code and the user's source line.

First choice: run MindScope's checker (`mindscope_ls.checker.check_source`, imported guarded:
the runtime works without it) on the failing file and take its finding on the failing line.
Fallback: recognise MindSpore's own message (`Unsupported statement 'Try'` → MS101, …).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

JsonDict = dict[str, Any]

# Python AST class names MindSpore puts in "Unsupported statement/expression '<Name>'".
_AST_RULES = {
    "Try": "MS101",
    "TryStar": "MS101",
    "Delete": "MS102",
    "Yield": "MS103",
    "YieldFrom": "MS103",
    "Nonlocal": "MS104",
    "Match": "MS105",
    "NamedExpr": "MS106",
    "Import": "MS107",
    "ImportFrom": "MS107",
    "ClassDef": "MS108",
    "AsyncFunctionDef": "MS109",
    "AsyncFor": "MS109",
    "AsyncWith": "MS109",
    "Await": "MS109",
    "Set": "MS111",
    "SetComp": "MS111",
}
_UNSUPPORTED = re.compile(r"Unsupported (?:statement|expression|syntax) '(\w+)'")
_ONE_BRANCH = re.compile(r"is not defined in (?:true|false) branch, but defined in")


def rule_from_message(message: str) -> Optional[str]:
    """The rule code MindSpore's error message points to, if it is one we know."""
    found = _UNSUPPORTED.search(message)
    if found and found.group(1) in _AST_RULES:
        return _AST_RULES[found.group(1)]
    if _ONE_BRANCH.search(message):
        return "MS113"
    return None


def map_compile_error(
    message: str, file: Optional[str], line: Optional[int], level: Optional[str] = None
) -> Optional[JsonDict]:
    """`{code, message, doc, line, column, endLine, endColumn, source}` or None.

    `source` is `checker` (a finding of the checker) or `message` (MindSpore's text only)."""
    from_message = rule_from_message(message)
    findings = _checker_findings(file, level) if file else None
    if findings:
        chosen = _pick(findings, line, from_message)
        if chosen is not None:
            return {**chosen, "source": "checker"}
    if from_message is None:
        return None
    return {
        "code": from_message,
        "message": None,
        "doc": f"docs/rules/{from_message}.md",
        "line": line,
        "column": None,
        "endLine": line,
        "endColumn": None,
        "severity": "error",
        "source": "message",
    }


def _pick(findings: list[JsonDict], line: Optional[int], code: Optional[str]) -> Optional[JsonDict]:
    errors = [f for f in findings if f["severity"] == "error"] or findings
    if line is not None:
        on_line = [f for f in errors if f["line"] <= line <= f["endLine"]]
        if on_line:
            exact = [f for f in on_line if f["code"] == code]
            return (exact or sorted(on_line, key=lambda f: f["line"] != line))[0]
    if code is not None:
        same = [f for f in errors if f["code"] == code]
        if same:
            return min(same, key=lambda f: abs(f["line"] - (line or f["line"])))
    return None


def _checker_findings(file: str, level: Optional[str]) -> Optional[list[JsonDict]]:
    """The checker's findings on `file`, or None when it is not importable or fails."""
    try:
        from mindscope_ls.checker import check_source
    except Exception:  # not installed, or broken while someone is writing it
        return None
    try:
        text = Path(file).read_text(encoding="utf-8")
        found = check_source(text, file, level=level)
        return [_finding_json(f) for f in found]
    except Exception:
        return None


def _finding_json(finding: Any) -> JsonDict:
    severity = getattr(finding, "severity", "error")
    return {
        "code": str(finding.code),
        "message": str(finding.message),
        "doc": str(getattr(finding, "doc", "") or f"docs/rules/{finding.code}.md"),
        "line": int(finding.line),
        "column": int(getattr(finding, "col", 0)),
        "endLine": int(getattr(finding, "end_line", finding.line)),
        "endColumn": int(getattr(finding, "end_col", 0)),
        "severity": str(getattr(severity, "value", severity)),
    }
