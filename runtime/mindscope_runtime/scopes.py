"""The Cell scope tree: `Default/block-Block/conv-Conv2d` paths → a tree with counts.

MindSpore names a scope segment `<attribute>-<CellClass>`; the root is `Default` (forward) or
`Gradients`/… for other parts of a training graph. Parameters are named by attribute path
(`block.conv.weight`), so a parameter belongs to the scope whose attribute path is its prefix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class CellInfo:
    """One Cell of the live model: attribute path ('' for the root), class, own parameters,
    and where its class's `construct` is defined (file, `def` line), as the IR's `# In file`
    lines name it."""

    path: str
    cell_type: str
    param_count: int
    param_tensors: int
    construct: Optional[tuple[str, int]] = None


def attr_path(scope: str) -> str:
    """`Default/block-Block/conv-Conv2d` → `block.conv` (segments without `-` are dropped)."""
    parts = [seg.split("-", 1)[0] for seg in scope.split("/")[1:] if "-" in seg]
    return ".".join(parts)


def scope_of_cell(path: str, types_by_path: dict[str, str], root: str = "Default") -> str:
    """Attribute path `block.conv` → `Default/block-Block/conv-Conv2d` using the live types."""
    if not path:
        return root
    parts = path.split(".")
    segments = [root]
    for i, name in enumerate(parts):
        prefix = ".".join(parts[: i + 1])
        segments.append(f"{name}-{types_by_path.get(prefix, 'Cell')}")
    return "/".join(segments)


def owner_scope(param_name: str, scopes_by_attr: dict[str, str]) -> Optional[str]:
    """The scope of the deepest Cell whose attribute path prefixes `param_name`."""
    parts = param_name.split(".")
    for cut in range(len(parts) - 1, -1, -1):
        found = scopes_by_attr.get(".".join(parts[:cut]))
        if found is not None:
            return found
    return None


def build_scope_tree(
    op_scopes: list[str],
    cells: list[CellInfo],
    params: list[tuple[str, int]],
    root_type: Optional[str] = None,
) -> list[JsonDict]:
    """Trees (one per root: Default, Gradients, …) with op and parameter counts.

    `op_scopes` holds the scope of each compute op; `params` holds (name, element count) of
    each weight; `cells` (may be empty) adds Cells that own no op and their class names.
    """
    types = {c.path: c.cell_type for c in cells}
    nodes: dict[str, JsonDict] = {}

    def ensure(path: str) -> JsonDict:
        # Iterative, parents first: a scope may have thousands of segments (crafted .mindir).
        missing: list[str] = []
        at = path
        while at not in nodes:
            missing.append(at)
            if "/" not in at:
                break
            at = at.rsplit("/", 1)[0]
        for created in reversed(missing):
            node = _scope_node(created, root_type)
            nodes[created] = node
            if "/" in created:
                nodes[created.rsplit("/", 1)[0]]["children"].append(node)
        return nodes[path]

    for scope in op_scopes:
        if scope:
            ensure(scope)["opCount"] += 1
    for cell in cells:
        ensure(scope_of_cell(cell.path, types))
    if not nodes:
        ensure("Default")
    by_attr = {n["attrPath"]: p for p, n in nodes.items() if p.startswith("Default")}
    for name, size in params:
        owner = owner_scope(name, by_attr) or "Default"
        ensure(owner)["paramCount"] += size
        nodes[owner]["paramTensors"] += 1
    roots = [n for p, n in nodes.items() if "/" not in p]
    for root in roots:
        _totals(root)
    return sorted(roots, key=lambda n: (n["path"] != "Default", n["path"]))


def _scope_node(path: str, root_type: Optional[str]) -> JsonDict:
    segment = path.rsplit("/", 1)[-1]
    name, _, cell_type = segment.partition("-")
    return {
        "path": path,
        "name": name,
        "cellType": cell_type or (root_type if "/" not in path else None),
        "attrPath": attr_path(path),
        "opCount": 0,
        "totalOpCount": 0,
        "paramCount": 0,
        "paramTensors": 0,
        "children": [],
    }


def _totals(root: JsonDict) -> None:
    """Roll op and parameter counts up the tree, children before parents (no recursion)."""
    order: list[JsonDict] = []
    stack = [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(node["children"])
    for node in reversed(order):
        node["totalOpCount"] = node["opCount"]
        for child in node["children"]:
            node["totalOpCount"] += child["totalOpCount"]
            node["paramCount"] += child["paramCount"]
            node["paramTensors"] += child["paramTensors"]
