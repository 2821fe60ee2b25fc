"""The catalogue as the server sees it: plain data, no MindSpore."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

FORMAT = 1


@dataclass(frozen=True)
class Entry:
    ident: str
    kind: str  # module, class, function, method, property, constant
    public: str  # documented name: mindspore.ops.matmul
    signature: Optional[str] = None
    call_signature: Optional[str] = None  # calling an instance: a Cell's construct
    returns: Optional[str] = None  # "Tensor", "tuple", … when the doc says
    summary: str = ""
    deprecated: Optional[str] = None  # None: current; "": deprecated; else the replacement
    graph: Optional[bool] = None  # usable in compiled code (None: unknown)
    bases: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.public.rsplit(".", 1)[-1]

    @property
    def is_deprecated(self) -> bool:
        return self.deprecated is not None

    @property
    def is_cell(self) -> bool:
        return self.kind == "class" and "mindspore.nn.cell.Cell" in self.bases

    @property
    def is_primitive(self) -> bool:
        return self.kind == "class" and "mindspore.ops.primitive.Primitive" in self.bases

    @staticmethod
    def from_record(ident: str, record: dict[str, Any]) -> Entry:
        return Entry(
            ident=ident,
            kind=record["k"],
            public=record["p"],
            signature=record.get("s"),
            call_signature=record.get("c"),
            returns=record.get("r"),
            summary=record.get("d", ""),
            deprecated=record.get("x"),
            graph=record.get("g"),
            bases=tuple(record.get("b", ())),
        )


@dataclass(eq=False)  # compared and hashed by identity: one object per loaded file
class Catalogue:
    """Names per namespace (module or class) and one entry per live object."""

    version: str
    doc_base: str
    doc_dirs: dict[str, str]
    namespaces: dict[str, dict[str, str]]
    records: dict[str, dict[str, Any]]
    stars: dict[str, Optional[list[str]]] = field(default_factory=dict)
    docs_loader: Optional[Callable[[], dict[str, str]]] = None
    _entries: dict[str, Entry] = field(default_factory=dict)
    _docs: Optional[dict[str, str]] = None

    def entry(self, ident: str) -> Optional[Entry]:
        found = self._entries.get(ident)
        if found is None and ident in self.records:
            found = self._entries[ident] = Entry.from_record(ident, self.records[ident])
        return found

    def members(self, namespace: str) -> Optional[dict[str, str]]:
        return self.namespaces.get(namespace)

    def member(self, namespace: str, name: str) -> Optional[Entry]:
        listing = self.namespaces.get(namespace)
        ident = listing.get(name) if listing else None
        return self.entry(ident) if ident else None

    def lookup(self, dotted: str) -> Optional[Entry]:
        """`mindspore.ops.matmul` -> its entry, following namespaces as far as they go."""
        namespace, _, name = dotted.rpartition(".")
        if namespace in self.namespaces:
            return self.member(namespace, name)
        return self.entry(dotted)

    def module_entry(self, path: str) -> Optional[Entry]:
        """The entry of a namespace itself (`mindspore` has none: it is nobody's member)."""
        found = self.entry(path)
        if found is None and path in self.namespaces:
            found = Entry(ident=path, kind="module", public=path)
        return found

    def star_import(self, path: str) -> dict[str, str]:
        """Names bound by `from <path> import *` -> the ids of their objects."""
        listing = self.namespaces.get(path, {})
        names = self.stars.get(path)
        return {name: listing[name] for name in names or () if name in listing}

    def full_doc(self, ident: str) -> str:
        if self._docs is None:
            self._docs = self.docs_loader() if self.docs_loader else {}
        return self._docs.get(ident, "")

    def doc_url(self, entry: Entry) -> Optional[str]:
        """The official page: api_python/<dir>/<public name>.html for documented namespaces."""
        public = entry.public
        for prefix in sorted(self.doc_dirs, key=len, reverse=True):
            if public.startswith(prefix + "."):
                rest = public[len(prefix) + 1 :]
                if prefix == "mindspore" and "." in rest:
                    return None
                return f"{self.doc_base}/{self.doc_dirs[prefix]}/{public}.html"
        return None
