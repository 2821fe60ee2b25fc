"""`%ms_export NAME --input SHAPE:DTYPE [--format …] [--quantize …] [-o DIR]`: the runtime's
`export` in a child process (the notebook's state is never touched); the export report as a
rich output. The artefacts, snippets and report stay in DIR (default mindscope-export/NAME)."""

from __future__ import annotations

import os
from argparse import Namespace

from IPython.core.magic import line_magic, magics_class

from mindscope_kernel.exportview import export_bundle
from mindscope_kernel.magics.common import MODEL_ARGUMENTS, KernelMagics, arg, ms_magic


@magics_class
class ExportMagics(KernelMagics):
    @line_magic
    @ms_magic(
        *MODEL_ARGUMENTS,
        arg("--format", type=str.upper, choices=("MINDIR", "ONNX", "BOTH"), default="BOTH"),
        arg("--quantize", choices=("int8-dynamic", "int8-static")),
        arg("--calib", type=int, default=8),
        arg("-o", "--output", help="folder of the artefacts (default mindscope-export/NAME)"),
    )
    def ms_export(self, args: Namespace) -> None:
        """Export a Cell to MINDIR and ONNX and verify the artefacts against eager outputs."""
        output = os.path.abspath(args.output or os.path.join("mindscope-export", args.name))
        options = ["--format", args.format]
        if args.quantize:
            options += ["--quantize", args.quantize, "--calib", str(args.calib)]
        self.run_runtime("export", args, options, export_bundle, output=output)
