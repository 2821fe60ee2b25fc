"""Start-up work off the request path, in the order the first requests need it, and out of
their way: threads share one GIL, so work running beside a request halves its speed.

1. the catalogue; 2. the open documents' parse; 3. the item lists of the namespaces completed
most (`nn.`, `ops.`, a Tensor, `self.` of a Cell, `ms.`), each as the JSON sent; steps 2 and 3
pause while a request is being answered; 4. jedi on the standard library (~1.5 s of CPU,
used for everything that is not MindSpore's), which pauses while the user is active at all.

jedi's caches, kept for the server's lifetime, are then frozen out of the cyclic collector's
reach (`gc.freeze`), as the catalogue is: ~300,000 objects, which every full collection
walked (~300 ms on a busy machine), whatever thread's allocation triggered it. Collected
first, and while the user is idle, so that little garbage gets frozen (a frozen cycle is
never freed).
"""

from __future__ import annotations

import gc
import logging
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Callable, Optional

log = logging.getLogger(__name__)

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
_POLL_SECONDS = 0.005

_lock = threading.Lock()
_last_activity = 0.0
_serving = 0
_jedi_wanted = 0


def touch() -> None:
    """A message arrived: the user is active."""
    global _last_activity
    _last_activity = time.monotonic()


@contextmanager
def serving() -> Iterator[None]:
    """A request is being answered: warm-up steps wait."""
    global _serving
    with _lock:
        _serving += 1
    try:
        yield
    finally:
        with _lock:
            _serving -= 1
        touch()


@contextmanager
def wanting_jedi() -> Iterator[None]:
    """Around taking jedi's lock, which the warm-up holds while it runs: it must not pause."""
    global _jedi_wanted
    with _lock:
        _jedi_wanted += 1
    try:
        yield
    finally:
        with _lock:
            _jedi_wanted -= 1


def answering_requests() -> bool:
    """True while a completion, hover or signature request is being answered."""
    return _serving > 0


def _requests_waiting() -> bool:
    return _serving > 0 and _jedi_wanted == 0


def _user_active() -> bool:
    recent = time.monotonic() - _last_activity < QUIET_SECONDS
    return (_serving > 0 or recent) and _jedi_wanted == 0


def _wait_while(busy: Callable[[], bool]) -> None:
    deadline = time.monotonic() + _MAX_PAUSE_SECONDS
    while busy() and time.monotonic() < deadline:
        time.sleep(_POLL_SECONDS)


class _Yielding:
    """A profile hook for one thread: at each Python call, wait while the user is active."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self.calls += 1
            if self.calls % 64 == 0 and _user_active():  # checking the clock costs too
                _wait_while(_user_active)


def run_yielding(work: Callable[[], object]) -> None:
    """Runs `work` in this thread, pausing whenever the user is active."""
    sys.setprofile(_Yielding())
    try:
        work()
    finally:
        sys.setprofile(None)


def warm_up(
    documents: Callable[[], Iterable[tuple[str, str]]],
    jedi_work: Optional[Callable[[], object]] = None,
) -> None:
    """`documents`: (uri, text) of the open documents; `jedi_work`: warms jedi."""
    from mindscope_ls.apiitems import Listing, namespace_json
    from mindscope_ls.catalogue.load import catalogue_for
    from mindscope_ls.sourcemodel import prime

    started = time.perf_counter()
    cat = catalogue_for()
    loaded = time.perf_counter()
    for uri, text in list(documents()):
        _wait_while(_requests_waiting)
        prime(uri, text)
    if cat is not None:
        for namespace in NAMESPACES:
            for compiled in (False, True):
                _wait_while(_requests_waiting)
                namespace_json(Listing(cat, namespace, compiled))
    listed = time.perf_counter()
    log.info(
        "warm-up: catalogue %.0f ms, documents and item lists %.0f ms",
        (loaded - started) * 1e3,
        (listed - loaded) * 1e3,
    )
    if jedi_work is not None:
        run_yielding(jedi_work)
        _wait_while(_user_active)
        gc.collect()
        gc.freeze()
        log.info("warm-up: jedi done after %.0f ms", (time.perf_counter() - listed) * 1e3)
