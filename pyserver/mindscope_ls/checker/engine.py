"""Runs discovery and the rules over one file and turns raw results into Findings."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Optional

from .incremental.rulecache import Text, function_findings
from .index.columns import ColumnMap
from .index.module import ModuleInfo
from .index.workspace import Workspace
from .levels import DEFAULT_LEVEL, file_level, normalize_level
from .model import Finding, Group, Range, RawFinding, Related, Severity
from .registry import RULES
from .rules import MODULE_RULES
from .rules.helpers import callsites
from .rules.helpers.base import node_range
from .rules.helpers.chains import too_deep
from .rules.helpers.classes import ClassTable
from .rules.helpers.discovery import CompiledFunction, discover
from .suppress import suppressed


def run_checks(
    source: str,
    path: str,
    *,
    level: Optional[str],
    workspace: Optional[Workspace],
    report_parse_errors: bool,
    disabled: Iterable[str],
    severities: Optional[Mapping[str, Severity]],
) -> list[Finding]:
    ws = workspace if workspace is not None else Workspace()
    module = ws.update(path, source)
    text = Text.of(source)
    lines = text.lines
    # Blocks that do not parse are left out of the tree: the rest of the file is still checked.
    errors = _parse_error(source, path) if module.errors and report_parse_errors else []
    active = file_level(module) or normalize_level(level) or DEFAULT_LEVEL
    raw: list[tuple[RawFinding, Optional[CompiledFunction]]] = []
    classes = ClassTable(ws)
    # A crash in one rule or one function costs its findings only, and says so (MS001).
    try:
        compiled = compiled_in(ws, module)
    except Exception as error:
        compiled = []
        raw.append((crashed("finding the compiled code", error, Range(1, 0, 1, 0)), None))
    for fn in compiled:
        try:
            found = function_findings(fn, fn.level or active, classes, text)
        except Exception as error:
            at = Range(fn.node.lineno, fn.node.col_offset, fn.node.lineno, fn.node.col_offset + 3)
            raw.append((crashed(f"checking `{fn.qualname}`", error, at), None))
            continue
        raw.extend((finding, fn) for finding in found)
    try:
        callsites.use(ws, classes)  # callees imported from other files, for this check only
        module_rules: list[Callable[[ModuleInfo], Iterable[RawFinding]]] = [*MODULE_RULES]
        module_rules.append(partial(too_deep, ws))
        for module_rule in module_rules:
            try:
                raw.extend((finding, None) for finding in module_rule(module))
            except Exception as error:
                name = getattr(module_rule, "__module__", "").rpartition(".")[2] or "a rule"
                raw.append((crashed(f"the {name} rules", error, Range(1, 0, 1, 0)), None))
    finally:
        callsites.release()  # it holds the module and workspace: not beyond this check
    findings = _finalize(raw, module, ws, active, set(disabled), severities or {})
    kept, _ = suppressed(findings, lines)
    return sorted(errors + kept, key=lambda f: (f.line, f.col, f.code))


def crashed(what: str, error: BaseException, at: Range) -> RawFinding:
    """The MS001 finding for a crash of the checker while doing `what`."""
    detail = str(error).splitlines()[0][:80] if str(error) else ""
    kind = type(error).__name__ + (f": {detail}" if detail else "")
    return RawFinding(
        "MS001",
        f"The checker crashed while {what} ({kind}); findings for it are missing, the "
        "others are shown.",
        at,
    )


def crash_finding(path: str, error: BaseException) -> Finding:
    """MS001 for a whole file that could not be checked (the check itself crashed)."""
    raw = crashed("checking this file", error, Range(1, 0, 1, 0))
    rule = RULES[raw.code]
    return Finding(
        raw.code,
        raw.message.replace(", the others are shown", ""),
        rule.severity("LAX"),
        rule.group.value,
        1,
        0,
        1,
        0,
        doc=rule.doc,
        path=path,
    )


def compiled_in(ws: Workspace, module: ModuleInfo) -> list[CompiledFunction]:
    """The compiled functions of `module`; discovery runs once per workspace version."""
    cached = ws.cache.get("discovery")
    if cached is None or cached[0] != ws.version:
        by_module: dict[int, list[CompiledFunction]] = {}
        for fn in discover(ws):
            by_module.setdefault(id(fn.module), []).append(fn)
        cached = (ws.version, by_module)
        ws.cache["discovery"] = cached
    found: dict[int, list[CompiledFunction]] = cached[1]  # type: ignore[assignment]
    return found.get(id(module), [])


_compiled_in = compiled_in  # the name filemode.py imports


def _finalize(
    raw: list[tuple[RawFinding, Optional[CompiledFunction]]],
    module: ModuleInfo,
    ws: Workspace,
    active: str,
    disabled: set[str],
    severities: Mapping[str, Severity],
) -> list[Finding]:
    columns = ColumnMap(ws)
    seen: set[tuple[str, int, int, int, int]] = set()
    out: list[Finding] = []
    for item, fn in raw:
        rng = item.range
        key = (item.code, rng.line, rng.col, rng.end_line, rng.end_col)
        if key in seen or item.code in disabled:
            continue
        seen.add(key)
        rule = RULES[item.code]
        related = list(item.related)
        if fn is not None and fn.caller is not None:
            related.append(
                Related(
                    fn.caller.path,
                    node_range(fn.caller.node),
                    f"`{fn.qualname}` is compiled because it is {fn.caller.description}",
                )
            )
        out.append(
            columns.finding(
                Finding(
                    code=item.code,
                    message=item.message,
                    severity=severities.get(item.code, rule.severity(item.level)),
                    group=rule.group.value,
                    line=rng.line,
                    col=rng.col,
                    end_line=rng.end_line,
                    end_col=rng.end_col,
                    related=tuple(related),
                    fix=item.fix,
                    doc=rule.doc,
                    path=module.path,
                    level=item.level if rule.group is not Group.DEPRECATED else active,
                )
            )
        )
    return out


def _parse_error(source: str, path: str) -> list[Finding]:
    line, col, message = 1, 0, "the file does not parse"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source, filename=path)
    except SyntaxError as error:
        line = error.lineno or 1
        col = max((error.offset or 1) - 1, 0)
        message = error.msg or message
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        message = str(error) or message
    rule = RULES["MS000"]
    return [
        Finding(
            "MS000",
            f"Cannot check graph-mode rules: {message}.",
            rule.severity("LAX"),
            rule.group.value,
            line,
            col,
            line,
            col,
            doc=rule.doc,
            path=path,
        )
    ]
