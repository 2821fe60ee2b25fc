"""Ops the CPU backend makes at launch, folded into the Cell they came from (pure).

Why: MindSpore 2.10's CPU backend expands some ops of the executed graph into kernels of its
own, named outside any Cell: `InplaceAddExt` (ResNet's `out += identity`) runs as
`Expand/_InplaceAddExt/Mul-op0`, `…/Add-op0` and a write-back `Default/Assign-op0`; `Muls`,
`MatMulExt`, `ClampScalar` likewise. Those names are not in the IR, so the Profiler's rows
name a Cell `_InplaceAddExt` and the root gets the Assigns.

How: such a kernel ran between ops whose Cells are known (in the IR, by full name): it belongs
to the innermost Cell holding both neighbours in the execution order, or, where an IR op of
the type it expands (`_InplaceAddExt` → `InplaceAddExt`) sits inside that Cell, or else
inside the nearest Cell enclosing it, that op's Cell (the one that did the update; several:
the kernel's `-opN` picks the N-th in IR order).
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

from mindscope_runtime.profparse import OpExecution

EXPAND_ROOT = "Expand/"


def is_launch_kernel(full_name: str, known: dict[str, str]) -> bool:
    """A kernel the backend made (not named in the IR): `Expand/…`, or an unknown Assign."""
    if full_name in known:
        return False
    return full_name.startswith(EXPAND_ROOT) or full_name.rsplit("/", 1)[-1].startswith("Assign-")


def fold_expansions(executions: list[OpExecution], known: dict[str, str]) -> dict[str, str]:
    """Full name → Cell scope of each launch kernel in `executions`, from its neighbours.

    `known` maps the IR's compute op full names to their (corrected) scopes, in IR order."""
    ran = sorted(executions, key=lambda e: e.start_ns)
    scoped = [known.get(e.full_name) for e in ran]
    by_type: dict[str, list[str]] = {}
    for name, scope in known.items():
        by_type.setdefault(name.rsplit("/", 1)[-1].split("-op", 1)[0], []).append(scope)
    votes: dict[str, Counter[str]] = {}
    for index, execution in enumerate(ran):
        if not is_launch_kernel(execution.full_name, known):
            continue
        before = next((s for s in reversed(scoped[:index]) if s), None)
        after = next((s for s in scoped[index + 1 :] if s), None)
        around = common_scope([s for s in (before, after) if s])
        if around is None:
            continue
        scope = _expanded_op_scope(execution.full_name, around, by_type) or around
        votes.setdefault(execution.full_name, Counter())[scope] += 1
    return {name: count.most_common(1)[0][0] for name, count in votes.items()}


def common_scope(scopes: list[str]) -> Optional[str]:
    """The deepest scope holding all of `scopes` (None for none)."""
    if not scopes:
        return None
    parts = scopes[0].split("/")
    for other in scopes[1:]:
        theirs = other.split("/")
        keep = 0
        while keep < min(len(parts), len(theirs)) and parts[keep] == theirs[keep]:
            keep += 1
        parts = parts[:keep]
    return "/".join(parts) or None


def _expanded_op_scope(full_name: str, around: str, by_type: dict[str, list[str]]) -> Optional[str]:
    """The Cell of the IR op this kernel expands, nearest `around`: the only one inside it or,
    among several, the one at the kernel's own index (`Mul-op1`: the second, in IR order).
    With none inside, the nearest enclosing Cell that holds one: a kernel that ran first in a
    Cell has only its next op as a neighbour (a Head's `x * 0.5` before its `fc`)."""
    segments = full_name.split("/")
    if len(segments) < 3 or not segments[1].startswith("_"):
        return None
    every = by_type.get(segments[1][1:], [])
    index = segments[-1].rpartition("-op")[2]
    nth = every[int(index)] if index.isdigit() and int(index) < len(every) else None
    scope = around
    while scope:
        inside = [s for s in every if s == scope or s.startswith(scope + "/")]
        if len(set(inside)) == 1:
            return inside[0]
        if nth in inside:
            return nth
        if inside:
            return None
        scope = scope.rpartition("/")[0]
    return None
