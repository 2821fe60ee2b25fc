"""`%ms_stats NAME [--input SHAPE:DTYPE …]`: parameters per Cell and, with inputs, output shapes.

The runtime has no `stats` command yet, so this runs in the kernel on the live Cell: the Cell
tree with parameter counts and bytes, and one forward pass (in the current mode) for the
output shapes and its wall time.
"""

from __future__ import annotations

import time
from typing import Any

from IPython.core.magic import Magics, line_magic, magics_class

from mindscope_kernel import display, msimport
from mindscope_kernel.magics.common import Parser, UsageError, fail, parse, show, user_ns
from mindscope_kernel.tensorview import is_tensor

PARSER = Parser(prog="%ms_stats", add_help=False)
PARSER.add_argument("name")
PARSER.add_argument("--input", action="append", default=[], metavar="SHAPE:DTYPE")


@magics_class
class StatsMagics(Magics):
    @line_magic
    def ms_stats(self, line: str) -> None:
        try:
            args = parse(PARSER, line)
            ms = msimport.require()
            cell = _live_cell(ms, eval(args.name, user_ns(self)), args.name)
            inputs = _inputs(args.input)
        except (UsageError, RuntimeError, NameError, SyntaxError) as exc:
            return fail(str(exc))
        show(stats_bundle(stats_document(ms, cell, args.name, inputs)))
        return None


def _live_cell(ms: Any, obj: Any, name: str) -> Any:
    if isinstance(obj, ms.nn.Cell):
        return obj
    if isinstance(obj, type) and issubclass(obj, ms.nn.Cell):
        try:
            return obj()
        except TypeError as exc:
            raise UsageError(f"{name}() needs arguments: pass an instance instead") from exc
    raise UsageError(f"{name} is a {type(obj).__name__}, not a Cell or Cell class")


def _inputs(specs: list[str]) -> list[Any]:
    from mindscope_runtime.errors import RuntimeToolError
    from mindscope_runtime.inputs import make_tensors, parse_input_spec

    try:
        return list(make_tensors([parse_input_spec(s) for s in specs]))
    except RuntimeToolError as exc:
        raise UsageError(exc.message) from exc


def stats_document(ms: Any, cell: Any, name: str, inputs: list[Any]) -> dict[str, Any]:
    from mindscope_runtime.msenv import cell_infos

    cells = []
    for info in cell_infos(cell):
        cells.append(
            {
                "path": info.path or name,
                "cellType": info.cell_type,
                "params": info.param_count,
                "paramTensors": info.param_tensors,
            }
        )
    params = list(cell.get_parameters())
    total = sum(int(p.size) for p in params)
    nbytes = sum(int(p.size) * int(p.itemsize) for p in params)
    document: dict[str, Any] = {
        "kind": "mindscope.stats",
        "version": 1,
        "target": name,
        "cellType": type(cell).__name__,
        "mindsporeVersion": ms.__version__,
        "mode": "GRAPH_MODE" if msimport.mode_name(ms) == "graph" else "PYNATIVE_MODE",
        "parameters": total,
        "trainable": sum(int(p.size) for p in params if p.requires_grad),
        "parameterBytes": nbytes,
        "cells": cells,
        "inputs": [_describe(t) for t in inputs],
        "outputs": [],
    }
    if inputs:
        started = time.perf_counter()
        out = cell(*inputs)
        document["forwardMs"] = round(1000 * (time.perf_counter() - started), 3)
        document["outputs"] = [_describe(t) for t in _flatten(out)]
    return document


def _describe(tensor: Any) -> dict[str, Any]:
    return {"shape": [int(d) for d in tensor.shape], "dtype": str(tensor.dtype)}


def _flatten(value: Any) -> list[Any]:
    if is_tensor(value):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _flatten(item)]
    return []


def stats_bundle(doc: dict[str, Any]) -> dict[str, Any]:
    title = (
        f"{doc['target']} ({doc['cellType']}): {doc['parameters']:,} parameters "
        f"({doc['trainable']:,} trainable, {doc['parameterBytes'] / 1024:.1f} KiB)"
    )
    if "forwardMs" in doc:
        shapes = ", ".join(f"{o['dtype']}{o['shape']}" for o in doc["outputs"])
        title += f"; output {shapes}; forward {doc['forwardMs']} ms ({doc['mode']})"
    rows = [(c["path"], c["cellType"], c["params"], c["paramTensors"]) for c in doc["cells"]]
    return display.bundle(
        display.STATS_MIME, doc, title, [("Cells", ("cell", "type", "params", "tensors"), rows)]
    )
