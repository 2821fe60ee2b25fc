"""The graph-mode corpus: cases with declared outcomes, the checker's verdict, MindSpore's verdict.

A case is `cases/<name>.pycase` (a suffix that keeps linters away from its deliberate errors),
materialized as `<name>.py` to be compiled. Its first two lines declare what MindSpore does:

    # lax: fail line 14
    # strict: ok

`fail line N` names the offending line, which the checker must report. An optional third line
`# known gap: WHY` marks a case the checker is known to get wrong (reported, not hidden).
MindSpore names that line or, for an error it meets while parsing a callee, the call site in
the caller; the checker must report the offending line and name the call site among its related
locations.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from mindscope_ls.checker import Severity, check_source

HERE = Path(__file__).parent
CASES = HERE / "cases"
RUNNER = HERE / "runner.py"
LEVELS = ("LAX", "STRICT")
GAP = re.compile(r"^# known gap: (.+)$", re.MULTILINE)
HEADER = re.compile(r"^# (lax|strict): (ok|fail line (\d+))\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Expectation:
    ok: bool
    line: Optional[int] = None


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    expect: dict[str, Expectation]
    gap: Optional[str] = None


@dataclass(frozen=True)
class Verdict:
    """What the checker predicts: compiles, or fails at `line` (also naming `lines`)."""

    ok: bool
    line: Optional[int] = None
    code: Optional[str] = None
    lines: frozenset[int] = frozenset()


def parse_header(source: str) -> dict[str, Expectation]:
    found: dict[str, Expectation] = {}
    for match in HEADER.finditer("\n".join(source.splitlines()[:2])):
        line = int(match.group(3)) if match.group(3) else None
        found[match.group(1).upper()] = Expectation(match.group(2) == "ok", line)
    return found


def load_cases(folder: Path = CASES) -> list[Case]:
    cases = []
    for path in sorted(folder.glob("*.pycase")):
        source = path.read_text()
        gap = GAP.search("\n".join(source.splitlines()[:3]))
        cases.append(Case(path.stem, source, parse_header(source), gap.group(1) if gap else None))
    return cases


def checker_verdict(case: Case, level: str, path: Optional[str] = None) -> Verdict:
    findings = check_source(case.source, path or f"{case.name}.py", level=level)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if not errors:
        return Verdict(True)
    first = min(errors, key=lambda f: (f.line, f.col))
    lines = {first.line, *(r.range.line for r in first.related)}
    return Verdict(False, first.line, first.code, frozenset(lines))


def materialize(cases: list[Case], folder: Path) -> list[Path]:
    paths = []
    for case in cases:
        path = folder / f"{case.name}.py"
        path.write_text(case.source)
        paths.append(path)
    return paths


def compile_all(
    cases: list[Case], folder: Path, levels: tuple[str, ...] = LEVELS, timeout: float = 1200
) -> dict[str, dict[str, dict[str, Any]]]:
    """Compile every case at every level: one runner per level, all running at once, each
    forking a fresh process per case. Returns level -> case name -> the runner's result."""
    files = [str(p) for p in materialize(cases, folder)]
    procs = {
        level: subprocess.Popen(
            [sys.executable, str(RUNNER), "--level", level, *files],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=folder,  # MindSpore writes rank_0/ here on failed compiles
        )
        for level in levels
    }
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for level, proc in procs.items():
        out, _ = proc.communicate(timeout=timeout)
        rows = [json.loads(line) for line in out.splitlines() if line.strip()]
        results[level] = {Path(row["file"]).stem: row for row in rows}
    return results


def named_lines(result: dict[str, Any], source: str) -> set[int]:
    """Lines of the case MindSpore's message names, without the `def`/decorator lines it adds as
    the outer frames of its traceback."""
    text = source.splitlines()
    named = set()
    for line in result.get("lines", []):
        stripped = text[line - 1].lstrip() if 0 < line <= len(text) else ""
        if not stripped.startswith(("def ", "@")):
            named.add(line)
    return named
