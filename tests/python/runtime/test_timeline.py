"""The one Chrome-trace exporter (timeline.py): events sorted and loadable, ranks kept, and the
`trace` command the profile panel runs. (Moved here from tests/unit/traceExport.test.ts and the
trace test of tests/unit/profileRanks.test.ts when the TypeScript exporter was deleted.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mindscope_runtime.timeline import chrome_trace

ORIGIN_US = 1_700_000_000_000_000


def _profile(events: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    meta = {"target": "model.py:Net", "mode": "GRAPH_MODE", "steps": 2, "timeOriginUs": ORIGIN_US}
    return {"kind": "mindscope.profile", "meta": meta, "timeline": {"unit": "us", "events": events},
            **extra}  # fmt: skip


def _process(pid: int, name: str) -> dict[str, Any]:
    return {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}}


def test_metadata_first_events_by_time_and_what_was_profiled() -> None:
    doc = _profile([
        {"ph": "X", "name": "b", "pid": 2, "tid": 0, "ts": 20, "dur": 1},
        _process(2, "CPU ops"),
        {"ph": "X", "name": "a", "pid": 2, "tid": 0, "ts": 10, "dur": 5},
    ])  # fmt: skip
    trace = chrome_trace(doc)
    assert [e["name"] for e in trace["traceEvents"]] == ["process_name", "a", "b"]
    assert trace["displayTimeUnit"] == "ms"
    assert trace["otherData"]["target"] == "model.py:Net"
    assert trace["otherData"]["timeOriginUs"] == ORIGIN_US
    assert trace["otherData"]["steps"] == 2
    # A JSON round trip is what Perfetto reads.
    assert json.loads(json.dumps(trace)) == trace


def test_a_merged_profile_keeps_one_process_per_rank() -> None:
    events = [_process(102, "rank 0 · CPU ops"), _process(202, "rank 1 · CPU ops")]
    events += [{"ph": "X", "name": "op", "pid": pid, "tid": 0, "ts": ts, "dur": 1}
               for ts, pid in ((30, 202), (10, 102), (20, 202))]  # fmt: skip
    trace = chrome_trace(_profile(events, ranks={"count": 2}))
    names = [(e["pid"], e["args"]["name"]) for e in trace["traceEvents"] if e["ph"] == "M"]
    assert names == [(102, "rank 0 · CPU ops"), (202, "rank 1 · CPU ops")]
    timed = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert [e["ts"] for e in timed] == [10, 20, 30]
    assert {e["pid"] for e in timed} == {102, 202}
    assert trace["otherData"]["ranks"] == 2


def _trace_cli(*args: str) -> tuple[int, dict[str, Any]]:
    run = subprocess.run([sys.executable, "-m", "mindscope_runtime", "trace", *args],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    lines = run.stdout.splitlines()
    assert len(lines) == 1, (run.stdout, run.stderr[-2000:])
    return run.returncode, json.loads(lines[0])


def test_the_trace_command_writes_the_sorted_trace(tmp_path: Path) -> None:
    profile, out = tmp_path / "p.profile.json", tmp_path / "p.trace.json"
    events = [{"ph": "X", "name": n, "pid": 2, "tid": 0, "ts": ts, "dur": 1}
              for n, ts in (("late", 9), ("early", 1))]  # fmt: skip
    profile.write_text(json.dumps(_profile([*events, _process(2, "CPU ops")])))
    code, status = _trace_cli(str(profile), "-o", str(out), "--quiet")
    assert (code, status["ok"], status["events"]) == (0, True, 3)
    written = json.loads(out.read_text())
    assert [e["name"] for e in written["traceEvents"]] == ["process_name", "early", "late"]


def test_the_trace_command_refuses_what_is_not_a_profile(tmp_path: Path) -> None:
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps({"kind": "mindscope.graph", "nodes": []}))
    code, status = _trace_cli(str(graph), "-o", str(tmp_path / "t.json"))
    assert code == 1 and status["error"]["kind"] == "bad-document"
    assert status["error"]["message"] == f"{graph} is not a MindScope profile document"
    assert not (tmp_path / "t.json").exists()
    code, status = _trace_cli(str(tmp_path / "missing.json"))
    assert status["error"]["kind"] == "file-not-found"
