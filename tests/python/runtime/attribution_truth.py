"""The truth for the attribution suite, built without our attribution: run in its own process
(`python attribution_truth.py MODEL OUT.json`, the IR dump switch is latched per process).

Each Cell instance's ops are found by compiling that instance alone in GRAPH_MODE on the
arguments a PyNative forward hook saw it called with (one call's ops, counted by type in the
executed IR); its own ops are those minus its children's, times its calls. Then the `graph`,
`profile` and `mindir` documents of the whole model are made as the CLI makes them, and each
document's own ops per instance (by attribute path) are compared type by type.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from mindscope_runtime.msenv import enable_ir_dump
from mindscope_runtime.scopes import attr_path

FIXTURES = Path(__file__).parent / "fixtures"
JsonDict = dict[str, Any]


def main(model: str, out: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="mindscope-truth-"))
    enable_ir_dump(str(work / "first"))
    import mindspore as ms

    sys.path.insert(0, str(FIXTURES))
    import attribution_models as models  # type: ignore[import-not-found]

    ms.set_device("CPU")
    inputs = getattr(models, f"{model}_inputs")()

    def fresh() -> Any:  # one instance per compile: a compiled Cell is not compiled again
        net = getattr(models, model)()
        net.set_train(False)
        return net

    from mindscope_runtime.capture_graph import capture_graph
    from mindscope_runtime.mindirdoc import read_mindir_document

    ms.set_context(mode=ms.GRAPH_MODE)
    graph = capture_graph(ms, fresh(), inputs, target=model)
    assert graph["error"] is None and graph["nodes"], graph["error"]
    profile = profile_in_own_process(model, work)
    ms.export(fresh(), *inputs, file_name=str(work / "net"), file_format="MINDIR")
    mindir = read_mindir_document(work / "net.mindir")
    expected = truth(ms, fresh(), inputs, work)
    docs = {
        "graph": own_ops([(n["scope"], n["opType"]) for n in graph["nodes"]
                          if n["category"] == "compute"]),
        "profile": own_ops([(r["scope"], r["type"]) for r in profile["ops"]
                            if not r["fullName"].startswith(("Expand/", "Default/Assign-"))]
                           + expanded(profile["ops"])),
        "mindir": own_ops([(n["scope"], n["opType"]) for n in mindir["nodes"]
                           if n["category"] == "compute"]),
    }  # fmt: skip
    launched = [  # the CPU backend's kernels: the instance and the op type they expand
        (attr_path(r["scope"]), r["fullName"].split("/")[1][1:] if "/_" in r["fullName"] else "")
        for r in profile["ops"]
        if r["fullName"].startswith(("Expand/", "Default/Assign-"))
    ]
    folded = {"graph": folded_flows(graph), "mindir": folded_flows(mindir)}
    out.write_text(json.dumps({"expected": expected, "docs": docs, "launched": launched,
                               "folded": folded}))  # fmt: skip


def profile_in_own_process(model: str, work: Path) -> JsonDict:
    """`profile` as the CLI runs it: MindSpore numbers op names per process, so the IR dump
    and the Profiler must see the same (first) compile."""
    target = f"{FIXTURES / 'attribution_models.py'}:{model}"
    out = work / "profile.json"
    subprocess.run(
        [sys.executable, "-m", "mindscope_runtime", "profile", target, "--inputs-from",
         f":{model}_inputs", "--steps", "1", "-o", str(out), "--quiet"],
        cwd=work, check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    document: JsonDict = json.loads(out.read_text())
    assert document["meta"]["rehomedOps"] is not None
    return document


def truth(ms: Any, net: Any, inputs: list[Any], work: Path) -> dict[str, dict[str, int]]:
    """Attribute path → own op type → count, from compiling each called instance alone."""
    from mindscope_runtime.graphdoc import category, op_type
    from mindscope_runtime.irparse import find_execute_ir, parse_ir_file

    ms.set_context(mode=ms.PYNATIVE_MODE)
    calls: Counter[str] = Counter()
    first_args: dict[str, tuple[Any, ...]] = {}
    cells = dict(net.cells_and_names())
    handles = []
    for path, sub in cells.items():

        def pre(_: Any, args: Any, path: str = path) -> None:
            calls[path] += 1
            first_args.setdefault(path, args)

        handles.append(sub.register_forward_pre_hook(pre))
    net(*inputs)
    for handle in handles:
        handle.remove()
    ms.set_context(mode=ms.GRAPH_MODE)
    alone: dict[str, Counter[str]] = {}
    done: dict[tuple[str, str, str], Counter[str]] = {}
    for index, path in enumerate(p for p in cells if calls[p]):
        sub, args = cells[path], first_args[path]
        key = (type(sub).__name__, repr(sub), repr([getattr(a, "shape", a) for a in args]))
        if key not in done:
            folder = work / f"alone{index}"
            enable_ir_dump(str(folder))
            sub.compile(*args)
            ir_file = find_execute_ir(folder)
            assert ir_file is not None, path
            kinds = [op_type(n.op) for g in parse_ir_file(ir_file).graphs for n in g.nodes]
            done[key] = Counter(k for k in kinds if category(k) == "compute")
        alone[path] = done[key]
    own: dict[str, dict[str, int]] = {}
    for path in alone:
        total = Counter({k: v * calls[path] for k, v in alone[path].items()})
        for child in children(path, alone):
            total.subtract({k: v * calls[child] for k, v in alone[child].items()})
        own[path] = {k: v for k, v in total.items() if v}
    return own


def children(path: str, paths: dict[str, Any]) -> list[str]:
    """The nearest called instances below `path` (a CellList in between is not called)."""
    below = [p for p in paths if p != path and (not path or p.startswith(path + "."))]
    return [p for p in below if not any(q != p and p.startswith(q + ".") for q in below)]


def expanded(rows: list[JsonDict]) -> list[tuple[str, str]]:
    """The IR ops the CPU backend ran as kernels of its own: `Expand/_InplaceAddExt/Mul-op0`
    and `…/Add-op0` are one `InplaceAddExt` (the N-th), in the Cell the kernels went to."""
    found = {
        (r["scope"], r["fullName"].split("/")[1][1:], r["fullName"].rpartition("-op")[2])
        for r in rows
        if r["fullName"].startswith("Expand/_")
    }
    return [(scope, kind) for scope, kind, _ in found]


def folded_flows(document: JsonDict) -> list[tuple[str, str]]:
    """Data flow between the root's children as the first folded view draws it: (from, to)
    attribute names, `""` for the root's own ops."""
    from mindscope_runtime.sharedscopes import DataFlow

    flow = DataFlow(document["nodes"], document["edges"], {})
    pairs: set[tuple[str, str]] = set()
    for node in document["nodes"]:
        if node["category"] != "compute":
            continue
        to = attr_path(node["scope"]).split(".")[0]
        for ref in flow.producers(node["id"]):
            if (
                ref in flow.by_id
                and (src := attr_path(flow.by_id[ref]["scope"]).split(".")[0]) != to
            ):
                pairs.add((src, to))
    return sorted(pairs)


def own_ops(ops: list[tuple[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = {}
    for scope, kind in ops:
        out.setdefault(attr_path(scope), Counter())[kind] += 1
    return {path: dict(count) for path, count in out.items()}


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
