"""`mindscope check PATH... [--level LAX|STRICT] [--format text|json|sarif] [--max-size MB]
[--pynative GLOB]... [--device CPU|GPU|Ascend]`: the checker for CI.

Code declared PyNative-only (`--pynative`, `[tool.mindscope] pynative` in the nearest
pyproject.toml) and code that surely runs in PyNative gets its graph-mode findings as
information (checker/mode.py): they do not count as errors.

Exit status: 0 when nothing is wrong, 1 when an error-severity finding is reported, 2 on bad
usage, 3 when the check is incomplete (a path was skipped or the checker crashed on some code:
each is a warning on stderr), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Optional, TextIO

from .. import (
    DEFAULT_LEVEL,
    DEVICES,
    RULES,
    Finding,
    Severity,
    SyntaxLevel,
    Workspace,
    check_source,
    device_name,
)
from ..index.sources import MAX_BYTES
from .inputs import BadProject, collect, declared_device, pynative_globs
from .sarif import sarif_log

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INCOMPLETE = 0, 1, 2, 3
EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 130, 141  # as a shell reports SIGINT and SIGPIPE


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
        default=DEFAULT_LEVEL.value,
        type=str.upper,
        choices=[level.value for level in SyntaxLevel],
        help="jit_syntax_level to assume when a file sets none (default LAX)",
    )
    check.add_argument("--format", default="text", choices=["text", "json", "sarif"])
    check.add_argument(
        "--max-size",
        type=_megabytes,
        default=MAX_BYTES,
        metavar="MB",
        help=f"skip (and say so) files larger than this (default {MAX_BYTES // 1_000_000})",
    )
    check.add_argument(
        "--pynative",
        action="append",
        default=[],
        metavar="GLOB",
        help="files that run in PyNative only (repeatable; with [tool.mindscope] pynative): "
        "their graph-mode findings are information",
    )
    check.add_argument(
        "--device",
        type=_device,
        default=None,
        metavar="DEVICE",
        help="the device the code runs on (CPU, GPU, Ascend; else [tool.mindscope] device, or "
        "what the file sets): on Ascend, failures for want of a CPU kernel are information",
    )
    return parser


def _device(value: str) -> str:
    device = device_name(value)
    if device is None:
        raise argparse.ArgumentTypeError(f"not a device ({', '.join(DEVICES)}): {value!r}")
    return device


def _megabytes(value: str) -> int:
    try:
        size = float(value)
    except ValueError:
        size = 0.0
    if not size > 0:
        raise argparse.ArgumentTypeError(f"not a size in MB: {value!r}")
    return int(size * 1_000_000)


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


def run_check(
    paths: Sequence[str],
    level: str,
    fmt: str,
    out: TextIO,
    max_bytes: int = MAX_BYTES,
    pynative: Sequence[str] = (),
    device: Optional[str] = None,
) -> int:
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        print(f"mindscope: error: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        globs = pynative_globs(paths, pynative)
        device = declared_device(paths, device)
    except BadProject as error:
        print(f"mindscope: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    inputs = collect(paths, max_bytes)
    files = list(inputs.sources)
    workspace = Workspace(inputs.sources, root=_common_folder(files))
    findings: list[Finding] = []
    for path, text in inputs.sources.items():
        findings.extend(
            check_source(
                text,
                path,
                level=level,
                workspace=workspace,
                report_parse_errors=True,
                pynative=globs,
                device=device,
            )
        )
    problems = [f"skipped {line}" for line in inputs.skipped]
    problems += [f"{_as_text(f)}" for f in findings if RULES[f.code].about_checker]
    for problem in problems:
        print(f"mindscope: warning: {problem}", file=sys.stderr)
    if fmt == "json":
        json.dump([_as_json(f) for f in findings], out, indent=2)
        out.write("\n")
    elif fmt == "sarif":
        root = _sarif_root(files)
        log = sarif_log(findings, root=root, tool_version=_version(), skipped=inputs.skipped)
        json.dump(log, out, indent=2)
        out.write("\n")
    else:
        for finding in findings:
            out.write(_as_text(finding) + "\n")
        errors = sum(f.severity is Severity.ERROR for f in findings)
        skipped = f", {len(inputs.skipped)} skipped" if inputs.skipped else ""
        out.write(
            f"{len(files)} file(s) checked{skipped}, {len(findings)} finding(s), "
            f"{errors} error(s)\n"
        )
    if problems:
        return EXIT_INCOMPLETE
    return EXIT_ERRORS if any(f.severity is Severity.ERROR for f in findings) else EXIT_OK


def _common_folder(files: Sequence[str]) -> Optional[str]:
    """What module names are relative to: the files' common path (absolute when relative and
    absolute paths are mixed, which `commonpath` refuses)."""
    if not files:
        return None
    try:
        return os.path.commonpath(files)
    except ValueError:
        return os.path.commonpath([os.path.abspath(f) for f in files])


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
    try:
        return run_check(
            args.paths,
            args.level,
            args.format,
            sys.stdout,
            args.max_size,
            args.pynative,
            args.device,
        )
    except KeyboardInterrupt:
        print("mindscope: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader left (`| head`): nothing more to say, and nothing to flush at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
