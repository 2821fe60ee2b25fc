"""`%ms_mode [pynative|graph] [--level LAX|COMPATIBLE|STRICT]`: show or set the mode."""

from __future__ import annotations

from argparse import Namespace

from IPython.core.magic import line_magic, magics_class

from mindscope_kernel import errors, msimport
from mindscope_kernel.magics.common import KernelMagics, arg, ms_magic


@magics_class
class ModeMagics(KernelMagics):
    @line_magic
    @ms_magic(
        arg("mode", nargs="?", choices=("pynative", "graph")),
        arg("--level", type=str.upper, choices=("LAX", "COMPATIBLE", "STRICT")),
        reports=(RuntimeError,),  # MindSpore is not installed
    )
    def ms_mode(self, args: Namespace) -> None:
        """Show or set the execution mode and the jit syntax level."""
        ms = msimport.require()
        eager = self.kernel.eager
        if args.mode and not eager.set_saved_mode(args.mode):
            msimport.set_mode(ms, args.mode)
        if args.level:
            ms.set_context(jit_syntax_level=getattr(ms, args.level))
        mode = eager.saved_mode if eager.active and eager.saved_mode else msimport.mode_name(ms)
        text = f"mode: {_pretty(mode)}, jit_syntax_level: {errors.syntax_level_name(ms)}"
        if eager.active:
            text += " (running eagerly while the debugger is attached)"
        print(text)


def _pretty(mode: str) -> str:
    return "GRAPH_MODE" if mode == "graph" else "PYNATIVE_MODE"
