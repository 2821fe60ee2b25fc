"""What msrun runs in every rank under `profile-dist`: the user's script, profiled, unedited.

    msrun … dist_boot.py SCRIPT.py [script args]

Run as a file (msrun starts `python <task_script>`), so it imports nothing from the package
before the script's own imports. It counts the script's training steps as the outermost calls
of a `jit` function or of a Cell (a `TrainOneStepCell`, `Model.train`'s network), starts
`mindspore.Profiler` at the step after `MINDSCOPE_DIST_WARMUP` steps, stops it after
`MINDSCOPE_DIST_STEPS` profiled steps, and analyses at exit. Each step's wall-clock interval
goes to `<out>/mindscope_steps_<rank>.json` for the merge.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import runpy
import socket
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

OUT_ENV, STEPS_ENV, WARMUP_ENV = (
    "MINDSCOPE_DIST_OUT",
    "MINDSCOPE_DIST_STEPS",
    "MINDSCOPE_DIST_WARMUP",
)
STEPS_FILE = "mindscope_steps_{rank}.json"
FAILED_FILE = "mindscope_failed_{rank}.json"  # a rank that raised: what, for the supervisor


class StepProfiler:
    """Starts the Profiler before step `warmup`, stops it after `steps` more steps."""

    def __init__(self, out: Path, steps: int, warmup: int) -> None:
        self.out, self.steps, self.warmup = out, steps, warmup
        self.rank = os.environ.get("RANK_ID", "0")
        self.seen = 0  # steps started
        self.depth = 0
        self.marks: list[tuple[int, int]] = []
        self.profiler: Any = None
        self.stopped = False

    def around(self, call: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if self.depth:  # nested inside a step: part of it
                return call(*args, **kwargs)
            self._before()
            self.depth += 1
            start = time.time_ns()
            try:
                result = call(*args, **kwargs)
                if self.profiler is not None and not self.stopped:
                    _synchronize()  # the step's ops finish inside its interval
            finally:
                self.depth -= 1
            self._after(start, time.time_ns())
            return result

        return wrapped

    def _before(self) -> None:
        if self.seen == self.warmup and self.profiler is None:
            from mindspore import Profiler

            self.profiler = Profiler(output_path=str(self.out))
        self.seen += 1

    def _after(self, start: int, end: int) -> None:
        if self.profiler is None or self.stopped:
            return
        self.marks.append((start, end))
        if len(self.marks) >= self.steps:
            self.stop()

    def stop(self) -> None:
        if self.profiler is None or self.stopped:
            return
        self.stopped = True
        self.profiler.stop()
        self._write_marks()

    def _write_marks(self) -> None:
        record = {
            "rank": int(self.rank) if self.rank.isdigit() else 0,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "warmup": self.warmup,
            "marks": self.marks,
            **_context(),
        }
        path = self.out / STEPS_FILE.format(rank=self.rank)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record), encoding="utf-8")
        os.replace(tmp, path)

    def finish(self) -> None:
        """At exit: stop (fewer steps than asked) and analyse into `<out>/*_ascend_ms/`."""
        if self.profiler is None:
            return
        self.stop()
        self.profiler.analyse()


def _synchronize() -> None:
    """Wait for the step's ops: a jit call returns while its graph still runs (queued by the
    PyNative executor, then on the device)."""
    import mindspore as ms
    from mindspore.common.api import _pynative_executor

    _pynative_executor.sync()
    ms.runtime.synchronize()


def _context() -> dict[str, str]:
    import mindspore as ms

    graph = ms.get_context("mode") == ms.GRAPH_MODE
    return {
        "mindsporeVersion": ms.__version__,
        "mode": "GRAPH_MODE" if graph else "PYNATIVE_MODE",
        "device": str(ms.get_context("device_target")),
    }


def install(profiler: StepProfiler) -> None:
    """Wrap the entry points of a step: `jit` executions and Cell calls."""
    from mindspore import nn
    from mindspore.common import api

    api._JitExecutor.__call__ = profiler.around(api._JitExecutor.__call__)
    nn.Cell.__call__ = profiler.around(nn.Cell.__call__)
    atexit.register(profiler.finish)


def main(argv: Optional[list[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        raise SystemExit("dist_boot.py: give the script to run")
    script = Path(args[0]).resolve()
    out = Path(os.environ.get(OUT_ENV, "mindscope-dist-profile")).resolve()
    out.mkdir(parents=True, exist_ok=True)
    steps = int(os.environ.get(STEPS_ENV, "3"))
    warmup = int(os.environ.get(WARMUP_ENV, "1"))
    profiler = StepProfiler(out, steps, warmup)
    install(profiler)
    sys.argv = [str(script), *args[1:]]
    sys.path[0] = str(script.parent)  # as `python SCRIPT.py` would have it
    try:
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        if exc.code in (None, 0):
            raise
        _exit_now(profiler, exc.code if isinstance(exc.code, int) else 1, f"exit code {exc.code}")
    except BaseException as exc:
        traceback.print_exception(type(exc), exc, exc.__traceback__)
        _exit_now(profiler, 1, "".join(traceback.format_exception_only(type(exc), exc)).strip())


def _exit_now(profiler: StepProfiler, code: int, message: str) -> None:
    """A failing rank says why (for profile-dist) and exits at once: MindSpore's teardown of
    a broken cluster waits for the other ranks, and msrun's scheduler for a timeout."""
    record = {"rank": int(profiler.rank) if profiler.rank.isdigit() else 0, "error": message}
    path = profiler.out / FAILED_FILE.format(rank=profiler.rank)
    with contextlib.suppress(OSError):
        path.write_text(json.dumps(record), encoding="utf-8")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
