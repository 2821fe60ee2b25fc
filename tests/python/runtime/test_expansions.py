"""The CPU backend's launch kernels fold into their Cell; per-call times per Cell. The order
below is what MindSpore 2.10's Profiler recorded for mindcv's ResNet Bottleneck
(`out += identity` → `Expand/_InplaceAddExt/Mul|Add-opN` and `Default/Assign-opN`)."""

from __future__ import annotations

from mindscope_runtime.expansions import common_scope, fold_expansions
from mindscope_runtime.profdoc import by_cell
from mindscope_runtime.profparse import OpExecution

B0 = "Default/layer1-SequentialCell/0-Bottleneck"
B1 = "Default/layer1-SequentialCell/1-Bottleneck"
RAN = [
    f"{B0}/down_sample-SequentialCell/1-BatchNorm2d/BatchNorm-op0",
    "Expand/_InplaceAddExt/Mul-op0",
    f"{B0}/conv1-Conv2d/Conv2D-op0",
    f"{B0}/bn3-BatchNorm2d/BatchNorm-op0",
    "Expand/_InplaceAddExt/Add-op0",
    "Default/Assign-op0",
    f"{B0}/relu-ReLU/ReLU-op2",
    "Expand/_InplaceAddExt/Mul-op1",
    f"{B1}/conv1-Conv2d/Conv2D-op0",
    f"{B1}/bn3-BatchNorm2d/BatchNorm-op0",
    "Expand/_InplaceAddExt/Add-op1",
    "Default/Assign-op1",
    f"{B0}/relu-ReLU/ReLU-op0",  # MindSpore's name for block 1's relu: corrected by the IR
    "Default/pool-GlobalAvgPooling/ReduceMean-op0",
]
IR = {  # full name → scope, as the executed IR (corrected) says
    **{n: n.rsplit("/", 1)[0] for n in RAN if not n.startswith(("Expand", "Default/Assign"))},
    f"{B0}/InplaceAddExt-op0": B0,
    f"{B0}/InplaceAddExt-op1": B1,
    f"{B0}/relu-ReLU/ReLU-op0": f"{B1}/relu-ReLU",
}


def executions(steps: int = 2) -> list[OpExecution]:
    return [
        OpExecution(name, "op", step * 1000 + i, 0.1, 0)
        for step in range(steps)
        for i, name in enumerate(RAN)
    ]


def test_each_expansion_and_its_assign_go_to_the_block_that_did_the_update() -> None:
    folded = fold_expansions(executions(), IR)
    assert folded == {
        "Expand/_InplaceAddExt/Mul-op0": B0,
        "Expand/_InplaceAddExt/Add-op0": B0,
        "Default/Assign-op0": B0,
        "Expand/_InplaceAddExt/Mul-op1": B1,
        "Expand/_InplaceAddExt/Add-op1": B1,
        "Default/Assign-op1": B1,
    }


def test_an_assign_the_ir_names_is_left_alone() -> None:
    named = {**IR, "Default/Assign-op0": "Default/ema-EMA"}
    assert "Default/Assign-op0" not in fold_expansions(executions(), named)


def test_common_scope() -> None:
    assert common_scope([f"{B0}/conv1-Conv2d", f"{B0}/relu-ReLU"]) == B0
    assert common_scope([f"{B0}/conv1-Conv2d", "Other/x"]) is None
    assert common_scope([]) is None


def row(scope: str, op_type: str, total: float, calls: int = 2) -> dict[str, object]:
    return {"scope": scope, "type": op_type, "totalMs": total, "calls": calls}


def test_per_call_is_per_step_for_a_container_and_per_real_call_for_a_shared_cell() -> None:
    rows = [
        row(f"{B0}/relu-ReLU", "ReLU", 3.0),  # one `relu` called three times per step
        row(f"{B0}/relu-ReLU", "ReLU", 3.0),
        row(f"{B0}/relu-ReLU", "ReLU", 3.0),
        row(f"{B0}/fc-Dense", "MatMul", 4.0),
        row(f"{B0}/fc-Dense", "BiasAdd", 2.0),
        row(B0, "Add", 1.0),  # a block's two residual Adds: one call's
        row(B0, "Add", 1.0),
    ]
    cells = {c["scope"]: c for c in by_cell(rows, steps=2)}
    assert cells["Default/layer1-SequentialCell"]["callCount"] == 2  # no ops of its own
    assert cells["Default/layer1-SequentialCell"]["perCallMs"] == 8.5
    assert cells[B0]["callCount"] == 2
    assert cells[f"{B0}/relu-ReLU"]["callCount"] == 6
    assert cells[f"{B0}/relu-ReLU"]["perCallMs"] == 1.5
    assert cells[f"{B0}/fc-Dense"]["perCallMs"] == 3.0


def test_hooked_call_counts_are_used_as_recorded() -> None:
    from collections import Counter

    rows = [row(f"{B0}/relu-ReLU", "ReLU", 6.0, calls=6)]
    cells = {c["scope"]: c for c in by_cell(rows, 2, Counter({f"{B0}/relu-ReLU": 6}))}
    assert cells[f"{B0}/relu-ReLU"]["callCount"] == 6
    assert cells[B0]["callCount"] == 2


def test_a_kernel_run_first_in_a_cell_goes_to_the_cell_with_the_op_it_expands() -> None:
    """shared_function's Head: `x * 0.5` (a Muls, run as `Expand/_Muls/Mul-op0`) is the
    first op, then the Head's `fc`: the only neighbour is inside `fc`, which has no Muls."""
    head, blocks = "Default/head-Head", "Default/blocks-CellList"
    ran = [
        "Expand/_Muls/Mul-op0",
        f"{head}/fc-Dense/MatMul-op0",
        f"{blocks}/0-Mixer/proj-Dense/MatMul-op0",
        f"{blocks}/0-Mixer/ReLU-op0",
        "Expand/_Muls/Mul-op1",
        f"{blocks}/0-Mixer/out-Dense/MatMul-op0",
    ]
    ir = {
        f"{head}/Muls-op0": head,
        f"{blocks}/0-Mixer/Muls-op1": f"{blocks}/0-Mixer",
        **{n: n.rsplit("/", 1)[0] for n in ran if not n.startswith("Expand")},
    }
    runs = [OpExecution(name, "op", i, 0.1, 0) for i, name in enumerate(ran)]
    assert fold_expansions(runs, ir) == {
        "Expand/_Muls/Mul-op0": head,
        "Expand/_Muls/Mul-op1": f"{blocks}/0-Mixer",
    }
