"""`%ms_graph`, `%ms_profile` and `%ms_stats NAME --input SHAPE:DTYPE …`.

All three run the runtime CLI in a child process (a fresh process is the only way to get
MindSpore's IR dump; the others share the path so the notebook's state is never touched) and
show its document as a rich output.
"""

from __future__ import annotations

from argparse import Namespace

from IPython.core.magic import line_magic, magics_class

from mindscope_kernel import display, statsview
from mindscope_kernel.magics.common import MODEL_ARGUMENTS, KernelMagics, arg, ms_magic

_LEVEL = arg("--level", type=str.lower, choices=("lax", "compatible", "strict"))


def _level_options(args: Namespace) -> list[str]:
    return ["--syntax-level", args.level] if args.level else []


@magics_class
class CaptureMagics(KernelMagics):
    @line_magic
    @ms_magic(*MODEL_ARGUMENTS, _LEVEL)
    def ms_graph(self, args: Namespace) -> None:
        """The compiled graph of a Cell, in the graph view."""
        self.run_runtime("graph", args, _level_options(args), display.graph_bundle)

    @line_magic
    @ms_magic(
        *MODEL_ARGUMENTS,
        _LEVEL,
        arg("--steps", type=int, default=5),
        arg("--mode", choices=("graph", "pynative"), default="graph"),
    )
    def ms_profile(self, args: Namespace) -> None:
        """Op, Cell and step times of a Cell, in the profile view."""
        options = [*_level_options(args), "--steps", str(args.steps), "--mode", args.mode]
        self.run_runtime("profile", args, options, display.profile_bundle)

    @line_magic
    @ms_magic(
        *MODEL_ARGUMENTS,
        _LEVEL,
        arg("--train", action="store_true", help="set_train(True): BatchNorm, dropout"),
        arg("--loss-from", metavar="FILE.py:FUNC", help="loss_fn(output, *inputs)"),
    )
    def ms_stats(self, args: Namespace) -> None:
        """Statistics of every Cell's outputs and every parameter's gradient."""
        options = _level_options(args) + (["--train"] if args.train else [])
        options += ["--loss-from", args.loss_from] if args.loss_from else []
        self.run_runtime("stats", args, options, statsview.stats_bundle)
