"""Tail a summary file while a real MindSpore process is still writing it (slow: ~8 s)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from mindscope_runtime.summary.reader import SummaryReader

pytestmark = pytest.mark.slow

WRITER = Path(__file__).parent / "writers" / "write_slowly.py"
STEPS = 6


def _poll_until(reader: SummaryReader, points: int, seen: list[float]) -> None:
    """Poll (as the dashboard does) until `points` loss values were read."""
    deadline = time.monotonic() + 30
    while len(seen) < points:
        assert time.monotonic() < deadline, f"only {len(seen)} of {points} points appeared"
        runs, issues, _ = reader.poll()
        assert issues == []
        for _, data in runs:
            if "loss" in data.scalars:
                seen.extend(data.scalars["loss"].values)
        time.sleep(0.05)


def test_new_points_are_read_while_the_writer_runs(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, str(WRITER), str(tmp_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "ready"
        reader = SummaryReader(tmp_path)
        seen: list[float] = []
        offsets = []
        for step in range(1, STEPS + 1):
            child.stdin.write("next\n")
            child.stdin.flush()
            assert child.stdout.readline().strip() == f"wrote {step}"
            _poll_until(reader, step, seen)
            (tail,) = reader.tails.values()
            offsets.append(sum(f.offset for f in tail.files.values()))
            assert child.poll() is None  # still writing: the file is open
        assert seen == pytest.approx([1.0 / step for step in range(1, STEPS + 1)])
        assert offsets == sorted(offsets) and len(set(offsets)) == STEPS  # grew each step
        (state,) = tail.files.values()
        # each byte read once (a partly flushed record may be read twice, never the file)
        assert state.size <= state.bytes_read < state.size + STEPS * 64
    finally:
        child.stdin.close()
        child.wait(timeout=30)
