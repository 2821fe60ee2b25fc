"""`profile-dist`: run a script under the interpreter's own msrun with the Profiler on in
every rank (dist_boot.py), supervise the ranks, and merge their output (distload.py).

msrun starts every worker in its own session, so the ranks are tracked by reading the
process tree (proctree.py): on Ctrl-C, a failing rank or any exit, nothing is left running.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from mindscope_runtime import dist_boot
from mindscope_runtime.distlogs import WORKER_LOG, failed_ranks
from mindscope_runtime.errors import RuntimeToolError, one_line
from mindscope_runtime.proctree import ProcessId, descendants, kill_all, wait_gone
from mindscope_runtime.progress import Progress

STOP_GRACE_S = 2.0  # msrun kills its workers on SIGINT; then whatever is left gets SIGKILL
POLL_S = 0.25
NOTE_EVERY_S = 10.0


@dataclass
class DistJob:
    script: Path
    script_args: list[str]
    work_dir: Path
    workers: int = 2
    local_workers: Optional[int] = None
    steps: int = 3
    warmup: int = 1
    node_rank: Optional[int] = None
    master_addr: Optional[str] = None
    master_port: Optional[int] = None
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def profiler_dir(self) -> Path:
        return self.work_dir / "profiler"

    @property
    def log_dir(self) -> Path:
        return self.work_dir / "msrun_logs"


def msrun_path() -> Path:
    """The msrun beside this interpreter (a venv's, not another MindSpore's on PATH)."""
    path = Path(sys.executable).parent / "msrun"
    if not path.is_file():
        raise RuntimeToolError(
            "msrun-not-found", f"no msrun beside {sys.executable}: install mindspore there"
        )
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def msrun_command(job: DistJob, msrun: Path, port: int) -> list[str]:
    local = job.local_workers or job.workers
    command = [str(msrun), "--worker_num", str(job.workers), "--local_worker_num", str(local)]
    if job.node_rank is not None:
        command += ["--node_rank", str(job.node_rank)]
    if job.master_addr:
        command += ["--master_addr", job.master_addr]
    command += ["--master_port", str(port), "--join", "True", "--log_dir", str(job.log_dir)]
    return [*command, dist_boot.__file__, str(job.script), *job.script_args]


def job_env(job: DistJob) -> dict[str, str]:
    env = dict(os.environ)
    # msrun starts a bare `python`: this interpreter's bin first, so the ranks run it too.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env[dist_boot.OUT_ENV] = str(job.profiler_dir)
    env[dist_boot.STEPS_ENV] = str(job.steps)
    env[dist_boot.WARMUP_ENV] = str(job.warmup)
    env["PYTHONUNBUFFERED"] = "1"  # rank logs show each step as it happens
    env.update(job.extra_env)
    return env


def run_job(job: DistJob, progress: Progress) -> dict[int, Path]:
    """Run the job to its end; the rank → worker log map. A failing rank, or msrun failing,
    raises `RuntimeToolError`; Ctrl-C stops every rank and re-raises."""
    for folder in (job.profiler_dir, job.log_dir):
        shutil.rmtree(folder, ignore_errors=True)  # a previous run's ranks must not merge in
    job.log_dir.mkdir(parents=True, exist_ok=True)
    port = job.master_port or free_port()
    command = msrun_command(job, msrun_path(), port)
    msrun_log = job.work_dir / "msrun.log"
    seen: set[ProcessId] = set()
    with msrun_log.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=job_env(job),
            start_new_session=True,  # Ctrl-C in a terminal reaches us; we stop the ranks
        )  # fmt: skip
        try:
            code = _supervise(process, seen, job, progress)
            if code is None:  # a rank raised: stop the others now, not at msrun's timeout
                _stop(process, seen)
        except BaseException:
            with progress.phase("stopping every rank"):
                _stop(process, seen)
            raise
        finally:
            kill_all(sorted(seen | set(descendants(process.pid))))
    logs = worker_logs(job.log_dir)
    failed = rank_failures(job.profiler_dir)
    if failed:
        rank, message = failed[0]
        log = logs.get(rank, job.log_dir)
        raise RuntimeToolError(
            "rank-failed",
            f"rank {rank} failed: {message} (log: {log})",
            extra={"rank": rank, "log": str(log)},
        )
    if code != 0:
        raise _failure(code if code is not None else 1, logs, msrun_log)
    return logs


def rank_failures(profiler_dir: Path) -> list[tuple[int, str]]:
    """(rank, exception) of every rank whose script raised (dist_boot's failure records)."""
    out = []
    for path in sorted(profiler_dir.glob("mindscope_failed_*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            out.append((int(record["rank"]), one_line(str(record["error"]), 300)))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(out)


def _supervise(
    process: subprocess.Popen[bytes], seen: set[ProcessId], job: DistJob, progress: Progress
) -> Optional[int]:
    """msrun's exit code, or None as soon as a rank recorded that its script raised."""
    started = last_note = time.monotonic()
    with progress.phase(f"running {job.script.name} on {job.workers} rank(s) under msrun"):
        while True:
            seen.update(descendants(process.pid))
            code = process.poll()
            if code is not None:
                return code
            if rank_failures(job.profiler_dir):
                return None
            if time.monotonic() - last_note >= NOTE_EVERY_S:
                last_note = time.monotonic()
                progress.note(f"ranks running ({last_note - started:.0f}s)")
            time.sleep(POLL_S)


def _stop(process: subprocess.Popen[bytes], seen: set[ProcessId]) -> None:
    seen.update(descendants(process.pid))
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # msrun's own handler kills workers and scheduler
    try:
        process.wait(STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    kill_all(sorted(seen))
    wait_gone(sorted(seen), STOP_GRACE_S)


def worker_logs(log_dir: Path) -> dict[int, Path]:
    out = {}
    for path in log_dir.glob("worker_*.log"):
        match = WORKER_LOG.match(path.name)
        if match:
            out[int(match.group(1))] = path
    return out


def _failure(code: int, logs: dict[int, Path], msrun_log: Path) -> RuntimeToolError:
    texts = {
        rank: path.read_text(encoding="utf-8", errors="replace") for rank, path in logs.items()
    }
    failed = failed_ranks(texts)
    if failed:
        rank, message = failed[0]
        return RuntimeToolError(
            "rank-failed",
            f"rank {rank} failed: {message} (log: {logs[rank]})",
            extra={"rank": rank, "log": str(logs[rank])},
        )
    return RuntimeToolError(
        "msrun-failed",
        f"msrun exited with code {code} and no rank reported an error (log: {msrun_log})",
        extra={"log": str(msrun_log)},
    )
