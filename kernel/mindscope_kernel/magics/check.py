"""`%ms_check [name]`: the graph-mode checker on the current cell or on a Cell class."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from IPython.core.magic import line_magic, magics_class

from mindscope_kernel import cellsource, display, msimport
from mindscope_kernel.magics.common import KernelMagics, fail, show


@magics_class
class CheckMagics(KernelMagics):
    @line_magic
    def ms_check(self, line: str) -> None:
        try:
            from mindscope_ls.checker import check_source
        except ImportError:
            return fail("the graph-mode checker (mindscope_ls.checker) is not importable here")
        name = line.strip()
        try:
            code, path, first, last, label = self._what(name)
        except (LookupError, OSError) as exc:
            return fail(str(exc))
        files = self.kernel.cell_files
        previous = [c.code for c in files.executed() if c.path != path]
        prepared = cellsource.prepare(code, previous)
        level = _level()
        findings = [
            replace(f, line=f.line - prepared.offset, end_line=f.end_line - prepared.offset)
            for f in check_source(prepared.source, path, level=level)
        ]
        show(findings_bundle([f for f in findings if first <= f.line <= last], label, level))
        return None

    def _what(self, name: str) -> tuple[str, str, int, int, str]:
        """(source, path, first line, last line, label) of what to check."""
        files = self.kernel.cell_files
        if not name:
            if files.current is None:
                raise LookupError("no current cell")
            code = files.current.code
            return code, files.current.path, 1, len(code.splitlines()) or 1, "this cell"
        try:
            obj = eval(name, self.user_ns)
        except Exception as exc:
            raise LookupError(f"{name} is not defined") from exc
        path = cellsource.source_file(obj)
        if path is None:
            raise LookupError(f"no Python source for {name}")
        cell = files.lookup(path)
        code = cell.code if cell else Path(path).read_text(encoding="utf-8")
        span = cellsource.locate(obj, code)
        if span is None:
            raise LookupError(f"cannot find the definition of {name} in {path}")
        return code, path, span[0], span[1], name


def _level() -> str:
    ms = msimport.loaded()
    if ms is None:
        return "LAX"
    from mindscope_kernel.errors import syntax_level_name

    return syntax_level_name(ms)


def findings_bundle(findings: list[Any], label: str, level: str) -> dict[str, Any]:
    rows = [
        (f.code, f.line, str(getattr(f.severity, "value", f.severity)), f.message) for f in findings
    ]
    document = {
        "kind": "mindscope.findings",
        "version": 1,
        "level": level,
        "subject": label,
        "findings": [
            {
                "code": f.code,
                "message": f.message,
                "severity": r[2],
                "group": str(getattr(f.group, "value", f.group)),
                "line": f.line,
                "col": f.col,
                "endLine": f.end_line,
                "endCol": f.end_col,
                "doc": f.doc,
            }
            for f, r in zip(findings, rows)
        ],
    }
    title = f"Graph-mode check of {label} ({level}): {len(findings)} finding(s)"
    if not findings:
        title += " - nothing that would fail or diverge in GRAPH_MODE"
    return display.bundle(
        display.FINDINGS_MIME,
        document,
        title,
        [("Findings", ("code", "line", "severity", "message"), rows)] if rows else [],
    )
