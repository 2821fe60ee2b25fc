"""The distributed merge (pure): rank files, lanes, clocks, comm/compute/idle, stragglers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindscope_runtime.cli import build_parser
from mindscope_runtime.dist_command import parse_args
from mindscope_runtime.distclock import align_clocks, collective_ends
from mindscope_runtime.distfiles import find_rank_outputs
from mindscope_runtime.distlogs import failed_ranks, failure_of
from mindscope_runtime.distmerge import lane_pid, merge_ranks
from mindscope_runtime.diststeps import is_comm_type, merge_intervals, step_breakdown, stragglers
from mindscope_runtime.distsynth import synthetic_job, synthetic_rank
from mindscope_runtime.profparse import OpExecution
from mindscope_runtime.schemacheck import load_schema, validate

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = load_schema(ROOT / "schemas" / "profile-document.schema.json")
META = {
    "mindsporeVersion": "2.10.0", "mode": "GRAPH_MODE", "syntaxLevel": "LAX", "device": "CPU",
    "target": "train_dp.py", "inputs": [], "steps": 1, "warmup": 1,
    "scopeAttribution": "mindspore",
}  # fmt: skip


def test_comm_types_are_collectives_not_reductions() -> None:
    for name in ("AllReduce", "HcomAllGather", "Broadcast", "ReduceScatter", "Send", "Receive"):
        assert is_comm_type(name), name
    for name in ("ReduceMean", "ReduceSum", "Conv2D", "MatMul", "SendQueue"):
        assert not is_comm_type(name), name


def test_merge_intervals_counts_overlap_once() -> None:
    assert merge_intervals([(5, 8), (0, 3), (2, 4), (8, 9)]) == [(0, 4), (5, 9)]


def _exec(name: str, start_ns: int, dur_ns: int) -> OpExecution:
    return OpExecution(name, "HostCpuOps", start_ns, dur_ns / 1e6, 0)


def test_step_breakdown_splits_wall_into_comm_compute_idle() -> None:
    executions = [
        _exec("Default/Conv2D-op0", 0, 4_000_000),
        _exec("Default/MatMul-op1", 2_000_000, 4_000_000),  # overlaps the conv: counted once
        _exec("Default/AllReduce-op2", 7_000_000, 2_000_000),
    ]
    types = {"Default/Conv2D-op0": "Conv2D", "Default/MatMul-op1": "MatMul"}
    [row] = step_breakdown([(0, 10_000_000)], executions, types)
    assert (row["wallMs"], row["computeMs"], row["commMs"], row["idleMs"]) == (10, 6, 2, 2)


def test_straggler_is_the_rank_with_most_compute() -> None:
    fast = [{"wallMs": 10.0, "computeMs": 4.0}]
    slow = [{"wallMs": 10.2, "computeMs": 9.0}]
    [row] = stragglers({0: fast, 1: slow})
    assert row["straggler"] == 1
    assert row["computeSpreadMs"] == pytest.approx(5.0)
    assert row["wallSpreadMs"] == pytest.approx(0.2)


def test_clock_offset_recovered_from_collective_ends_across_hosts() -> None:
    skew = [0.0, 1500.0, -700.0]  # µs each rank's clock reads ahead
    ranks = [
        synthetic_rank(r, steps=4, ops_per_step=5, slow=[0, 0.3, 0], skew_us=skew, host=f"n{r}")
        for r in range(3)
    ]
    ends = {r.rank: collective_ends(r.executions, {}) for r in ranks}
    clock = align_clocks(ends, {r.rank: r.host for r in ranks}, reference=0)
    assert clock["method"] == "collective-ends"
    assert clock["offsetsUs"] == {"0": 0.0, "1": -1500.0, "2": 700.0}
    assert clock["residualSkewUs"] == pytest.approx(0.0, abs=0.01)
    assert clock["matchedCollectives"] == 8


def test_one_host_shares_its_clock_and_reports_the_skew_it_sees() -> None:
    skew = [0.0, 40.0]
    ranks = [synthetic_rank(r, steps=3, ops_per_step=4, slow=[0, 0], skew_us=skew) for r in (0, 1)]
    ends = {r.rank: collective_ends(r.executions, {}) for r in ranks}
    clock = align_clocks(ends, {0: "vm", 1: "vm"}, reference=0)
    assert clock["method"] == "shared-clock"
    assert clock["offsetsUs"] == {"0": 0.0, "1": 0.0}
    assert clock["residualSkewUs"] == pytest.approx(40.0)


def test_merged_document_lanes_steps_and_straggler() -> None:
    ranks = synthetic_job(2, steps=3, ops_per_step=10, slow_rank=1, slow=0.5)
    doc = merge_ranks(ranks, META)
    assert validate(doc, SCHEMA) == []
    section = doc["ranks"]
    assert section["count"] == 2 and section["stepSource"] == "marks"
    # Every rank wrote pid 2; the merge gives each rank its own lanes, named for the rank.
    pids = {e["pid"] for e in doc["timeline"]["events"] if e["ph"] == "X"}
    assert {lane_pid(0, 2), lane_pid(1, 2)} <= pids
    names = {e["args"]["name"] for e in doc["timeline"]["events"] if e["name"] == "process_name"}
    assert {"rank 0 · CPU ops", "rank 1 · CPU ops"} <= names
    assert [s["straggler"] for s in section["steps"]] == [1, 1, 1]
    for summary, rank in zip(section["ranks"], ranks):
        assert len(summary["steps"]) == 3
        assert summary["totals"]["opMs"] == pytest.approx(sum(r["totalMs"] for r in rank.detail))
        # The fast rank waits in the AllReduce for the slow one: more of its step is comm.
    fast, slow = (r["totals"] for r in section["ranks"])
    assert fast["commShare"] > slow["commShare"] > 0
    assert fast["computeMs"] == pytest.approx(3 * 10 * 100 / 1e3)
    assert slow["computeMs"] == pytest.approx(3 * 10 * 150 / 1e3)
    # Op rows carry their rank; totals add up over ranks.
    assert {row["rank"] for row in doc["ops"]} == {0, 1}
    assert doc["totals"]["opMs"] == pytest.approx(fast["opMs"] + slow["opMs"], rel=1e-6)
    assert section["commTypes"] == ["AllReduce"]


def test_merged_timeline_shares_one_origin() -> None:
    ranks = synthetic_job(2, steps=2, ops_per_step=3)
    doc = merge_ranks(ranks, META)
    starts = {}
    for e in doc["timeline"]["events"]:
        if e["ph"] == "X" and e["name"] == "step 0":
            starts[e["pid"]] = e["ts"]
    assert starts == {lane_pid(0, 1): 0.0, lane_pid(1, 1): 0.0}
    assert doc["meta"]["timeOriginUs"] == pytest.approx(ranks[0].marks[0][0] / 1e3)


def test_a_broken_ranks_section_fails_the_schema() -> None:
    doc = merge_ranks(synthetic_job(2, steps=1, ops_per_step=2), META)
    doc["ranks"]["ranks"][0]["totals"]["commMs"] = -1
    assert validate(doc, SCHEMA) != []


def _write(path: Path, text: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


DETAIL_HEADER = "op_side,op_type,op_name,full_op_name,op_occurrences,op_total_time(ms)\n"


def test_rank_from_file_names_and_ascend_only_ranks(tmp_path: Path) -> None:
    for rank, folder in ((0, "vm_11_1_ascend_ms"), (1, "vm_12_1_ascend_ms")):
        _write(tmp_path / folder / "FRAMEWORK" / f"cpu_op_detail_info_{rank}.csv", DETAIL_HEADER)
        _write(tmp_path / folder / "FRAMEWORK" / f"cpu_op_type_info_{rank}.csv")
        _write(tmp_path / folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json", "[]")
    _write(tmp_path / "mindscope_steps_1.json", json.dumps({"marks": [[1, 2]], "host": "vm"}))
    _write(tmp_path / "n_13_1_ascend_ms" / "profiler_info_2.json", "{}")
    _write(tmp_path / "n_13_1_ascend_ms" / "ascend_mindspore_profiler_2.db")
    job = find_rank_outputs(tmp_path)
    assert [r.rank for r in job.ranks] == [0, 1]
    assert job.ranks[1].files.op_type is not None
    assert job.ranks[1].files.op_type.name == "cpu_op_type_info_1.csv"
    assert job.ranks[0].steps is None and job.ranks[1].steps == {"marks": [[1, 2]], "host": "vm"}
    [ascend] = job.unreadable
    assert ascend["rank"] == 2
    assert "ascend_mindspore_profiler_2.db" in ascend["message"]
    assert "profiler_info_2.json" in ascend["message"]


TRACEBACK_LOG = """[INFO] ME(1,2,python):2026 [x.cc:1] f] starting
rank 1/2 step 1/4 loss 2.3
Traceback (most recent call last):
  File "/x/train_dp.py", line 90, in <module>
    main()
[WARNING] ME(1,2,python):2026 [x.cc:2] g] interleaved
RuntimeError: rank 1 fails at step 2
"""


def test_failing_rank_found_in_its_worker_log() -> None:
    assert failure_of(TRACEBACK_LOG) == "RuntimeError: rank 1 fails at step 2"
    logs = {0: "rank 0/2 step 1/4 loss 2.2\n", 1: TRACEBACK_LOG}
    assert failed_ranks(logs) == [(1, "RuntimeError: rank 1 fails at step 2")]
    usage = {0: "usage: t.py [-h]\nt.py: error: unrecognized arguments: --x\n", 1: ""}
    assert failed_ranks(usage) == [(0, "t.py: error: unrecognized arguments: --x")]


def test_script_arguments_after_double_dash() -> None:
    argv = ["profile-dist", "t.py", "--workers", "4", "-o", "o.json", "--", "--steps", "9"]
    args = parse_args(build_parser(), argv)
    assert (args.workers, str(args.output), args.script_args) == (4, "o.json", ["--steps", "9"])
    args = parse_args(build_parser(), ["profile-dist", "--from", "d"])
    assert str(args.from_dir) == "d" and args.script is None and args.script_args == []


def test_coverage_inside_windows_matches_clipping_each_interval() -> None:
    from mindscope_runtime.diststeps import Coverage

    merged = [(0, 10), (20, 30), (35, 36), (50, 80)]
    coverage = Coverage(merged)
    for lo in range(-5, 90, 3):
        for hi in range(lo, 95, 4):
            expected = sum(max(0, min(b, hi) - max(a, lo)) for a, b in merged)
            assert coverage.within(lo, hi) == expected, (lo, hi)


@pytest.mark.parametrize(
    ("argv", "kind", "words"),
    [
        (["profile-dist"], "usage", "SCRIPT"),
        (["profile-dist", "t.py", "--from", "d"], "usage", "not both"),
        (["profile-dist", "--from", "no/such/dir"], "file-not-found", "no/such/dir"),
        (["profile-dist", "no_such_script.py"], "file-not-found", "no_such_script.py"),
    ],
)
def test_bad_profile_dist_arguments_are_one_clear_error(
    argv: list[str], kind: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mindscope_runtime.dist_command import profile_dist
    from mindscope_runtime.errors import RuntimeToolError
    from mindscope_runtime.progress import Progress

    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.py").write_text("")
    with pytest.raises(RuntimeToolError) as caught:
        profile_dist(parse_args(build_parser(), argv), Progress(quiet=True))
    assert caught.value.kind == kind and words in caught.value.message


def test_from_a_folder_with_only_ascend_output_says_what_it_cannot_read(tmp_path: Path) -> None:
    from mindscope_runtime.distload import merge_directory
    from mindscope_runtime.errors import RuntimeToolError

    _write(tmp_path / "n_1_1_ascend_ms" / "ascend_mindspore_profiler_0.db")
    with pytest.raises(RuntimeToolError) as caught:
        merge_directory(tmp_path, target="job")
    assert caught.value.kind == "no-profiler-output"
    assert "rank 0: Ascend profiler output (ascend_mindspore_profiler_0.db)" in caught.value.message
