"""Pausing the cyclic garbage collector around large parses."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_GC_LOCK = threading.Lock()
_GC_PAUSES = 0


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
                gc.enable()
