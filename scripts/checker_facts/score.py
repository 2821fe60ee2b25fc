"""Score today's checker on the generated and held-out cases: precision and recall per family
and level, from the verdicts the cases declare (recorded from real compiles). The rules' to-do
list.

usage: python -m scripts.checker_facts.score [--slice generated|heldout|all]

A positive is a case MindSpore fails to compile at that level; the checker predicts one when it
reports an error. `line` is the share of true positives whose first error is on MindSpore's
line. `warn` counts divergences (GRAPH_MODE and PyNative print different values) the checker
warns about on the declared line.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from mindscope_ls.checker import Severity, check_source

from .cases import GeneratedCase, load

REPO = Path(__file__).resolve().parents[2]
SLICES = {
    "generated": [REPO / "tests/graphmode/cases/generated"],
    "heldout": [REPO / "tests/graphmode/cases/heldout"],
}
SLICES["all"] = SLICES["generated"] + SLICES["heldout"]
LEVELS = ("LAX", "STRICT")


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    line: int = 0
    warn_expected: int = 0
    warn_hit: int = 0

    def add(self, case: GeneratedCase, level: str) -> None:
        findings = check_source(case.source, f"{case.name}.py", level=level)
        errors = sorted((f.line, f.code) for f in findings if f.severity is Severity.ERROR)
        warned = {f.line for f in findings if f.severity is not Severity.ERROR}
        truth = case.expect[level]
        if not truth.ok and errors:
            self.tp += 1
            self.line += errors[0][0] == truth.line
        elif not truth.ok:
            self.fn += 1
        elif errors:
            self.fp += 1
        else:
            self.tn += 1
        for line, _ in case.warns.get(level, []):
            self.warn_expected += 1
            self.warn_hit += line in warned

    def row(self) -> str:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        line = self.line / self.tp if self.tp else 1.0
        cases = self.tp + self.fp + self.fn + self.tn
        warn = f"{self.warn_hit}/{self.warn_expected}" if self.warn_expected else "-"
        return (
            f"{cases:>5} {self.tp + self.fn:>5} {self.tp:>4} {self.fp:>4} {self.fn:>4} "
            f"{precision:>9.3f} {recall:>7.3f} {line:>6.3f} {warn:>7}"
        )


def table(cases: list[GeneratedCase]) -> list[str]:
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for case in cases:
        for level in LEVELS:
            tallies[(case.family, level)].add(case, level)
            tallies[("ALL", level)].add(case, level)
    head = (
        f"{'family':<15} {'level':<7} cases  fail   tp   fp   fn precision  recall   line    warn"
    )
    lines = [head, "-" * len(head)]
    families = [*sorted({f for f, _ in tallies} - {"ALL"}), "ALL"]
    for family in families:
        for level in LEVELS:
            if (family, level) in tallies:
                lines.append(f"{family:<15} {level:<7} {tallies[(family, level)].row()}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.checker_facts.score")
    parser.add_argument("--slice", choices=sorted(SLICES), default="all")
    args = parser.parse_args(argv)
    cases = [c for root in SLICES[args.slice] for c in load(root)]
    if not cases:
        print(
            "no generated cases: run python -m scripts.checker_facts.differential", file=sys.stderr
        )
        return 1
    print(f"{len(cases)} cases ({args.slice})")
    print("\n".join(table(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
