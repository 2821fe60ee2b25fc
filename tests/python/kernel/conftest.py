"""One MindScope kernel per test module (kernels are slow to start next to MindSpore)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .kclient import Kernel, install_spec


@pytest.fixture(scope="module")
def spec_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return install_spec(tmp_path_factory.mktemp("spec"), "mindscope-test")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


@pytest.fixture(scope="module")
def kernel(spec_dir: Path, workspace: Path) -> Iterator[Kernel]:
    running = Kernel(spec_dir, workspace)
    yield running
    running.close()
