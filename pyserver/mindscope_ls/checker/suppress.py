"""`# mindscope: ignore[CODE, ...]` comments: per line, or for the whole file with ignore-file."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .model import Finding

PATTERN = re.compile(r"#\s*mindscope:\s*ignore(-file)?(?:\[([A-Za-z0-9_,\s]*)\])?")
ALL = "*"


@dataclass
class Suppressions:
    by_line: dict[int, set[str]] = field(default_factory=dict)
    whole_file: set[str] = field(default_factory=set)

    def covers(self, finding: Finding) -> bool:
        if ALL in self.whole_file or finding.code in self.whole_file:
            return True
        codes = self.by_line.get(finding.line, set())
        return ALL in codes or finding.code in codes


def parse_suppressions(lines: list[str]) -> Suppressions:
    result = Suppressions()
    for number, text in enumerate(lines, start=1):
        if "mindscope" not in text:
            continue
        for match in PATTERN.finditer(text):
            codes = {c.strip().upper() for c in (match.group(2) or "").split(",") if c.strip()}
            codes = codes or {ALL}
            if match.group(1):
                result.whole_file |= codes
            else:
                result.by_line.setdefault(number, set()).update(codes)
    return result


def suppressed(
    findings: Iterable[Finding], lines: list[str]
) -> tuple[list[Finding], list[Finding]]:
    """Split findings into (kept, suppressed) according to the comments in `lines`."""
    rules = parse_suppressions(lines)
    kept: list[Finding] = []
    dropped: list[Finding] = []
    for finding in findings:
        (dropped if rules.covers(finding) else kept).append(finding)
    return kept, dropped
