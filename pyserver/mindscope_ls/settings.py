"""Typed settings: the initialization options the extension sends and the
`mindscope.graphMode.*` configuration. A value of the wrong type or out of range falls back to
its default and is named in `problems` (the server shows them to the user), never dropped
silently."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from mindscope_ls.checker import DEVICES, LEVELS, Severity, device_name

_CODE = re.compile(r"^MS\d{3,4}$")  # MS1000+: a group past its hundred codes
_SEVERITIES = {s.value: s for s in Severity}
_LOG_LEVELS = ("debug", "info", "warning", "error")
MAX_DEBOUNCE_MS = 5000


@dataclass(frozen=True)
class ServerOptions:
    # Warm jedi's cache of MindSpore in the background so the first `nn.` is fast.
    warm_up: bool = True
    log_level: str = "info"


@dataclass(frozen=True)
class GraphModeSettings:
    enabled: bool = True
    # The level assumed when a file sets none (MindSpore's own default is LAX).
    syntax_level: str = "LAX"
    disabled: frozenset[str] = frozenset()
    severities: dict[str, Severity] = field(default_factory=dict)
    debounce_ms: int = 300
    # Globs of files that run in PyNative only, relative to each workspace folder (or absolute).
    pynative_only: tuple[str, ...] = ()
    # The device the code runs on ("CPU", "GPU", "Ascend"), or None: what the file sets.
    device: Optional[str] = None


def parse_options(raw: Any, problems: Optional[list[str]] = None) -> ServerOptions:
    """Reads what the client sent; unknown keys are ignored, wrong values fall back."""
    said = problems if problems is not None else []
    if not isinstance(raw, dict):
        return ServerOptions()
    warm_up = raw.get("warmUp", True)
    log_level = raw.get("logLevel", "info")
    if not isinstance(warm_up, bool):
        said.append(_bad("initializationOptions.warmUp", warm_up, "true or false", True))
        warm_up = True
    if log_level not in _LOG_LEVELS:
        said.append(
            _bad("initializationOptions.logLevel", log_level, "/".join(_LOG_LEVELS), "info")
        )
        log_level = "info"
    return ServerOptions(warm_up=warm_up, log_level=log_level)


def parse_graph_mode(raw: Any, problems: Optional[list[str]] = None) -> GraphModeSettings:
    """Reads `{"enabled", "syntaxLevel", "rules": {"MS301": "off"|"hint"|...}, "debounceMs",
    "pynativeOnly": ["glob", ...], "device": "auto"|"CPU"|"GPU"|"Ascend"}`."""
    said = problems if problems is not None else []
    if raw is None:
        return GraphModeSettings()
    if not isinstance(raw, dict):
        said.append(_bad("mindscope.graphMode", raw, "an object", "the defaults"))
        return GraphModeSettings()
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        said.append(_bad("mindscope.graphMode.enabled", enabled, "true or false", True))
        enabled = True
    level = raw.get("syntaxLevel", "LAX")
    if not isinstance(level, str) or level.strip().upper() not in LEVELS:
        said.append(_bad("mindscope.graphMode.syntaxLevel", level, "/".join(LEVELS), "LAX"))
        level = "LAX"
    debounce = raw.get("debounceMs", 300)
    if not isinstance(debounce, int) or isinstance(debounce, bool):
        said.append(_bad("mindscope.graphMode.debounceMs", debounce, "a whole number", 300))
        debounce = 300
    elif not 0 <= debounce <= MAX_DEBOUNCE_MS:
        said.append(_bad("mindscope.graphMode.debounceMs", debounce, f"0-{MAX_DEBOUNCE_MS}", 300))
        debounce = 300
    disabled, severities = _rules(raw.get("rules", {}), said)
    pynative = raw.get("pynativeOnly", [])
    if not isinstance(pynative, list) or not all(isinstance(g, str) for g in pynative):
        said.append(_bad("mindscope.graphMode.pynativeOnly", pynative, "a list of globs", "[]"))
        pynative = []
    device = raw.get("device", "auto")
    named = device_name(device) if isinstance(device, str) else None
    if named is None and device != "auto":
        choices = "auto/" + "/".join(DEVICES)
        said.append(_bad("mindscope.graphMode.device", device, choices, "auto"))
    return GraphModeSettings(
        enabled=enabled,
        syntax_level=level.strip().upper(),
        disabled=frozenset(disabled),
        severities=severities,
        debounce_ms=debounce,
        pynative_only=tuple(pynative),
        device=named,
    )


def _rules(rules: Any, said: list[str]) -> tuple[set[str], dict[str, Severity]]:
    disabled: set[str] = set()
    severities: dict[str, Severity] = {}
    if not isinstance(rules, dict):
        said.append(_bad("mindscope.graphMode.rules", rules, "an object", "no overrides"))
        return disabled, severities
    choices = ["off", *_SEVERITIES]
    for code, value in rules.items():
        name = f"mindscope.graphMode.rules.{code}"
        if not isinstance(code, str) or not _CODE.match(code):
            said.append(f"{name}: not a rule code (MS followed by three digits); ignored")
        elif value == "off":
            disabled.add(code)
        elif isinstance(value, str) and value in _SEVERITIES:
            severities[code] = _SEVERITIES[value]
        else:
            said.append(_bad(name, value, "/".join(choices), "the rule's own severity"))
    return disabled, severities


def _bad(name: str, value: Any, expected: str, default: Any) -> str:
    shown = repr(value) if not isinstance(value, bool) else str(value).lower()
    if isinstance(default, bool):
        default = str(default).lower()
    return f"{name}: {shown[:40]} is not {expected}; using {default}"
