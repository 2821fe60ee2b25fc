"""`export`: ms.export a Cell to MINDIR and/or ONNX, verify every artefact in a real runtime
(MindSpore GraphCell, onnxruntime), optionally quantize the ONNX model to int8, and write
deployment snippets and the export report document next to the artefacts."""

from __future__ import annotations

EXPORT_DOC_VERSION = 1
