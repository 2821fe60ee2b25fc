"""Map a failed GRAPH_MODE compile to the checker's rule and the user's source lines.

The one mapper of compile errors: the runtime's graph document (`capture_graph`) and the
kernel's readable summary (`mindscope_kernel.errors`) both call it.

First choice: run MindScope's checker (`mindscope_ls.checker.check_source`, imported guarded:
the runtime works without it) on the failing source and take its finding on the failing lines:
errors first, then the rule MindSpore's message names, then one starting on the failing line,
then the narrowest. Fallback: recognise MindSpore's own message (`Unsupported statement 'Try'`
→ MS101 through the checker's `UNSUPPORTED_SYNTAX` map, a variable bound in one branch → MS113).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

JsonDict = dict[str, Any]

_UNSUPPORTED = re.compile(r"Unsupported (?:statement|expression|syntax) '(\w+)'")
_ONE_BRANCH = re.compile(r"is not defined in (?:true|false) branch, but defined in")


def _syntax_rules() -> Mapping[str, str]:
    """AST class name → rule code, from the checker's own map (read once, at import: mapping a
    message must not depend on the checker importing again while an error is reported)."""
    try:
        from mindscope_ls.checker import UNSUPPORTED_SYNTAX
    except Exception:  # not installed, or broken while someone is writing it
        return {}
    return {node.__name__: code for node, code in UNSUPPORTED_SYNTAX.items()}


_SYNTAX_RULES = _syntax_rules()


@dataclass(frozen=True)
class MappedRule:
    """The rule a compile error maps to; lines are the failing source's (1-based)."""

    code: str
    message: Optional[str]  # the checker's message; None when mapped from MindSpore's text
    doc: str
    line: Optional[int]
    column: Optional[int]
    end_line: Optional[int]
    end_column: Optional[int]
    severity: str
    source: str  # "checker" or "message"
    fix_title: Optional[str] = None  # the checker's quick fix for this finding, if it has one

    def to_json(self) -> JsonDict:
        """The graph document's `error.rule` (schemas/graph-document.schema.json)."""
        return {
            "code": self.code,
            "message": self.message,
            "doc": self.doc,
            "line": self.line,
            "column": self.column,
            "endLine": self.end_line,
            "endColumn": self.end_column,
            "severity": self.severity,
            "source": self.source,
        }


def rule_from_message(message: str) -> Optional[str]:
    """The rule code MindSpore's error message points to, if it is one we know."""
    found = _UNSUPPORTED.search(message)
    if found and found.group(1) in _SYNTAX_RULES:
        return _SYNTAX_RULES[found.group(1)]
    if _ONE_BRANCH.search(message):
        return "MS113"
    return None


def find_rule(
    message: str,
    file: Optional[str],
    line: Optional[int],
    level: Optional[str] = None,
    *,
    end_line: Optional[int] = None,
    source: Optional[str] = None,
    line_offset: int = 0,
) -> Optional[MappedRule]:
    """The rule for a compile error MindSpore reported at `file` lines `line`..`end_line`.

    `source` is the text to check when it is not the file's (a notebook cell, possibly with
    `line_offset` lines of context put in front of it); returned lines are the file's."""
    from_message = rule_from_message(message)
    findings = _checker_findings(file, source, level) if file else None
    if findings:
        span = None if line is None else (line + line_offset, (end_line or line) + line_offset)
        chosen = _pick(findings, span, from_message)
        if chosen is not None:
            return _from_finding(chosen, line_offset)
    if from_message is None:
        return None
    return MappedRule(
        from_message, None, f"docs/rules/{from_message}.md", line, None, line, None, "error",
        "message",
    )  # fmt: skip


def map_compile_error(
    message: str, file: Optional[str], line: Optional[int], level: Optional[str] = None
) -> Optional[JsonDict]:
    """`{code, message, doc, line, column, endLine, endColumn, severity, source}` or None.

    `source` is `checker` (a finding of the checker) or `message` (MindSpore's text only)."""
    found = find_rule(message, file, line, level)
    return found.to_json() if found is not None else None


def _pick(findings: list[Any], span: Optional[tuple[int, int]], code: Optional[str]) -> Any:
    """An error on the failing lines; else the nearest error of the rule the message names;
    else any finding on the failing lines (a hint beats nothing)."""
    lo, hi = span if span is not None else (0, -1)
    on_lines = [f for f in findings if f.line <= hi and lo <= f.end_line]
    errors_on = [f for f in on_lines if _severity(f) == "error"]
    if errors_on:
        return min(errors_on, key=lambda f: (f.code != code, f.line != lo, f.end_line - f.line))
    errors = [f for f in findings if _severity(f) == "error"] or findings
    same = [f for f in errors if f.code == code] if code is not None else []
    if same:
        return min(same, key=lambda f: abs(f.line - (lo if span else f.line)))
    if on_lines:
        return min(on_lines, key=lambda f: (f.code != code, f.line != lo, f.end_line - f.line))
    return None


def _checker_findings(
    file: str, source: Optional[str], level: Optional[str]
) -> Optional[list[Any]]:
    """The checker's findings on `source` (else the file's text), or None when the checker is
    not importable or fails."""
    try:
        from mindscope_ls.checker import check_source
    except Exception:  # not installed, or broken while someone is writing it
        return None
    try:
        text = source if source is not None else Path(file).read_text(encoding="utf-8")
        return list(check_source(text, file, level=level))
    except Exception:
        return None


def _severity(finding: Any) -> str:
    severity = getattr(finding, "severity", "error")
    return str(getattr(severity, "value", severity))


def _from_finding(finding: Any, offset: int) -> MappedRule:
    fix = getattr(finding, "fix", None)
    line = int(finding.line)
    return MappedRule(
        code=str(finding.code),
        message=str(finding.message),
        doc=str(getattr(finding, "doc", "") or f"docs/rules/{finding.code}.md"),
        line=line - offset,
        column=int(getattr(finding, "col", 0)),
        end_line=int(getattr(finding, "end_line", line)) - offset,
        end_column=int(getattr(finding, "end_col", 0)),
        severity=_severity(finding),
        source="checker",
        fix_title=str(fix.title) if fix is not None else None,
    )
