"""Counts which layer follows which in the `__init__` of real MindSpore Cells and writes
`data/follows.json`, with where the counts come from.

    pip download --no-deps -d /tmp/models mindcv==0.3.0 mindyolo==0.5.0 …
    python -m mindscope_ls.analysis.layerstats.build /tmp/models/*.whl

Each argument is a wheel or a folder of Python files; the code is parsed, never imported.
"""

from __future__ import annotations

import argparse
import json
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.parser import HeaderParser
from pathlib import Path
from typing import Any, Optional

from mindscope_ls.analysis.layerstats.scan import (
    LAYER_NAMESPACES,
    ClassScan,
    cell_classes,
    scan_source,
)

FORMAT = 1
DATA_FILE = Path(__file__).resolve().parent / "data" / "follows.json"


@dataclass
class Counts:
    """Per namespace of the layer written: which layer opens an `__init__`, which follows which."""

    first: dict[str, Counter[str]] = field(default_factory=dict)
    follows: dict[str, dict[str, Counter[str]]] = field(default_factory=dict)

    def add(self, classes: list[ClassScan]) -> tuple[int, int, int]:
        """Counts the Cells among `classes`: (cells, layer calls, transitions)."""
        cells = cell_classes(classes)
        n_cells = n_layers = n_pairs = 0
        for scanned in classes:
            if scanned.name not in cells or not scanned.layers:
                continue
            n_cells += 1
            n_layers += len(scanned.layers)
            head = scanned.layers[0]
            self.first.setdefault(head.namespace, Counter())[head.name] += 1
            for before, after in zip(scanned.layers, scanned.layers[1:]):
                table = self.follows.setdefault(after.namespace, {})
                table.setdefault(before.name, Counter())[after.name] += 1
                n_pairs += 1
        return n_cells, n_layers, n_pairs

    def to_json(self) -> dict[str, Any]:
        return {
            namespace: {
                "first": _ordered(self.first.get(namespace, Counter())),
                "follows": {
                    before: _ordered(after)
                    for before, after in sorted(self.follows.get(namespace, {}).items())
                },
            }
            for namespace in LAYER_NAMESPACES
        }


def _ordered(counts: Counter[str]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _metadata(text: str) -> tuple[Optional[str], Optional[str]]:
    headers = HeaderParser().parsestr(text)
    return headers.get("Name"), headers.get("Version")


def read_source(path: Path) -> tuple[str, str, list[str]]:
    """(package, version, texts of its .py files) from a wheel or a folder."""
    name, version = path.name.split("-")[0], "unknown"
    texts: list[str] = []
    if path.is_file() and path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            for member in wheel.namelist():
                if member.endswith(".dist-info/METADATA"):
                    found = _metadata(wheel.read(member).decode("utf-8", "replace"))
                    name, version = found[0] or name, found[1] or version
                elif member.endswith(".py"):
                    texts.append(wheel.read(member).decode("utf-8", "replace"))
        return name, version, texts
    for meta in [*path.glob("*.dist-info/METADATA"), *path.glob("PKG-INFO")][:1]:
        found = _metadata(meta.read_text("utf-8", "replace"))
        name, version = found[0] or name, found[1] or version
    texts = [file.read_text("utf-8", "replace") for file in sorted(_python_files(path))]
    return name, version, texts


def _python_files(folder: Path) -> Iterator[Path]:
    yield from (p for p in folder.rglob("*.py") if p.is_file())


def build(paths: list[Path]) -> dict[str, Any]:
    counts = Counts()
    sources = []
    for path in paths:
        package, version, texts = read_source(path)
        classes = [scanned for text in texts for scanned in scan_source(text)]
        cells, layers, pairs = counts.add(classes)
        sources.append(
            {
                "package": package,
                "version": version,
                "files": len(texts),
                "cells": cells,
                "layer_calls": layers,
                "transitions": pairs,
            }
        )
    return {
        "format": FORMAT,
        "about": "Layer constructor calls in the __init__ of nn.Cell subclasses, in source "
        "order: `first` opens an __init__, `follows[A][B]` counts B written right after A. "
        "Built by `python -m mindscope_ls.analysis.layerstats.build`.",
        "sources": sources,
        "namespaces": counts.to_json(),
    }


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("paths", nargs="+", type=Path, help="wheels or folders of model code")
    parser.add_argument("-o", "--out", type=Path, default=DATA_FILE)
    args = parser.parse_args(argv)
    data = build(args.paths)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for source in data["sources"]:
        print(
            f"{source['package']} {source['version']}: {source['files']} files, "
            f"{source['cells']} Cells, {source['transitions']} transitions"
        )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
