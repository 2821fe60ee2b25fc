"""Helpers shared by the checker tests: case files, expectations, applying fixes, MindSpore runs."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from mindscope_ls.checker import Finding, Fix

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "graphmode" / "cases" / "rules"  # each rule's verified examples
RUNNER = Path(__file__).parent / "ms_runner.py"
PYTHON = ROOT / ".venv" / "bin" / "python"


def case_files(pattern: str = "*") -> list[Path]:
    """Case files (`.pycase`, so linters and type checkers leave the deliberate errors alone)."""
    return sorted(CASES.glob(pattern + ".pycase"))


def materialize(cases: dict[str, str], folder: Path) -> list[Path]:
    """Write sources as `<name>.py` files MindSpore can compile (it reads the source file)."""
    paths = []
    for name, text in cases.items():
        path = folder / f"{name}.py"
        path.write_text(text)
        paths.append(path)
    return paths


def apply_fix(source: str, fix: Fix) -> str:
    """Apply a fix's edits (character columns, all relative to the original text)."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if line - 1 >= len(lines):
            return len(source)
        return offsets[line - 1] + col

    text = source
    for edit in sorted(fix.edits, key=lambda e: (e.range.line, e.range.col), reverse=True):
        start = offset(edit.range.line, edit.range.col)
        end = offset(edit.range.end_line, edit.range.end_col)
        text = text[:start] + edit.new_text + text[end:]
    return text


def apply_all_fixes(source: str, findings: list[Finding]) -> str:
    for finding in sorted(findings, key=lambda f: (f.line, f.col), reverse=True):
        if finding.fix is not None:
            source = apply_fix(source, finding.fix)
    return source


@dataclass
class Outcome:
    file: str
    ok: bool
    out: Optional[str] = None
    type: Optional[str] = None
    msg: Optional[str] = None
    printed: Optional[str] = None  # what `run()` wrote to stdout (graph mode prints from C++)


def start(files: list[Path], level: str = "LAX", mode: str = "graph") -> subprocess.Popen[str]:
    """Start compiling `files` in one fresh MindSpore process (collect with `finish`)."""
    args = [str(PYTHON), str(RUNNER), "--level", level, "--mode", mode, *map(str, files)]
    env = dict(os.environ, GLOG_v="2", PYTHONWARNINGS="ignore")
    cwd = files[0].parent if files else None  # MindSpore writes rank_0/om/analyze_fail.ir here
    return subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd
    )


def finish(proc: subprocess.Popen[str], timeout: float = 900) -> tuple[dict[str, Outcome], str]:
    # A batch of ~350 cases takes ~2 minutes alone; on a shared, loaded machine it passed 300 s.
    out, err = proc.communicate(timeout=timeout)
    results = {}
    for line in out.splitlines():
        data = json.loads(line)
        results[Path(data["file"]).name] = Outcome(**data)
    return results, err
