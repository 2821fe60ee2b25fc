"""CPU seconds spent per check and per phase, for profiling the checker (`MINDSCOPE_CHECK_TIMES=1`).

Off by default: then `timed` hands back the check itself and nothing is measured. On, every
function rule, module check and phase adds its time under its name to `TOTALS`, which
`bench/checker_speed.py --rules` prints.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

ENABLED = os.environ.get("MINDSCOPE_CHECK_TIMES") == "1"
TOTALS: dict[str, float] = {}

F = TypeVar("F", bound=Callable[..., object])


def name_of(check: Callable[..., object]) -> str:
    """`rules.joins.check` for a rule module's check; a partial's wrapped function."""
    func = getattr(check, "func", check)
    module = getattr(func, "__module__", "?").rsplit(".checker.", 1)[-1]
    return f"{module}.{getattr(func, '__name__', '?')}"


def add(name: str, seconds: float) -> None:
    TOTALS[name] = TOTALS.get(name, 0.0) + seconds


def timed(check: F) -> F:
    """`check`, adding the time it and its iteration take to `TOTALS` when enabled."""
    if not ENABLED:
        return check
    name = name_of(check)

    def run(*args: object, **kwargs: object) -> Iterator[object]:
        start = time.process_time()
        try:
            found = list(check(*args, **kwargs))  # type: ignore[call-overload]
        finally:
            add(name, time.process_time() - start)
        return iter(found)

    return run  # type: ignore[return-value]


class phase:
    """`with phase("discovery"): ...` adds the block's time to `TOTALS` when enabled."""

    __slots__ = ("name", "start")

    def __init__(self, name: str) -> None:
        self.name = name
        self.start = 0.0

    def __enter__(self) -> None:
        if ENABLED:
            self.start = time.process_time()

    def __exit__(self, *_: object) -> None:
        if ENABLED:
            add(self.name, time.process_time() - self.start)
