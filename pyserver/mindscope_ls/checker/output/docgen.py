"""Write docs/rules/<CODE>.md and the index from the catalog and the verified example cases.

usage: python -m mindscope_ls.checker.output.docgen CASES_DIR DOCS_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..model import Group, SyntaxLevel
from ..registry import RULES
from ..rule import Rule
from .cases import body, parse_case

GROUP_TITLES = {
    Group.PARSE: "Parse errors",
    Group.FAILS: "MS1xx, MS1xxx: fails to compile at the active syntax level (error)",
    Group.STRICT: "MS2xx: fails only under jit_syntax_level=STRICT (information at LAX, error at "
    "STRICT)",
    Group.DIVERGES: "MS3xx: compiles but computes something other than PyNative (warning)",
    Group.DEPRECATED: "MS4xx: deprecated or removed API (warning)",
    Group.PERFORMANCE: "MS5xx: performance hazards (information)",
}


def _example(cases: Path, name: str) -> str:
    """The case's code without its header or `run()`, each finding at LAX marked `# <- CODE`."""
    path = cases / f"{name}.pycase"
    if not path.exists():
        return ""
    case = parse_case(path)
    lines = body(case)
    lax = case.expect[SyntaxLevel.LAX]
    for spot in (*lax.fails, *(lax.warns or ())):
        if spot.code is not None:
            at = spot.line - case.header_lines - 1
            lines[at] = f"{lines[at]}  # <- {spot.code}"
    return "\n".join(lines).split("\ndef run():")[0].rstrip()


def render(rule: Rule, cases: Path) -> str:
    bad, good = _example(cases, f"{rule.code}_bad"), _example(cases, f"{rule.code}_ok")
    parts = [
        f"# {rule.code}: {rule.title}",
        "",
        f"Name: `{rule.symbol}`. Group: {GROUP_TITLES[rule.group]}.",
        "",
        "## Why",
        "",
        rule.why,
        "",
        "## The fix",
        "",
        rule.remedy,
        "",
    ]
    if bad:
        parts += ["## Failing example", "", "```python", bad, "```", ""]
    if good:
        parts += ["## Fixed", "", "```python", good, "```", ""]
    parts += [
        "## What MindSpore 2.10.0 says",
        "",
        "Verified by compiling the failing example with MindSpore 2.10.0 (CPU, GRAPH_MODE):",
        "",
        "```text",
        rule.mindspore_says,
        "```",
        "",
        f"Suppress on one line with `# mindscope: ignore[{rule.code}]`.",
        "",
    ]
    return "\n".join(parts)


def render_index() -> str:
    parts = [
        "# MindScope graph-mode rules",
        "",
        "Every rule was verified against MindSpore 2.10.0 on CPU in GRAPH_MODE.",
        "Suppress a finding with `# mindscope: ignore[CODE]` on its line, or a whole file "
        "with `# mindscope: ignore-file[CODE]`.",
        "",
    ]
    for group, title in GROUP_TITLES.items():
        rules = [r for r in RULES.values() if r.group is group]
        if not rules:
            continue
        parts += [f"## {title}", "", "| Code | Name | Rule |", "| --- | --- | --- |"]
        parts += [f"| [{r.code}]({r.code}.md) | `{r.symbol}` | {r.title} |" for r in rules]
        parts.append("")
    return "\n".join(parts)


def write_all(cases: Path, docs: Path) -> list[Path]:
    docs.mkdir(parents=True, exist_ok=True)
    written = []
    for rule in RULES.values():
        target = docs / f"{rule.code}.md"
        target.write_text(render(rule, cases))
        written.append(target)
    index = docs / "README.md"
    index.write_text(render_index())
    return [*written, index]


if __name__ == "__main__":
    for path in write_all(Path(sys.argv[1]), Path(sys.argv[2])):
        print(path)
