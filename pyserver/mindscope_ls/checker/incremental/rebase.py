"""Findings moved by a number of lines: a result kept for a block that moved (Enter above it).

The block parser re-numbers a moved block's nodes in place and keeps them, so what was
computed from them is still valid but for its line numbers. Cached findings are kept with the
line they were computed at and moved by the difference when they are used again; the caches
make sure that everything a finding points at moved by the same number of lines (see
`rulecache`: the classes a result depends on are part of its key relative to its function).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import Fix, Range, RawFinding, Related, TextEdit


def moved_findings(findings: Iterable[RawFinding], delta: int) -> list[RawFinding]:
    """`findings` with every line (range, related locations, fix edits) moved by `delta`."""
    if not delta:
        return list(findings)
    return [moved(finding, delta) for finding in findings]


def moved(finding: RawFinding, delta: int) -> RawFinding:
    fix = finding.fix
    if fix is not None:
        fix = Fix(fix.title, tuple(TextEdit(_range(e.range, delta), e.new_text) for e in fix.edits))
    return RawFinding(
        finding.code,
        finding.message,
        _range(finding.range, delta),
        [Related(r.path, _range(r.range, delta), r.message) for r in finding.related],
        fix,
        finding.level,
    )


def _range(rng: Range, delta: int) -> Range:
    return Range(rng.line + delta, rng.col, rng.end_line + delta, rng.end_col)
