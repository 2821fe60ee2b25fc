"""Write a real 50,000-op `.mindir` by chaining copies of a real exported one.

Usage: .venv/bin/python bench/compose_mindir.py [--copies 5] [--check] [--document]

`ms.export` of a 50k-op stack made no progress in 55 min (MindSpore's compile is the cost), so
this composes the file with MindSpore's own protobuf classes (`mindspore.train.mind_ir_pb2`):
it reads `stack10k.mindir` (bench/graph_models.py: 5 stages x 20 layers x 25 four-op blocks,
10,000 compute ops) and chains `--copies` copies of its graph, copy k's input being copy k-1's
output. Copy k gets its own parameters (the same values, named `stages.<5k+s>…`), its own node
names, and its stages renumbered in the scopes (`stages-SequentialCell/<5k+s>-SequentialCell`),
so the result is the graph `ms.export` would write for a 25-stage stack whose block weights
repeat every 5 stages. Shared `Constant` nodes (the U monad, bools) and primitives are kept once.

`--check` proves the file valid: `mindspore.load` + `nn.GraphCell` run it, and its output must
equal the 10k file run `--copies` times in a row on the same input. `--document` writes the
graph document `stack50k.json` beside it with the runtime's own `mindir` document builder, the
model decoded by MindSpore's protobuf classes (an early pure-Python decoder grew past 9 GB in
23 min on this 44 MB file; today's `mindir` command reads it in ~17 s of CPU, 0.55 GB:
bench/mindir_read.py). Writes
`~/.cache/mindscope/bench/stack50k.mindir` (kept if there; delete it to rebuild).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

CACHE = Path.home() / ".cache" / "mindscope" / "bench"
SOURCE = CACHE / "stack10k.mindir"
TARGET = CACHE / "stack50k.mindir"
STAGES = 5  # stages in the 10k source
_STAGE_SCOPE = re.compile(r"(stages-SequentialCell/)(\d+)(-SequentialCell)")
_STAGE_PARAM = re.compile(r"(:stages\.)(\d+)(\.)")


def shifted(pattern: re.Pattern[str], text: str, shift: int) -> str:
    """`text` with the stage number that `pattern`'s middle group matches moved by `shift`."""
    return pattern.sub(lambda m: f"{m[1]}{int(m[2]) + shift}{m[3]}", text)


def compose(source: bytes, copies: int) -> Any:
    """The source model with its graph chained `copies` times (see the module docstring)."""
    from mindspore.train import mind_ir_pb2

    model = mind_ir_pb2.ModelProto()
    model.ParseFromString(source)
    graph = model.graph
    if len(graph.input) != 1 or len(graph.output) != 1:
        raise SystemExit("compose_mindir: the source graph must have one input and one output")
    nodes, params = list(graph.node), list(graph.parameter)
    constants = {n.name for n in nodes if n.op_type == "Constant"}
    first_input, last_output = graph.input[0].name, graph.output[0].name
    out = mind_ir_pb2.ModelProto()
    out.CopyFrom(model)
    del out.graph.node[:]
    del out.graph.parameter[:]
    previous = first_input
    for k in range(copies):
        shift = k * STAGES

        renamed = {p.name: shifted(_STAGE_PARAM, p.name, shift) for p in params}

        def local(name: str, k: int = k, renamed: dict[str, str] = renamed) -> str:
            if name in constants:
                return name
            if name in renamed:
                return renamed[name]
            return name if k == 0 else f"{name}#c{k}"

        for p in params:
            copy = out.graph.parameter.add()
            copy.CopyFrom(p)
            copy.name = renamed[p.name]
        for n in nodes:
            if n.op_type == "Constant" and k > 0:
                continue
            copy = out.graph.node.add()
            copy.CopyFrom(n)
            if n.op_type == "Constant":
                continue
            copy.name = local(n.name)
            copy.output[:] = [local(o) for o in n.output]
            copy.input[:] = [previous if i == first_input else local(i) for i in n.input]
            copy.domain = shifted(_STAGE_SCOPE, n.domain, shift)
        previous = local(last_output)
    out.graph.output[0].name = previous
    return out


def as_message(proto: Any, table: dict[int, tuple[str, Any, bool]]) -> dict[str, Any]:
    """A protobuf message as the runtime's decoder returns it (`protowire.decode` with `table`):
    the table's fields that are set, nested messages as dicts, `size` fields as byte counts."""
    out: dict[str, Any] = {}
    for name, kind, repeated in table.values():
        if repeated:
            values = list(getattr(proto, name))
            if not values:
                continue
        elif not proto.HasField(name):
            continue
        else:
            values = [getattr(proto, name)]
        if isinstance(kind, dict):
            values = [as_message(v, kind) for v in values]
        elif kind == "size":
            values = [len(v) for v in values]
        out[name] = values if repeated else values[0]
    return out


def write_document(source: Path, target: Path) -> None:
    from mindspore.train import mind_ir_pb2

    from mindscope_runtime.mindir import MODEL
    from mindscope_runtime.mindirdoc import mindir_document

    t0 = time.perf_counter()
    proto = mind_ir_pb2.ModelProto()
    proto.ParseFromString(source.read_bytes())
    document = mindir_document(as_message(proto, MODEL), source=str(source))
    document["meta"]["mindir"]["fileBytes"] = source.stat().st_size
    target.write_text(json.dumps(document))
    print(
        f"stack50k: {target} ({document['meta']['counts']['computeOps']:,} compute ops) "
        f"in {time.perf_counter() - t0:.1f} s"
    )


def check(copies: int) -> None:
    """Run the composed file and the source `copies` times: same numbers, or exit 1."""
    import mindspore as ms
    import numpy as np
    from mindspore import nn

    ms.set_device("CPU")
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32))
    t0 = time.perf_counter()
    big = nn.GraphCell(ms.load(str(TARGET)))(x).asnumpy()
    print(f"stack50k: mindspore.load + GraphCell ran in {time.perf_counter() - t0:.1f} s")
    small = nn.GraphCell(ms.load(str(SOURCE)))
    y = x
    for _ in range(copies):
        y = small(y)
    chained = y.asnumpy()
    if big.shape != chained.shape or not np.allclose(big, chained, rtol=1e-5, atol=1e-6):
        print("stack50k: output differs from the 10k file run in a chain", file=sys.stderr)
        raise SystemExit(1)
    # 12,500 residual blocks of random weights overflow float32: equal infinities then only
    # show that both ran the same number of blocks to the same sign, not the same numbers.
    note = "" if np.isfinite(big).all() else " (values overflowed: shapes and signs compared)"
    print(f"stack50k: output equals stack10k run {copies} times in a row{note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--document", action="store_true")
    args = parser.parse_args()
    if not SOURCE.exists():
        raise SystemExit(f"compose_mindir: {SOURCE} is missing: run bench/graph_models.py stack10k")
    if not TARGET.exists():
        t0 = time.perf_counter()
        model = compose(SOURCE.read_bytes(), args.copies)
        tmp = TARGET.with_suffix(".tmp")
        tmp.write_bytes(model.SerializeToString())
        tmp.replace(TARGET)
        print(
            f"stack50k: {TARGET} ({TARGET.stat().st_size / 1e6:.1f} MB, "
            f"{len(model.graph.node):,} nodes) in {time.perf_counter() - t0:.1f} s"
        )
    if args.document and not TARGET.with_suffix(".json").exists():
        write_document(TARGET, TARGET.with_suffix(".json"))
    if args.check:
        check(args.copies)


if __name__ == "__main__":
    main()
