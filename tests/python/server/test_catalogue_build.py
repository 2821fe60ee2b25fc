"""The committed catalogue is what the builder makes from the installed MindSpore (slow)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mindscope_ls.catalogue.load import DATA_DIR

pytest.importorskip("mindspore")

SUBSET = ("mindspore", "mindspore.nn", "mindspore.ops", "mindspore.mint")  # MODULES order


def _committed(version: str) -> dict[str, Any]:
    with gzip.open(DATA_DIR / f"mindspore-{version}.json.gz") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


@pytest.mark.slow
def test_rebuilt_subset_matches_the_committed_data(tmp_path: Path) -> None:
    code = (
        "import json, logging, sys, warnings\n"
        "logging.disable(logging.WARNING); warnings.simplefilter('ignore')\n"
        "from mindscope_ls.catalogue.build.writer import build\n"
        f"data = build(modules={SUBSET!r}, classes=('mindspore.Tensor',))\n"
        "data.pop('docs')\n"
        "json.dump(data, sys.stdout)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    fresh = json.loads(out.stdout)
    committed = _committed(fresh["mindspore"])
    for namespace in (*SUBSET, "mindspore.Tensor"):
        assert fresh["namespaces"][namespace] == committed["namespaces"][namespace], namespace
        for ident in fresh["namespaces"][namespace].values():
            assert fresh["entries"][ident] == committed["entries"][ident], ident


@pytest.mark.slow
def test_graph_mode_flags_hold_when_compiled(tmp_path: Path) -> None:
    """Spot checks: an API flagged usable compiles in construct; Parameter() inside fails."""
    committed = _committed("2.10.0")
    entries = committed["entries"]
    assert entries["mindspore.ops.function.math_func.matmul"]["g"] is True
    assert entries["mindspore.common.parameter.Parameter"]["g"] is False
    script = tmp_path / "graph_check.py"
    script.write_text(
        "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn, ops\n"
        "ms.set_context(mode=ms.GRAPH_MODE)\n"
        "class Ok(nn.Cell):\n    def construct(self, x):\n        return ops.matmul(x, x).sum()\n"
        "class Bad(nn.Cell):\n    def construct(self, x):\n"
        "        p = ms.Parameter(x, name='p')\n        return p\n"
        "x = ms.Tensor(np.ones((2, 2), np.float32))\nprint('ok', Ok()(x))\n"
        "try:\n    Bad()(x)\n    print('bad compiled')\n"
        "except Exception:\n    print('bad failed')\n"
    )
    # A failed compile writes rank_0/ into the working directory: keep it in tmp_path.
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert "ok" in out.stdout and "bad failed" in out.stdout, out.stdout + out.stderr
