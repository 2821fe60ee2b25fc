"""Progress lines on stderr: one when a phase starts, one when a slow phase ends."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class Progress:
    """Writes `[mindscope] <phase>…` lines; phases slower than `slow_s` also report their time."""

    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False, slow_s: float = 1.0):
        self._stream = stream if stream is not None else sys.stderr
        self._quiet = quiet
        self._slow_s = slow_s
        self._t0 = time.perf_counter()

    def note(self, message: str) -> None:
        if self._quiet:
            return
        elapsed = time.perf_counter() - self._t0
        self._stream.write(f"[mindscope {elapsed:6.1f}s] {message}\n")
        self._stream.flush()

    @contextmanager
    def phase(self, message: str) -> Iterator[None]:
        self.note(f"{message}…")
        start = time.perf_counter()
        yield
        took = time.perf_counter() - start
        if took >= self._slow_s:
            self.note(f"{message}: done in {took:.1f}s")
