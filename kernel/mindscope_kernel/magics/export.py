"""`%ms_export NAME --input SHAPE:DTYPE [--format …] [--quantize …] [-o DIR]`: the runtime's
`export` in a child process (the notebook's state is never touched); the export report as a
rich output. The artefacts, snippets and report stay in DIR (default mindscope-export/NAME)."""

from __future__ import annotations

import os
from typing import Any

from IPython.core.magic import Magics, line_magic, magics_class

from mindscope_kernel import runtime_cli
from mindscope_kernel.exportview import export_bundle
from mindscope_kernel.magics.common import Parser, UsageError, fail, parse, show, user_ns
from mindscope_kernel.nbtargets import TargetError, target_for

EXPORT = Parser(prog="%ms_export", add_help=False)
EXPORT.add_argument("name", help="a Cell instance, Cell class or factory in the notebook")
EXPORT.add_argument("--input", action="append", default=[], metavar="SHAPE:DTYPE")
EXPORT.add_argument("--format", type=str.upper, choices=("MINDIR", "ONNX", "BOTH"), default="BOTH")
EXPORT.add_argument("--quantize", choices=("int8-dynamic", "int8-static"))
EXPORT.add_argument("--calib", type=int, default=8)
EXPORT.add_argument(
    "-o", "--output", help="folder of the artefacts (default mindscope-export/NAME)"
)


@magics_class
class ExportMagics(Magics):
    def __init__(self, shell: Any, kernel: Any) -> None:
        super().__init__(shell)
        self.kernel = kernel

    @line_magic
    def ms_export(self, line: str) -> None:
        try:
            args = parse(EXPORT, line)
            if not args.input:
                raise UsageError("%ms_export: give the inputs, e.g. --input 2,3,32,32:float32")
            target = self._target(args.name)
        except (UsageError, TargetError) as exc:
            return fail(str(exc))
        output = os.path.abspath(args.output or os.path.join("mindscope-export", args.name))
        options = [opt for spec in args.input for opt in ("--input", spec)]
        options += ["--format", args.format]
        if args.quantize:
            options += ["--quantize", args.quantize, "--calib", str(args.calib)]
        result = runtime_cli.run("export", target, options, output=output)
        if result.document is None:
            return fail(f"export of {args.name} failed: {result.error}")
        show(export_bundle(result.document))
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
