"""Start-up work off the request path, in the order the first requests need it, and out of
their way: threads share one GIL, so work running beside a request halves its speed.

1. the catalogue; 2. the open documents' parse; 3. the item lists of the namespaces completed
most (`nn.`, `ops.`, a Tensor, `self.` of a Cell, `ms.`), each as the JSON sent; steps 2 and 3
pause while a request is waiting (from the moment the protocol reads it: `request_arrived`)
or messages stream in;
4. jedi on the standard library (~1.5 s of CPU and a helper process it spawns, used for
everything that is not MindSpore's), which starts once the user is quiet and pauses while the
user is active. Work that no request waits for (the workspace index, `in_background`) starts
after step 3 and pauses while the user is active.

What each step keeps lives as long as the server: it is frozen out of the cyclic collector's
reach (`gcpause.freeze_kept`, as the catalogue is), or every full collection would walk it:
jedi's caches alone are ~280,000 objects (~300 ms on a busy machine), whatever thread's
allocation triggered the collection. jedi's garbage is collected first if the user pauses,
so that little of it gets frozen (a frozen cycle is never freed).
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Callable, Optional, TypeVar

from mindscope_ls.infra import gcpause, trace

log = logging.getLogger(__name__)
T = TypeVar("T")

NAMESPACES = (
    "mindspore.nn",
    "mindspore.Tensor",
    "mindspore.ops",
    "mindspore.nn.Cell",
    "mindspore",
    "mindspore.mint",
    "mindspore.Parameter",
)
# The user counts as active this long after the latest message (keystrokes come ~100 ms apart).
QUIET_SECONDS = 0.25
# A paused warm-up may hold a lock someone waits for without saying so: it never pauses longer.
_MAX_PAUSE_SECONDS = 2.0
# Messages less than this apart are a burst the main thread is still reading (typed keys
# come ~100 ms apart; a client catching up sends them back to back).
_INPUT_GAP_SECONDS = 0.02
# Paused work looks again this often when nothing tells it to (see `_wait_while`).
_RECHECK_SECONDS = 0.1

_lock = threading.Lock()
# Notified when paused work may go on: a request answered, a held lock wanted.
_changed = threading.Condition(_lock)
_last_activity = 0.0
_lock_wanted = 0
# Requests read from the client and not answered yet (the protocol tells, `request_arrived`):
# from the moment the main thread has one, not only once a handler runs.
_pending: set[object] = set()
# Set once what the first requests need is ready (or no warm-up runs): work nobody waits for
# (the workspace index) starts after it instead of halving the first requests' speed.
_essentials = threading.Event()


def touch() -> None:
    """A message arrived: the user is active."""
    global _last_activity
    _last_activity = time.monotonic()


def last_activity() -> float:
    """When the latest message arrived or request was answered (`time.monotonic`)."""
    return _last_activity


def request_arrived(ident: object) -> None:
    """The protocol read request `ident`: background work waits until it is answered."""
    with _lock:
        _pending.add(ident)


def request_answered(ident: object) -> None:
    touch()
    with _changed:
        _pending.discard(ident)
        if not _pending:  # nobody waits for less
            _changed.notify_all()


@contextmanager
def wanting_held_lock() -> Iterator[None]:
    """Around taking a lock that paused background work may hold (jedi's during the warm-up,
    the workspace index's during a check): background work must not pause meanwhile."""
    global _lock_wanted
    with _changed:
        _lock_wanted += 1
        _changed.notify_all()
    try:
        yield
    finally:
        with _lock:
            _lock_wanted -= 1


def answering_requests() -> bool:
    """True while a request has arrived and is not answered yet."""
    return bool(_pending)


def _user_active() -> bool:
    recent = time.monotonic() - _last_activity < QUIET_SECONDS
    return (answering_requests() or recent) and _lock_wanted == 0


def _requests_or_input() -> bool:
    """A request waits, or messages are streaming in (keystrokes queued before a request are
    handled first: sharing the GIL with the warm-up, 20 of them took ~55 ms instead of ~20)."""
    flowing = time.monotonic() - _last_activity < _INPUT_GAP_SECONDS
    return (answering_requests() or flowing) and _lock_wanted == 0


def _wait_while(
    busy: Callable[[], bool],
    limit: Optional[float] = _MAX_PAUSE_SECONDS,
    quiet: float = QUIET_SECONDS,
) -> None:
    """Sleeps until the user is quiet again or something tells (`_changed`), rather than
    polling: every wake-up takes the GIL from the thread answering a request, and on a busy
    machine the operating system may take a while to give it back. (`busy` must not take
    `_lock`, which this holds.)"""
    if not busy():
        return
    with trace.span("warm-up paused"), _changed:
        deadline = time.monotonic() + (limit if limit is not None else float("inf"))
        while busy():
            now = time.monotonic()
            if now >= deadline:
                return
            quiet_at = _last_activity + quiet
            wake = quiet_at if quiet_at > now else now + _RECHECK_SECONDS
            _changed.wait(min(wake, deadline) - now)


_thread = threading.local()


def pause_point() -> None:
    """Inside long steps of the warm-up that requests share (an item list): in the warm-up's
    thread, waits while a request is waiting; anywhere else, returns at once."""
    if getattr(_thread, "warming_up", False) and _requests_or_input():
        _wait_while(_requests_or_input, quiet=_INPUT_GAP_SECONDS)


class Superseded(BaseException):
    """Raised inside work run by `run_yielding` once its result is no longer wanted. Not an
    `Exception`: code that survives its own failures (a checker rule) must not catch it."""


class _Yielding:
    """A profile hook for one thread: at each Python call, wait while the user is active, and
    stop the work once it is superseded. (It costs: the work runs 1.5-3x slower.)"""

    def __init__(self, superseded: Optional[Callable[[], bool]]) -> None:
        self.calls = 0
        self.superseded = superseded

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self.calls += 1
            if self.calls % 64 == 0:  # checking the clock costs too
                if _user_active():
                    _wait_while(_user_active)
                if self.superseded is not None and self.superseded():
                    raise Superseded


def run_yielding(
    work: Callable[[], T], superseded: Optional[Callable[[], bool]] = None
) -> Optional[T]:
    """Runs `work` in this thread, pausing whenever the user is active; None once
    `superseded()` (checked as it runs) is true."""
    sys.setprofile(_Yielding(superseded))
    try:
        return work()
    except Superseded:
        return None
    finally:
        sys.setprofile(None)


def skip() -> None:
    """No warm-up runs: work waiting for it (`in_background`) need not wait."""
    _essentials.set()


def in_background(work: Callable[[], object], timeout: float = 30.0) -> None:
    """Runs `work` (in this thread) once the warm-up has made ready what the first requests
    need, pausing whenever the user is active."""
    _essentials.wait(timeout)
    _wait_while(_user_active)  # limited: a client that keeps asking (fileMode) needs the index
    run_yielding(work)


def _wait_for_quiet() -> None:
    """Before jedi's warm-up starts, holding no lock: as long as the user stays active. (Once
    started, work may hold locks nobody knows of, so its pauses are limited: started in the
    middle of typing, jedi ran in the gaps the limit leaves, and the process it spawns, ~0.5 s
    of CPU, ran beside the requests.)"""
    _wait_while(_user_active, limit=None)


def warm_up(
    documents: Callable[[], Iterable[tuple[str, str]]],
    jedi_work: Optional[Callable[[], object]] = None,
) -> None:
    """`documents`: (uri, text) of the open documents; `jedi_work`: warms jedi."""
    from mindscope_ls.analysis.apiitems import Listing, namespace_json
    from mindscope_ls.analysis.sourcemodel import prime
    from mindscope_ls.catalogue.load import catalogue_for

    started = time.perf_counter()
    try:
        # Paused: the catalogue's ~90,000 objects are frozen as soon as they are read
        # (catalogue/load.py); collections meanwhile would walk them once or twice for nothing.
        with trace.span("warm-up catalogue"), gcpause.gc_paused():
            cat = catalogue_for()
        loaded = time.perf_counter()
        for uri, text in list(documents()):
            _wait_while(_requests_or_input, quiet=_INPUT_GAP_SECONDS)
            with trace.span("warm-up document", uri=uri):
                prime(uri, text)
        _thread.warming_up = True  # pause inside a list too (`pause_point`)
        if cat is not None:
            for namespace in NAMESPACES:
                for compiled in (False, True):
                    _wait_while(_requests_or_input, quiet=_INPUT_GAP_SECONDS)
                    with trace.span("warm-up listing", namespace=namespace, compiled=compiled):
                        namespace_json(Listing(cat, namespace, compiled))
        gcpause.freeze_kept()
    finally:
        _thread.warming_up = False
        _essentials.set()
    listed = time.perf_counter()
    log.info(
        "warm-up: catalogue %.0f ms, documents and item lists %.0f ms",
        (loaded - started) * 1e3,
        (listed - loaded) * 1e3,
    )
    if jedi_work is not None:
        _wait_for_quiet()
        with trace.span("warm-up jedi"):
            run_yielding(jedi_work)
        _freeze_jedi()
        log.info("warm-up: jedi done after %.0f ms", (time.perf_counter() - listed) * 1e3)


def _freeze_jedi() -> None:
    """Collects jedi's warm-up garbage (~8,000 objects) if the user pauses, then freezes its
    caches (~280,000 objects). The collection walks them all (~300 ms): when the user stays
    active it is skipped, and that garbage is kept for good rather than stall a request."""
    _wait_while(_user_active)
    with trace.span("warm-up freeze jedi"):
        if not _user_active():
            gcpause.collect_when_idle()
        gcpause.freeze_kept()
