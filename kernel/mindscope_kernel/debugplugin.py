"""Make debugpy (already imported by ipykernel's debugger) load MindScope's Tensor views."""

from __future__ import annotations

import sys
from pathlib import Path

FOLDER = str(Path(__file__).parent / "pydevd_ext")


def register() -> bool:
    """Call after `debugpy.listen()`; True when the extension folder is on pydevd's path."""
    try:
        import pydevd_plugins.extensions as extensions  # type: ignore[import-not-found]
    except ImportError:
        return False
    if FOLDER not in extensions.__path__:
        extensions.__path__.append(FOLDER)
        manager = sys.modules.get("_pydevd_bundle.pydevd_extension_utils")
        if manager is not None:  # forget extensions loaded before ours
            manager.EXTENSION_MANAGER_INSTANCE.loaded_extensions = None
            manager.EXTENSION_MANAGER_INSTANCE.type_to_instance.clear()
    return True
