"""Run programs at LAX, STRICT and in PyNative with the real MindSpore: two worker processes
(each forks a fresh child per run), results cached by program hash so a re-run only compiles
what changed."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from .program import Program

GRAPH_MODES = ("LAX", "STRICT")
WORKER = Path(__file__).with_name("worker.py")
WORKERS = 2
PROGRESS_EVERY = 50
CHUNK = 100


class Cache:
    """mode + program digest -> the worker's result, one JSON line each, append-only."""

    def __init__(self, path: Path, version: str) -> None:
        self.path, self.version = path, version
        self.rows: dict[str, dict[str, Any]] = {}
        if path.is_file():
            for line in path.read_text().splitlines():
                row = json.loads(line)
                self.rows[row["key"]] = row
        self._lock = threading.Lock()
        self.added = 0

    def key(self, program: Program, mode: str) -> str:
        return f"{self.version}:{mode}:{program.digest}"

    def get(self, program: Program, mode: str) -> dict[str, Any] | None:
        return self.rows.get(self.key(program, mode))

    def put(self, row: dict[str, Any]) -> None:
        with self._lock:
            self.rows[row["key"]] = row
            self.added += 1
            with self.path.open("a") as out:
                out.write(json.dumps(row) + "\n")
            if self.added % PROGRESS_EVERY == 0:
                print(f"  {self.added} runs done", file=sys.stderr, flush=True)


def _drain(jobs: list[dict[str, Any]], cache: Cache, folder: Path, share: int) -> None:
    # The jobs go in through a file, not a pipe: a full stdin pipe would block this thread
    # while the worker blocks on its full stdout.
    queue = folder / f"jobs_{share}.jsonl"
    queue.write_text("".join(json.dumps(job) + "\n" for job in jobs))
    with queue.open() as stdin, (folder / "worker.log").open("a") as errors:
        proc = subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            cwd=folder,  # MindSpore writes rank_0/ here on failed compiles
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip():
                cache.put(json.loads(line))
        proc.wait()


def _interleave(programs: list[Program]) -> list[Program]:
    """Round-robin over families, so a partial run still covers every family; Cells first, the
    other contexts after (they add a case only where they behave differently)."""
    by_family: dict[str, list[Program]] = {}
    for program in sorted(programs, key=lambda p: p.context != "construct"):
        by_family.setdefault(program.snippet.family, []).append(program)
    queues = list(by_family.values())
    out = []
    for i in range(max(map(len, queues), default=0)):
        out += [queue[i] for queue in queues if i < len(queue)]
    return out


def _run(jobs: list[dict[str, Any]], cache: Cache, folder: Path) -> None:
    shares = [jobs[i::WORKERS] for i in range(WORKERS)]
    threads = [
        threading.Thread(target=_drain, args=(share, cache, folder, i))
        for i, share in enumerate(shares)
        if share
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _jobs(programs: list[Program], modes: tuple[str, ...], cache: Cache, folder: Path) -> list[Any]:
    jobs = []
    for program in programs:
        path = folder / "programs" / f"p_{program.digest}.py"
        if not path.is_file():
            path.write_text(program.source)
        for mode in modes:
            if cache.get(program, mode) is None:
                jobs.append({"key": cache.key(program, mode), "path": str(path), "mode": mode})
    return jobs


def execute(programs: list[Program], cache: Cache, folder: Path) -> int:
    """Compiles every program at LAX and STRICT, then runs in PyNative those that compiled at
    either level (only they can diverge), skipping what the cache has; returns how many ran."""
    (folder / "programs").mkdir(parents=True, exist_ok=True)
    order = _interleave(programs)
    todo = len(_jobs(order, GRAPH_MODES, cache, folder))
    print(f"{todo} compiles to do ({len(cache.rows)} runs cached)", file=sys.stderr)
    ran = 0
    # In chunks, so that an interrupted run leaves complete verdicts for what it did.
    for start in range(0, len(order), CHUNK):
        chunk = order[start : start + CHUNK]
        compiles = _jobs(chunk, GRAPH_MODES, cache, folder)
        _run(compiles, cache, folder)
        compiled = [p for p in chunk if any(_ok(cache.get(p, mode)) for mode in GRAPH_MODES)]
        eager = _jobs(compiled, ("PYNATIVE",), cache, folder)
        _run(eager, cache, folder)
        ran += len(compiles) + len(eager)
    return ran


def _ok(row: dict[str, Any] | None) -> bool:
    return bool(row and row["ok"])
