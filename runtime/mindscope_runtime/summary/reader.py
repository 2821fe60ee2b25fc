"""Read every run under a root: once (`read`), or again and again, only new bytes (`poll`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from mindscope_runtime.summary.events import RunData
from mindscope_runtime.summary.framing import Issue
from mindscope_runtime.summary.runs import RunTail, find_runs, is_summary_file

# Walking the root for new runs is what a poll of a big workspace pays for: after a walk that
# took t seconds, the next one waits DISCOVERY_BACKOFF * t (a summary folder: every poll; a
# workspace whose walk takes 50 ms: once a second), never longer than DISCOVERY_MAX_WAIT.
DISCOVERY_BACKOFF = 20.0
DISCOVERY_MAX_WAIT = 30.0


@dataclass
class SummaryReader:
    root: Path
    tags: tuple[str, ...] = ()
    tails: dict[Path, RunTail] = field(default_factory=dict)
    next_discovery: float = 0.0

    def _discover(self) -> list[RunTail]:
        started = time.monotonic()
        if not self.tails or started >= self.next_discovery:
            if self.root.is_file() and is_summary_file(self.root.name):
                runs = [self.root.parent]
            else:
                runs = find_runs(self.root)
            for run in runs:
                self.tails.setdefault(run, RunTail(run))
            took = time.monotonic() - started
            self.next_discovery = started + min(DISCOVERY_MAX_WAIT, took * DISCOVERY_BACKOFF)
        return [self.tails[run] for run in sorted(self.tails)]

    def poll(
        self, *, final: bool = False
    ) -> tuple[list[tuple[RunTail, RunData]], list[Issue], int]:
        """New records of every run since the last poll, each run's in a fresh RunData
        (runs with nothing new are left out unless first seen): (runs, issues, records)."""
        out, issues, total = [], [], 0
        for tail in self._discover():
            first = not tail.files
            data = RunData(tags=self.tags)
            count, found = tail.poll(data, final=final)
            issues.extend(found)
            total += count
            if count or first:
                out.append((tail, data))
        return out, issues, total
