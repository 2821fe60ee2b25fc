"""Give each op the scope of the Cell instance that ran it (pure: no MindSpore needed).

Why: MindSpore 2.10 parses a Python function that a `construct` calls (`out + identity` →
`ops.add`, `ops.relu`, …) into a graph once, and the ops inside keep the scope current at that
parse, whichever Cell instance calls it later; inlining copies them into every caller with
that scope. Seen in ResNet-20 (examples/cifar_resnet): the executed IR names all nine residual
Adds `Default/layer1-SequentialCell/0-BasicBlock/Add-opN`, while before inlining
(`01_type_inference_*.ir`) the call of each block's `+` carries that block's scope; and an
`ops.relu` in a Cell `p` called after one in `q` lands in `q`. Ops that a `construct` makes
itself (a primitive or a sub-Cell call) are named per instance: those are trusted.

How: an op made inside a function (the innermost `def` of its `# In file` chain is not a
`construct`) was made for the innermost `construct` of that chain, so the candidates are the
live Cells whose class runs that construct. One candidate settles it. Among several (blocks
in a loop, two attributes of one class) the op goes to the candidate holding a weight it
reads, else to the candidate nearest in the scope tree to its settled producers that come
earlier in the construct's code than the op (one call runs its code in source order; a value
from an earlier call of the same code does not come earlier), else to its settled consumers
that come later: `fc1 → act → fc2` puts each block's `act` op beside its own `fc1`. Settled
ops are the trusted ones and those placed so far; placing repeats until nothing changes, then
the rest keep MindSpore's scope. `fullName` stays MindSpore's (the Profiler reports it), so
the scope of a moved op is no longer the prefix of its `fullName`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, Optional

from mindscope_runtime.candidates import CandidateIndex
from mindscope_runtime.irvalues import Location
from mindscope_runtime.scopes import CellInfo, owner_scope, scope_of_cell

JsonDict = dict[str, Any]
Site = tuple[str, int]  # (file, line of `def construct`)
# The code that made an op, below a construct: one frame per `# In file` line (file, line,
# end line, column, end column, is a `def` header). The Position of an op.
Frame = tuple[str, int, int, int, int, bool]
Position = tuple[Frame, ...]
MAX_WALK = 256  # nodes visited per consumer search: bounds the cost on long chains
MAX_ROUNDS = 64


def site(location: Location) -> Optional[Site]:
    """The construct a `# In file` line is the header of, or None."""
    if not location.code.startswith("def construct("):
        return None
    return (os.path.normpath(location.file), location.line)


def calling_construct(chain: list[Location]) -> Optional[Site]:
    """For an op made inside a function: the innermost construct of its chain; else None."""
    defs = [loc for loc in chain if _is_def(loc)]
    if not defs or site(defs[-1]) is not None:
        return None
    return next((s for s in map(site, reversed(defs)) if s is not None), None)


def outer_construct(chain: list[Location], header: Site) -> Optional[Site]:
    """The construct that called the one at `header` in `chain`, or None."""
    sites = [s for s in map(site, chain) if s is not None]
    inner = sites.index(header) if header in sites else 0
    return sites[inner - 1] if inner > 0 else None


def position(chain: list[Location], header: Site) -> Optional[Position]:
    """Where, below the construct at `header`, the code that made the op stands."""
    starts = [i for i, loc in enumerate(chain) if site(loc) == header]
    if not starts:
        return None
    return tuple(
        (x.file, x.line, x.end_line, x.column or 0, x.end_column or 0, _is_def(x))
        for x in chain[starts[-1] + 1 :]
    )


def runs_before(first: Position, second: Position) -> bool:
    """In one call of the construct, does the code at `first` run before the code at
    `second`? Frames on the same lines are the same statement (MindSpore records one call
    with differing column ranges), so the paths are followed down while their lines agree;
    the first statements that differ in one function run in source order, and where the paths
    leave into different functions, the last shared line decides by columns: of two pieces
    ending together the inner one (starting later) runs first, as `ops.sigmoid(x)` in
    `x * ops.sigmoid(x)`. The same code twice (an earlier call's) does not run before."""
    shared: Optional[tuple[Frame, Frame]] = None
    for a, b in zip(first, second):
        if a[:3] != b[:3]:
            if a[0] == b[0] and not (a[5] or b[5]):
                return (a[2], -a[1]) < (b[2], -b[1])
            break
        shared = (a, b)
    if shared is None:
        return False
    a, b = shared
    return (a[4], -a[3]) < (b[4], -b[3])


def _is_def(location: Location) -> bool:
    return location.code.startswith(("def ", "async def "))


def rehome_ops(
    nodes: list[JsonDict],
    edges: list[JsonDict],
    chains: dict[str, list[Location]],
    cells: list[CellInfo],
    weight_names: dict[str, str],
) -> int:
    """Set `scope` of ops MindSpore scoped to another Cell instance; return how many moved.

    `chains` holds each node's raw `# In file` chain by node id, `weight_names` each weight
    parameter's name by id; `cells` must carry `construct` sites, else nothing moves."""
    types = {c.path: c.cell_type for c in cells}
    by_site: dict[Site, list[str]] = {}
    for cell in cells:
        if cell.construct is not None:
            by_site.setdefault(cell.construct, []).append(scope_of_cell(cell.path, types))
    compute = [n for n in nodes if n["category"] == "compute"]
    if not by_site or not any("/" in n["scope"] for n in compute):
        return 0  # e.g. an `ms.jit` training step: MindSpore gave no Cell scopes at all
    by_attr = {c.path: scope_of_cell(c.path, types) for c in cells}
    graph = DataFlow(nodes, edges, chains)
    graph.weight_owners = {ref: owner_scope(name, by_attr) for ref, name in weight_names.items()}
    headers = {n["id"]: calling_construct(chains.get(n["id"], [])) for n in compute}
    for node in compute:
        header = headers[node["id"]]
        if header is not None and graph.stale_chain(node["id"], header):
            headers[node["id"]] = outer_construct(chains.get(node["id"], []), header)
    places = {  # `Gradients/…` ops of a training graph are left alone
        n["id"]: (header, by_site.get(header, []))
        for n in compute
        if (header := headers[n["id"]]) and n["scope"].startswith("Default")
    }
    return settle(graph, compute, places)


def settle(
    flow: DataFlow, compute: list[JsonDict], places: dict[str, tuple[Site, list[str]]]
) -> int:
    """Place each op of `places` (id → its construct and candidate scopes) until nothing
    changes: an op placed is settled, and evidence for the ops placed after it; set `scope`
    of the ones that move and return how many did."""
    flow.unsettled = set(places)
    moved = 0
    for _ in range(MAX_ROUNDS):
        placed = 0
        for node in compute:
            if node["id"] not in flow.unsettled:
                continue
            header, candidates = places[node["id"]]
            owner = flow.owner(node, header, candidates)
            if owner is None:
                continue
            flow.unsettled.discard(node["id"])
            placed += 1
            if owner != node["scope"]:
                node["scope"] = owner
                moved += 1
        if not placed:
            break
    return moved


class DataFlow:
    """Data flow between compute ops, through the bookkeeping ops (Load, TupleGetItem…)."""

    def __init__(
        self, nodes: list[JsonDict], edges: list[JsonDict], chains: dict[str, list[Location]]
    ) -> None:
        self.by_id = {n["id"]: n for n in nodes}
        self.order = {n["id"]: i for i, n in enumerate(nodes)}
        self.chains = chains
        self.preds: dict[str, list[str]] = {}
        self.succs: dict[str, list[str]] = {}
        for edge in edges:
            if edge["kind"] == "data":
                self.preds.setdefault(edge["to"], []).append(edge["from"])
                self.succs.setdefault(edge["from"], []).append(edge["to"])
        self.weight_owners: dict[str, Optional[str]] = {}
        self._indexes: dict[int, tuple[list[str], CandidateIndex]] = {}
        # Function-made ops not placed yet: no evidence, but walked through to consumers.
        self.unsettled: set[str] = set()

    def owner(self, node: JsonDict, header: Site, candidates: list[str]) -> Optional[str]:
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        index = self._index(candidates)
        feeding = list(self.producers(node["id"]))
        for ref in feeding:
            found = index.containing(self.weight_owners.get(ref))
            if found:
                return found
        mine = self._position(node["id"], header)
        before = [  # settled producers that ran before it, nearest first
            self.by_id[r]["scope"]
            for r in sorted(feeding, key=lambda r: self.order.get(r, -1), reverse=True)
            if r in self.by_id and r not in self.unsettled
            and _earlier(self._position(r, header), mine)
        ]  # fmt: skip
        # Producers first: one call's inputs come from its own Cell's code, while its output
        # may feed many Cells downstream (a residual block's last ReLU feeds the next stage);
        # on a tie (a residual Add reads its own bn3 and the previous block) the nearest.
        found = index.nearest(before) or index.nearest(before[:1])
        if found is not None:
            return found
        after = [
            self.by_id[r]["scope"]
            for r in self.consumers(node["id"])
            if _earlier(mine, self._position(r, header))
        ]
        return index.nearest(after)

    def _index(self, candidates: list[str]) -> CandidateIndex:
        """One index per candidate list (ops of one kind of Cell share theirs)."""
        held = self._indexes.get(id(candidates))
        if held is None or held[0] is not candidates:
            held = self._indexes[id(candidates)] = (candidates, CandidateIndex(candidates))
        return held[1]

    def stale_chain(self, ref: str, header: Site) -> bool:
        """Does the op's chain below `header` belong to another call? MindSpore parses a
        helper once and keeps that parse's chain for every later use (a root's `c[-1]` after
        an LSTM's `h[0][i]`): the chain is stale when the op would run, in one call of that
        construct, before a producer it reads, and no op of that construct's code reads it
        (an unrolled loop's next pass does read the earlier lines of its own construct). By
        chains, not scopes: a consumer's scope may be as stale as its own."""
        mine = self._position(ref, header)
        if mine is None:
            return False
        if not any(
            runs_before(mine, pos)
            for r in self.producers(ref)
            if (pos := self._position(r, header)) is not None
        ):
            return False
        return all(self._position(r, header) is None for r in self.consumers(ref))

    def _position(self, ref: str, header: Site) -> Optional[Position]:
        return position(self.chains.get(ref, []), header)

    def producers(self, start: str) -> Iterator[str]:
        """Compute ops and parameters feeding `start`, through bookkeeping ops."""
        stack, seen = list(self.preds.get(start, [])), {start}
        while stack:
            ref = stack.pop()
            if ref in seen:
                continue
            seen.add(ref)
            node = self.by_id.get(ref)
            if node is None or node["category"] == "compute":
                yield ref
            elif node["category"] == "aux":
                stack.extend(self.preds.get(ref, []))

    def consumers(self, start: str) -> list[str]:
        """Settled compute ops fed by `start`, nearest first, through bookkeeping and unsettled
        ops."""
        frontier, seen, found = [start], {start}, []
        while frontier and len(seen) < MAX_WALK:
            ref = frontier.pop(0)
            for nxt in self.succs.get(ref, []):
                node = self.by_id.get(nxt)
                if nxt in seen or node is None:
                    continue
                seen.add(nxt)
                if node["category"] == "aux" or nxt in self.unsettled:
                    frontier.append(nxt)
                elif node["category"] == "compute":
                    found.append(nxt)
        return sorted(found, key=self.order.__getitem__)


def _earlier(first: Optional[Position], second: Optional[Position]) -> bool:
    """`runs_before`, where unknown positions do not object."""
    return first is None or second is None or runs_before(first, second)
