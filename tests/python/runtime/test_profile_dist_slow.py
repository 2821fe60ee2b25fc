"""`profile-dist` for real: the example under msrun with 2 CPU ranks, a failing rank and
Ctrl-C, each checked for processes left behind (slow: ~2 minutes in all on 2 cores)."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from mindscope_runtime.distfiles import find_rank_outputs
from mindscope_runtime.schemacheck import load_schema, validate

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "distributed" / "train_dp.py"
# ResNet-8 and tiny batches: the ranks' compile and steps stay short on 2 shared cores.
SMALL = ["--blocks", "1", "--batch-size", "4"]


def _cli(args: list[str], token: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "MINDSCOPE_TEST_TOKEN": token}  # inherited by msrun and every rank
    return subprocess.Popen(
        [sys.executable, "-m", "mindscope_runtime", "profile-dist", *args],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _status(proc: subprocess.Popen[str], timeout: float = 240) -> tuple[int, dict[str, Any], str]:
    out, err = proc.communicate(timeout=timeout)
    lines = out.strip().splitlines()
    assert len(lines) == 1, (out, err[-3000:])
    return proc.returncode, json.loads(lines[0]), err


def _left_running(token: str) -> list[int]:
    """Live processes that inherited the test's token (msrun, its scheduler, the ranks)."""
    needle = f"MINDSCOPE_TEST_TOKEN={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ.split(b"\0") and state != "Z":
            found.append(int(entry))
    return found


def _csv_total(path: Path) -> float:
    with path.open() as handle:
        return sum(float(row["op_total_time(ms)"]) for row in csv.DictReader(handle))


def test_example_profiled_on_two_ranks_matches_each_ranks_csvs(tmp_path: Path) -> None:
    token = uuid.uuid4().hex
    out = tmp_path / "dist.json"
    args = [str(EXAMPLE), "--workers", "2", "--steps", "2", "--warmup", "1", "-o", str(out)]
    code, status, err = _status(_cli([*args, "--", "--steps", "4", *SMALL], token, tmp_path))
    assert code == 0 and status["ok"], (status, err[-3000:])
    assert _left_running(token) == []
    doc = json.loads(out.read_text())
    assert validate(doc, load_schema(ROOT / "schemas" / "profile-document.schema.json")) == []
    section = doc["ranks"]
    assert section["count"] == 2 and [r["rank"] for r in section["ranks"]] == [0, 1]
    job = find_rank_outputs(Path(status["workDir"]) / "profiler")
    for summary, output in zip(section["ranks"], job.ranks):
        assert output.files.op_detail is not None
        own = _csv_total(output.files.op_detail)
        assert summary["totals"]["opMs"] == pytest.approx(own, rel=1e-3), summary["rank"]
        assert len(summary["steps"]) == 2  # --steps 2 profiled after one warm-up step
        rows = [r for r in doc["ops"] if r["rank"] == summary["rank"]]
        allreduce = sum(r["totalMs"] for r in rows if r["type"] == "AllReduce")
        assert allreduce > 0, summary["rank"]
        assert summary["totals"]["commMs"] > 0 and summary["totals"]["computeMs"] > 0
        assert summary["log"] and Path(summary["log"]).is_file()
    # One process lane of CPU ops per rank, each with its own ops.
    lanes = {e["pid"] for e in doc["timeline"]["events"] if e["ph"] == "X" and e["pid"] % 100 == 2}
    assert lanes == {r["lanePid"] for r in section["ranks"]}
    assert doc["totals"]["steps"] == 2 and len(section["steps"]) == 2
    assert section["clock"]["method"] == "shared-clock"
    assert section["clock"]["residualSkewUs"] is not None

    # --from merges the same job's shared output dir into the same numbers.
    again = tmp_path / "again.json"
    from_args = ["--from", str(Path(status["workDir"]) / "profiler"), "-o", str(again)]
    code, status2, err = _status(_cli(from_args, token, tmp_path), timeout=60)
    assert code == 0 and status2["ok"], status2
    merged = json.loads(again.read_text())["ranks"]
    assert [r["totals"]["opMs"] for r in merged["ranks"]] == [
        r["totals"]["opMs"] for r in section["ranks"]
    ]


FAILING = textwrap.dedent(
    """
    import sys

    sys.path.insert(0, {folder!r})
    from train_dp import main


    def fail(rank, step):
        if rank == 1 and step == 2:
            raise RuntimeError(f"rank {{rank}} fails at step {{step}}")


    main(before_step=fail)
    """
)


def test_a_failing_rank_is_named_with_its_log_and_nothing_is_left(tmp_path: Path) -> None:
    token = uuid.uuid4().hex
    script = tmp_path / "fail_dp.py"
    script.write_text(FAILING.format(folder=str(EXAMPLE.parent)))
    args = [str(script), "--workers", "2", "-o", str(tmp_path / "d.json"), "--", "--steps", "4"]
    code, status, err = _status(_cli([*args, *SMALL], token, tmp_path))
    assert code == 1 and status["error"]["kind"] == "rank-failed", (status, err[-2000:])
    message = status["error"]["message"]
    assert message.startswith("rank 1 failed: RuntimeError: rank 1 fails at step 2"), message
    log = Path(status["error"]["log"])
    assert log.name == "worker_1.log" and str(log) in message
    assert "rank 1 fails at step 2" in log.read_text()
    assert not (tmp_path / "d.json").exists()
    assert _left_running(token) == []


def test_ctrl_c_mid_run_stops_every_rank(tmp_path: Path) -> None:
    token = uuid.uuid4().hex
    work = tmp_path / "job"
    args = [str(EXAMPLE), "--workers", "2", "--work-dir", str(work), "-o", str(tmp_path / "d.json")]
    proc = _cli([*args, "--", "--steps", "50", *SMALL], token, tmp_path)
    logs = [work / "msrun_logs" / f"worker_{r}.log" for r in (0, 1)]
    deadline = time.monotonic() + 180
    while not all(p.is_file() and "step 1/50" in p.read_text(errors="replace") for p in logs):
        assert proc.poll() is None and time.monotonic() < deadline, "the ranks never stepped"
        time.sleep(0.5)
    assert len(_left_running(token)) >= 3  # msrun, its scheduler and two ranks are running
    proc.send_signal(signal.SIGINT)
    code, status, err = _status(proc, timeout=30)
    assert code == 130 and status["error"]["kind"] == "interrupted", (status, err[-2000:])
    assert _left_running(token) == []
