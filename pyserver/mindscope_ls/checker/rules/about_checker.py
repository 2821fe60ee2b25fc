"""MS000-MS001: findings about the checker itself: a file that does not parse, code not checked."""

from __future__ import annotations

import logging

from ..model import Group, Range, RawFinding
from ..rule import Rule

log = logging.getLogger(__name__)

FILE_DOES_NOT_PARSE = Rule(
    "MS000",
    "file-does-not-parse",
    Group.PARSE,
    title="File does not parse",
    message="Cannot check graph-mode rules: {detail}.",
    why="The file is not valid Python, so nothing in it can be compiled.",
    remedy="Fix the syntax error.",
    mindspore_says="(Python's SyntaxError)",
)

PART_NOT_CHECKED = Rule(
    "MS001",
    "part-not-checked",
    Group.PARSE,
    title="Part of the file was not checked",
    message="{detail}",
    why=(
        "A rule crashed on this code, or a chain of base or attribute classes is deeper than the "
        "checker follows. Rather than show nothing, the checker says what it could not check; "
        "every other finding is still reported."
    ),
    remedy=(
        "Findings for that part may be missing. A deep chain needs no change; a crashed rule is a"
        " bug in MindScope: please report it with the file."
    ),
    mindspore_says="(nothing: this is about the checker, not MindSpore)",
    about_checker=True,
)


def crashed(what: str, error: BaseException, at: Range) -> RawFinding:
    """The MS001 finding for a crash of the checker while doing `what`."""
    detail = str(error).splitlines()[0][:80] if str(error) else ""
    kind = type(error).__name__ + (f": {detail}" if detail else "")
    return PART_NOT_CHECKED.finding(
        at,
        detail=f"The checker crashed while {what} ({kind}); findings for it are missing, the "
        "others are shown.",
    )


def check_crashed(rules: str, path: str, what: str, error: BaseException, at: Range) -> RawFinding:
    """Logs that the check of `rules` crashed on `path` while doing `what`, and says so (MS001)."""
    log.error("%s crashed on %s while %s", rules, path, what, exc_info=error)
    return crashed(f"{what} with {rules}", error, at)
