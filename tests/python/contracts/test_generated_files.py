"""The generated TS contract types and settings reference match their one source.

`scripts/gen-contracts.mjs --check` regenerates extension/src/contracts/generated/ from
schemas/ in memory, `scripts/gen-settings-doc.mjs --check` regenerates docs/settings.md from
package.json; each exits 1 on drift. The copy tests show that an edit of the source fails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH")


def _run(root: Path, script: str) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run(
        [NODE, str(root / "scripts" / script), "--check"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _copy_tree(tmp_path: Path) -> Path:
    """The sources and generated files in a scratch checkout, sharing node_modules."""
    root = tmp_path / "repo"
    for name in ("scripts", "schemas", "docs"):
        shutil.copytree(ROOT / name, root / name)
    shutil.copytree(ROOT / "extension/src/contracts", root / "extension/src/contracts")
    for name in ("package.json", ".prettierrc.json"):
        shutil.copy(ROOT / name, root / name)
    (root / "node_modules").symlink_to(ROOT / "node_modules")
    return root


def test_contract_types_match_the_schemas() -> None:
    result = _run(ROOT, "gen-contracts.mjs")
    assert result.returncode == 0, result.stderr


def test_settings_doc_matches_package_json() -> None:
    result = _run(ROOT, "gen-settings-doc.mjs")
    assert result.returncode == 0, result.stderr


def test_settings_doc_lists_every_setting() -> None:
    settings = json.loads((ROOT / "package.json").read_text())["contributes"]["configuration"]
    page = (ROOT / "docs/settings.md").read_text()
    assert len(settings["properties"]) >= 6
    for key in settings["properties"]:
        assert f"### `{key}`" in page


def test_a_schema_edit_is_reported_as_drift(tmp_path: Path) -> None:
    root = _copy_tree(tmp_path)
    schema_path = root / "schemas/graph-document.schema.json"
    schema = json.loads(schema_path.read_text())
    schema["$defs"]["scope"]["properties"]["depth"] = {"type": "integer"}
    schema_path.write_text(json.dumps(schema))
    result = _run(root, "gen-contracts.mjs")
    assert result.returncode == 1
    assert "extension/src/contracts/generated/graphDocument.ts" in result.stderr


def test_a_setting_edit_is_reported_as_drift(tmp_path: Path) -> None:
    root = _copy_tree(tmp_path)
    pkg_path = root / "package.json"
    pkg = json.loads(pkg_path.read_text())
    pkg["contributes"]["configuration"]["properties"]["mindscope.graphMode.debounceMs"][
        "default"
    ] = 500
    pkg_path.write_text(json.dumps(pkg))
    result = _run(root, "gen-settings-doc.mjs")
    assert result.returncode == 1
    assert "docs/settings.md" in result.stderr
