"""Runnable deployment scripts written next to the artefacts, with the model's real input
and output names, shapes and dtypes. Each runs on random inputs of those shapes, or on .npy
files given on its command line, and prints every output's name, shape and dtype."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

JsonDict = dict[str, Any]

_COMMON = '''
import sys
from pathlib import Path

import numpy as np

MODEL = Path(__file__).with_name({model!r})
# name: (shape, dtype) of each input, as exported; a string is a symbolic (dynamic) dimension.
INPUTS = {inputs}
OUTPUTS = {outputs}


def load_inputs(argv):
    """The .npy files on the command line, in input order; else random data of the shapes."""
    if argv:
        return [np.load(path) for path in argv]
    rng = np.random.default_rng(0)
    arrays = []
    for shape, dtype in INPUTS.values():
        shape = [d if isinstance(d, int) else 1 for d in shape]
        if np.dtype(dtype).kind in "iub":
            arrays.append(rng.integers(0, 2 if dtype == "bool" else 10, size=shape).astype(dtype))
        else:
            arrays.append(rng.standard_normal(shape).astype(dtype))
    return arrays
'''

_ONNX = '''"""Inference with onnxruntime on {model} (written by MindScope's export).

    pip install onnxruntime numpy
    python {script} [input0.npy ...]
"""
{common}

def main(argv):
    import onnxruntime as ort

    session = ort.InferenceSession(str(MODEL), providers=["CPUExecutionProvider"])
    feeds = dict(zip(INPUTS, load_inputs(argv)))
    for name, value in zip(OUTPUTS, session.run(list(OUTPUTS), feeds)):
        print(f"{{name}}: shape={{list(value.shape)}} dtype={{value.dtype}}")


if __name__ == "__main__":
    main(sys.argv[1:])
'''

_MINDIR = '''"""Inference with MindSpore (ms.load + nn.GraphCell) on {model} (written by MindScope's
export).

    pip install mindspore "numpy<2"
    python {script} [input0.npy ...]
"""
{common}

def main(argv):
    import mindspore as ms

    ms.set_device("CPU")  # or "GPU" / "Ascend"
    net = ms.nn.GraphCell(ms.load(str(MODEL)))
    result = net(*[ms.Tensor(a) for a in load_inputs(argv)])
    values = result if isinstance(result, (tuple, list)) else [result]
    for name, value in zip(OUTPUTS, values):
        value = value.asnumpy()
        print(f"{{name}}: shape={{list(value.shape)}} dtype={{value.dtype}}")


if __name__ == "__main__":
    main(sys.argv[1:])
'''


def snippet_text(artefact: Path, fmt: str, inputs: list[JsonDict], outputs: list[JsonDict]) -> str:
    script = script_name(artefact)
    common = _COMMON.format(
        model=artefact.name,
        inputs=_literal({i["name"]: (i["shape"], i["dtype"]) for i in inputs}),
        outputs=_literal({o["name"]: (o["shape"], o["dtype"]) for o in outputs}),
    )
    template = _MINDIR if fmt == "MINDIR" else _ONNX
    return template.format(model=artefact.name, script=script, common=common)


def script_name(artefact: Path) -> str:
    return f"run_{artefact.stem.replace('.', '_')}_{artefact.suffix.lstrip('.')}.py"


def _literal(mapping: dict[str, Any]) -> str:
    """A Python literal (via JSON: names and dtypes are strings, shapes lists)."""
    return json.dumps(mapping, indent=4).replace("null", "None")
