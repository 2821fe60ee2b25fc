"""Time the graph-mode checker on a large generated model file, as an editor uses it.

usage: python bench/bench_checker.py [--lines 3000 5000] [--repeat 20] [--compile]

For each size: a cold check (a new workspace: everything parsed and analysed) and how much of
it is not `ast.parse`, the re-check after typing one character inside a function (the editor's
case: the workspace is kept between checks) and after pressing Enter there (every block below
moves down a line: its tree is re-numbered, not parsed again, and its results are kept). With
`--compile`, MindSpore compiles and runs the same file (minutes) for the speed ratio.
"""

from __future__ import annotations

import argparse
import ast
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "pyserver"), str(ROOT)]

from bench.checker_speed import edit_point  # noqa: E402
from bench.generated_model import model_file  # noqa: E402
from mindscope_ls.checker import Finding, Workspace, check_source  # noqa: E402


def timed(run: Callable[[int], object], repeat: int) -> list[float]:
    """Seconds each call of `run(i)` took, i = 0 .. repeat-1 (after one untimed call).

    The garbage of the series before (the cold checks' workspaces) is collected first, as the
    server does while the user is idle, rather than in the middle of this series."""
    gc.collect()
    run(-1)
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        run(i)
        times.append(time.perf_counter() - start)
    return times


def summary(times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20)[-1] if len(times) >= 2 else times[0]
    ms = [t * 1000 for t in (min(times), statistics.median(times), p95)]
    return f"min {ms[0]:6.1f}  median {ms[1]:6.1f}  p95 {ms[2]:6.1f} ms"


def bench(lines: int, repeat: int) -> tuple[str, float, float]:
    source = model_file(lines)
    at = edit_point(source)
    findings: list[Finding] = []

    def cold(_: int) -> None:
        findings[:] = check_source(source, "model.py", workspace=Workspace())

    workspace = Workspace()
    check_source(source, "model.py", workspace=workspace)

    def keystroke(i: int) -> None:
        # Typing a name after `return out`: every check sees a new text, all of it valid.
        typed = "x" * (i + 2)
        check_source(source[:at] + typed + source[at:], "model.py", workspace=workspace)

    def enter(i: int) -> None:
        text = source if i % 2 else source[:at] + "\n        " + source[at:]
        check_source(text, "model.py", workspace=workspace)

    parse = timed(lambda _: ast.parse(source), repeat)
    cold_times = timed(cold, max(repeat // 4, 3))
    keystrokes = timed(keystroke, repeat)
    enters = timed(enter, repeat)
    blocks = workspace.block_counts("model.py")
    print(f"{source.count(chr(10))} lines, {len(source)} chars, {len(findings)} findings")
    print(f"  ast.parse alone        {summary(parse)}")
    print(f"  cold check             {summary(cold_times)}")
    # What the check costs beyond parsing (the analysis), from the same run's figures: the
    # minima, as the medians of `ast.parse` swing with the collections its garbage triggers.
    beyond = 1000 * (min(cold_times) - min(parse))
    print(f"    beyond ast.parse     min {beyond:6.1f} ms")
    print(f"  re-check, 1 character  {summary(keystrokes)}")
    print(f"  re-check, Enter        {summary(enters)}")
    if blocks is not None:
        parsed, moved, kept = blocks
        print(f"    blocks at Enter: {parsed} parsed, {moved} moved (re-numbered), {kept} kept")
    return source, statistics.median(cold_times), statistics.median(keystrokes)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, nargs="+", default=[3000, 5000])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--compile", action="store_true", help="also time MindSpore (minutes)")
    args = parser.parse_args()
    for lines in args.lines:
        source, cold, keystroke = bench(lines, args.repeat)
        if args.compile:
            from bench.checker_accuracy import compile_seconds

            seconds = compile_seconds(source)
            print(
                f"  MindSpore compiles and runs it in {seconds:.1f} s: {seconds / cold:.0f}x a "
                f"cold check, {seconds / keystroke:.0f}x a re-check"
            )


if __name__ == "__main__":
    main()
