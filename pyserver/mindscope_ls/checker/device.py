"""The device the code runs on: findings of rules that fail only for want of a CPU kernel
(`Rule.cpu_only`: MS178 `exp_()`, MS179 `cumsum(dim=...)`) are information on Ascend.

The ops those rules name (`InplaceExp`, `CumsumExt`, `Chunk`, ...) are the PyTorch-style ops
MindSpore 2.10 implements for Ascend first; CPU graph mode has no kernel for them (measured),
so the same code is meant to compile for an Ascend user. GPU is not assumed to have them: the
findings stay errors there. The device comes from what the user declares
(`--device`, `[tool.mindscope] device`, `mindscope.graphMode.device`) or, when nothing is
declared, from the file: every `set_context(device_target=...)` / `set_device(...)` it makes
naming the same device. Without either the findings stay errors: MindSpore's default device is
the one installed, and the checker's facts were measured on CPU.
"""

from __future__ import annotations

import ast
from typing import Optional

from .index.module import ModuleInfo
from .index.workspace import Workspace
from .mode import as_information
from .model import Finding, Severity
from .registry import RULES
from .rules.helpers import names
from .rules.helpers.walk import of_type

DEVICES = ("CPU", "GPU", "Ascend")


def device_name(text: str) -> Optional[str]:
    """`text` as one of DEVICES (any case), or None."""
    return next((d for d in DEVICES if d.lower() == text.strip().lower()), None)


def file_device(module: ModuleInfo) -> Optional[tuple[str, int]]:
    """The device every `set_context(device_target=...)` / `set_device(...)` of the file names,
    with the line of the last one; None when it names none, several, or one computed at run
    time."""
    source = module.source
    if module.tree is None or ("device_target" not in source and "set_device" not in source):
        return None
    found: list[tuple[Optional[str], int]] = []
    for call in of_type(module.tree, ast.Call):
        name = module.qualname(call.func) or ""
        if not name.startswith("mindspore"):
            continue
        last = name.rsplit(".", 1)[-1]
        value: Optional[ast.expr] = None
        if last == "set_context":
            value = names.keyword(call, "device_target")
        elif last == "set_device":
            value = call.args[0] if call.args else names.keyword(call, "device_target")
        else:
            continue
        if value is None:
            continue
        text = value.value if isinstance(value, ast.Constant) else None
        found.append((device_name(text) if isinstance(text, str) else None, call.lineno))
    device, line = found[-1] if found else (None, 0)
    if device is None or any(d != device for d, _ in found):
        return None
    return device, line


def apply_device(
    findings: list[Finding], ws: Workspace, path: str, declared: Optional[str]
) -> list[Finding]:
    """`findings` of `path`, the CPU-only ones lowered to information where the code runs on
    Ascend (declared, or set by the file)."""
    if not any(_cpu_only(f) for f in findings):
        return findings
    why: Optional[str] = None
    device = device_name(declared) if declared else None
    if device is not None:
        why = "the declared device"
    else:
        module = ws.get(path)
        set_here = file_device(module) if module is not None else None
        if set_here is not None:
            device, line = set_here
            why = f"set at line {line}"
    if device != "Ascend":
        return findings
    out = []
    for finding in findings:
        if _cpu_only(finding):
            prefix = f"runs on {device} here ({why}); fails where the CPU kernel is missing: "
            finding = as_information(finding, prefix)
        out.append(finding)
    return out


def _cpu_only(finding: Finding) -> bool:
    rule = RULES.get(finding.code)
    return rule is not None and rule.cpu_only and finding.severity is Severity.ERROR
