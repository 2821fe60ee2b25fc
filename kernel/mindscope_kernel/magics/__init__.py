"""The `%ms_*` magics, one module per concern."""

from __future__ import annotations

from typing import Any


def register(shell: Any, kernel: Any) -> None:
    from mindscope_kernel.magics.capture import CaptureMagics
    from mindscope_kernel.magics.check import CheckMagics
    from mindscope_kernel.magics.export import ExportMagics
    from mindscope_kernel.magics.mode import ModeMagics
    from mindscope_kernel.magics.parity import ParityMagics
    from mindscope_kernel.magics.summary import SummaryMagics

    for magics in (
        ModeMagics,
        CheckMagics,
        CaptureMagics,
        ParityMagics,
        SummaryMagics,
        ExportMagics,
    ):
        shell.register_magics(magics(shell, kernel))
