"""Build the catalogue from the MindSpore installed in this interpreter.

usage: python -m mindscope_ls.catalogue.build [--out DIR] [--only mindspore.ops ...]

Writes `mindspore-<version>.json.gz` (names, kinds, signatures, summaries, flags) and
`mindspore-<version>.docs.json.gz` (full docstrings, read on demand) into DIR.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import logging
import sys
import types
import warnings
from pathlib import Path
from typing import Any, Optional

from mindscope_ls.catalogue.build import introspect
from mindscope_ls.catalogue.model import FORMAT

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

# Namespaces whose members are listed, in priority order: an object reachable from several
# gets its documented public name from the first one (ops.matmul, not ops.functional.matmul).
MODULES = (
    "mindspore",
    "mindspore.nn",
    "mindspore.ops",
    "mindspore.mint",
    "mindspore.mint.nn",
    "mindspore.mint.nn.functional",
    "mindspore.mint.optim",
    "mindspore.mint.linalg",
    "mindspore.mint.special",
    "mindspore.mint.distributed",
    "mindspore.numpy",
    "mindspore.dataset",
    "mindspore.dataset.transforms",
    "mindspore.dataset.vision",
    "mindspore.dataset.text",
    "mindspore.dataset.audio",
    "mindspore.train",
    "mindspore.train.callback",
    "mindspore.amp",
    "mindspore.communication",
    "mindspore.communication.management",
    "mindspore.ops.functional",
    "mindspore.ops.operations",
    "mindspore.ops.composite",
    "mindspore.nn.probability",
    "mindspore.common.dtype",
)
CLASSES = ("mindspore.Tensor", "mindspore.Parameter", "mindspore.nn.Cell")
# Documentation pages: https://www.mindspore.cn/docs/en/r<version>/api_python/<dir>/<name>.html
DOC_DIRS = {
    "mindspore.nn": "nn",
    "mindspore.ops": "ops",
    "mindspore.mint": "mint",
    "mindspore.numpy": "numpy",
    "mindspore.dataset": "dataset",
    "mindspore.train": "train",
    "mindspore.amp": "amp",
    "mindspore.communication": "communication",
    "mindspore.Tensor": "mindspore/Tensor",
    "mindspore": "mindspore",
}


def public_members(namespace: Any, name: str) -> dict[str, Any]:
    """Every attribute a user can reach as `namespace.<member>` that is meant for them."""
    members: dict[str, Any] = {}
    for member in sorted(dir(namespace)):
        if member.startswith("_"):
            continue
        try:
            value = getattr(namespace, member)
        except Exception:  # a lazy attribute that fails to load does not exist for the user
            continue
        if isinstance(value, types.ModuleType) and not value.__name__.startswith(name + "."):
            continue  # `dataset.os`, `mint.mindspore`: imports, not API
        if type(value).__name__ == "_Feature":
            continue  # `from __future__ import absolute_import` leaks into dir()
        if getattr(value, "__module__", "") == "typing":
            continue
        members[member] = value
    return members


def object_id(value: Any, public: str) -> str:
    """One id per live object: its definition site, or the public name for plain values."""
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if isinstance(value, types.ModuleType):
        return value.__name__
    if isinstance(module, str) and isinstance(qualname, str) and "<" not in qualname:
        return f"{module}.{qualname}"
    return public


def resolve(path: str) -> Any:
    try:
        return importlib.import_module(path)
    except ImportError:
        parent, _, attr = path.rpartition(".")
        return getattr(importlib.import_module(parent), attr)


class Builder:
    def __init__(self) -> None:
        self.entries: dict[str, dict[str, Any]] = {}
        self.docs: dict[str, str] = {}
        self.namespaces: dict[str, dict[str, str]] = {}
        self.stars: dict[str, Optional[list[str]]] = {}
        self._seen: dict[int, str] = {}

    def add(self, value: Any, name: str, public: str, owner: Optional[type] = None) -> str:
        key = id(_static(owner, name) if owner is not None else value)
        if key in self._seen and (owner is None or self._shareable(owner, name)):
            return self._seen[key]
        ident = object_id(value, public) if owner is None else f"{owner_public(owner)}.{name}"
        if ident not in self.entries:
            record = introspect.entry(value, name, public, owner)
            doc = record.pop("_doc", None)
            if doc:
                self.docs[ident] = doc
            self.entries[ident] = record
        self._seen.setdefault(key, ident)
        return ident

    @staticmethod
    def _shareable(owner: type, name: str) -> bool:
        """A class member is the same API as one already seen if it is the same object."""
        return not isinstance(_static(owner, name), (property, staticmethod, classmethod))

    def add_module(self, path: str) -> None:
        module = resolve(path)
        listing: dict[str, str] = {}
        for name, value in public_members(module, path).items():
            listing[name] = self.add(value, name, f"{path}.{name}")
        self.namespaces[path] = listing
        self.stars[path] = star_names(path)

    def add_class(self, path: str) -> None:
        cls = resolve(path)
        self.add(cls, path.rsplit(".", 1)[1], path)
        listing: dict[str, str] = {}
        for name in sorted(dir(cls)):
            if name.startswith("_"):
                continue
            try:
                value = getattr(cls, name)
            except Exception:
                continue
            static = _static(cls, name)
            listing[name] = self.add(
                static if isinstance(static, property) else value, name, f"{path}.{name}", owner=cls
            )
        self.namespaces[path] = listing


def star_names(path: str) -> Optional[list[str]]:
    """What `from <path> import *` binds (None: that import raises, as for `mindspore`)."""
    bound: dict[str, Any] = {}
    try:
        exec(f"from {path} import *", bound)
    except Exception:
        return None
    return sorted(name for name in bound if not name.startswith("__"))


def owner_public(cls: type) -> str:
    for public in CLASSES:
        if public.rsplit(".", 1)[1] == cls.__name__:
            return public
    return f"{cls.__module__}.{cls.__qualname__}"


def _static(cls: type, name: str) -> Any:
    import inspect

    return inspect.getattr_static(cls, name, None)


def build(modules: tuple[str, ...] = MODULES, classes: tuple[str, ...] = CLASSES) -> dict[str, Any]:
    """The catalogue as a JSON-ready dict, with full docs under the key "docs"."""
    import mindspore

    builder = Builder()
    for path in modules:
        builder.add_module(path)
    for path in classes:
        builder.add_class(path)
    version = str(mindspore.__version__)
    return {
        "format": FORMAT,
        "mindspore": version,
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        "doc_base": f"https://www.mindspore.cn/docs/en/r{version}/api_python",
        "doc_dirs": DOC_DIRS,
        "namespaces": builder.namespaces,
        "stars": builder.stars,
        "entries": builder.entries,
        "docs": builder.docs,
    }


def write(data: dict[str, Any], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    docs = data.pop("docs")
    stem = f"mindspore-{data['mindspore']}"
    main = out / f"{stem}.json.gz"
    full = out / f"{stem}.docs.json.gz"
    for path, payload in ((main, data), (full, docs)):
        raw = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        # mtime=0: the same MindSpore gives byte-identical files.
        with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as handle:
            handle.write(raw.encode("utf-8"))
    return main, full


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mindscope_ls.catalogue.build")
    parser.add_argument("--out", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    warnings.simplefilter("ignore")
    data = build()
    count = len(data["entries"])
    main_file, docs_file = write(data, args.out)
    for path in (main_file, docs_file):
        print(f"{path}: {path.stat().st_size / 1024:.0f} KiB")
    print(f"{count} entries in {len(data['namespaces'])} namespaces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
