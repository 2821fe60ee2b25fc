"""`%ms_parity EXPR`: evaluate in PyNative and in GRAPH_MODE and compare every output tensor.

The runtime check for silent divergence that the checker can only suspect. The expression is
evaluated twice, so side effects (a global counter, appends) happen twice — that is the point.
"""

from __future__ import annotations

from typing import Any

from IPython.core.magic import line_magic, magics_class

from mindscope_kernel import display, msimport
from mindscope_kernel.magics.common import KernelMagics, fail, show


@magics_class
class ParityMagics(KernelMagics):
    @line_magic
    def ms_parity(self, line: str) -> None:
        expression = line.strip()
        if not expression:
            return fail("%ms_parity needs an expression, e.g. %ms_parity net(x)")
        if self.kernel.eager.active:
            return fail("%ms_parity cannot compile while the debugger is attached")
        try:
            ms = msimport.require()
        except RuntimeError as exc:
            return fail(str(exc))
        previous = msimport.mode_name(ms)
        outputs = {}
        try:
            for mode in ("pynative", "graph"):
                msimport.set_mode(ms, mode)
                outputs[mode] = eval(expression, self.user_ns)
        except Exception as exc:
            return fail(
                f"{expression} failed in {_pretty(mode)}: {type(exc).__name__}: "
                f"{str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
            )
        finally:
            msimport.set_mode(ms, previous)
        from mindscope_kernel.parity import compare  # numpy: only when used

        report = compare(outputs["pynative"], outputs["graph"])
        report["expression"] = expression
        show(parity_bundle(report))
        return None


def _pretty(mode: str) -> str:
    return "GRAPH_MODE" if mode == "graph" else "PYNATIVE_MODE"


def parity_bundle(report: dict[str, Any]) -> dict[str, Any]:
    verdict = "identical" if report["equal"] else ("close" if report["close"] else "DIFFERENT")
    title = f"Parity of {report['expression']}: PyNative vs GRAPH_MODE are {verdict}"
    rows = [
        (o["path"], o["shape"], o["dtype"], o["maxAbsDiff"], o["maxRelDiff"], o["where"], o["note"])
        for o in report["outputs"]
    ]
    headers = ("output", "shape", "dtype", "max |diff|", "max rel", "at index", "note")
    return display.bundle(display.PARITY_MIME, report, title, [("Outputs", headers, rows)])
