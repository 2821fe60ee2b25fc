"""Find and read the catalogue for a MindSpore version, without importing MindSpore."""

from __future__ import annotations

import gc
import gzip
import json
import logging
import re
import threading
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, Optional

from mindscope_ls.catalogue.model import FORMAT, Catalogue

log = logging.getLogger(__name__)
DATA_DIR = Path(__file__).resolve().parent / "data"
_FILE = re.compile(r"^mindspore-(\d+(?:\.\d+)*)\.json\.gz$")
_LOCK = threading.Lock()


def installed_version() -> Optional[str]:
    """The version in this interpreter's metadata (dist-info): no import of MindSpore."""
    try:
        return metadata.version("mindspore")
    except metadata.PackageNotFoundError:
        return None


def available(data_dir: Path = DATA_DIR) -> dict[str, Path]:
    found = {}
    for path in data_dir.glob("mindspore-*.json.gz"):
        match = _FILE.match(path.name)
        if match:
            found[match.group(1)] = path
    return found


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", version)[:3])


def pick(wanted: Optional[str], versions: list[str]) -> Optional[str]:
    """The exact version, else the nearest (ties go to the newer), else the newest."""
    if not versions:
        return None
    if wanted in versions:
        return wanted
    ordered = sorted(versions, key=_key)
    if not wanted:
        return ordered[-1]
    target = _key(wanted)

    def distance(version: str) -> tuple[int, ...]:
        key = _key(version)
        diff = [abs(a - b) for a, b in zip(key, target)]
        return (*diff, -key[0], -key[1] if len(key) > 1 else 0)

    return min(ordered, key=distance)


def _read(path: Path) -> Any:
    with gzip.open(path, "rb") as handle:
        return json.loads(handle.read())


def read(path: Path) -> Catalogue:
    data = _read(path)
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: catalogue format {data.get('format')}, expected {FORMAT}")
    docs_path = path.with_name(path.name.replace(".json.gz", ".docs.json.gz"))
    return Catalogue(
        version=data["mindspore"],
        doc_base=data["doc_base"],
        doc_dirs=data["doc_dirs"],
        namespaces=data["namespaces"],
        records=data["entries"],
        stars=data.get("stars", {}),
        docs_loader=lambda: _read(docs_path) if docs_path.exists() else {},
    )


@cache
def _load(path: Path) -> Catalogue:
    catalogue = read(path)
    # The catalogue lives as long as the server: keep the cyclic collector from walking its
    # hundred thousand objects on every full collection. No `gc.collect()` first: a full
    # collection holds the GIL for ~100 ms, stalling the requests of the first second, and
    # the little cyclic garbage of start-up that freezing keeps is not worth it.
    gc.freeze()
    return catalogue


def catalogue_for(version: Optional[str] = None, data_dir: Path = DATA_DIR) -> Optional[Catalogue]:
    """The catalogue for `version` (default: the installed MindSpore), or the nearest one."""
    path = _chosen(version, data_dir)
    if path is None:
        return None
    with _LOCK:
        return _load(path)


@cache
def _chosen(version: Optional[str], data_dir: Path) -> Optional[Path]:
    """Decided once per server: asked on every request, and reading the installed version
    (metadata) and listing the files took ~1.5 ms each time."""
    files = available(data_dir)
    wanted = version if version is not None else installed_version()
    chosen = pick(wanted, list(files))
    if chosen is None:
        return None
    if chosen != wanted:
        log.info("MindSpore %s: using the nearest catalogue, %s", wanted or "not found", chosen)
    return files[chosen]
