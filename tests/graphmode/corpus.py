"""The graph-mode corpus: cases with declared outcomes, the checker's verdict, MindSpore's verdict.

A case is `cases/**/<name>.pycase` (a suffix that keeps linters away from its deliberate errors),
materialized as `<name>.py` to be compiled. Its leading comment lines declare what MindSpore
does at each level and what the checker must report (the format: `mindscope_ls.checker.output
.cases`):

    # lax: ok
    # strict: fail 12:9 MS101

MindSpore names the failing line or, for an error it meets while parsing a callee, the call site
in the caller; the checker must report the failing line and name the call site among its related
locations. `cases/rules/` holds each rule's verified examples (`MS101_bad`, `MS101_ok`, ...), the
rule docs' examples; `generated/` and `heldout/` the facts generator's cases.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from mindscope_ls.checker import Finding, Severity, SyntaxLevel, check_source
from mindscope_ls.checker.output.cases import Case, Expectation, Spot, load_cases

HERE = Path(__file__).parent
CASES = HERE / "cases"
RUNNER = HERE / "runner.py"
LEVELS = (SyntaxLevel.LAX, SyntaxLevel.STRICT)

__all__ = [
    "CASES",
    "LEVELS",
    "RUNNER",
    "Case",
    "Expectation",
    "Spot",
    "Verdict",
    "all_cases",
    "checker_verdict",
    "compile_all",
    "mismatches",
    "named_lines",
]


def all_cases(folder: Path = CASES) -> list[Case]:
    return load_cases(folder)


@dataclass(frozen=True)
class Verdict:
    """What the checker predicts: compiles, or fails at `line` (also naming `lines`)."""

    ok: bool
    line: Optional[int] = None
    code: Optional[str] = None
    lines: frozenset[int] = frozenset()
    errors: tuple[Finding, ...] = ()
    others: tuple[Finding, ...] = ()  # findings below error


def checker_verdict(case: Case, level: str, path: Optional[str] = None) -> Verdict:
    findings = check_source(case.source, path or f"{case.name}.py", level=level)
    errors = tuple(f for f in findings if f.severity is Severity.ERROR)
    others = tuple(f for f in findings if f.severity is not Severity.ERROR)
    if not errors:
        return Verdict(True, others=others)
    first = min(errors, key=lambda f: (f.line, f.col))
    lines = {first.line, *(r.range.line for r in first.related)}
    return Verdict(False, first.line, first.code, frozenset(lines), errors, others)


def _differ(want: tuple[Spot, ...], got: tuple[Finding, ...], what: str) -> list[str]:
    """Each declared spot takes one finding; a bare LINE (a generated case, whose rule the
    generator could not name) takes every finding on that line, at least one."""
    found = sorted(got, key=lambda f: (f.line, f.col, f.code))
    shown = ", ".join(f"{f.line}:{f.col + 1} {f.code}" for f in found) or "none"
    left, matched = list(found), True
    for spot in want:
        if spot.col is None and spot.code is None:
            taken = [f for f in left if f.line == spot.line]
        else:
            taken = [f for f in left if spot.matches(f.line, f.col, f.code)][:1]
        matched = matched and bool(taken)
        left = [f for f in left if f not in taken]
    if left or not matched:
        return [f"{what}: want {', '.join(map(str, want)) or 'none'}, checker reports {shown}"]
    return []


def mismatches(case: Case, level: SyntaxLevel, verdict: Verdict) -> list[str]:
    """How the checker's findings at `level` differ from what the case declares."""
    expect = case.expect[level]
    problems = []
    if verdict.ok != expect.ok:
        problems.append(f"MindSpore {'compiles' if expect.ok else 'fails'}, checker disagrees")
    problems += _differ(expect.fails, verdict.errors, "errors")
    if expect.warns is not None:
        problems += _differ(expect.warns, verdict.others, "below error")
    return problems


def materialize(cases: list[Case], folder: Path) -> list[Path]:
    paths = []
    for case in cases:
        path = folder / f"{case.name}.py"
        path.write_text(case.source)
        paths.append(path)
    return paths


# Each case's compile has its own limit in the runner (120 s); the whole run's limit only
# catches a runner that stopped answering, so it grows with the corpus (1,700+ cases take
# ~25 min per level on a loaded 2-core machine, past any fixed limit we had).
SECONDS_PER_CASE = 3.0


def compile_all(
    cases: list[Case],
    folder: Path,
    levels: tuple[str, ...] = LEVELS,
    timeout: Optional[float] = None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Compile every case at every level: one runner per level, all running at once, each
    forking a fresh process per case. Returns level -> case name -> the runner's result."""
    if timeout is None:
        timeout = 600 + SECONDS_PER_CASE * len(cases)
    files = [str(p) for p in materialize(cases, folder)]
    # Each runner writes to a file, not a pipe: read one pipe after the other and the second
    # runner stops at its first 64 KB of results (a failure's message runs to 6,000 characters)
    # until the first has finished, which made the two levels compile one after the other.
    outputs = {level: folder / f"results-{level}.jsonl" for level in levels}
    procs = {}
    for level in levels:
        with outputs[level].open("w") as out:
            procs[level] = subprocess.Popen(
                [sys.executable, str(RUNNER), "--level", str(level), *files],
                stdout=out,
                stderr=subprocess.DEVNULL,
                text=True,
                cwd=folder,  # MindSpore writes rank_0/ here on failed compiles
            )
    deadline = time.monotonic() + timeout
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for level, proc in procs.items():
        proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        lines = outputs[level].read_text().splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
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
