"""The candidate index: the same answers as scoring every candidate, with work that does not
grow with the number of candidates (a `.mindir` read of 50k ops was quadratic), counted, not
timed; and a model document whose Cell count grows 4x costs about 4x the index work."""

from __future__ import annotations

import random
from typing import Any, Optional

import pytest

from mindscope_runtime import sharedscopes
from mindscope_runtime.candidates import CandidateIndex
from mindscope_runtime.graphdoc import build_graph_document
from tests.python.runtime.test_flowscopes import module, scopes, weights_of


def distance(a: str, b: str) -> int:
    x, y = a.split("/"), b.split("/")
    shared = 0
    while shared < min(len(x), len(y)) and x[shared] == y[shared]:
        shared += 1
    return len(x) + len(y) - 2 * shared


def brute_nearest(candidates: list[str], near: list[str]) -> Optional[str]:
    """Every candidate scored: the nearest summed over `near`, None on a tie."""
    if not near or not candidates:
        return None
    scored = sorted((sum(distance(c, n) for n in near), c) for c in set(candidates))
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]


def brute_containing(candidates: list[str], scope: str) -> Optional[str]:
    if not scope:
        return None
    inside = [c for c in candidates if scope == c or scope.startswith(c + "/")]
    return max(inside, key=len) if inside else None


def test_nearest_and_containing_agree_with_scoring_every_candidate() -> None:
    rng = random.Random(18)
    segments = ["a", "b", "0-L", "1-L", "x-Y", ""]

    def scope() -> str:
        return "/".join(rng.choice(segments) for _ in range(rng.randint(1, 5)))

    ties = found = 0
    for _ in range(4000):
        candidates = [scope() for _ in range(rng.randint(1, 10))]
        near = [scope() for _ in range(rng.randint(0, 4))]
        index = CandidateIndex(candidates)
        expected = brute_nearest(candidates, near)
        assert index.nearest(near) == expected, (candidates, near)
        ties += expected is None and bool(near)
        found += expected is not None
        for s in [*near, *candidates]:
            assert index.containing(s) == brute_containing(candidates, s)
    assert ties > 100 and found > 1000  # both outcomes were exercised


def stack(stages: int, layers: int) -> list[str]:
    return [
        f"Default/stages-SequentialCell/{s}-SequentialCell/{k}-Layer/act-ReLU"
        for s in range(stages)
        for k in range(layers)
    ]


@pytest.mark.parametrize("layers", [100, 400, 1600])
def test_query_work_does_not_grow_with_the_candidates(layers: int) -> None:
    candidates = stack(5, layers)
    index = CandidateIndex(candidates)
    for k in range(0, layers, max(1, layers // 50)):
        own = f"Default/stages-SequentialCell/2-SequentialCell/{k}-Layer"
        assert index.nearest([f"{own}/fc1-Dense", f"{own}/fc2-Dense"]) == f"{own}/act-ReLU"
    # 50 queries over scopes 5 segments deep: a bound by depth, not by 5 x `layers`
    assert index.work <= 50 * 40


def stack_document(blocks: int) -> dict[str, Any]:
    """`blocks` Layers in two stages, each MatMul → ReLU → MatMul, every ReLU named after
    stage 0's Layer 0 as MindSpore names what a function makes (see test_flowscopes.py)."""
    weights = [f"stages.{s}.{k}.fc{i}.w" for s in range(2) for k in range(blocks) for i in (1, 2)]
    p = weights_of(weights)
    ops: list[tuple[str, str, list[str]]] = []
    last = "%para1_x"
    for s in range(2):
        for k in range(blocks):
            layer = f"Default/stages-SequentialCell/{s}-SequentialCell/{k}-Layer"
            first = "Default/stages-SequentialCell/0-SequentialCell/0-Layer"
            base = len(ops)
            w = f"stages.{s}.{k}"
            ops += [
                ("MatMul", f"{layer}/fc1-Dense/MatMul-op0", [last, p(f"{w}.fc1.w")]),
                ("ReLU", f"{first}/act-ReLU/ReLU-op{base}", [f"%{base + 1}"]),
                ("MatMul", f"{layer}/fc2-Dense/MatMul-op0", [f"%{base + 2}", p(f"{w}.fc2.w")]),
            ]
            last = f"%{base + 3}"
    return build_graph_document(module(ops, weights), meta={})


def index_work(monkeypatch: pytest.MonkeyPatch, blocks: int) -> int:
    """The candidate-index work of building the document of `stack_document(blocks)`."""
    made: list[CandidateIndex] = []

    class Counted(CandidateIndex):
        def __init__(self, candidates: list[str]) -> None:
            super().__init__(candidates)
            made.append(self)

    monkeypatch.setattr(sharedscopes, "CandidateIndex", Counted)
    doc = stack_document(blocks)
    relus = [s for t, s in scopes(doc) if t == "ReLU"]
    assert relus == [
        f"Default/stages-SequentialCell/{s}-SequentialCell/{k}-Layer/act-ReLU"
        for s in range(2)
        for k in range(blocks)
    ]
    assert made, "the document was built without the candidate index"
    return sum(index.work for index in made)


def test_document_index_work_grows_linearly_with_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = index_work(monkeypatch, 40), index_work(monkeypatch, 160)
    assert small > 0
    assert large <= 5 * small, (small, large)  # 4x the ops; scoring every candidate is 16x
