"""An opt-in timeline of the server, to see what a slow request waited on.

`MINDSCOPE_TRACE=/tmp/ls.jsonl` (set in the server's environment) writes one JSON object a
line: `t` (ms since the server started), `thread`, `ev`, and the event's fields. Spans write
a `begin` and an `end` line (`ev: "begin"|"end"`, `name`, the end with `ms`); a garbage
collection is a `gc` line (`gen`eration, `ms`, `t` its start), written with the next line.
`python -m mindscope_ls.infra.trace FILE` prints each request with what overlapped it
(docs/tracing.md).

Off (the default) every call returns at its first test: no clock, no allocation.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, Optional

ENV = "MINDSCOPE_TRACE"
_T0 = time.perf_counter()
_out: Optional[IO[str]] = None
_lock = threading.Lock()
# thread id -> when its collection started (wall clock, this thread's CPU time)
_gc_started: dict[int, tuple[float, float]] = {}
_collections: deque[dict[str, Any]] = deque()  # ended collections, for the next `_write`


def enabled() -> bool:
    return _out is not None


def start(path: Optional[str] = None) -> None:
    """Starts tracing to `path` (default: the `MINDSCOPE_TRACE` variable, if set)."""
    global _out
    path = path or os.environ.get(ENV)
    if not path or _out is not None:
        return
    _out = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (lives with the process)
    gc.callbacks.append(_on_gc)
    event("trace", pid=os.getpid())


def stop() -> None:
    global _out
    if _on_gc in gc.callbacks:
        gc.callbacks.remove(_on_gc)
    event("trace stopped")  # writes the last collections
    with _lock:
        if _out is None:
            return
        out, _out = _out, None
    out.close()


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"), default=str) + "\n"


def _write(record: dict[str, Any]) -> None:
    out = _out
    if out is None:
        return
    line = _line(record)
    with _lock:
        if _out is not None:
            while _collections:  # written here: the collector's callback must never block
                out.write(_line(_collections.popleft()))
            out.write(line)


def _now() -> float:
    return _ms(time.perf_counter() - _T0)


def event(ev: str, **fields: Any) -> None:
    """One moment: `ev` and its fields."""
    if _out is None:
        return
    _write({"t": _now(), "thread": threading.current_thread().name, "ev": ev, **fields})


def _ms(seconds: float) -> float:
    return round(seconds * 1e3, 3)


@contextmanager
def _span(name: str, fields: dict[str, Any]) -> Iterator[None]:
    # `cpu_ms`, this thread's CPU time: far below `ms` when it waited (for the GIL, a lock, or
    # a processor on a busy machine).
    started, cpu = time.perf_counter(), time.thread_time()
    event("begin", name=name, **fields)
    try:
        yield
    finally:
        took, used = time.perf_counter() - started, time.thread_time() - cpu
        event("end", name=name, ms=_ms(took), cpu_ms=_ms(used), **fields)


class _Off:
    """The span when tracing is off: one shared object, nothing measured."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_OFF = _Off()


def span(name: str, **fields: Any) -> Any:
    """A context manager timing the work inside it."""
    if _out is None:
        return _OFF
    return _span(name, fields)


def _on_gc(phase: str, info: dict[str, int]) -> None:
    # Runs inside the collection, which holds the GIL: every thread waits for it.
    ident = threading.get_ident()
    if phase == "start":
        _gc_started[ident] = (time.perf_counter(), time.thread_time())
        return
    started = _gc_started.pop(ident, None)
    if started is None:
        return
    began, cpu = started
    # Only kept here: a collection can start inside `_write`, which holds the lock.
    _collections.append(
        {
            "t": _ms(began - _T0),
            "thread": threading.current_thread().name,
            "ev": "gc",
            "gen": info.get("generation"),
            "ms": _ms(time.perf_counter() - began),
            "cpu_ms": _ms(time.thread_time() - cpu),
            "collected": info.get("collected"),
        }
    )


if __name__ == "__main__":
    from mindscope_ls.infra.tracereport import main

    main()
