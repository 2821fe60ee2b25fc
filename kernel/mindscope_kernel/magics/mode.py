"""`%ms_mode [pynative|graph] [--level LAX|COMPATIBLE|STRICT]`: show or set the mode."""

from __future__ import annotations

from typing import Any

from IPython.core.magic import Magics, line_magic, magics_class

from mindscope_kernel import errors, msimport
from mindscope_kernel.magics.common import Parser, UsageError, fail, parse

PARSER = Parser(prog="%ms_mode", add_help=False)
PARSER.add_argument("mode", nargs="?", choices=("pynative", "graph"))
PARSER.add_argument("--level", type=str.upper, choices=("LAX", "COMPATIBLE", "STRICT"))


@magics_class
class ModeMagics(Magics):
    def __init__(self, shell: Any, kernel: Any) -> None:
        super().__init__(shell)
        self.kernel = kernel

    @line_magic
    def ms_mode(self, line: str) -> None:
        try:
            args = parse(PARSER, line)
            ms = msimport.require()
        except (UsageError, RuntimeError) as exc:
            return fail(str(exc))
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
        return None


def _pretty(mode: str) -> str:
    return "GRAPH_MODE" if mode == "graph" else "PYNATIVE_MODE"
