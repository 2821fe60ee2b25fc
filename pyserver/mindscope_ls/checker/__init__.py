"""MindScope's graph-mode checker: predicts GRAPH_MODE compile failures and silent divergences.

Pure `ast`: it never imports MindSpore or the code it checks.

    ws = Workspace.from_folder(root)
    findings = check_source(text, "net.py", level=SyntaxLevel.LAX, workspace=ws)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Optional

from mindscope_ls.infra.gcpause import gc_paused

from .device import DEVICES, apply_device, device_name
from .engine import compiled_in, crash_finding, run_checks
from .incremental.scratch import ScratchWorkspaces
from .index.module import ModuleInfo
from .index.sources import Unread, read_source, read_text, split_lines
from .index.workspace import SKIP_DIRS, Workspace
from .levels import DEFAULT_LEVEL, LEVELS, file_level, level_set_by, normalize_level
from .mode import absolute_globs, apply_mode, mode_settings, modes_of
from .model import Finding, Fix, Group, Range, Related, Severity, SyntaxLevel, TextEdit
from .output.sarif import sarif_log
from .registry import RULES
from .rule import Rule
from .rules.helpers import names
from .rules.helpers.classes import ClassTable
from .rules.helpers.discovery import CompiledFunction
from .rules.helpers.walk import of_type
from .rules.statements import UNSUPPORTED_SYNTAX
from .suppress import suppressed

# What code outside the checker may use: it imports these names from here, never a submodule.
__all__ = [
    "DEFAULT_LEVEL",
    "DEVICES",
    "LEVELS",
    "RULES",
    "SKIP_DIRS",
    "UNSUPPORTED_SYNTAX",
    "ClassTable",
    "CompiledFunction",
    "Finding",
    "Fix",
    "Group",
    "ModuleInfo",
    "Range",
    "Related",
    "Rule",
    "Severity",
    "SyntaxLevel",
    "TextEdit",
    "Unread",
    "Workspace",
    "absolute_globs",
    "check_source",
    "compiled_in",
    "device_name",
    "file_level",
    "forget_scratch",
    "level_set_by",
    "mode_settings",
    "modes_of",
    "names",
    "normalize_level",
    "of_type",
    "read_source",
    "read_text",
    "sarif_log",
    "split_lines",
    "suppressed",
]


def check_source(
    source: str,
    path: str = "<string>",
    *,
    level: Optional[str] = None,
    workspace: Optional[Workspace] = None,
    report_parse_errors: bool = False,
    disabled: Iterable[str] = (),
    severities: Optional[Mapping[str, Severity]] = None,
    pynative: Sequence[str] = (),
    device: Optional[str] = None,
) -> list[Finding]:
    """Findings for `source` (the text of `path`), never raising.

    `level` is the syntax level to assume when the file sets none (LAX by default). With a
    `workspace`, `source` replaces that file's indexed text and other files are used to resolve
    base classes and helpers. `disabled` drops rules by code, `severities` overrides them.
    Suppression comments (`# mindscope: ignore[CODE]`) are applied. A crash of the checker is
    a finding (MS001) that says what was not checked, never an empty list. Lines are 1-based and
    columns 0-based, counted in characters (code points). Without a `workspace` the file is
    checked on its own (what it keeps for the next check of `path` does not change findings).
    Graph-mode findings in code that surely runs in PyNative are information (mode.py);
    `pynative` are absolute path globs the user declares PyNative-only (`absolute_globs`);
    `device` the device the user declares (CPU, GPU, Ascend): on another device than CPU,
    failures for want of a CPU kernel are information (device.py).
    """
    run = partial(
        run_checks,
        source,
        path,
        level=level,
        report_parse_errors=report_parse_errors,
        disabled=disabled,
        severities=severities,
    )
    try:
        # A cold check allocates ~100,000 objects (the tree, its indexes, the results) and frees
        # almost none of them: the collections they trigger, full ones included, walk them to
        # no effect (a sixth of a cold check's instructions, more of its time: cache misses).
        # Nothing it builds is garbage that must go at once; `gc_paused` also decides what the
        # server keeps frozen.
        with gc_paused():
            if workspace is not None:
                found = apply_mode(run(workspace=workspace), workspace, path, pynative)
                return apply_device(found, workspace, path, device)
            with _SCRATCH.use(path) as scratch:
                found = apply_mode(run(workspace=scratch), scratch, path, pynative)
                return apply_device(found, scratch, path, device)
    except Exception as error:  # the checker must never take its host down, nor hide a crash
        return [crash_finding(path, error)]


_SCRATCH = ScratchWorkspaces()


def forget_scratch(path: str) -> None:
    """Drops what was kept to re-check `path` on its own (its document was closed)."""
    _SCRATCH.forget(path)
