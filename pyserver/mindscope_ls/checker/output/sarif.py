"""Findings as a SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), for CI."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional
from urllib.parse import quote

from ..levels import DEFAULT_LEVEL
from ..model import Finding, Range, Severity
from ..registry import RULES

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"
ROOT_ID = "%SRCROOT%"
LEVELS = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}


def sarif_log(
    findings: Sequence[Finding],
    root: Optional[str] = None,
    tool_version: str = "0.0.0",
    skipped: Sequence[str] = (),
) -> dict[str, Any]:
    """A SARIF log with one run: every rule of the catalog, and one result per finding. Paths
    under `root` (default: the current directory) are relative to `%SRCROOT%`. What the
    checker could not check (`skipped` paths, "path: why"; MS001 findings) goes in the
    invocation's notifications instead, and makes it unsuccessful."""
    base = os.path.abspath(root or os.getcwd())
    codes = sorted(RULES)
    index = {code: i for i, code in enumerate(codes)}
    unchecked = [f for f in findings if RULES[f.code].about_checker]
    notifications = [
        {"level": "error", "message": {"text": f"skipped {line}"}} for line in skipped
    ] + [
        {
            "level": "warning",
            "message": {"text": f.message},
            "locations": [_location(f.path, f.range, base)],
            "descriptor": {"id": f.code},
        }
        for f in unchecked
    ]
    return {
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mindscope",
                        "version": tool_version,
                        "rules": [_rule(code) for code in codes],
                    }
                },
                "originalUriBaseIds": {ROOT_ID: {"uri": Path(base).as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": [
                    _result(f, index, base) for f in findings if not RULES[f.code].about_checker
                ],
                "invocations": [
                    {
                        "executionSuccessful": not notifications,
                        "toolExecutionNotifications": notifications,
                    }
                ],
            }
        ],
    }


def _rule(code: str) -> dict[str, Any]:
    rule = RULES[code]
    level = LEVELS[rule.severity(DEFAULT_LEVEL)]
    return {
        "id": code,
        "name": code,
        "shortDescription": {"text": _plain(rule.title)},
        "fullDescription": {"text": rule.why},
        "help": {"text": rule.remedy},
        "defaultConfiguration": {"level": level},
        "properties": {"group": rule.group.value, "doc": rule.doc},
    }


def _result(finding: Finding, index: dict[str, int], base: str) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": index[finding.code],
        "level": LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [_location(finding.path, finding.range, base)],
    }
    if finding.related:
        result["relatedLocations"] = [
            {"id": i, **_location(r.path, r.range, base), "message": {"text": r.message}}
            for i, r in enumerate(finding.related)
        ]
    return result


def _location(path: str, rng: Range, base: str) -> dict[str, Any]:
    artifact: dict[str, Any]
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, base) if not path.startswith("<") else path
    if path.startswith("<") or relative.startswith(".."):
        artifact = {"uri": Path(absolute).as_uri()}
    else:
        artifact = {"uri": quote(relative.replace(os.sep, "/")), "uriBaseId": ROOT_ID}
    return {
        "physicalLocation": {
            "artifactLocation": artifact,
            "region": {
                "startLine": max(rng.line, 1),
                "startColumn": rng.col + 1,
                "endLine": max(rng.end_line, rng.line, 1),
                "endColumn": max(rng.end_col + 1, 1),
            },
        }
    }


def _plain(text: str) -> str:
    return text.replace("`", "")
