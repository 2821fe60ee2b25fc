"""`%ms_graph`, `%ms_profile` and `%ms_stats NAME --input SHAPE:DTYPE …`.

All three run the runtime CLI in a child process (a fresh process is the only way to get
MindSpore's IR dump; the others share the path so the notebook's state is never touched) and
show its document as a rich output.
"""

from __future__ import annotations

from typing import Any

from IPython.core.magic import Magics, line_magic, magics_class

from mindscope_kernel import display, runtime_cli, statsview
from mindscope_kernel.magics.common import Parser, UsageError, fail, parse, show, user_ns
from mindscope_kernel.nbtargets import TargetError, target_for


def _parser(prog: str) -> Parser:
    parser = Parser(prog=prog, add_help=False)
    parser.add_argument("name", help="a Cell instance, Cell class or factory in the notebook")
    parser.add_argument("--input", action="append", default=[], metavar="SHAPE:DTYPE")
    parser.add_argument("--level", type=str.lower, choices=("lax", "compatible", "strict"))
    return parser


GRAPH = _parser("%ms_graph")
PROFILE = _parser("%ms_profile")
PROFILE.add_argument("--steps", type=int, default=5)
PROFILE.add_argument("--mode", choices=("graph", "pynative"), default="graph")
STATS = _parser("%ms_stats")
STATS.add_argument("--train", action="store_true", help="set_train(True): BatchNorm, dropout")
STATS.add_argument("--loss-from", metavar="FILE.py:FUNC", help="loss_fn(output, *inputs)")
BUNDLES = {
    "graph": display.graph_bundle,
    "profile": display.profile_bundle,
    "stats": statsview.stats_bundle,
}


@magics_class
class CaptureMagics(Magics):
    def __init__(self, shell: Any, kernel: Any) -> None:
        super().__init__(shell)
        self.kernel = kernel

    @line_magic
    def ms_graph(self, line: str) -> None:
        self._run("graph", GRAPH, line)

    @line_magic
    def ms_profile(self, line: str) -> None:
        self._run("profile", PROFILE, line)

    @line_magic
    def ms_stats(self, line: str) -> None:
        self._run("stats", STATS, line)

    def _run(self, command: str, parser: Parser, line: str) -> None:
        try:
            args = parse(parser, line)
            if not args.input:
                raise UsageError(f"{parser.prog}: give the inputs, e.g. --input 2,3,32,32:float32")
            target = self._target(args.name)
        except (UsageError, TargetError) as exc:
            return fail(str(exc))
        options = [opt for spec in args.input for opt in ("--input", spec)]
        if args.level:
            options += ["--syntax-level", args.level]
        options += _command_options(command, args)
        result = runtime_cli.run(command, target, options)
        if result.document is None:
            return fail(f"{command} of {args.name} failed: {result.error}")
        show(BUNDLES[command](result.document))
        return None

    def _transform(self, code: str) -> str:
        assert self.shell is not None
        return str(self.shell.transform_cell(code))  # type: ignore[no-untyped-call]

    def _target(self, name: str) -> str:
        files = self.kernel.cell_files
        return target_for(
            name,
            user_ns(self),
            [c.code for c in files.executed()],
            self._transform,
            files.is_cell_file,
        )


def _command_options(command: str, args: Any) -> list[str]:
    if command == "profile":
        return ["--steps", str(args.steps), "--mode", args.mode]
    if command == "stats":
        return (["--train"] if args.train else []) + (
            ["--loss-from", args.loss_from] if args.loss_from else []
        )
    return []
