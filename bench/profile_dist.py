"""Distributed profiling (issue 16's benchmark): what profiling every rank costs, and the merge.

Usage: .venv/bin/python bench/profile_dist.py [--workers 2] [--steps 6] [--blocks 1]
       [--skip-run] [--json]

Prints, each beside its peer measured in the same run:
- overhead: the data-parallel example under msrun with `profile-dist` (Profiler on in every
  rank, analyse at exit, merge) against the same msrun job unprofiled, alternating
  (`--repeat`): the whole job's wall time (median), and the mean step time of the steps after
  the first (the script's own per-step timings, each waiting for its loss, from the worker
  logs); target <= 1.25x;
- merge: `merge_ranks` of 8 synthetic ranks x 100,000 op events against the single-process
  builder (profdoc.build_profile_document) run on the same 8 ranks one by one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mindscope_runtime.distmerge import merge_ranks
from mindscope_runtime.distsynth import synthetic_job
from mindscope_runtime.profdoc import build_profile_document

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "distributed" / "train_dp.py"
OVERHEAD_TARGET = 1.25
STEP_LINE = re.compile(r"^rank \d+/\d+ step (\d+)/\d+ loss \S+ \(([\d.]+)s\)$", re.MULTILINE)
META = {
    "mindsporeVersion": "2.10.0", "mode": "GRAPH_MODE", "syntaxLevel": "LAX", "device": "CPU",
    "target": "synthetic", "inputs": [], "steps": 1, "warmup": 0,
    "scopeAttribution": "mindspore",
}  # fmt: skip


def _step_times(log_dir: Path) -> list[float]:
    """Every rank's per-step seconds after its first step (the compile)."""
    out: list[float] = []
    for log in sorted(log_dir.glob("worker_*.log")):
        for step, seconds in STEP_LINE.findall(log.read_text(errors="replace")):
            if int(step) > 1:
                out.append(float(seconds))
    return out


def run_plain(work: Path, args: argparse.Namespace, script_args: list[str]) -> dict[str, Any]:
    from mindscope_runtime.dist_run import free_port, msrun_path

    logs = work / "plain_logs"
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
    }
    command = [
        str(msrun_path()), "--worker_num", str(args.workers), "--local_worker_num",
        str(args.workers), "--master_port", str(free_port()), "--join", "True", "--log_dir",
        str(logs), str(EXAMPLE), *script_args,
    ]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
    )
    return {"wallS": time.perf_counter() - start, "stepsS": _step_times(logs)}


def run_profiled(work: Path, args: argparse.Namespace, script_args: list[str]) -> dict[str, Any]:
    out = work / "dist.json"
    command = [
        sys.executable, "-m", "mindscope_runtime", "profile-dist", str(EXAMPLE), "--workers",
        str(args.workers), "--steps", str(args.steps - 2), "--warmup", "1", "--quiet",
        "-o", str(out), "--", *script_args,
    ]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    status = json.loads(proc.stdout.strip().splitlines()[-1])
    if not status.get("ok"):
        raise SystemExit(f"profile-dist failed: {status.get('error')}")
    logs = Path(status["workDir"]) / "msrun_logs"
    return {"wallS": wall, "stepsS": _step_times(logs), "docBytes": out.stat().st_size}


def bench_merge(ranks: int, events: int) -> dict[str, Any]:
    steps = 10
    job = synthetic_job(ranks, steps=steps, ops_per_step=events // steps)
    count = sum(len(r.executions) for r in job) // ranks
    start, cpu = time.perf_counter(), time.process_time()
    for data in job:
        build_profile_document(
            meta=META, detail=data.detail, type_rows=data.type_rows,
            executions=data.executions, trace=data.trace, marks=data.marks,
        )  # fmt: skip
    single, single_cpu = time.perf_counter() - start, time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    merge_ranks(job, META)
    merged, merged_cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"ranks": ranks, "eventsPerRank": count, "mergeS": merged, "singleBuildsS": single,
            "mergeCpuS": merged_cpu, "singleBuildsCpuS": single_cpu}  # fmt: skip


def report(result: dict[str, Any]) -> list[str]:
    lines = []
    if "plain" in result:
        plain, prof = result["plain"], result["profiled"]
        ratio = prof["wallS"] / plain["wallS"]
        verdict = "ok" if ratio <= OVERHEAD_TARGET else "over target"
        lines.append(
            f"job wall, {result['workers']} ranks: profiled {prof['wallS']:.1f} s vs unprofiled "
            f"{plain['wallS']:.1f} s = {ratio:.2f}x (target <= {OVERHEAD_TARGET}x: {verdict})"
        )
        if plain["stepsS"] and prof["stepsS"]:
            p, q = statistics.mean(prof["stepsS"]), statistics.mean(plain["stepsS"])
            lines.append(
                f"mean step after the first: profiled {p * 1e3:.0f} ms vs unprofiled "
                f"{q * 1e3:.0f} ms = {p / q:.2f}x ({len(prof['stepsS'])} vs "
                f"{len(plain['stepsS'])} rank-steps)"
            )
        lines.append(f"merged document: {prof['docBytes'] / 1e6:.2f} MB")
    m = result["merge"]
    lines.append(
        f"merge of {m['ranks']} ranks x {m['eventsPerRank']:,} events: {m['mergeS']:.2f} s vs "
        f"{m['singleBuildsS']:.2f} s for the {m['ranks']} single-process builds alone = "
        f"{m['mergeS'] / m['singleBuildsS']:.2f}x (CPU time {m['mergeCpuS']:.2f} s vs "
        f"{m['singleBuildsCpuS']:.2f} s: the machine is shared)"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=6, help="script steps (profiled: steps-2)")
    parser.add_argument("--blocks", type=int, default=1, help="3: ResNet-20, 1: ResNet-8")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=1, help="job pairs (median wall)")
    parser.add_argument("--skip-run", action="store_true", help="only the synthetic merge")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"workers": args.workers}
    script_args = ["--steps", str(args.steps), "--blocks", str(args.blocks),
                   "--batch-size", str(args.batch_size)]  # fmt: skip
    if not args.skip_run:
        runs: dict[str, list[dict[str, Any]]] = {"plain": [], "profiled": []}
        for _ in range(args.repeat):  # alternating, so a load change hits both alike
            with tempfile.TemporaryDirectory(prefix="mindscope-bench-dist-") as tmp:
                runs["plain"].append(run_plain(Path(tmp), args, script_args))
                runs["profiled"].append(run_profiled(Path(tmp), args, script_args))
        for kind, results in runs.items():
            result[kind] = {
                "wallS": statistics.median(r["wallS"] for r in results),
                "stepsS": [t for r in results for t in r["stepsS"]],
                "docBytes": results[-1].get("docBytes", 0),
            }
    result["merge"] = bench_merge(8, 100_000)
    print("\n".join(report(result)))
    if args.json:
        print(json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
