"""`mindscope check PATH... [--level LAX|STRICT] [--format text|json|sarif]`: the checker for CI.

Exit status: 1 when an error-severity finding is reported, 2 on bad usage, 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Optional, TextIO

from .checker import Finding, Severity, Workspace, check_source
from .checker.sarif import sarif_log
from .checker.sources import read_text
from .checker.workspace import SKIP_DIRS

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"mindscope: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mindscope", description="MindSpore graph-mode checker.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="predict GRAPH_MODE compile failures")
    check.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    check.add_argument(
        "--level",
        "--syntax-level",
        dest="level",
        default="LAX",
        type=str.upper,
        choices=["LAX", "STRICT"],
        help="jit_syntax_level to assume when a file sets none (default LAX)",
    )
    check.add_argument("--format", default="text", choices=["text", "json", "sarif"])
    return parser


def _files(paths: Sequence[str]) -> Iterator[str]:
    for path in paths:
        if os.path.isdir(path):
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and d[0] != ".")
                yield from (
                    os.path.join(dirpath, n) for n in sorted(filenames) if n.endswith(".py")
                )
        else:
            yield path


def _as_json(finding: Finding) -> dict[str, object]:
    return {
        "path": finding.path,
        "line": finding.line,
        "column": finding.col + 1,
        "end_line": finding.end_line,
        "end_column": finding.end_col + 1,
        "code": finding.code,
        "severity": finding.severity.value,
        "message": finding.message,
    }


def _as_text(finding: Finding) -> str:
    return (
        f"{finding.path}:{finding.line}:{finding.col + 1}: {finding.severity.value} "
        f"{finding.code} {finding.message}"
    )


def run_check(paths: Sequence[str], level: str, fmt: str, out: TextIO) -> int:
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"mindscope: error: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    files = list(dict.fromkeys(_files(paths)))
    sources = {path: text for path in files if (text := read_text(path)) is not None}
    workspace = Workspace(sources, root=os.path.commonpath(files) if files else None)
    findings: list[Finding] = []
    for path, text in sources.items():
        findings.extend(
            check_source(text, path, level=level, workspace=workspace, report_parse_errors=True)
        )
    if fmt == "json":
        json.dump([_as_json(f) for f in findings], out, indent=2)
        out.write("\n")
    elif fmt == "sarif":
        root = _sarif_root(files)
        json.dump(sarif_log(findings, root=root, tool_version=_version()), out, indent=2)
        out.write("\n")
    else:
        for finding in findings:
            out.write(_as_text(finding) + "\n")
        errors = sum(f.severity is Severity.ERROR for f in findings)
        out.write(
            f"{len(sources)} file(s) checked, {len(findings)} finding(s), {errors} error(s)\n"
        )
    return EXIT_ERRORS if any(f.severity is Severity.ERROR for f in findings) else EXIT_OK


def _sarif_root(files: Sequence[str]) -> str:
    """The current directory when it holds every file, else the files' common folder."""
    cwd = os.getcwd()
    absolute = [os.path.abspath(f) for f in files]
    if not absolute or all(os.path.commonpath([cwd, f]) == cwd for f in absolute):
        return cwd
    common = os.path.commonpath(absolute)
    return common if os.path.isdir(common) else os.path.dirname(common)


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("mindscope")
    except Exception:  # not installed as a distribution: still a valid log
        return "0.0.0"


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code) if isinstance(stop.code, int) else EXIT_USAGE
    return run_check(args.paths, args.level, args.format, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
