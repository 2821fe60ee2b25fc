"""Rebuild the checker's facts table from the installed MindSpore.

usage: python -m scripts.checker_facts [--mindspore DIR] [--out FILE] [--no-probe]

Static tables come from the parser's sources (tables.py, no import); the dtypes Tensor methods
return are measured in a child process (probe_dtypes.py), and so are the members (methods,
properties, attributes) of Tensor, Parameter and nn.Cell (probe_members.py) and which of a
Parameter's, a sub-Cell's and a Tensor's members `construct` may use, compiled
(probe_graph_members.py), and which `dim=` calls of Tensor methods compile to an op without a CPU
kernel (probe_cpu_overloads.py; `mindspore.mint` functions: probe_cpu_mint.py); which calls
compile on which value kind at which level comes from the differential generator's cases
(`observed`). Writes pyserver/mindscope_ls/checker/facts/mindspore_facts.json, which the
checker loads.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .cases import load
from .overloads import operator_overloads
from .tables import TableError, build_static

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "pyserver/mindscope_ls/checker/facts/mindspore_facts.json"
PROBE = Path(__file__).with_name("probe_dtypes.py")
PROBE_MEMBERS = Path(__file__).with_name("probe_members.py")
SCHEMA_VERSION = 1
PROBE_TIMEOUT = 1800
GENERATED = REPO / "tests/graphmode/cases/generated"
# Families whose cases say which call compiles on which kind at which level.
OBSERVED_FAMILIES = ("builtins", "methods", "comprehensions")


def installed_mindspore() -> tuple[Path, str]:
    """The package folder and version of the MindSpore this interpreter would import, found
    without importing it."""
    from importlib import metadata, util

    spec = util.find_spec("mindspore")
    if spec is None or spec.origin is None:
        raise TableError("MindSpore is not installed in this interpreter")
    return Path(spec.origin).parent, metadata.version("mindspore")


def probe_dtypes(methods: list[str]) -> dict[str, Any]:
    return _probe(PROBE, methods, "dtype")


def probe_members() -> dict[str, Any]:
    """Every public member of Tensor, Parameter and nn.Cell, by kind (method, property,
    attribute), read from the installed MindSpore in a child process."""
    return _probe(PROBE_MEMBERS, [], "members")


def probe_graph_members(members: dict[str, Any]) -> dict[str, Any]:
    """Which Parameter, sub-Cell and Tensor members `construct` may read or call, at LAX and
    STRICT: one small program compiled per member and level (probe_graph_members.py, about
    8 minutes)."""
    with tempfile.TemporaryDirectory() as folder:
        table = Path(folder) / "members.json"
        table.write_text(json.dumps(members))
        return _probe(
            None, ["-m", "scripts.checker_facts.probe_graph_members", str(table)], "graph"
        )


def probe_cpu_overloads(members: dict[str, Any]) -> dict[str, Any]:
    """Which Tensor methods called with `dim=` compile to an op without a CPU kernel while
    PyNative runs them (probe_cpu_overloads.py, about 2 minutes)."""
    with tempfile.TemporaryDirectory() as folder:
        table = Path(folder) / "members.json"
        table.write_text(json.dumps(members))
        return _probe(
            None, ["-m", "scripts.checker_facts.probe_cpu_overloads", str(table)], "cpu overloads"
        )


def probe_cpu_mint() -> dict[str, Any]:
    """Which `mindspore.mint` functions compile to an op without a CPU kernel while PyNative
    runs them, as `mint.<name>` rows of the same table (probe_cpu_mint.py, under a minute)."""
    return _probe(None, ["-m", "scripts.checker_facts.probe_cpu_mint"], "cpu mint")


def _probe(script: Path | None, args: list[str], what: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, *([str(script)] if script else []), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=PROBE_TIMEOUT,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.strip():
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise TableError(f"the {what} probe failed: {tail[0]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def observed(folder: Path = GENERATED) -> dict[str, dict[str, dict[str, bool]]]:
    """operation -> value kind -> level -> compiles, as the differential generator recorded it
    for a Cell's `construct` (generated cases only: the held-out slice must not feed rules)."""
    table: dict[str, dict[str, dict[str, bool]]] = {}
    for case in load(folder):
        op, kind, context = [*case.name.split("__"), "", ""][:3]
        if case.family in OBSERVED_FAMILIES and context == "construct":
            levels = {level: expect.ok for level, expect in sorted(case.expect.items())}
            table.setdefault(op, {})[kind] = levels
    return dict(sorted(table.items()))


def build(root: Path, version: str, probe: bool = True) -> dict[str, Any]:
    facts: dict[str, Any] = {"version": SCHEMA_VERSION, "mindspore": version}
    facts.update(build_static(root))
    facts["operator_overloads"] = operator_overloads(root)
    facts["tensor_method_returns"] = probe_dtypes(facts["methods"]["tensor"]) if probe else {}
    facts["observed"] = observed()
    facts["members"] = probe_members() if probe else {}
    facts["graph_members"] = probe_graph_members(facts["members"]) if probe else {}
    facts["cpu_overloads"] = (
        {**probe_cpu_overloads(facts["members"]), **probe_cpu_mint()} if probe else {}
    )
    return facts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.checker_facts")
    parser.add_argument("--mindspore", type=Path, help="the mindspore package folder")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--no-probe", action="store_true", help="skip measuring return dtypes")
    args = parser.parse_args(argv)
    try:
        root, version = installed_mindspore()
        if args.mindspore:
            root = args.mindspore
        facts = build(root, version, probe=not args.no_probe)
    except (TableError, subprocess.TimeoutExpired) as error:
        print(f"checker facts: {error}", file=sys.stderr)
        return 1
    args.out.write_text(json.dumps(facts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    counts = ", ".join(f"{k}: {len(v)}" for k, v in facts["methods"].items())
    print(f"wrote {args.out} (MindSpore {version}; methods {counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
