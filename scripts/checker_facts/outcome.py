"""What MindSpore did with one program, at each level, read from the runs' results."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from .program import Program

LEVELS = ("LAX", "STRICT")
UNUSABLE = {"Crash", "TimeoutError"}  # no verdict: the child died or hit the alarm
# The alarm's SIGALRM kills the child outright; a crash is reported as type "Crash".
NOISE = re.compile(r"'[^']*'|\"[^\"]*\"|\d+|0x[0-9a-f]+")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    line: Optional[int] = None
    code: Optional[str] = None
    error: str = ""  # exception type and the first line of its message, normalized

    def header(self) -> str:
        if self.ok:
            return "ok"
        return " ".join(p for p in ("fail", str(self.line), self.code or "") if p)


@dataclass(frozen=True)
class Outcome:
    program: Program
    verdicts: dict[str, Verdict]
    warns: dict[str, tuple[int, Optional[str]]]  # level -> (line, code) where GRAPH != PyNative

    @property
    def signature(self) -> tuple[object, ...]:
        parts: list[object] = []
        for level in LEVELS:
            v = self.verdicts[level]
            parts += [v.ok, v.error, level in self.warns]
        return tuple(parts)


def _error(row: dict[str, Any]) -> str:
    first = str(row.get("msg", "")).strip().splitlines()[:1] or [""]
    return f"{row.get('type')}: {NOISE.sub('_', first[0])[:90]}"


def _line(row: dict[str, Any], source: str) -> Optional[int]:
    """The innermost line of the program MindSpore names (it names the innermost first),
    leaving out the `def`/decorator lines it adds as frames of its traceback."""
    text = source.splitlines()
    named = [
        n
        for n in row.get("lines", [])
        if 0 < n <= len(text) and not text[n - 1].lstrip().startswith(("def ", "@"))
    ]
    return named[0] if named else None


def _verdict(program: Program, level: str, row: dict[str, Any]) -> Optional[Verdict]:
    if row["ok"]:
        return Verdict(True)
    if row.get("type") in UNUSABLE:
        return None
    # An error raised while running the graph (a kernel's) names no line: the operation's.
    line = _line(row, program.source) or program.op_line
    code = None
    wanted = program.snippet.codes.get(level)
    if wanted and re.search(wanted[1], str(row.get("msg", "")), re.IGNORECASE):
        code = wanted[0]
    return Verdict(False, line, code, _error(row))


# Renderings that differ between modes without the values differing: `mutable(1)` is an `_Int`
# in PyNative, NumPy scalars keep their NumPy type name, and reprs of objects carry addresses.
SAME_TYPE = {
    "_Int": "int",
    "_Float": "float",
    "_Bool": "bool",
    "float64": "float",
    "float32": "float",
    "int64": "int",
    "int32": "int",
    "bool_": "bool",
}
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def normal(value: Any) -> Any:
    if isinstance(value, dict):
        return {SAME_TYPE.get(k, k): normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normal(v) for v in value]
    if isinstance(value, str):
        return ADDRESS.sub("0x", value)
    return value


def outcome(program: Program, rows: dict[str, Optional[dict[str, Any]]]) -> Optional[Outcome]:
    verdicts: dict[str, Verdict] = {}
    for level in LEVELS:
        row = rows.get(level)
        verdict = _verdict(program, level, row) if row else None
        if verdict is None:
            return None
        verdicts[level] = verdict
    warns: dict[str, tuple[int, Optional[str]]] = {}
    eager = rows.get("PYNATIVE")
    if eager is None and any(v.ok for v in verdicts.values()):
        return None  # not run in PyNative yet: whether it diverges is unknown
    if eager and eager["ok"]:
        for level in LEVELS:
            row = rows[level]
            if row and row["ok"] and normal(row.get("value")) != normal(eager.get("value")):
                code = program.snippet.codes.get("WARN")
                warns[level] = (program.op_line, code[0] if code else None)
    return Outcome(program, verdicts, warns)


def distinct(results: list[Outcome]) -> list[Outcome]:
    """One outcome per (family, operation, kind, behaviour): contexts that behave alike are
    permutations of one case, not new cases; the first context (construct) is kept."""
    seen: set[tuple[object, ...]] = set()
    kept = []
    for result in results:
        snippet = result.program.snippet
        key = (snippet.family, snippet.op, snippet.kind, *result.signature)
        if key not in seen:
            seen.add(key)
            kept.append(result)
    return kept
