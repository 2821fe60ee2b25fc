"""Every compute op in the Cell instance that made it, in `graph`, `profile` and `mindir`
documents of real architectures with random weights (mindcv 0.3.0's ResNet, ViT and
MobileNetV3, an LSTM text model, an svtr_tiny-style STN + Attention model), against a truth
built without our attribution: each instance compiled alone on the arguments a PyNative
forward hook saw (attribution_truth.py).
Slow: one subprocess per model, a minute or two each on a loaded machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

TRUTH = Path(__file__).parent / "attribution_truth.py"
Own = dict[str, dict[str, int]]


# Where the truth itself cannot say: compiled alone, a Dense makes two Reshapes around its
# MatMul; inlined into an Attention (ViT's, svtr's mixer), MindSpore merges the second with the
# Attention's own reshape of its output (one op where the parts made two, kept in the
# Attention's scope).
def _merged(attention: str, blocks: int) -> set[tuple[str, str, int, int]]:
    return {
        diff
        for k in range(blocks)
        for diff in (
            (attention.format(k=k), "Reshape", 0, 1),
            (attention.format(k=k) + ".qkv", "Reshape", 2, 1),
        )
    }


MERGED = {"vit": _merged("blocks.{k}.attn", 3), "svtr": _merged("backbone.blocks.{k}.mixer", 2)}


# Known gaps (issue 18, still open): reported as xfail while the differences are exactly
# these (path, op type, ops expected, ops found), so the share is printed, a fix shows as a
# pass and any other difference fails.
KNOWN_GAPS: dict[tuple[str, str], tuple[str, frozenset[tuple[str, str, int, int]]]] = {
    ("mobilenet", "mindir"): (
        "the root pool's ReduceMean goes to the root (it reads what the last SqueezeExcite "
        "returned): the file names no `pool` Cell at all (no op, no weight, no source chain; "
        "its node names carry only local variable names: `input_data`, `x`)",
        frozenset({("", "ReduceMean", 0, 1), ("pool", "ReduceMean", 1, 0)}),
    ),
    ("lstm", "mindir"): (
        "the root's StridedSlices h[-1] and c[-1] stay in `encoder`, where MindSpore parsed the "
        "getitem first: they read only the LSTM's h_n/c_n and feed the root, so the file reads "
        "the same whether the LSTM returned h_n[-1] or the root took it (no source chain, no "
        "weight, no call boundary survives inlining)",
        frozenset({("", "StridedSlice", 3, 1), ("encoder", "StridedSlice", 2, 4)}),
    ),
}


# Shape-only ops the CPU backend may elide as nop nodes: how many the Profiler sees depends on
# the backend, not on attribution (a ViT's Reshapes do not run at all).
NOP_TYPES = frozenset({"Reshape", "ExpandDims", "Squeeze", "Flatten"})


def without(own: Own, kinds: frozenset[str]) -> Own:
    return {path: {k: v for k, v in types.items() if k not in kinds} for path, types in own.items()}


def shares(expected: Own, found: Own) -> tuple[float, list[tuple[str, str, int, int]]]:
    """The share of the document's ops in the right instance, and each difference."""
    total = sum(sum(types.values()) for types in found.values()) or 1
    right, wrong = 0, []
    for path in sorted(set(expected) | set(found)):
        want, got = expected.get(path, {}), found.get(path, {})
        for kind in sorted(set(want) | set(got)):
            right += min(want.get(kind, 0), got.get(kind, 0))
            if want.get(kind, 0) != got.get(kind, 0):
                wrong.append((path, kind, want.get(kind, 0), got.get(kind, 0)))
    return right / total, wrong


@pytest.fixture(
    scope="module", params=["resnet", "vit", "mobilenet", "lstm", "shared_function", "svtr"]
)
def result(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp(request.param) / "truth.json"
    proc = subprocess.run(
        [sys.executable, str(TRUTH), request.param, str(out)],
        cwd=out.parent, env={**os.environ, "GLOG_v": "3"}, capture_output=True, text=True,
        timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    return request.param, json.loads(out.read_text())


@pytest.mark.parametrize("kind", ["graph", "profile", "mindir"])
def test_every_op_in_its_instance(result: Any, kind: str) -> None:
    model, data = result
    expected, found = data["expected"], data["docs"][kind]
    if kind == "profile":  # the CPU backend runs no kernel for some of these (nop nodes)
        expected, found = without(expected, NOP_TYPES), without(found, NOP_TYPES)
    share, wrong = shares(expected, found)
    print(f"{model} {kind}: {share:.1%} of ops in the right instance")
    left = sorted(set(wrong) - MERGED.get(model, set()))
    reason, known = KNOWN_GAPS.get((model, kind), ("", frozenset()))
    if left and set(left) <= known:
        pytest.xfail(f"known gap ({share:.1%} right): {reason}: {left}")
    assert left == []


@pytest.mark.parametrize("kind", ["graph", "mindir"])
def test_first_folded_view_draws_no_cycle(result: Any, kind: str) -> None:
    """No two of the root's children feed each other (svtr: ops whose data flows from and to
    the Attention blocks, scoped to the STN head, drew transform ⇄ backbone)."""
    model, data = result
    pairs = {tuple(p) for p in data["folded"][kind]}
    cycles = sorted((a, b) for a, b in pairs if a < b and (b, a) in pairs and a and b)
    assert cycles == [], (model, kind, sorted(pairs))


def test_shares_counts_misplaced_ops() -> None:
    expected = {"blocks.0.act": {"GeLU": 1}, "blocks.1.act": {"GeLU": 1}}
    found = {"blocks.0.act": {"GeLU": 2}}
    share, wrong = shares(expected, found)
    assert share == 0.5
    assert wrong == [("blocks.0.act", "GeLU", 1, 2), ("blocks.1.act", "GeLU", 1, 0)]


def test_backend_kernels_land_in_the_instance_that_did_the_update(result: Any) -> None:
    """`Expand/_InplaceAddExt/Mul-op0` and its `Default/Assign-op0` (ResNet's `out +=
    identity`): in the instance whose own ops, compiled alone, hold the op they expand."""
    model, data = result
    misplaced = []
    for path, expands in data["launched"]:
        own = data["expected"].get(path, {})
        if expands and not own.get(expands):
            misplaced.append((path, expands, own))
        elif not expands and not any(k.startswith("Inplace") for k in own):
            misplaced.append((path, None, own))
    if misplaced and (model, "launched") in KNOWN_GAPS:
        pytest.xfail(f"known gap: {KNOWN_GAPS[model, 'launched']}: {misplaced[:4]}")
    assert misplaced == [], (model, misplaced)
