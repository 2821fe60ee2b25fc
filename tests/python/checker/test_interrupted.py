"""A check stopped part-way leaves the workspace as good as it was.

The language server stops a long check as soon as the document it checks changes
(`warmup.run_yielding` raises `Superseded` at some Python call inside the checker). Whatever
the checker had cached or half-updated by then, the next check must still give exactly the
findings a fresh check gives.
"""

from __future__ import annotations

import random
from functools import partial

from mindscope_ls.checker import Workspace, check_source
from mindscope_ls.infra import warmup

from .test_incremental import LEVELS, SOURCES, assert_same, edit


class _StopAfter:
    """`superseded` for `run_yielding`: true from its n-th question on (it is asked every 64
    Python calls)."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.stopped = False

    def __call__(self) -> bool:
        self.left -= 1
        self.stopped = self.left < 0
        return self.stopped


def test_checks_stopped_anywhere_leave_nothing_wrong_behind() -> None:
    rng = random.Random(7)
    stopped = 0
    for number, original in enumerate(SOURCES[::2]):
        workspace, text, path = Workspace(), original, f"file{number}.py"
        for _ in range(4):
            level = rng.choice(LEVELS)
            stop = _StopAfter(rng.randrange(0, 60))
            check = partial(check_source, text, path, level=level, workspace=workspace)
            result = warmup.run_yielding(check, stop)
            # (A stop raised while a generator is finalized is swallowed, and the check ends.)
            assert result is not None or stop.stopped
            stopped += result is None
            if rng.random() < 0.7:  # else the same text again (an edit undone)
                text = edit(text, original, rng)
            assert_same(text, path, workspace, level)
    assert stopped > 20  # the test did stop checks part-way, many times
