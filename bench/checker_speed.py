"""The checker's cold check of a 3,000-line file: this tree against an older one, same run.

usage: python bench/checker_speed.py [--ref fac1ddd | --ref-path DIR] [--rounds 7] [--lines 3000]
       [--profile | --rules]

The peer is the checker at a git ref (checked out in a temporary `git worktree`, removed after)
or the checkout at `--ref-path`. Each round runs one fresh subprocess per tree, alternating which
goes first, so both see the same machine load; each subprocess checks the same generated model
file (`bench/generated_model.py`, from this tree) cold a few times (a new `Workspace` each:
everything parsed and analysed) after one untimed check (imports, tables built on first use),
then the re-check after typing one character inside a function (the editor's case). It prints
min / median of every tree's cold checks and re-checks and the ratio this / peer (≤ 1.00: no
slower). `--profile` prints this tree's cProfile of the cold checks instead (top by own time);
`--rules` its milliseconds per cold check in each rule check and phase (`MINDSCOPE_CHECK_TIMES`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REF = "fac1ddd"  # the stop-12 head: the checker before issue 13's second generation


def edit_point(source: str) -> int:
    """The end of `EDITED_LINE` in the middle block: inside a function, half the file below."""
    from bench.generated_model import EDITED_LINE

    at = source.index(EDITED_LINE, len(source) // 2)
    return at + len(EDITED_LINE)


def per_rule(lines: int, repeat: int) -> None:
    """This tree's milliseconds per cold check in each function rule, module check and phase."""
    os.environ["MINDSCOPE_CHECK_TIMES"] = "1"  # read when the checker is imported
    sys.path[:0] = [str(ROOT / "pyserver"), str(ROOT)]
    from bench.generated_model import model_file
    from mindscope_ls.checker import Workspace, check_source
    from mindscope_ls.checker.incremental import timing

    source = model_file(lines)
    check_source(source, "model.py", workspace=Workspace())
    timing.TOTALS.clear()
    start = time.perf_counter()
    for _ in range(repeat):
        check_source(source, "model.py", workspace=Workspace())
    whole = (time.perf_counter() - start) / repeat
    print(f"{lines} lines, {repeat} cold checks: {1000 * whole:.1f} ms each, of which")
    for name, seconds in sorted(timing.TOTALS.items(), key=lambda item: -item[1]):
        print(f"  {1000 * seconds / repeat:7.2f} ms  {name}")


def child(tree: str, lines: int, repeat: int, profile: bool) -> None:
    """In a fresh interpreter: time `tree`'s checker; print its figures as one JSON line."""
    sys.path[:0] = [str(Path(tree) / "pyserver"), str(ROOT)]
    from bench.generated_model import model_file
    from mindscope_ls.checker import Workspace, check_source

    source = model_file(lines)
    check_source(source, "model.py", workspace=Workspace())
    if profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile(time.process_time)  # CPU: the machine is shared
        profiler.enable()
        for _ in range(repeat):
            check_source(source, "model.py", workspace=Workspace())
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return
    cold, cpu = [], []
    for _ in range(repeat):
        workspace = Workspace()
        start, start_cpu = time.perf_counter(), time.process_time()
        check_source(source, "model.py", workspace=workspace)
        cold.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    at = edit_point(source)
    workspace = Workspace()
    check_source(source, "model.py", workspace=workspace)
    keystrokes, keystrokes_cpu = [], []
    for i in range(repeat * 2):
        typed = source[:at] + "x" * (i + 2) + source[at:]
        start, start_cpu = time.perf_counter(), time.process_time()
        check_source(typed, "model.py", workspace=workspace)
        keystrokes.append(time.perf_counter() - start)
        keystrokes_cpu.append(time.process_time() - start_cpu)
    figures = {"cold": cold, "cpu": cpu, "keystroke": keystrokes, "keystroke_cpu": keystrokes_cpu}
    print(json.dumps(figures))


def run_child(tree: Path, lines: int, repeat: int) -> dict[str, list[float]]:
    command = [sys.executable, __file__, "--child", str(tree), "--lines", str(lines)]
    done = subprocess.run(
        [*command, "--repeat", str(repeat)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"checker_speed: the check in {tree} failed: {done.stderr.strip()[-500:]}")
    figures: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def ms(times: list[float]) -> str:
    return f"min {1000 * min(times):6.1f}  median {1000 * statistics.median(times):6.1f} ms"


def compare(peer: Path, peer_name: str, rounds: int, lines: int, repeat: int) -> None:
    trees = {"this tree": ROOT, peer_name: peer}
    got: dict[str, dict[str, list[float]]] = {
        name: {"cold": [], "cpu": [], "keystroke": [], "keystroke_cpu": []} for name in trees
    }
    medians: dict[str, list[float]] = {name: [] for name in trees}
    for round_ in range(rounds):
        order = list(trees.items()) if round_ % 2 == 0 else list(trees.items())[::-1]
        for name, tree in order:
            figures = run_child(tree, lines, repeat)
            for key, times in figures.items():
                got[name][key].extend(times)
            medians[name].append(statistics.median(figures["cold"]))
        print(f"  round {round_ + 1}/{rounds} done", file=sys.stderr, flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{lines} lines, {rounds} rounds x {repeat} cold checks, load average {load:.1f}")
    for name in trees:
        figures = got[name]
        print(f"  {name}")
        print(f"    cold check           {ms(figures['cold'])}")
        print(f"    cold check, CPU      {ms(figures['cpu'])}")
        print(f"    re-check, 1 char     {ms(figures['keystroke'])}")
        print(f"    re-check, CPU        {ms(figures['keystroke_cpu'])}")
    for what, key in (("wall", "cold"), ("CPU", "cpu"), ("re-check CPU", "keystroke_cpu")):
        this, other = got["this tree"][key], got[peer_name][key]
        ratio_min = min(this) / min(other)
        ratio_median = statistics.median(this) / statistics.median(other)
        print(
            f"  ratio ({what}) this / {peer_name}: min {ratio_min:.2f}  median {ratio_median:.2f}"
        )
    # Per round: both trees ran back to back, under about the same load.
    paired = statistics.median(a / b for a, b in zip(medians["this tree"], medians[peer_name]))
    print(f"  cold ratio (wall) per round, median of {rounds}: {paired:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default=DEFAULT_REF, help="git ref of the peer checker")
    parser.add_argument("--ref-path", type=Path, help="a checkout of the peer (instead of --ref)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="cold checks per subprocess")
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--profile", action="store_true", help="cProfile this tree instead")
    parser.add_argument("--rules", action="store_true", help="time each rule of this tree")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.lines, args.repeat, args.profile)
        return
    if args.profile:
        child(str(ROOT), args.lines, args.repeat, True)
        return
    if args.rules:
        per_rule(args.lines, args.repeat)
        return
    if args.ref_path is not None:
        if not (args.ref_path / "pyserver" / "mindscope_ls" / "checker").is_dir():
            sys.exit(f"checker_speed: {args.ref_path} has no pyserver/mindscope_ls/checker")
        compare(args.ref_path, args.ref_path.name, args.rounds, args.lines, args.repeat)
        return
    with tempfile.TemporaryDirectory(prefix="checker-speed-") as scratch:
        peer = Path(scratch) / "peer"
        added = _git("worktree", "add", "--detach", "--quiet", str(peer), args.ref)
        if added.returncode != 0:
            sys.exit(f"checker_speed: cannot check out {args.ref}: {added.stderr.strip()}")
        try:
            compare(peer, args.ref, args.rounds, args.lines, args.repeat)
        finally:
            _git("worktree", "remove", "--force", str(peer))


def _git(*command: str) -> Any:
    return subprocess.run(
        ["git", "-C", str(ROOT), *command], capture_output=True, text=True, check=False
    )


if __name__ == "__main__":
    main()
