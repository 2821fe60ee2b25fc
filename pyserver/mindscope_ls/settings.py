"""The `mindscope.graphMode.*` settings, parsed leniently: bad values fall back to defaults."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mindscope_ls.checker import Severity

_CODE = re.compile(r"^MS\d{3}$")
_SEVERITIES = {s.value: s for s in Severity}


@dataclass(frozen=True)
class GraphModeSettings:
    enabled: bool = True
    # The level assumed when a file sets none (MindSpore's own default is LAX).
    syntax_level: str = "LAX"
    disabled: frozenset[str] = frozenset()
    severities: dict[str, Severity] = field(default_factory=dict)
    debounce_ms: int = 300


def parse_graph_mode(raw: Any) -> GraphModeSettings:
    """Reads `{"enabled", "syntaxLevel", "rules": {"MS301": "off"|"hint"|...}, "debounceMs"}`."""
    if not isinstance(raw, dict):
        return GraphModeSettings()
    enabled = raw.get("enabled", True)
    level = str(raw.get("syntaxLevel", "LAX")).upper()
    debounce = raw.get("debounceMs", 300)
    disabled: set[str] = set()
    severities: dict[str, Severity] = {}
    rules = raw.get("rules", {})
    for code, value in rules.items() if isinstance(rules, dict) else []:
        if not isinstance(code, str) or not _CODE.match(code) or not isinstance(value, str):
            continue
        if value == "off":
            disabled.add(code)
        elif value in _SEVERITIES:
            severities[code] = _SEVERITIES[value]
    return GraphModeSettings(
        enabled=enabled if isinstance(enabled, bool) else True,
        syntax_level=level if level in ("LAX", "STRICT") else "LAX",
        disabled=frozenset(disabled),
        severities=severities,
        debounce_ms=debounce if isinstance(debounce, int) and 0 <= debounce <= 5000 else 300,
    )
