"""A launched process and all its descendants, even those that left its process group.

msrun starts each worker with `setsid` (its own session and process group), so signalling
msrun's group does not reach the ranks: the tree is read from /proc (Linux) instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

# (pid, start time in clock ticks): the start time tells a reused pid apart.
ProcessId = tuple[int, int]


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of a live process, None if gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()  # the name may hold spaces and parentheses
    if fields[0] == "Z":
        return None
    return int(fields[1]), int(fields[19])


def descendants(root: int) -> list[ProcessId]:
    """Every live process below `root` (not `root` itself)."""
    children: dict[int, list[ProcessId]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None:
                children.setdefault(stat[0], []).append((int(entry), stat[1]))
    out: list[ProcessId] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child[0])
    return out


def alive(process: ProcessId) -> bool:
    stat = _stat(process[0])
    return stat is not None and stat[1] == process[1]


def kill_all(processes: list[ProcessId]) -> None:
    for process in processes:
        if alive(process):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(process[0], signal.SIGKILL)


def wait_gone(processes: list[ProcessId], timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not any(alive(p) for p in processes):
            return True
        time.sleep(0.05)
    return not any(alive(p) for p in processes)
