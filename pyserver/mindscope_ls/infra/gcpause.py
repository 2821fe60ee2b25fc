"""The cyclic garbage collector's policy: paused around large parses and, in the language
server, kept away from the data that lives as long as the server.

A collection holds the GIL and walks every tracked object of the generations it collects:
a full one walked the whole process (the catalogue, the imported modules, jedi's caches and
the open documents' trees, ~150 ms on a busy machine), and one of the young generations
right after a 3,000-line parse walked its ~100,000 new nodes (40-150 ms, `MINDSCOPE_TRACE`).
Whatever thread's allocation triggers it, the request being answered waits.

The server (`use_server_policy`) therefore freezes (`gc.freeze`, which moves every tracked
object to a generation no collection walks, in constant time) what it keeps: the modules
once imported, each warm-up stage's results, and each large parse tree. An AST has no
cycles, so reference counting still frees a frozen tree when its document changes; only a
cycle that was garbage at the moment of freezing is never freed, which `collect_when_idle`
keeps small by collecting while the user is idle. Other processes that parse (the checker
command line, the kernel, which runs user code) keep Python's defaults: freezing there would
keep the user's garbage alive.
"""

from __future__ import annotations

import functools
import gc
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Optional

from mindscope_ls.infra import trace

if TYPE_CHECKING:  # the checker's command line and the kernel parse too: no asyncio for them
    import asyncio

_GC_LOCK = threading.Lock()
_GC_PAUSES = 0
_SERVER_POLICY = False
# A parse that leaves more new objects than this is a file's (or a large block's) tree: it
# is kept while its document is open, and walking it on each collection costs more than it.
_LARGE_PARSE_OBJECTS = 20_000


def use_server_policy() -> None:
    """For the language server's process: frozen imports and large parse trees."""
    global _SERVER_POLICY
    _SERVER_POLICY = True
    gc.freeze()  # the modules imported so far live as long as the process


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a file is parsed: an AST has no cycles, yet its
    hundreds of thousands of new nodes would trigger full collections that walk every object
    in the process (the catalogue included) and cost more than the parse itself."""
    global _GC_PAUSES
    with _GC_LOCK:
        _GC_PAUSES += 1
        if _GC_PAUSES == 1:
            gc.disable()
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_PAUSES -= 1
            if _GC_PAUSES == 0:
                if _SERVER_POLICY and gc.get_count()[0] > _LARGE_PARSE_OBJECTS:
                    gc.freeze()
                gc.enable()


def freeze_kept() -> None:
    """After work whose results the server keeps (a warm-up stage): out of the collector's way.
    Only in the server (`use_server_policy`)."""
    if _SERVER_POLICY:
        gc.freeze()


_RELEASE = threading.Event()


def release_frozen() -> None:
    """A document was closed: what was frozen with it (its trees, parso's with their parent
    cycles, jedi's caches) can only be collected once unfrozen, at the next idle collection."""
    _RELEASE.set()


def collect_when_idle() -> bool:
    """A collection of what is not frozen, at a moment nobody waits: the young generations'
    garbage, and what automatic collections would otherwise walk in the middle of a request.
    After a document closed, of everything (unfrozen, collected, frozen again: a full walk,
    ~150 ms, while idle). False when a parse has paused the collector (tried again later)."""
    if _GC_PAUSES:
        return False
    with trace.span("idle collection"):
        if _RELEASE.is_set():
            _RELEASE.clear()
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            return_freed_memory()
        else:
            gc.collect()
    return True


def return_freed_memory() -> None:
    """Gives the heap's free pages back to the system (glibc's `malloc_trim`). A closed
    100,000-line file's objects are freed, but glibc keeps the memory of each thread's arena
    that parsed them: without this the RSS grew by ~100 MB per such file opened and closed,
    though no object of it was left. Elsewhere (no glibc) nothing happens."""
    trim = _malloc_trim()
    if trim is not None:
        with trace.span("malloc_trim"):
            trim(0)


@functools.lru_cache(maxsize=1)
def _malloc_trim() -> Optional[Callable[[int], int]]:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):  # musl, or no libc.so.6
        return None
    return trim


# Quiet this long after the latest message, the user is idle (keystrokes come ~100 ms apart).
IDLE_SECONDS = 1.0


class IdleCollections:
    """Once per quiet period, on the event loop: a full collection of what is not frozen. Its
    garbage would otherwise wait for an automatic full collection, triggered by whichever
    allocation comes next, most likely a request's."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        last_activity: Callable[[], float],
        busy: Callable[[], bool],
    ) -> None:
        self._loop, self._last_activity, self._busy = loop, last_activity, busy
        self._collected_at = time.monotonic()
        self._loop.call_later(IDLE_SECONDS, self._check)

    def _check(self) -> None:
        now = time.monotonic()
        latest = self._last_activity()
        quiet = now - latest >= IDLE_SECONDS and not self._busy()
        # A closed document's frozen objects go at the first moment no request waits: the
        # user may type on for minutes, and each 100,000-line file left ~200 MB.
        released = _RELEASE.is_set() and not self._busy()
        if (released or (latest > self._collected_at and quiet)) and collect_when_idle():
            self._collected_at = time.monotonic()
        self._loop.call_later(IDLE_SECONDS / 2, self._check)
