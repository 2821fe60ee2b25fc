"""MindSpore is imported lazily: the kernel starts without it and never forces the import."""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType
from typing import Optional

HIDE_ENV = "MINDSCOPE_HIDE_MINDSPORE"  # tests: behave as if MindSpore were not installed
MISSING_NOTICE = (
    "MindScope: MindSpore is not installed in this environment; "
    "running as a plain Python kernel (MindSpore magics are disabled)."
)


def available() -> bool:
    if os.environ.get(HIDE_ENV):
        return False
    try:
        return importlib.util.find_spec("mindspore") is not None
    except (ImportError, ValueError):
        return False


def loaded() -> Optional[ModuleType]:
    """The MindSpore module if user code already imported it, else None (never imports)."""
    return sys.modules.get("mindspore")


def require() -> ModuleType:
    """Import MindSpore for a magic that needs it; a one-line error if it is missing."""
    if not available():
        raise RuntimeError("MindSpore is not installed in this kernel's environment")
    import mindspore

    module: ModuleType = mindspore
    return module


def mode_name(ms: ModuleType) -> str:
    return "graph" if ms.get_context("mode") == ms.GRAPH_MODE else "pynative"


def set_mode(ms: ModuleType, name: str) -> None:
    ms.set_context(mode=ms.GRAPH_MODE if name == "graph" else ms.PYNATIVE_MODE)
