"""Value types shared by the checker: findings, their ranges, related locations and fixes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Optional


class Severity(str, Enum):
    """How serious a finding is; the names match LSP's DiagnosticSeverity."""

    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"


class SyntaxLevel(str, Enum):
    """MindSpore's `jit_syntax_level`: how much Python a graph may contain beyond its own syntax.

    A `str` enum: `SyntaxLevel.STRICT == "STRICT"`, so levels read from settings compare as-is."""

    STRICT = "STRICT"  # only what the graph compiler translates
    COMPATIBLE = "COMPATIBLE"  # accepted by MindSpore 2.10 (undocumented): judged like LAX
    LAX = "LAX"  # the default: falls back to the Python interpreter for what it cannot translate

    def __str__(self) -> str:
        return self.value


class Group(str, Enum):
    """What a rule means; the first digit of its code."""

    FAILS = "fails-at-level"  # MS1xx, then MS1000+: fails to compile at the active syntax level
    STRICT = "fails-under-strict"  # MS2xx: fails only under jit_syntax_level=STRICT
    DIVERGES = "diverges-from-pynative"  # MS3xx: compiles, computes something else
    DEPRECATED = "deprecated-api"  # MS4xx
    PERFORMANCE = "performance"  # MS5xx
    PARSE = "parse"  # MS000: the file does not parse


@dataclass(frozen=True)
class Range:
    """A source range: 1-based lines, 0-based columns (like `ast`), end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int


@dataclass(frozen=True)
class Related:
    """Another location that explains a finding (e.g. the other branch of a join)."""

    path: str
    range: Range
    message: str


@dataclass(frozen=True)
class TextEdit:
    """Replace `range` of the checked source with `new_text`."""

    range: Range
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A mechanical, safe rewrite offered as a quick fix."""

    title: str
    edits: tuple[TextEdit, ...]


@dataclass(frozen=True)
class Finding:
    """One diagnostic produced by the checker."""

    code: str
    message: str
    severity: Severity
    group: str
    line: int
    col: int
    end_line: int
    end_col: int
    related: tuple[Related, ...] = ()
    fix: Optional[Fix] = None
    doc: str = ""  # repository-relative path of the rule's page, e.g. docs/rules/MS101.md
    path: str = "<string>"
    level: str = SyntaxLevel.LAX  # the syntax level the code was judged at

    @property
    def range(self) -> Range:
        return Range(self.line, self.col, self.end_line, self.end_col)


@dataclass
class RawFinding:
    """What a rule reports before severity, docs and suppression are applied."""

    code: str
    message: str
    range: Range
    related: list[Related] = field(default_factory=list)
    fix: Optional[Fix] = None
    level: str = SyntaxLevel.LAX
