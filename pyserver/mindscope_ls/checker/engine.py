"""Runs discovery and the rules over one file and turns raw results into Findings."""

from __future__ import annotations

import ast
import logging
import warnings
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Optional

from .incremental import timing
from .incremental.neighbourhood import neighbourhood
from .incremental.rulecache import Text, function_findings
from .index.columns import ColumnMap
from .index.module import ModuleInfo
from .index.workspace import Workspace
from .levels import DEFAULT_LEVEL, file_level, normalize_level
from .model import Finding, Group, Range, RawFinding, Related, Severity
from .registry import MODULE_CHECKS, RULES, rules_checked_by
from .rule import node_range
from .rules.about_checker import FILE_DOES_NOT_PARSE, check_crashed, crashed
from .rules.helpers import callsites, dead_raises
from .rules.helpers.chains import too_deep
from .rules.helpers.classes import ClassTable
from .rules.helpers.discovery import CompiledFunction, Discovery
from .suppress import suppressed

log = logging.getLogger(__name__)


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
    with timing.phase("parse and index"):
        module = ws.update(path, source)
    text = Text.of(source)
    lines = text.lines
    # Blocks that do not parse are left out of the tree: the rest of the file is still checked.
    errors = _parse_error(source, path) if module.errors and report_parse_errors else []
    active = file_level(module) or normalize_level(level) or DEFAULT_LEVEL
    raw: list[tuple[RawFinding, Optional[CompiledFunction]]] = []
    # A crash in one rule or one function costs its findings only, and says so (MS001).
    try:
        with timing.phase("discovery"):
            compiled = compiled_in(ws, module)
    except Exception as error:
        compiled = []
        log.error("finding the compiled code of %s crashed", path, exc_info=error)
        raw.append((crashed("finding the compiled code", error, Range(1, 0, 1, 0)), None))
    classes = _class_table(ws)
    near = neighbourhood(module, ws.others(path)) if compiled else None
    for fn in compiled:
        try:
            found = function_findings(fn, fn.level or fn.at or active, classes, text, near)
        except Exception as error:  # outside any one check: its caching, the function's types
            log.error("checking %s in %s crashed", fn.qualname, path, exc_info=error)
            at = Range(fn.node.lineno, fn.node.col_offset, fn.node.lineno, fn.node.col_offset + 3)
            raw.append((crashed(f"checking `{fn.qualname}`", error, at), None))
            continue
        if any(f.code in NONE_FOLDED for f in found):
            found = _outside_folded_branches(fn, found)
        raw.extend((finding, fn) for finding in found)
    try:
        callsites.use(ws, classes)  # callees imported from other files, for this check only
        checks: list[Callable[[ModuleInfo], Iterable[RawFinding]]] = [*MODULE_CHECKS]
        checks.append(partial(too_deep, ws))
        for check in checks:
            if timing.ENABLED:
                check = timing.timed(check)
            try:
                raw.extend((finding, None) for finding in check(module))
            except Exception as error:
                rules = rules_checked_by(check)
                at = Range(1, 0, 1, 0)
                raw.append((check_crashed(rules, path, "checking the file", error, at), None))
    finally:
        callsites.release()  # it holds the module and workspace: not beyond this check
    with timing.phase("finalize"):
        findings = _finalize(raw, module, ws, active, set(disabled), severities or {})
        kept, _ = suppressed(findings, lines)
    return sorted(errors + kept, key=lambda f: (f.line, f.col, f.code))


# Rules whose failure needs the values inferred: a branch graph mode folds away before
# inference (`dead_raises`) does not fail them. Measured in such branches: MS137, MS201, MS204,
# MS214, MS215, MS223, MS1001; the others are the same kind of expression-level STRICT checks
# (constants for the Python fallback, attributes of graph values), reported on values only.
FOLDED_AWAY = frozenset(
    {
        "MS137",
        "MS1001",
        "MS201",
        "MS204",
        "MS206",
        "MS214",
        "MS215",
        "MS216",
        "MS217",
        "MS220",
        "MS223",
        "MS224",
        "MS230",
        "MS232",
        "MS240",
        "MS242",
        "MS243",
    }
)


# Rules whose failure needs the values inferred, measured in the branch of `if p is not None:`
# that no call passes `p` to (`dead_raises.unpassed_none_branches`): those above, and joins.
NONE_FOLDED = FOLDED_AWAY | {"MS112", "MS205", "MS1137"}

# Rules whose failure the exception a `raise` builds does not have at LAX (`dead_raises.raised`).
RAISED_AT_LAX = frozenset({"MS137"})


def _outside_folded_branches(fn: CompiledFunction, found: list[RawFinding]) -> list[RawFinding]:
    """`found` without the value rules' findings in code graph mode folds away before
    inference: dead raise branches and assert messages, raised exceptions (LAX), and the
    branch of `if p is not None:` no call passes `p` to."""
    spans = dead_raises.spans(fn) if any(f.code in FOLDED_AWAY for f in found) else []
    if any(f.code in RAISED_AT_LAX for f in found):
        spans += dead_raises.raised(fn)
    unpassed = dead_raises.unpassed_none_branches(fn)
    if not spans and not unpassed:
        return found
    return [
        f
        for f in found
        if not (f.code in FOLDED_AWAY and dead_raises.inside(spans, f.range.line, f.range.col))
        and not (f.code in NONE_FOLDED and dead_raises.inside(unpassed, f.range.line, f.range.col))
    ]


def crash_finding(path: str, error: BaseException) -> Finding:
    """MS001 for a whole file that could not be checked (the check itself crashed)."""
    log.error("checking %s crashed", path, exc_info=error)
    raw = crashed("checking this file", error, Range(1, 0, 1, 0))
    raw.message = raw.message.replace(", the others are shown", "")
    return _file_finding(raw, path)


def _file_finding(raw: RawFinding, path: str) -> Finding:
    """A finding about the whole file (it does not parse, it was not checked)."""
    rule = RULES[raw.code]
    rng = raw.range
    return Finding(
        raw.code,
        raw.message,
        rule.severity(DEFAULT_LEVEL),
        rule.group.value,
        rng.line,
        rng.col,
        rng.end_line,
        rng.end_col,
        doc=rule.doc,
        path=path,
    )


def compiled_in(ws: Workspace, module: ModuleInfo) -> list[CompiledFunction]:
    """The compiled functions of `module`; discovery runs once per workspace version."""
    cached = ws.cache.get("discovery")
    if cached is None or cached[0] != ws.version:
        by_module: dict[int, list[CompiledFunction]] = {}
        discovery = Discovery(ws)
        for fn in discovery.run():
            by_module.setdefault(id(fn.module), []).append(fn)
        cached = (ws.version, by_module)
        ws.cache["discovery"] = cached
        ws.cache[_CLASSES] = (ws.version, discovery.classes)
    found: dict[int, list[CompiledFunction]] = cached[1]  # type: ignore[assignment]
    return found.get(id(module), [])


_CLASSES = "discovery classes"


def _class_table(ws: Workspace) -> ClassTable:
    """The class infos discovery built for this workspace version (the rules ask about the
    same classes), or a new table when discovery did not run at this version."""
    cached = ws.cache.get(_CLASSES)
    if cached is not None and cached[0] == ws.version:
        return cached[1]  # type: ignore[return-value]
    return ClassTable(ws)


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
    at = Range(line, col, line, col)
    return [_file_finding(FILE_DOES_NOT_PARSE.finding(at, detail=message), path)]
