"""Polling a big root: the walk for new runs is throttled, the runs already known are still read
on every poll (what keeps the side panel's follower cheap on a large workspace)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from mindscope_runtime.summary import reader as reader_module
from mindscope_runtime.summary.reader import SummaryReader

from .records import frame, scalar_event

NAME = "events.out.events.summary.1.0.host_MS"


def _append(run: Path, step: int, value: float) -> None:
    run.mkdir(parents=True, exist_ok=True)
    with open(run / NAME, "ab") as f:
        f.write(frame(scalar_event(step, value)))


def _names(reader: SummaryReader) -> list[str]:
    runs, _, _ = reader.poll()
    return [tail.path.name for tail, _ in runs]


def test_new_runs_wait_for_the_next_walk_but_known_runs_are_read_each_poll(tmp_path: Path) -> None:
    _append(tmp_path / "a", 1, 2.0)
    reader = SummaryReader(tmp_path)
    assert _names(reader) == ["a"]
    reader.next_discovery = time.monotonic() + 3600  # as after a slow walk
    _append(tmp_path / "b", 1, 1.0)
    _append(tmp_path / "a", 2, 1.5)
    runs, _, records = reader.poll()
    assert [(tail.path.name, data.scalars["loss"].values) for tail, data in runs] == [("a", [1.5])]
    assert records == 1
    reader.next_discovery = 0.0  # the wait is over: the walk finds b
    assert _names(reader) == ["b"]


def test_the_wait_follows_the_cost_of_the_last_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _append(tmp_path / "run", 1, 2.0)
    reader = SummaryReader(tmp_path)
    before = time.monotonic()
    reader.poll()
    # A folder of one run walks in well under a millisecond: the next poll walks again.
    assert reader.next_discovery - before < 0.5

    from mindscope_runtime.summary.runs import find_runs as real

    def slow_walk(root: Path) -> list[Path]:  # a walk of a big workspace
        time.sleep(0.1)
        return real(root)

    monkeypatch.setattr(reader_module, "find_runs", slow_walk)
    reader.next_discovery = 0.0
    before = time.monotonic()
    reader.poll()
    wait = reader.next_discovery - before
    assert 0.1 * reader_module.DISCOVERY_BACKOFF <= wait <= reader_module.DISCOVERY_MAX_WAIT, wait
