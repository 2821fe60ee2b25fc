"""What MindSpore's graph compiler supports, as generated from the installed MindSpore.

`mindspore_facts.json` is rebuilt by `make facts` (scripts/checker_facts): the parser's own
support tables read from its sources, the dtypes Tensor methods return (measured), and which
calls compiled on which value kind at each level (the differential generator's cases). Rules ask
questions of `FACTS` instead of keeping hand-typed lists.

    FACTS.builtin_native("len")                    # True: the graph translates it, any level
    FACTS.forbidden_method("Parameter", "set_data")  # True: MindSpore refuses it in construct
    FACTS.returns("argmax", "float32")             # "Tensor[Int64]"
    FACTS.compiles("max", "tuple_tensors", "STRICT")  # as the differential generator saw it
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Optional

DATA = Path(__file__).with_name("mindspore_facts.json")
SCHEMA_VERSION = 1


class FactsError(Exception):
    """The facts file is missing, unreadable or of another version."""


@dataclass(frozen=True)
class Facts:
    mindspore: str
    translated_builtins: frozenset[str]
    converted_builtins: frozenset[str]
    class_functions: frozenset[str]
    constant_folded: frozenset[str]
    unsupported_types: frozenset[str]
    methods: dict[str, frozenset[str]]
    forbidden_functions: frozenset[str]
    forbidden_modules: frozenset[str]
    view_unsupported: frozenset[str]
    fallback_modules: frozenset[str]
    method_returns: dict[str, dict[str, str]]
    observed_calls: dict[str, dict[str, dict[str, bool]]]
    forbidden_aliases: dict[str, str]  # `mindspore.set_context` -> `mindspore.context.set_context`
    # operator -> the type signatures its graph overloads take (`+`: ("Tensor", "Number"), ...)
    operator_overloads: dict[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)
    # "tensor" / "parameter" / "cell" -> public member -> "method" | "property" | "attribute"
    members: dict[str, dict[str, str]] = field(default_factory=dict)
    # "parameter" / "cell" -> member -> level -> "ok" | "refused" | "other", compiled
    graph_members: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    # Tensor method -> the `dim=` call PyNative ran on CPU and the op GRAPH_MODE has no CPU
    # kernel for (`cumsum` -> {"call": "dim=0", "op": "CumsumExt"}), compiled
    cpu_overloads: dict[str, dict[str, str]] = field(default_factory=dict)
    # `ops` primitives whose `__init__` arguments must be compile-time constants when built
    # inside compiled code (hand-written, `@prim_attr_register`), read from the sources
    constant_argument_primitives: frozenset[str] = frozenset()

    def builtin_native(self, name: str) -> bool:
        """The graph compiler has its own translation of builtin `name` (works under STRICT);
        any other builtin only runs through LAX's Python fallback."""
        return (
            name in self.converted_builtins
            or name in self.class_functions
            or name in self.translated_builtins
        ) and name not in self.unsupported_types

    def method_native(self, kind: str, name: str) -> bool:
        """`kind` ("tensor", "list", "dict") has a graph implementation of method `name`."""
        return name in self.methods.get(kind, frozenset())

    @cached_property
    def _forbidden_by_name(self) -> frozenset[tuple[str, str]]:
        pairs = set()
        for qualified in self.forbidden_functions:
            parts = qualified.split(".")
            if len(parts) >= 2:
                pairs.add((parts[-2], parts[-1]))
        return frozenset(pairs)

    def forbidden_method(self, owner: str, name: str) -> bool:
        """MindSpore marks `owner.name` (e.g. `Parameter.set_data`) as forbidden in graph mode."""
        return (owner, name) in self._forbidden_by_name

    def forbidden_function(self, qualname: str) -> Optional[str]:
        """The forbidden function a dotted call name reaches (through MindSpore's public
        re-exports), or None: `mindspore.set_context` -> `mindspore.context.set_context`."""
        target = self.forbidden_aliases.get(qualname, qualname)
        module = target.rpartition(".")[0]
        if target in self.forbidden_functions or self.forbidden_module(module):
            return target
        return None

    def forbidden_module(self, module: str) -> bool:
        return any(module == m or module.startswith(m + ".") for m in self.forbidden_modules)

    def returns(self, method: str, input_dtype: str) -> Optional[str]:
        """What Tensor method `method` called without arguments returns for an input of
        `input_dtype` ("float32", "float16", "int32", "bool"), when it was measured."""
        return self.method_returns.get(method, {}).get(input_dtype)

    def member(self, kind: str, name: str) -> Optional[str]:
        """What `name` is on a `kind` ("tensor", "parameter", "cell") in the installed
        MindSpore: "method", "property", "attribute", or None when it has no such member."""
        return self.members.get(kind, {}).get(name)

    def graph_member(self, kind: str, name: str, level: str) -> Optional[str]:
        """What compiling `return x, self.w.<name>` (kind "parameter") or `self.sub.<name>`
        / `self.sub.<name>()` (kind "cell") did at `level`: "ok", "refused" (MindSpore named
        the member), "other" (failed for another reason), None when not measured."""
        level = "STRICT" if level.upper() == "STRICT" else "LAX"
        return self.graph_members.get(kind, {}).get(name, {}).get(level)

    def cpu_overload(self, method: str) -> Optional[str]:
        """The op `Tensor.<method>(..., dim=...)` compiles to in GRAPH_MODE when that op has no
        CPU kernel (PyNative runs the call on CPU), or None."""
        row = self.cpu_overloads.get(method)
        return row["op"] if row else None

    def overloaded(self, operator: str, *types: str) -> Optional[bool]:
        """Whether graph mode has an overload of `operator` for MindSpore types `types`
        ("Tensor", "String", ...), None when the operator is not in the table."""
        table = self.operator_overloads.get(operator)
        return None if table is None else tuple(types) in table

    def compiles(self, operation: str, kind: str, level: str) -> Optional[bool]:
        """Whether a call the differential generator tried (`max` on `tuple_tensors`,
        `str_format_tensor` on `call`) compiled in `construct` at `level`, if it tried it."""
        return self.observed_calls.get(operation, {}).get(kind, {}).get(level.upper())


def _set(value: Any) -> frozenset[str]:
    if not isinstance(value, (list, dict)) or not all(isinstance(v, str) for v in value):
        raise FactsError("a facts table is not a list of names")
    return frozenset(value)


def parse_facts(data: Any) -> Facts:
    if not isinstance(data, dict) or data.get("version") != SCHEMA_VERSION:
        raise FactsError(f"facts file is not version {SCHEMA_VERSION}: run `make facts`")
    try:
        builtins, methods, forbidden = data["builtins"], data["methods"], data["forbidden_in_graph"]
        return Facts(
            mindspore=str(data["mindspore"]),
            translated_builtins=_set(builtins["translated"]),
            converted_builtins=_set(builtins["converted"]),
            class_functions=_set(builtins["class_as_function"]),
            constant_folded=_set(builtins["constant_folded"]),
            unsupported_types=_set(builtins["unsupported_types"]),
            methods={kind: _set(names) for kind, names in methods.items()},
            forbidden_functions=_set(forbidden["functions"]),
            forbidden_modules=_set(forbidden["modules"]),
            view_unsupported=_set(forbidden["view_unsupported"]),
            forbidden_aliases={str(k): str(v) for k, v in forbidden.get("aliases", {}).items()},
            fallback_modules=_set(data["fallback"]["third_party_modules"]),
            method_returns={k: dict(v) for k, v in data["tensor_method_returns"].items()},
            operator_overloads={
                op: frozenset(tuple(sig) for sig in sigs)
                for op, sigs in data.get("operator_overloads", {}).items()
            },
            members={
                k: {str(n): str(m) for n, m in v.items()}
                for k, v in data.get("members", {}).items()
            },
            graph_members={
                k: {str(n): dict(levels) for n, levels in v.items()}
                for k, v in data.get("graph_members", {}).items()
            },
            cpu_overloads={
                str(k): {str(n): str(v) for n, v in row.items()}
                for k, row in data.get("cpu_overloads", {}).items()
            },
            constant_argument_primitives=_set(
                data.get("primitives", {}).get("constant_arguments", [])
            ),
            observed_calls={
                op: {kind: dict(levels) for kind, levels in kinds.items()}
                for op, kinds in data["observed"].items()
            },
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise FactsError(f"facts file lacks a table: {error}") from None


def load_facts(path: Path = DATA) -> Facts:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise FactsError(f"cannot read {path.name}: {error}") from None
    return parse_facts(data)


FACTS = load_facts()
