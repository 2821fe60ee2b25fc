"""Ops MindSpore scoped to another Cell instance go back to the instance that ran them: on the
real executed IR of `fixtures/shared_scopes_net.py.txt` (see fixtures/README.md)."""

from __future__ import annotations

import ast
import os
from collections import Counter
from pathlib import Path
from typing import Any

from mindscope_runtime.graphdoc import build_graph_document
from mindscope_runtime.irparse import IRModule, parse_ir_file
from mindscope_runtime.scopes import CellInfo
from mindscope_runtime.sharedscopes import (
    Position,
    calling_construct,
    position,
    runs_before,
    site,
)

FIXTURES = Path(__file__).parent / "fixtures"
MODULE = parse_ir_file(FIXTURES / "ir" / "shared_scopes_execute.ir")
BLOCKS = "Default/blocks-SequentialCell"


def construct_sites(module: IRModule) -> dict[str, tuple[str, int]]:
    """Each class's construct as the IR names it: the model's file as it was when captured,
    the `def construct` lines of the model's source, SequentialCell's from MindSpore."""
    headers = {
        found
        for graph in module.graphs
        for node in graph.nodes
        for found in map(site, node.source)
        if found is not None
    }
    model = next(f for f, _ in headers if f.endswith("shared_scopes_net.py"))
    container = next(
        h for h in headers if h[0].endswith(os.path.join("nn", "layer", "container.py"))
    )
    tree = ast.parse((FIXTURES / "shared_scopes_net.py.txt").read_text())
    sites = {
        cls.name: (model, fn.lineno)
        for cls in tree.body
        if isinstance(cls, ast.ClassDef)
        for fn in cls.body
        if isinstance(fn, ast.FunctionDef) and fn.name == "construct"
    }
    return {**sites, "SequentialCell": container}


def cells(with_sites: bool = True) -> list[CellInfo]:
    sites = construct_sites(MODULE) if with_sites else {}

    def info(path: str, cell_type: str, params: int = 0) -> CellInfo:
        return CellInfo(path, cell_type, params, 1 if params else 0, sites.get(cell_type))

    out = [info("", "Net"), info("blocks", "SequentialCell")]
    for i in range(3):
        out += [info(f"blocks.{i}", "Block", 4), info(f"blocks.{i}.conv", "Conv2d", 144)]
        out.append(info(f"blocks.{i}.act", "Swish"))
    return [*out, info("head", "Head")]


def document(with_sites: bool = True) -> dict[str, Any]:
    return build_graph_document(MODULE, meta={}, cells=cells(with_sites), root_type="Net")


def direct_ops(doc: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for node in doc["nodes"]:
        if node["category"] == "compute":
            out.setdefault(node["scope"], []).append(node["opType"])
    return {scope: sorted(types) for scope, types in out.items()}


def test_mindspore_names_the_later_calls_of_a_function_after_the_first() -> None:
    names = [n.full_name for g in MODULE.graphs for n in g.nodes]
    relus = [n for n in names if "/ReLU-op" in n]
    assert len(relus) == 4  # three blocks and the head, all named as block 0's
    assert all(n.startswith(f"{BLOCKS}/0-Block/ReLU-op") for n in relus)
    assert sum(n.startswith(f"{BLOCKS}/0-Block/act-Swish/Sigmoid-op") for n in names) == 3


def test_each_op_is_scoped_to_the_instance_that_ran_it() -> None:
    doc = document()
    ops = direct_ops(doc)
    for i in range(3):
        # ReLU: its consumer (conv); Mul: the block's own `gain`; Add: its producer (Mul).
        assert ops[f"{BLOCKS}/{i}-Block"] == ["Add", "Mul", "ReLU"], i
        # Sigmoid: its consumer, the Mul of `x * ops.sigmoid(x)` that MindSpore names right.
        assert ops[f"{BLOCKS}/{i}-Block/act-Swish"] == ["Mul", "Sigmoid"], i
    assert ops["Default/head-Head"] == ["ReLU", "Sub"]  # the one Head: no choice to make
    assert doc["meta"]["rehomedOps"] == 9
    moved = [n for n in doc["nodes"] if not n["fullName"].startswith(n["scope"] + "/")]
    assert len(moved) == 9  # fullName stays MindSpore's, as the Profiler reports it
    tree = {s["path"]: s for s in _walk(doc["scopes"])}
    assert [tree[f"{BLOCKS}/{i}-Block"]["opCount"] for i in range(3)] == [3, 3, 3]


def test_without_construct_sites_mindspore_scopes_stay() -> None:
    doc = document(with_sites=False)
    assert doc["meta"]["rehomedOps"] == 0
    ops = direct_ops(doc)
    assert Counter(ops[f"{BLOCKS}/0-Block"]) == Counter({"ReLU": 4, "Mul": 3, "Add": 3})


def test_a_function_made_op_knows_the_construct_that_called_it() -> None:
    node = next(n for g in MODULE.graphs for n in g.nodes if n.full_name.endswith("/Add-op1"))
    header = calling_construct(node.source)
    assert header is not None and header[1] == construct_sites(MODULE)["Block"][1]
    conv = next(n for g in MODULE.graphs for n in g.nodes if "/Conv2D-op" in n.full_name)
    assert calling_construct(conv.source) is None  # a primitive call in a construct: trusted


def test_inner_code_runs_before_the_expression_around_it() -> None:
    sites = construct_sites(MODULE)
    by_name = {n.full_name: n for g in MODULE.graphs for n in g.nodes}

    def at(name: str, cls: str) -> Position:
        found = position(by_name[name].source, sites[cls])
        assert found is not None
        return found

    sigmoid = at(f"{BLOCKS}/0-Block/act-Swish/Sigmoid-op1", "Swish")
    mul = at(f"{BLOCKS}/1-Block/act-Swish/Mul-op0", "Swish")
    assert runs_before(sigmoid, mul) and not runs_before(mul, sigmoid)  # x * ops.sigmoid(x)
    first, second = (at(f"{BLOCKS}/0-Block/Add-op{i}", "Block") for i in (0, 1))
    assert not runs_before(first, second) and not runs_before(second, first)  # same code
    relu, conv = (
        at(f"{BLOCKS}/0-Block/ReLU-op1", "Block"),
        at(f"{BLOCKS}/1-Block/conv-Conv2d/Conv2D-op0", "Block"),
    )
    assert runs_before(relu, conv) and not runs_before(conv, relu)  # line 19, then line 20


def _walk(trees: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for tree in trees:
        out += [tree, *_walk(tree["children"])]
    return out
