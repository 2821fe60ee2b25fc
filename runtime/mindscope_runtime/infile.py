"""MindSpore's `# In file` lines: where in the source a compile or run failure points.

MindSpore ends a GRAPH_MODE failure's message with "The Traceback of Net Construct Code" and
one `# In file PATH:LINE[~END][, COL~ENDCOL]` line per frame, outer first: numbered (`# 0 In
file …`) for a shape or type failure, bare for a parse failure. PATH is whatever Python named
the code: a workspace file, a notebook cell's file, `<string>`, a Windows path. The one reader
of that text, for the kernel's compile-error summary and the runtime's run failures. Pure.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from mindscope_runtime.irvalues import Location, parse_location

__all__ = ["Location", "construct_locations", "innermost", "is_framework_file"]

TRACEBACK_MARKER = "Traceback of Net Construct Code"
_NUMBERED = re.compile(r"^#\s*\d+\s+In file ")
_FRAMEWORK_PARTS = ("site-packages", "dist-packages")


def construct_locations(text: str) -> list[Location]:
    """The `# In file` lines after MindSpore's "Traceback of Net Construct Code", outer first
    (the lines before it are MindSpore's message, which may quote anything)."""
    start = text.find(TRACEBACK_MARKER)
    if start < 0:
        return []
    out: list[Location] = []
    for line in text[start:].splitlines()[1:]:
        stripped = _NUMBERED.sub("# In file ", line.strip())
        if stripped.startswith("# In file"):
            location = parse_location(stripped)
            if location is not None:
                out.append(location)
    return out


def is_framework_file(path: str) -> bool:
    """MindSpore's (or another installed package's) own source, not the user's."""
    return any(part in path for part in _FRAMEWORK_PARTS)


def innermost(locations: list[Location], is_user_file: Callable[[str], bool]) -> Optional[Location]:
    """The innermost location whose file is the user's; None when no frame is."""
    mine = [loc for loc in locations if is_user_file(loc.file)]
    return mine[-1] if mine else None
