"""Read msrun's per-worker logs: which rank failed, and why (pure)."""

from __future__ import annotations

import re
from typing import Optional

from mindscope_runtime.errors import one_line

WORKER_LOG = re.compile(r"^worker_(\d+)\.log$")
# MindSpore's own log lines: "[ERROR] ME(123,7f…,python):2026-… [file:line] func] text"
_MS_LOG = re.compile(r"^\[(?:INFO|WARNING|DEBUG)\] ")
_USAGE_ERROR = re.compile(r"^\S+: error: ")


def failure_of(log_text: str) -> Optional[str]:
    """The exception that ended a worker (the last line of its last Python traceback)."""
    lines = log_text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call")]
    if not starts:
        return None
    for line in lines[starts[-1] + 1 :]:
        # The first unindented line after the frames is the exception (interleaved
        # MindSpore log lines aside).
        if line.strip() and not line.startswith((" ", "\t")) and not _MS_LOG.match(line):
            return one_line(line, 300)
    return None


def usage_error_of(log_text: str) -> Optional[str]:
    """An argparse-style `prog: error: …` line (a script rejecting its arguments)."""
    for line in reversed(log_text.splitlines()):
        if _USAGE_ERROR.match(line):
            return one_line(line, 300)
    return None


def failed_ranks(logs: dict[int, str]) -> list[tuple[int, str]]:
    """(rank, reason) of every worker whose log ends in a Python traceback, else of those
    that printed a usage error."""
    for read in (failure_of, usage_error_of):
        found = [(rank, reason) for rank in sorted(logs) if (reason := read(logs[rank]))]
        if found:
            return found
    return []
