"""`python -m mindscope_runtime graph|profile|stats|export TARGET [options]`,
`python -m mindscope_runtime mindir FILE.mindir` / `onnx FILE.onnx`, `… summary DIR`,
`… trace PROFILE.json` and
`python -m mindscope_runtime profile-dist SCRIPT.py [--workers N] [-- script args]`.

stdout carries exactly one line: a JSON status (`{"ok": true, …}` or `{"ok": false, "error":
{"kind", "message", …}}`). Progress and anything the model prints go to stderr. Documents are
written atomically to `-o`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, Optional

from mindscope_runtime import commands, dist_command, interrupts, timeline
from mindscope_runtime.errors import RuntimeToolError, one_line
from mindscope_runtime.export import command as export_command
from mindscope_runtime.inputs import InputSpec, check_input_sizes, parse_input_spec
from mindscope_runtime.msenv import MODES, SYNTAX_LEVELS, enable_ir_dump
from mindscope_runtime.outputs import check_extra_outputs, check_output, check_output_folder
from mindscope_runtime.progress import Progress
from mindscope_runtime.statsflags import Thresholds
from mindscope_runtime.summary import command as summary_command
from mindscope_runtime.targets import TargetSpec, parse_target
from mindscope_runtime.trainstep import OPTIMIZERS

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
INTERRUPT_GRACE_S = 5.0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise RuntimeToolError("usage", f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m mindscope_runtime", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    graph = commands.add_parser("graph", help="compile in GRAPH_MODE; write a graph document")
    _common(graph, default_out="mindscope-graph.json")
    graph.add_argument("--train", action="store_true", help="set_train(True) before compiling")
    graph.add_argument("--keep-ir", help="also copy MindSpore's IR dump here")
    profile = commands.add_parser("profile", help="run steps under the Profiler")
    _common(profile, default_out="mindscope-profile.json")
    profile.add_argument("--steps", type=int, default=5, help="profiled steps (default 5)")
    profile.add_argument("--warmup", type=int, default=1, help="unprofiled steps first")
    profile.add_argument("--mode", choices=MODES, default="graph")
    profile.add_argument("--train", action="store_true",
                         help="profile a training step: forward, backward, optimizer")  # fmt: skip
    profile.add_argument("--optimizer", choices=OPTIMIZERS, default="sgd")
    profile.add_argument("--lr", type=float, default=1e-3, help="learning rate (--train)")
    _loss_option(profile)
    profile.add_argument("--trace-out", help="also write Chrome trace JSON here")
    profile.add_argument("--keep-profiler-output", help="copy the Profiler's files")
    stats = commands.add_parser("stats", help="one forward+backward step; tensor statistics")
    _common(stats, default_out="mindscope-stats.json")
    stats.add_argument("--train", action="store_true", help="set_train(True) (BN, dropout)")
    _loss_option(stats)
    _threshold_options(stats)
    mindir = commands.add_parser("mindir", help="read a .mindir file into a graph document")
    mindir.add_argument("file", type=Path, help="a MINDIR file written by mindspore.export")
    mindir.add_argument("-o", "--output", default="mindscope-graph.json")
    mindir.add_argument("--quiet", action="store_true", help="no progress on stderr")
    dist_command.add_parser(commands)
    summary_command.add_parser(commands)
    timeline.add_parser(commands)
    export_command.add_parser(commands, _common)
    export_command.add_onnx_parser(commands)
    return parser  # fmt: skip


def _common(parser: argparse.ArgumentParser, *, default_out: str) -> None:
    parser.add_argument("target", help="path/to/file.py:Name (Cell class, factory or instance)")
    parser.add_argument("--input", action="append", default=[], metavar="SHAPE:DTYPE",
                        help="an input tensor, e.g. 2,3,32,32:float32 (repeatable)")  # fmt: skip
    parser.add_argument("--inputs-from", metavar="FILE.py:FUNC",
                        help="a function returning the inputs (a Tensor or a tuple)")  # fmt: skip
    parser.add_argument("-o", "--output", default=default_out, help="the document to write")
    parser.add_argument("--syntax-level", choices=SYNTAX_LEVELS, default="lax")
    parser.add_argument("--device", default="CPU", help="CPU, GPU or Ascend")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


# (option, Thresholds field, what it flags): stats' thresholds, defaults from Thresholds.
THRESHOLD_OPTIONS = (
    ("--vanishing-rms", "vanishing_rms", "gradient RMS below this is vanishing"),
    ("--vanishing-ratio", "vanishing_ratio", "…or below this x the median gradient RMS"),
    ("--exploding-rms", "exploding_rms", "gradient RMS above this is exploding"),
    ("--dead-fraction", "dead_unit_fraction", "share of all-zero ReLU units that flags it dead"),
)


def _threshold_options(parser: argparse.ArgumentParser) -> None:
    defaults = Thresholds()
    for option, field, meaning in THRESHOLD_OPTIONS:
        default = getattr(defaults, field)
        parser.add_argument(
            option, type=float, default=default, help=f"{meaning} (default %(default)g)"
        )


def _loss_option(parser: argparse.ArgumentParser) -> None:
    help_text = "loss_fn(output, *inputs) -> scalar Tensor (default: sum of the outputs)"
    parser.add_argument("--loss-from", metavar="FILE.py:FUNC", help=help_text)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run one command; return the exit code. Ctrl-C (SIGINT) and SIGTERM give the
    `interrupted` status and 130; a second one, or a main thread stuck for
    `INTERRUPT_GRACE_S` in MindSpore's C++, exits at once from a watchdog thread."""
    started = time.perf_counter()
    status_out = _status_stream()
    state = {"command": "?"}

    def interrupted() -> dict[str, Any]:
        error = {"kind": "interrupted", "message": "interrupted; no document written"}
        return {"ok": False, "command": state["command"], "error": error}

    interrupts.install(lambda: _emit(status_out, interrupted(), started), INTERRUPT_GRACE_S)
    code = EXIT_OK
    try:
        with _stdout_to_stderr():
            args = dist_command.parse_args(build_parser(), argv)
            state["command"] = args.command
            status = _run_catching_exit(args, status_out)
        code = EXIT_OK if status.get("ok") else EXIT_ERROR
    except RuntimeToolError as exc:
        code = EXIT_USAGE if exc.kind == "usage" else EXIT_ERROR
        status = {"ok": False, "command": state["command"], "error": exc.to_json()}
    except KeyboardInterrupt:
        status, code = interrupted(), EXIT_INTERRUPTED
    except Exception as exc:  # an unexpected bug of ours: still one JSON line
        error = {"kind": "internal", "message": one_line(f"{type(exc).__name__}: {exc}")}
        status, code = {"ok": False, "command": state["command"], "error": error}, EXIT_ERROR
    if interrupts.finish():
        _emit(status_out, status, started)
    else:  # the watchdog wrote the status and is ending the process
        time.sleep(10)
    return code


def _run_catching_exit(args: argparse.Namespace, out: Any) -> dict[str, Any]:
    """`sys.exit()` from the user's code (not at import: see targets.py) still gets a status."""
    try:
        return run(args, out)
    except SystemExit as exc:
        raise RuntimeToolError(
            "run-failed", f"the model called sys.exit({exc.code!r}); no document written"
        ) from exc


def run(args: argparse.Namespace, out: Any = None) -> dict[str, Any]:
    if args.command == "export":  # before the model runs; export writes into a folder
        args.output = check_output_folder(args.output)
    elif args.output is not None:  # `summary` without -o picks its default by format
        args.output = check_output(args.output)
    check_extra_outputs(args)
    if args.command == "mindir":
        return commands.mindir(args, Progress(quiet=args.quiet))
    if args.command == "profile-dist":
        return dist_command.profile_dist(args, Progress(quiet=args.quiet))
    if args.command == "summary":  # `--follow` streams its documents to `out` (stdout)
        return summary_command.run(args, out or sys.stdout, Progress(quiet=args.quiet))
    if args.command == "onnx":
        return export_command.onnx(args, Progress(quiet=args.quiet))
    if args.command == "trace":
        return timeline.run(args)
    specs = [parse_input_spec(text) for text in args.input]  # fail fast, before MindSpore
    check_input_sizes(specs)
    target = parse_target(args.target)
    if not target.file.is_file():
        raise RuntimeToolError("file-not-found", f"no such file: {target.file}")
    if specs and args.inputs_from:
        raise RuntimeToolError("usage", "give either --input or --inputs-from, not both")
    if not specs and not args.inputs_from:
        raise RuntimeToolError("usage", "no inputs: give --input SHAPE:DTYPE or --inputs-from")
    progress = Progress(quiet=args.quiet)
    command = {"graph": commands.graph, "profile": commands.profile, "stats": commands.stats,
               "export": export_command.export}  # fmt: skip
    # A forced exit (second Ctrl-C, or stuck in C++) removes it too.
    with interrupts.temp_dir("mindscope-ir-session-") as session:
        if _reads_ir(args):
            enable_ir_dump(session)  # before MindSpore or the user's module compiles anything
        ms, cell, inputs = _prepare(args, target, specs, progress)
        return command[args.command](args, ms, cell, inputs, progress)


def _reads_ir(args: argparse.Namespace) -> bool:
    """`graph`, and `profile` of a graph-mode forward (its IR corrects op scopes)."""
    if args.command == "profile":
        return bool(args.mode == "graph" and not args.train)
    return bool(args.command == "graph")


def _prepare(
    args: argparse.Namespace, target: TargetSpec, specs: list[InputSpec], progress: Progress
) -> tuple[Any, Any, list[Any]]:
    from mindscope_runtime.inputs import inputs_from, make_tensors
    from mindscope_runtime.msenv import configure, import_mindspore
    from mindscope_runtime.targets import resolve_cell

    with progress.phase("importing MindSpore"):
        ms = import_mindspore()
    mode = getattr(args, "mode", "graph")
    configure(ms, mode=mode, syntax_level=args.syntax_level, device=args.device)
    with progress.phase(f"loading {target.file.name}:{target.name}"):
        cell = resolve_cell(target, ms.nn.Cell)
        cell.set_train(bool(args.train))
        inputs = inputs_from(args.inputs_from, target.file) if args.inputs_from else (
            make_tensors(specs)
        )  # fmt: skip
    return ms, cell, inputs


def _emit(stream: Any, status: dict[str, Any], started: float) -> None:
    status["seconds"] = round(time.perf_counter() - started, 3)
    stream.write(json.dumps(status, ensure_ascii=False) + "\n")
    stream.flush()


def _status_stream() -> Any:
    """A private handle on the real stdout, so user prints cannot corrupt the status line."""
    try:
        fd = os.dup(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return sys.stdout
    return os.fdopen(fd, "w", encoding="utf-8", closefd=True)


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Send fd 1 (Python and C++ prints) to stderr while user code and MindSpore run."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:
        yield
        return
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
