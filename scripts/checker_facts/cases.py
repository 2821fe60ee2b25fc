"""Read generated cases' headers (the one corpus format) back.

# lax: ok
# strict: fail 42 MS202
# lax warns: 40 MS303
# known gap: WHY
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

LEVEL = re.compile(r"^# (lax|strict|compatible): (ok|fail (\d+)(?::(\d+))?(?: (MS\d+))?)\s*$")
WARNS = re.compile(r"^# (lax|strict|compatible) warns: (.+)$")
WARN_ITEM = re.compile(r"^(\d+)(?::\d+)?(?: (MS\d+))?$")
GAP = re.compile(r"^# known gap: (.+)$")


@dataclass(frozen=True)
class Expect:
    ok: bool
    line: Optional[int] = None
    code: Optional[str] = None


@dataclass(frozen=True)
class GeneratedCase:
    family: str
    name: str
    source: str
    expect: dict[str, Expect]
    warns: dict[str, list[tuple[int, Optional[str]]]] = field(default_factory=dict)
    gap: Optional[str] = None


class HeaderError(Exception):
    pass


def parse(family: str, name: str, source: str) -> GeneratedCase:
    expect: dict[str, Expect] = {}
    warns: dict[str, list[tuple[int, Optional[str]]]] = {}
    gap = None
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        if m := LEVEL.match(line):
            fails = m.group(2) != "ok"
            expect[m.group(1).upper()] = Expect(
                not fails, int(m.group(3)) if fails else None, m.group(5)
            )
        elif m := WARNS.match(line):
            items = [WARN_ITEM.match(part.strip()) for part in m.group(2).split(",")]
            if not all(items):
                raise HeaderError(f"{name}: bad warns line {line!r}")
            warns[m.group(1).upper()] = [(int(i.group(1)), i.group(2)) for i in items if i]
        elif m := GAP.match(line):
            gap = m.group(1)
    if "LAX" not in expect or "STRICT" not in expect:
        raise HeaderError(f"{name}: the header must declare lax and strict")
    return GeneratedCase(family, name, source, expect, warns, gap)


def load(root: Path) -> list[GeneratedCase]:
    return [
        parse(path.parent.name, path.stem, path.read_text())
        for path in sorted(root.rglob("*.pycase"))
    ]
