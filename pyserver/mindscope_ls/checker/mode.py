"""Severity follows the mode that runs the code: graph-mode findings in code that surely runs
in PyNative are shown as information, with why, instead of errors.

MindSpore 2.x runs in PYNATIVE_MODE unless something sets GRAPH_MODE, but a library module
rarely says which mode runs it: without evidence a finding stays what its rule says. The
evidence, read from the code (pure `ast`) and from what the user declares:

- compiled for sure: an `@jit` function, a function or Cell passed to `jit(...)`, the methods
  of such a Cell, code of a file that may set GRAPH_MODE, and whatever they call;
- PyNative for sure: a file whose every `set_context(mode=...)` says PYNATIVE_MODE, a file
  with a `# mindscope: pynative` comment line, or a path matching one of the user's globs
  (`[tool.mindscope] pynative`, `--pynative`, `mindscope.graphMode.pynativeOnly`).

A compiled-for-sure function wins over a PyNative file (`@jit` code in a PyNative file stays
an error); a file that may set GRAPH_MODE is never PyNative for sure, whatever it declares.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from fnmatch import fnmatchcase
from typing import Optional

from .engine import compiled_in
from .index.module import ModuleInfo
from .index.workspace import Workspace
from .model import Finding, Group, Severity
from .rules.helpers import names
from .rules.helpers.discovery import CompiledFunction
from .rules.helpers.walk import of_type

GRAPH = "GRAPH_MODE"
PYNATIVE = "PYNATIVE_MODE"
_MODE_BY_INT = {0: GRAPH, 1: PYNATIVE}
# A comment line of its own, like `# mindscope: ignore-file[...]` (suppress.py).
PYNATIVE_COMMENT = re.compile(r"^[ \t]*#[ \t]*mindscope:[ \t]*pynative[ \t]*$", re.MULTILINE)
# What graph mode would do: fail (MS1xx, MS2xx) or compute something else (MS3xx).
_LOWERED = {Group.FAILS.value: "fail", Group.STRICT.value: "fail", Group.DIVERGES.value: "differ"}
_MAX_CALLERS = 2000  # callers walked up before giving up (then: not PyNative for sure)


def mode_settings(module: ModuleInfo) -> list[tuple[ast.Call, tuple[str, ...]]]:
    """Each `set_context(mode=...)` call of `module` and the modes it may set (() when its
    value is computed at run time), in source order."""
    if module.tree is None or "set_context" not in module.source:
        return []
    found: list[tuple[ast.Call, tuple[str, ...]]] = []
    for call in of_type(module.tree, ast.Call):
        name = module.qualname(call.func) or ""
        if not name.startswith("mindspore") or name.rsplit(".", 1)[-1] != "set_context":
            continue
        value = names.keyword(call, "mode")
        if value is not None:
            found.append((call, modes_of(module, value)))
    return found


def modes_of(module: ModuleInfo, expr: ast.expr) -> tuple[str, ...]:
    """The modes an expression can denote: `ms.GRAPH_MODE`, `0`, `A if c else B`; () if unknown."""
    if isinstance(expr, ast.IfExp):
        body, orelse = modes_of(module, expr.body), modes_of(module, expr.orelse)
        return tuple(dict.fromkeys(body + orelse)) if body and orelse else ()
    if isinstance(expr, ast.Constant):
        value = expr.value
        if isinstance(value, int) and not isinstance(value, bool) and value in _MODE_BY_INT:
            return (_MODE_BY_INT[value],)
        return ()
    name = module.qualname(expr) or ""
    last = name.rsplit(".", 1)[-1]
    return (last,) if name.startswith("mindspore") and last in (GRAPH, PYNATIVE) else ()


def absolute_globs(globs: Iterable[str], root: str) -> tuple[str, ...]:
    """`globs` as patterns of absolute paths: relative ones are relative to `root`. `*` matches
    across folders (`fnmatch`), so `models/**` is every file under `models/`."""
    base = os.path.abspath(root)
    out = []
    for glob in globs:
        pattern = glob.strip().replace("\\", "/")
        if pattern:
            joined = pattern if os.path.isabs(pattern) else f"{base}/{pattern}"
            out.append(os.path.normpath(joined) + ("/*" if pattern.endswith("/") else ""))
    return tuple(out)


def pynative_reason(module: ModuleInfo, globs: Sequence[str]) -> Optional[str]:
    """Why `module` surely runs in PyNative, or None (it may be compiled, or nothing says)."""
    settings = mode_settings(module)
    if any(modes != (PYNATIVE,) for _, modes in settings):
        return None  # GRAPH_MODE, or a mode chosen at run time: may be compiled
    if PYNATIVE_COMMENT.search(module.source):
        return "# mindscope: pynative"
    if globs and module.path[:1] != "<":
        path = os.path.abspath(module.path)
        for glob in globs:
            if fnmatchcase(path, glob):
                return f"pynative glob {glob}"
    if settings:
        return f"set_context(mode=PYNATIVE_MODE) at line {settings[-1][0].lineno}"
    return None


def apply_mode(
    findings: list[Finding], ws: Workspace, path: str, globs: Sequence[str]
) -> list[Finding]:
    """`findings` of `path`, graph-mode ones lowered to information where the code surely runs
    in PyNative. Cheap when nothing is to lower: most checks return no such finding."""
    if not any(_lowerable(f) for f in findings):
        return findings
    module = ws.get(path)
    if module is None or module.tree is None:
        return findings
    why = pynative_reason(module, globs)
    if why is None:
        return findings
    evidence = _Evidence(ws)
    out = []
    for finding in findings:
        if _lowerable(finding) and not evidence.compiled_at(module, finding.line):
            verb = _LOWERED[finding.group]
            finding = as_information(
                finding, f"runs in PyNative here ({why}); would {verb} under GRAPH_MODE: "
            )
        out.append(finding)
    return out


def as_information(finding: Finding, why: str) -> Finding:
    """`finding` shown as information, its message prefixed with why (the mode, the device)."""
    return replace(finding, severity=Severity.INFORMATION, message=why + finding.message)


def _lowerable(finding: Finding) -> bool:
    return finding.group in _LOWERED and finding.severity in (Severity.ERROR, Severity.WARNING)


class _Evidence:
    """Whether the compiled function holding a line is compiled for sure: it, or any compiled
    function whose calls resolve to it (not only the one caller discovery recorded)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._jit: dict[int, frozenset[str]] = {}

    def compiled_at(self, module: ModuleInfo, line: int) -> bool:
        start = self._holding(module, line)
        todo = [start] if start is not None else []
        seen: set[int] = set()
        while todo:
            fn = todo.pop()
            if id(fn.node) in seen:
                continue
            seen.add(id(fn.node))
            if self._for_sure(fn) or len(seen) > _MAX_CALLERS:
                return True  # compiled, or too many callers to claim PyNative
            todo.extend(self._callers(fn))
        return False

    def _callers(self, fn: CompiledFunction) -> list[CompiledFunction]:
        named = _callers_by_name(self.ws).get(fn.node.name, ())
        found = [g for g in named if g is not fn and self._calls(g, fn)]
        caller = fn.caller  # the one discovery recorded (a sub-Cell's construct: by attribute)
        calling = self.ws.get(caller.path) if caller is not None else None
        if caller is not None and calling is not None:
            held = self._holding(calling, getattr(caller.node, "lineno", 0))
            found += [held] if held is not None else []
        return found

    def _calls(self, g: CompiledFunction, fn: CompiledFunction) -> bool:
        """Whether a call of `g` resolves to `fn` (as discovery resolves it)."""
        for plan in g.facts().calls:
            kind, name = plan.target
            if name.rsplit(".", 1)[-1] != fn.node.name:
                continue
            if kind == "local" and g.module is fn.module:
                return True
            if kind == "self" and g.cls is not None:
                found = g.cls.find_method(name)
                if found is not None and found[1] is fn.node:
                    return True
            if kind == "global":
                resolved = self.ws.resolve_function(name)
                if resolved is not None and resolved[1] is fn.node:
                    return True
        return False

    def _holding(self, module: ModuleInfo, line: int) -> Optional[CompiledFunction]:
        """The innermost compiled function of `module` whose lines hold `line`."""
        best: Optional[CompiledFunction] = None
        for fn in compiled_in(self.ws, module):  # discovery, cached per workspace version
            node = fn.node
            holds = node.lineno <= line <= (node.end_lineno or node.lineno)
            if holds and (best is None or node.lineno >= best.node.lineno):
                best = fn
        return best

    def _for_sure(self, fn: CompiledFunction) -> bool:
        module = fn.module
        if any(GRAPH in modes or not modes for _, modes in mode_settings(module)):
            return True
        if any(names.is_jit(module, deco) for deco in fn.node.decorator_list):
            return True
        targets = self._jit_targets(module)
        if fn.cls is not None and fn.cls.name in targets:
            return True
        return fn.cls is None and fn.node.name in targets

    def _jit_targets(self, module: ModuleInfo) -> frozenset[str]:
        cached = self._jit.get(id(module))
        if cached is None:
            cached = self._jit[id(module)] = jit_targets(module)
        return cached


def _callers_by_name(ws: Workspace) -> dict[str, list[CompiledFunction]]:
    """The compiled functions of `ws` by the last part of each name they call; built once per
    workspace version, and only when a PyNative file has a finding to lower."""
    cached = ws.cache.get("mode-callers")
    if cached is not None and cached[0] == ws.version:
        return cached[1]  # type: ignore[return-value]
    index: dict[str, list[CompiledFunction]] = {}
    for module in ws.modules():
        for fn in compiled_in(ws, module):
            for plan in fn.facts().calls:
                index.setdefault(plan.target[1].rsplit(".", 1)[-1], []).append(fn)
    ws.cache["mode-callers"] = (ws.version, index)
    return index


def jit_targets(module: ModuleInfo) -> frozenset[str]:
    """Names of functions and Cell classes `module` passes to `jit(...)`: `jit(fn)`,
    `jit(Net)`, `jit(Net())`, `jit(net)` / `jit(net.construct)` where `net = Net(...)`."""
    if module.tree is None or "jit" not in module.source:
        return frozenset()
    built: dict[str, str] = {}  # variable -> the class it was built from
    passed: set[str] = set()
    for node in of_type(module.tree, ast.Assign, ast.Call):
        if isinstance(node, ast.Assign):
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        built[target.id] = value.func.id
        elif isinstance(node, ast.Call) and node.args and names.is_jit(module, node):
            arg = node.args[0]
            if isinstance(arg, ast.Attribute) and arg.attr == "construct":
                arg = arg.value
            if isinstance(arg, ast.Call):  # jit(Net(...))
                arg = arg.func
            if isinstance(arg, ast.Name):
                passed.add(arg.id)
    return frozenset(passed | {built[name] for name in passed if name in built})
