"""What a Tensor, a Parameter and an `nn.Cell` carry: every public member of each, by kind.

usage: python probe_members.py   (prints one JSON object: kind -> member -> method | property |
attribute)

Run in its own process (MindSpore is imported here, never in the builder or the checker): the
members of the classes (`dir`) and the instance attributes a fresh `nn.Cell()` and
`Parameter(Tensor(...), name="w")` set in their `__init__`. A "method" is a plain function or
a builtin method of the class, a "property" a property or another descriptor computed on read,
an "attribute" an instance's (or class's) plain value. Names starting with `_` are left out.
"""

from __future__ import annotations

import inspect
import json
import os
from typing import Any


def _kind(cls: type, obj: Any, name: str) -> str:
    static = inspect.getattr_static(cls, name, None)
    if isinstance(static, property) or (
        static is not None
        and not callable(static)
        and hasattr(type(static), "__get__")
        and not isinstance(static, (staticmethod, classmethod))
        and not inspect.isroutine(static)
    ):
        return "property"
    if static is not None and (callable(static) or isinstance(static, (staticmethod, classmethod))):
        return "method"
    return "attribute"  # set on the instance (or a plain class-level value)


def members(cls: type, obj: Any) -> dict[str, str]:
    names = {n for n in dir(cls) if not n.startswith("_")}
    names |= {n for n in vars(obj) if not n.startswith("_")} if hasattr(obj, "__dict__") else set()
    return {name: _kind(cls, obj, name) for name in sorted(names)}


def probe() -> dict[str, dict[str, str]]:
    import mindspore as ms
    import numpy as np
    from mindspore import nn

    ms.set_context(mode=ms.PYNATIVE_MODE)
    tensor = ms.Tensor(np.ones((2,), np.float32))
    parameter = ms.Parameter(ms.Tensor(np.ones((2,), np.float32)), name="w")
    cell = nn.Cell()
    return {
        "tensor": members(ms.Tensor, tensor),
        "parameter": members(ms.Parameter, parameter),
        "cell": members(nn.Cell, cell),
    }


def main() -> None:
    real_stdout = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # MindSpore's own prints and warnings go to stderr
    print(json.dumps(probe(), sort_keys=True), file=real_stdout)


if __name__ == "__main__":
    main()
