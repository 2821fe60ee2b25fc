"""The server's idle collections: once per quiet period, never while a request waits."""

from __future__ import annotations

import asyncio
import time

import pytest

from mindscope_ls.infra import gcpause


async def test_one_collection_per_quiet_period_and_none_while_busy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    collected: list[float] = []

    def collect() -> bool:
        collected.append(time.monotonic())
        return True

    monkeypatch.setattr(gcpause, "collect_when_idle", collect)
    monkeypatch.setattr(gcpause, "IDLE_SECONDS", 0.05)
    busy = True
    activity = time.monotonic() + 0.01  # a message after the collector started

    gcpause.IdleCollections(asyncio.get_running_loop(), lambda: activity, lambda: busy)
    await asyncio.sleep(0.3)
    assert collected == []  # a request is waiting: no collection, however quiet
    busy = False
    await asyncio.sleep(0.3)
    assert len(collected) == 1  # then one, and no more until the user is active again
    activity = time.monotonic()
    await asyncio.sleep(0.3)
    assert len(collected) == 2
