"""Find every summary run under a root and read its files incrementally.

A run is a directory holding at least one `events.out.events.summary.*` file (MindSpore's
`_lineage` files are skipped). `RunTail` remembers, per file, the offset after the last complete
record, so a later `poll` reads only bytes written since.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from mindscope_runtime.summary.events import RunData
from mindscope_runtime.summary.framing import Issue, read_records, tail_issue
from mindscope_runtime.summary.proto import parse_event

SUMMARY_PREFIX = "events.out.events.summary."
SKIPPED_DIRS = {"node_modules", "__pycache__", "site-packages"}


def is_summary_file(name: str) -> bool:
    return name.startswith(SUMMARY_PREFIX) and not name.endswith("_lineage")


def find_runs(root: Path) -> list[Path]:
    """Directories under `root` (itself included) with a summary file, sorted."""
    runs = []
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        if any(is_summary_file(name) for name in files):
            runs.append(Path(directory))
    return sorted(runs)


def run_name(run: Path, root: Path) -> str:
    relative = run.relative_to(root).as_posix()
    return root.name if relative == "." else relative


@dataclass
class FileState:
    offset: int = 0
    records: int = 0
    size: int = 0
    bytes_read: int = 0  # every poll reads from `offset`: this stays ≈ size when tailing


@dataclass
class RunTail:
    """Reading position in each file of one run directory."""

    path: Path
    files: dict[str, FileState] = field(default_factory=dict)

    def summary_files(self) -> list[Path]:
        try:
            names = sorted(n for n in os.listdir(self.path) if is_summary_file(n))
        except OSError:
            return []
        return [self.path / name for name in names]

    def poll(self, into: RunData, *, final: bool = False) -> tuple[int, list[Issue]]:
        """Read the new complete records of every file into `into`: (records read, issues).
        `final` also reports an incomplete last record (the writer is done)."""
        count, issues = 0, []
        for file in self.summary_files():
            state = self.files.setdefault(file.name, FileState())
            try:
                size = file.stat().st_size
            except OSError:
                continue
            if size < state.offset:  # replaced or truncated: start again
                issues.append(
                    Issue(
                        str(file),
                        size,
                        "file-shrank",
                        f"file shrank from {state.offset} to {size} bytes; reading it again",
                    )
                )
                state.offset = 0
            state.size = size
            if size > state.offset:
                found = read_records(file, state.offset, stop=size)
                issues.extend(found.issues)
                issues.extend(_decode(found.records, file, into))
                state.bytes_read += size - state.offset
                state.offset = found.end
                state.records += len(found.records)
                count += len(found.records)
            if final:
                truncated = tail_issue(str(file), state.offset, size)
                if truncated is not None:
                    issues.append(truncated)
        return count, issues


def _decode(records: list[tuple[int, bytes]], file: Path, into: RunData) -> list[Issue]:
    from google.protobuf.message import DecodeError

    issues = []
    add = into.add
    for offset, payload in records:
        try:
            add(parse_event(payload))
        except (DecodeError, ValueError) as exc:
            issues.append(
                Issue(
                    str(file),
                    offset,
                    "bad-event",
                    f"record at byte {offset} is not a MindSpore Event: {exc}",
                )
            )
    return issues
