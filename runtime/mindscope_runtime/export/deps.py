"""The optional packages of the `runtime` extra: one clear line when they are missing."""

from __future__ import annotations

from types import ModuleType

from mindscope_runtime.errors import RuntimeToolError, one_line

INSTALL_HINT = "pip install 'mindscope[runtime]' (or: pip install onnx onnxruntime)"


def _require(name: str) -> ModuleType:
    try:
        module = __import__(name)
    except ImportError as exc:
        raise RuntimeToolError(
            "dependency-missing",
            f"{name} is not installed in this interpreter ({one_line(str(exc), 120)}): "
            f"install onnxruntime: {INSTALL_HINT}",
        ) from exc
    return module


def onnx() -> ModuleType:
    return _require("onnx")


def onnxruntime() -> ModuleType:
    return _require("onnxruntime")
