"""The one corpus format: a `.pycase` file whose leading comment lines say what MindSpore 2.10
does with it at each syntax level, and what the checker must report.

    # lax: ok
    # strict: fail 12:9 MS101
    # lax warns: 14:5 MS301, 20:1 MS302
    # known gap: WHY

`fail LINE[:COL] [CODE]`: LINE is what MindSpore names (asserted against a real compile); COL
(1-based) and CODE are what the checker must report. More than one location lists every error
the checker reports, the first being the one MindSpore names. `LEVEL warns: ...` (or `none`)
lists exactly the checker's findings below error at that level; without it they are not
asserted. `known gap` marks a case the checker is known to get wrong. Used by the corpus tests,
`bench/checker_accuracy.py` and the rule docs (their examples are cases).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..model import SyntaxLevel

_LEVEL = r"(lax|strict|compatible)"
_VERDICT = re.compile(rf"^# {_LEVEL}: (ok|fail (.+))$")
_WARNS = re.compile(rf"^# {_LEVEL} warns: (.+)$")
_GAP = re.compile(r"^# known gap: (.+)$")
_SPOT = re.compile(r"^(\d+)(?::(\d+))?(?: (MS\d{3,4}))?$")


class CaseError(ValueError):
    """A case file whose header does not follow the format."""


@dataclass(frozen=True)
class Spot:
    """A reported location: LINE, and the 1-based COL and CODE when the case gives them."""

    line: int
    col: Optional[int] = None
    code: Optional[str] = None

    def matches(self, line: int, col: int, code: str) -> bool:
        """Whether a finding at `line`, 0-based `col`, with `code` is this spot."""
        return (
            self.line == line
            and (self.col is None or self.col == col + 1)
            and (self.code is None or self.code == code)
        )

    def __str__(self) -> str:
        at = f"{self.line}:{self.col}" if self.col is not None else str(self.line)
        return f"{at} {self.code}" if self.code else at


@dataclass(frozen=True)
class Expectation:
    ok: bool
    fails: tuple[Spot, ...] = ()  # the first is the line MindSpore names
    warns: Optional[tuple[Spot, ...]] = None  # None: not declared, not asserted

    @property
    def line(self) -> Optional[int]:
        return self.fails[0].line if self.fails else None


@dataclass(frozen=True)
class Case:
    name: str  # the file's stem: unique in the corpus
    path: Path
    source: str
    expect: dict[SyntaxLevel, Expectation]
    gap: Optional[str] = None
    header_lines: int = 0  # how many leading lines are the header


def parse_spots(text: str, where: str) -> tuple[Spot, ...]:
    if text.strip() == "none":
        return ()
    spots = []
    for part in text.split(","):
        found = _SPOT.match(part.strip())
        if found is None:
            raise CaseError(f"{where}: `{part.strip()}` is not LINE[:COL] [CODE]")
        line, col, code = found.groups()
        spots.append(Spot(int(line), int(col) if col else None, code))
    return tuple(spots)


def parse_case(path: Path, source: Optional[str] = None) -> Case:
    text = path.read_text(encoding="utf-8") if source is None else source
    verdicts: dict[SyntaxLevel, tuple[bool, tuple[Spot, ...]]] = {}
    warns: dict[SyntaxLevel, tuple[Spot, ...]] = {}
    gap: Optional[str] = None
    count = 0
    for count, line in enumerate(text.splitlines()):
        if not line.startswith("#"):
            break
        where = f"{path.name}:{count + 1}"
        if found := _VERDICT.match(line):
            level = SyntaxLevel(found.group(1).upper())
            fails = parse_spots(found.group(3), where) if found.group(3) else ()
            verdicts[level] = (found.group(2) == "ok", fails)
        elif found := _WARNS.match(line):
            warns[SyntaxLevel(found.group(1).upper())] = parse_spots(found.group(2), where)
        elif found := _GAP.match(line):
            gap = found.group(1)
    else:
        count += 1
    for level in (SyntaxLevel.LAX, SyntaxLevel.STRICT):
        if level not in verdicts:
            raise CaseError(f"{path.name}: no `# {level.value.lower()}: ok|fail LINE` line")
    expect = {
        level: Expectation(ok, fails, warns.get(level)) for level, (ok, fails) in verdicts.items()
    }
    for level, exp in expect.items():
        if not exp.ok and not exp.fails:
            raise CaseError(f"{path.name}: `fail` at {level.value} names no line")
    return Case(path.stem, path, text, expect, gap, count)


def load_cases(folder: Path) -> list[Case]:
    """Every `*.pycase` under `folder`, sub-folders included, by name; names are unique."""
    cases = sorted((parse_case(p) for p in folder.rglob("*.pycase")), key=lambda c: c.name)
    seen: dict[str, Path] = {}
    for case in cases:
        if case.name in seen:
            raise CaseError(f"two cases named {case.name}: {seen[case.name]} and {case.path}")
        seen[case.name] = case.path
    return cases


def body(case: Case) -> list[str]:
    """The case's lines after its header."""
    return case.source.splitlines()[case.header_lines :]
