"""Pure parser for MindSpore's text IR dumps (`*_execute_*.ir`, MindSpore 2.x).

The dump is line-oriented: a header (`# IR entry`, `# Attrs:`, `# Params:`), then one block per
subgraph: `subgraph @name(%para…) {`, node lines `  %3(debug) = Op(%1, %para2_w) attrs…`
followed by indented `: (<in>…) -> (<out>)`, `# Fullname with scope: (…)` and `# In file …`
lines, and a closing `}`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from mindscope_runtime.irvalues import (
    JsonDict,
    Location,
    bracket_depth,
    matching_close,
    parse_abstract,
    parse_attr_block,
    parse_location,
    parse_signature,
    split_top,
)


@dataclass
class IRParam:
    id: str  # "%para2_block.conv.weight"
    name: str  # "block.conv.weight"
    abstract: JsonDict
    is_weight: bool
    graph: Optional[str] = None  # None: a parameter of the whole compiled module


@dataclass
class IRNode:
    graph: str
    local_id: Optional[str]  # "%3"; None for the Return node
    debug_name: str
    op: str  # "Conv2D", "PrimFunc_ReLU", "%4[@FuncUnion(@a, @b)]", "@subgraph"
    args: list[str]
    attrs: JsonDict
    inputs: list[JsonDict] = field(default_factory=list)
    outputs: list[JsonDict] = field(default_factory=list)
    full_name: str = ""
    source: list[Location] = field(default_factory=list)


@dataclass
class IRGraph:
    name: str
    params: list[str]
    source: list[Location] = field(default_factory=list)
    nodes: list[IRNode] = field(default_factory=list)


@dataclass
class IRModule:
    entry: str
    attrs: dict[str, str]
    jit_config: dict[str, str]
    params: list[IRParam]
    graphs: list[IRGraph]


_ENTRY = re.compile(r"^# IR entry: @(.+)$")
_PARAM = re.compile(r"^(%para\d+_(.*?)): (<.*>)(.*)$")
_SUBGRAPH = re.compile(r"^subgraph @(.+?)\((.*)\) \{$")
_NODE = re.compile(r"^  (?:(%\d+)\((.*?)\) = )?(\S.*)$")
_FULLNAME = re.compile(r"^# Fullname with scope: \((.*)\)$")
_KV = re.compile(r"^([A-Za-z_][\w ]*):\s*(.*)$")


def parse_ir_file(path: Path) -> IRModule:
    return parse_ir(path.read_text(encoding="utf-8", errors="replace"))


def parse_ir(text: str) -> IRModule:
    lines = _logical_lines(text.splitlines())
    module = IRModule(entry="", attrs={}, jit_config={}, params=[], graphs=[])
    section = ""
    pending_source: list[Location] = []
    pending_types: list[JsonDict] = []
    graph: Optional[IRGraph] = None
    node: Optional[IRNode] = None
    for raw in lines:
        line = raw.rstrip()
        stripped = line.strip()
        if graph is not None:
            if line == "}":
                graph = node = None
                continue
            node = _graph_line(graph, node, line, stripped, module)
            continue
        entry = _ENTRY.match(stripped)
        if entry:
            module.entry = entry.group(1)
        elif stripped == "jit config {":
            section = "jit"
        elif stripped == "}" and section == "jit":
            section = ""
        elif stripped == "# Attrs:":
            section = "attrs"
        elif stripped == "# Params:":
            section = "params"
        elif stripped.startswith(("Node counting", "subgraph attr:", "subgraph instance:")):
            section = ""
        elif stripped.startswith("# In file"):
            location = parse_location(stripped)
            if location:
                pending_source.append(location)
        elif stripped.startswith("# Parameters:"):
            pending_types = _param_types(stripped)
        elif _SUBGRAPH.match(stripped):
            match = _SUBGRAPH.match(stripped)
            assert match is not None
            graph = _open_graph(match.group(1), match.group(2), module, pending_source)
            _type_graph_params(module, graph, pending_types)
            pending_source, pending_types = [], []
        elif section == "params" and stripped.startswith("%para"):
            _add_param(module, stripped, None)
        elif section in ("attrs", "jit") and stripped:
            kv = _KV.match(stripped)
            if kv:
                target = module.attrs if section == "attrs" else module.jit_config
                target[kv.group(1)] = kv.group(2).strip()
    return module


def _logical_lines(lines: list[str]) -> list[str]:
    """Join a node line whose brackets stay open (multi-line tensor values) with what follows."""
    out: list[str] = []
    buffer = ""
    for line in lines:
        if buffer:
            buffer += " " + line.strip()
            if bracket_depth(buffer) <= 0:
                out.append(buffer)
                buffer = ""
            continue
        if _NODE.match(line) and not line.startswith("   ") and bracket_depth(line) > 0:
            buffer = line
            continue
        out.append(line)
    if buffer:
        out.append(buffer)
    return out


def _open_graph(name: str, params_text: str, module: IRModule, source: list[Location]) -> IRGraph:
    graph = IRGraph(name=name, params=[], source=source)
    for param in split_top(params_text):
        if param.startswith("%para"):
            graph.params.append(param)
            known = {p.id for p in module.params}
            if param not in known:
                name_part = re.sub(r"^%para\d+_", "", param)
                module.params.append(
                    IRParam(param, name_part, {"kind": "other"}, is_weight=False, graph=name)
                )
    module.graphs.append(graph)
    return graph


def _param_types(text: str) -> list[JsonDict]:
    """`# Parameters: 2, (<Tensor[Float32], (2, 4)>, <UMonad, NoShape>)` → abstracts."""
    _, _, rest = text.partition(",")
    rest = rest.strip()
    if rest.startswith("(") and rest.endswith(")"):
        rest = rest[1:-1]
    return [parse_abstract(p) for p in split_top(rest) if p.startswith("<")]


def _type_graph_params(module: IRModule, graph: IRGraph, types: list[JsonDict]) -> None:
    if len(types) != len(graph.params):
        return
    by_id = {p.id: p for p in module.params if p.graph == graph.name}
    for param_id, abstract in zip(graph.params, types):
        param = by_id.get(param_id)
        if param is not None:
            param.abstract = abstract
            param.is_weight = bool(abstract.get("ref"))


def _add_param(module: IRModule, text: str, graph: Optional[str]) -> None:
    match = _PARAM.match(text)
    if not match:
        return
    abstract = parse_abstract(match.group(3))
    is_weight = "is_parameter" in match.group(3) or "has_default" in match.group(4)
    module.params.append(IRParam(match.group(1), match.group(2), abstract, is_weight, graph))


def _graph_line(
    graph: IRGraph, node: Optional[IRNode], line: str, stripped: str, module: IRModule
) -> Optional[IRNode]:
    if line.startswith("      ") or (node is not None and line.startswith("    ")):
        if node is None:
            return None
        if stripped.startswith(":") and not node.outputs and not node.inputs:
            node.inputs, node.outputs = parse_signature(stripped)
        elif stripped.startswith("# Fullname with scope"):
            full = _FULLNAME.match(stripped)
            node.full_name = full.group(1) if full else ""
        elif stripped.startswith("# In file"):
            location = parse_location(stripped)
            if location:
                node.source.append(location)
        return node
    match = _NODE.match(line)
    if not match:
        return None
    parsed = parse_node_head(match.group(3))
    if parsed is None:
        return None
    op, args, attrs = parsed
    new = IRNode(graph.name, match.group(1), match.group(2) or "", op, args, attrs)
    graph.nodes.append(new)
    return new


def parse_node_head(text: str) -> Optional[tuple[str, list[str], JsonDict]]:
    """`Conv2D(%1, %0) {instance name: conv2d} primitive_attrs: {…}` → (op, args, attrs)."""
    i = 0
    depth = 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "(" and depth == 0:
            break
        i += 1
    if i >= len(text):
        return None
    op = text[:i].strip()
    close = matching_close(text, i)
    if close < 0:
        return None
    args = split_top(text[i + 1 : close])
    return op, args, parse_node_attrs(text[close + 1 :])


def parse_node_attrs(text: str) -> JsonDict:
    """`{instance name: x} primitive_attrs: {…} cnode_attrs: {…}` → one dict per group."""
    out: JsonDict = {}
    rest = text.strip()
    while rest:
        label = ""
        if not rest.startswith("{"):
            label, sep, after = rest.partition(":")
            if not sep:
                break
            label = label.strip()
            rest = after.strip()
            if not rest.startswith("{"):
                break
        close = matching_close(rest, 0)
        if close < 0:
            break
        block = parse_attr_block(rest[: close + 1])
        if label:
            out[label] = block
        else:
            out.update({k.replace(" ", "_"): v for k, v in block.items()})
        rest = rest[close + 1 :].strip()
    return out


def find_execute_ir(folder: Path) -> Optional[Path]:
    """The newest `NN_execute_NNNN.ir` (the final graph the backend runs) in an IR dump folder."""
    candidates = [p for p in folder.glob("*.ir") if re.match(r"^\d+_execute_\d+\.ir$", p.name)]
    if not candidates:
        candidates = [p for p in folder.rglob("*.ir") if re.search(r"_execute_\d+\.ir$", p.name)]
    if not candidates:
        return None

    def order(p: Path) -> tuple[int, float]:
        numbers = re.findall(r"\d+", p.name)
        return (int(numbers[-1]) if numbers else 0, p.stat().st_mtime)

    return max(candidates, key=order)


def describe_args(args: list[str]) -> list[dict[str, Any]]:
    """Classify each argument text: node ref, parameter, subgraph, monad or constant."""
    from mindscope_runtime.irvalues import parse_value

    out: list[dict[str, Any]] = []
    for arg in args:
        if re.match(r"^%\d+$", arg):
            out.append({"kind": "node", "ref": arg})
        elif arg.startswith("%para"):
            out.append({"kind": "param", "ref": arg})
        elif arg.startswith("@"):
            out.append({"kind": "graph", "ref": arg[1:]})
        elif arg.startswith(("UMonad", "IOMonad")):
            out.append({"kind": "monad", "text": arg})
        else:
            out.append({"kind": "const", "value": parse_value(arg), "text": arg})
    return out
