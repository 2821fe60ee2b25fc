"""Every finding of the checker, dumped for a before/after comparison of a speed change.

usage: python bench/checker_dump.py OUT.txt [CHECKOUT]   (then `cmp` two dumps: identical)

CHECKOUT: another tree whose `pyserver` checker to dump (e.g. a `git archive` of the commit
before the change), over this tree's corpus, examples and bench file.

Dumps each finding (code, range, message, severity, related, fix, level) of every corpus case
(`tests/graphmode/cases/**/*.pycase`) and every `examples/**/*.py` at LAX and STRICT, and of
the bench file (`bench/generated_model.py`, 3,000 lines) cold and after a few edits inside a
function, each followed by the undo (re-checks in one workspace: what the rule cache answers).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EDITS = ("x", "\n", " + 1", "(", ")")


def _rows(found: Sequence[Any]) -> list[str]:
    return [json.dumps(dataclasses.asdict(f), default=str, sort_keys=True) for f in found]


def main() -> None:
    checker = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT
    sys.path[:0] = [str(checker / "pyserver"), str(ROOT)]
    from bench.generated_model import EDITED_LINE, model_file
    from mindscope_ls.checker import Workspace, check_source

    out: list[str] = []
    files = sorted(ROOT.glob("tests/graphmode/cases/**/*.pycase"))
    files += sorted(ROOT.glob("examples/**/*.py"))
    for path in files:
        source = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT)).replace(".pycase", ".py")
        for level in ("LAX", "STRICT"):
            out.append(f"== {name} {level}")
            out.extend(_rows(check_source(source, name, level=level)))
    source = model_file(3000)
    at = source.index(EDITED_LINE, len(source) // 2) + len(EDITED_LINE)
    for level in ("LAX", "STRICT"):
        workspace = Workspace()
        out.append(f"== bench cold {level}")
        out.extend(_rows(check_source(source, "model.py", level=level, workspace=workspace)))
        for number, typed in enumerate(EDITS):
            edited = source[:at] + typed + source[at:]
            out.append(f"== bench edit {number} {level}")
            out.extend(_rows(check_source(edited, "model.py", level=level, workspace=workspace)))
            out.append(f"== bench undo {number} {level}")
            out.extend(_rows(check_source(source, "model.py", level=level, workspace=workspace)))
    Path(sys.argv[1]).write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{sum(1 for row in out if not row.startswith('=='))} findings")


if __name__ == "__main__":
    main()
