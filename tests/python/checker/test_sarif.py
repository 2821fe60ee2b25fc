"""`mindscope check --format sarif`: a SARIF 2.1.0 log, checked against the spec's requirements
(the properties it marks required, enumerations, ranges and cross-references)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from mindscope_ls.checker.output.cli import run_check

SOURCE = """from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x
        return y


class Other(nn.Cell):
    def construct(self, x):
        s = {1, 2}
        return x * len(s)
"""
LEVELS = {"none", "note", "warning", "error"}
URI_REFERENCE = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$")


def _sarif(tmp_path: Path, name: str = "my net.py") -> tuple[int, dict[str, Any]]:
    (tmp_path / name).write_text(SOURCE)
    out = io.StringIO()
    status = run_check([str(tmp_path)], "LAX", "sarif", out)
    return status, json.loads(out.getvalue())


def _check_region(region: dict[str, Any]) -> None:
    assert region["startLine"] >= 1 and region["startColumn"] >= 1
    assert region["endLine"] >= region["startLine"] and region["endColumn"] >= 1
    if region["endLine"] == region["startLine"]:
        assert region["endColumn"] >= region["startColumn"]


def _check_location(location: dict[str, Any], bases: dict[str, Any]) -> None:
    physical = location["physicalLocation"]
    artifact = physical["artifactLocation"]
    assert URI_REFERENCE.match(artifact["uri"]), artifact
    if "uriBaseId" in artifact:
        assert artifact["uriBaseId"] in bases and not artifact["uri"].startswith("/")
    else:
        assert artifact["uri"].startswith("file://")
    _check_region(physical["region"])


def test_sarif_log_has_what_the_spec_requires(tmp_path: Path) -> None:
    status, log = _sarif(tmp_path)
    assert status == 1
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert isinstance(driver["name"], str) and driver["name"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert len(ids) == len(set(ids)) and "MS113" in ids
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in LEVELS
    bases = run["originalUriBaseIds"]
    for base in bases.values():
        assert base["uri"].startswith("file:///") and base["uri"].endswith("/")
    assert run["columnKind"] in ("utf16CodeUnits", "unicodeCodePoints")
    assert {r["ruleId"] for r in run["results"]} == {"MS111", "MS113"}
    for result in run["results"]:
        assert result["message"]["text"] and result["level"] in LEVELS
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        for location in result["locations"]:
            _check_location(location, bases)
        related = result.get("relatedLocations", [])
        assert len({r["id"] for r in related}) == len(related)
        for location in related:
            assert location["id"] >= 0 and location["message"]["text"]
            _check_location(location, bases)


def test_sarif_locations_point_at_the_finding(tmp_path: Path) -> None:
    _, log = _sarif(tmp_path)
    (result,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "MS113"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "my%20net.py"
    assert location["region"] == {"startLine": 8, "startColumn": 16, "endLine": 8, "endColumn": 17}


def test_sarif_without_findings_is_a_valid_empty_run(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    out = io.StringIO()
    assert run_check([str(tmp_path)], "LAX", "sarif", out) == 0
    log = json.loads(out.getvalue())
    assert log["runs"][0]["results"] == []
