"""How many of the checker's findings on the corpus survive rewrites a user would write, which
keep MindSpore's verdict: a rule that fits only the corpus's shape loses its finding.

usage: python bench/checker_rewrites.py [--rounds round33 round34 ...] [--write DIR]

Every failing case (not a known gap) whose one Cell has a plain `construct` is rewritten three
ways, keeping the lines of `construct`'s body:
- helper: the body moved to a method `_body` that `construct` returns (`return self._body(x)`);
- sub-Cell: the Cell held by an outer Cell (`self.inner = Net()`) that calls it with its input;
- inherited: the Cell renamed into a base class that `class Net(Base): pass` inherits.
For each rewrite it prints the (case, level) pairs whose error the original form gets, how many
the rewrite still gets (the ratio against the original form, the peer) and the lost ones by
rule code. `--write DIR` writes the rewrites that lost their error, to compile with
`tests/python/checker/ms_runner.py`: in round 37, every one of rounds 33-36's (325) still
failed in MindSpore.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "pyserver"), str(ROOT)]

from mindscope_ls.checker import Severity, SyntaxLevel, check_source  # noqa: E402
from tests.graphmode.corpus import all_cases, checker_verdict  # noqa: E402

ROUNDS = ("round33", "round34", "round35", "round36", "round37")


def _plain_construct(tree: ast.Module) -> Optional[tuple[ast.ClassDef, ast.FunctionDef]]:
    """The module's one class with a `construct`, when that takes plain positional parameters
    and is not decorated (the rewrites pass them on by name)."""
    cells = [
        c
        for c in tree.body
        if isinstance(c, ast.ClassDef)
        and any(isinstance(f, ast.FunctionDef) and f.name == "construct" for f in c.body)
    ]
    if len(cells) != 1:
        return None
    cls = cells[0]
    fn = next(f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "construct")
    a = fn.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs or fn.decorator_list:
        return None
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
        return None
    return cls, fn


def as_helper(source: str) -> Optional[str]:
    """`construct` renamed `_body`; a new `construct` after the class's last line returns it."""
    tree = ast.parse(source)
    found = _plain_construct(tree)
    if found is None or any(
        isinstance(f, ast.FunctionDef) and f.name == "_body" for f in found[0].body
    ):
        return None
    cls, fn = found
    lines = source.splitlines()
    if "def construct(" not in lines[fn.lineno - 1]:
        return None
    lines[fn.lineno - 1] = lines[fn.lineno - 1].replace("def construct(", "def _body(", 1)
    params = [a.arg for a in fn.args.args]
    indent = " " * fn.col_offset
    lines[cls.end_lineno or cls.lineno : cls.end_lineno or cls.lineno] = [
        f"{indent}def construct({', '.join(params)}):",
        f"{indent}    return self._body({', '.join(params[1:])})",
    ]
    return "\n".join(lines) + "\n"


def as_sub_cell(source: str) -> Optional[str]:
    """An outer Cell holding the case's Cell and calling it; `run()` builds the outer one."""
    tree = ast.parse(source)
    found = _plain_construct(tree)
    runs = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "run"]
    if found is None or len(runs) != 1 or "nn.Cell" not in source:
        return None
    cls, fn = found
    run = runs[0]
    lines = source.splitlines()
    text = "\n".join(lines[run.lineno - 1 : run.end_lineno])
    if f"{cls.name}()" not in text:
        return None
    params = [a.arg for a in fn.args.args][1:]
    outer = [
        "",
        "",
        "class _Outer(nn.Cell):",
        "    def __init__(self):",
        "        super().__init__()",
        f"        self.inner = {cls.name}()",
        "",
        f"    def construct({', '.join(['self', *params])}):",
        f"        return self.inner({', '.join(params)})",
    ]
    body = [*lines[: run.lineno - 1], *text.replace(f"{cls.name}()", "_Outer()").splitlines()]
    return "\n".join([*body, *lines[run.end_lineno or run.lineno :], *outer]) + "\n"


def as_inherited(source: str) -> Optional[str]:
    """The Cell renamed `_Base<Name>`; `class <Name>(_Base<Name>): pass` added at the end."""
    tree = ast.parse(source)
    found = _plain_construct(tree)
    if found is None:
        return None
    cls = found[0]
    lines = source.splitlines()
    if not lines[cls.lineno - 1].startswith(f"class {cls.name}("):
        return None
    if any(isinstance(n, ast.Name) and n.id == cls.name for n in ast.walk(cls)):
        return None  # `super(Net, self)` would name the renamed class
    base = f"_Base{cls.name}"
    lines[cls.lineno - 1] = lines[cls.lineno - 1].replace(f"class {cls.name}(", f"class {base}(")
    return "\n".join([*lines, "", "", f"class {cls.name}({base}):", "    pass"]) + "\n"


REWRITES: dict[str, Callable[[str], Optional[str]]] = {
    "helper": as_helper,
    "sub-Cell": as_sub_cell,
    "inherited": as_inherited,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", nargs="+", default=list(ROUNDS))
    parser.add_argument("--write", type=Path, help="write the rewrites that lost their error")
    args = parser.parse_args()
    cases = [
        c
        for c in all_cases()
        if c.gap is None and any(f"/{r}/" in str(c.path) for r in args.rounds)
    ]
    print(f"{len(cases)} cases of {', '.join(args.rounds)}")
    for name, rewrite in REWRITES.items():
        found = kept = 0
        lost: Counter[str] = Counter()
        for case in cases:
            levels = [lv for lv in (SyntaxLevel.LAX, SyntaxLevel.STRICT) if not case.expect[lv].ok]
            text = rewrite(case.source) if levels else None
            if text is None:
                continue
            for level in levels:
                original = checker_verdict(case, level)
                if original.ok:
                    continue
                found += 1
                findings = check_source(text, f"{case.name}.py", level=level)
                if any(f.severity is Severity.ERROR for f in findings):
                    kept += 1
                    continue
                lost[original.code or "?"] += 1
                if args.write is not None:
                    args.write.mkdir(parents=True, exist_ok=True)
                    (args.write / f"{case.name}__{name.replace('-', '_')}.py").write_text(text)
        ratio = kept / found if found else 1.0
        print(f"  {name:9s} errors found in the original form {found:5d}, kept {kept:5d}")
        print(f"            ratio against the original form: {ratio:.3f}")
        if lost:
            print(
                "            lost by rule: " + ", ".join(f"{c} {n}" for c, n in lost.most_common())
            )


if __name__ == "__main__":
    main()
