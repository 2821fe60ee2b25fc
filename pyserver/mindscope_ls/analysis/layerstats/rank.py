"""The layers that usually come next, from `data/follows.json`: a pure lookup."""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path
from typing import Any, Optional

log = logging.getLogger(__name__)
DATA_FILE = Path(__file__).resolve().parent / "data" / "follows.json"
# Enough to cover the usual next layers without burying the alphabetical list under rare ones.
TOP = 8
MIN_SHARE = 0.02  # of the transitions out of the previous layer
MIN_COUNT = 2  # a single occurrence in the corpus is an anecdote, not a habit
# Sorts before every "00<name>" of `apiitems.entry_item` ('!' precedes digits and letters).
PREFIX = "00!"


@cache
def _tables(path: Path = DATA_FILE) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
        namespaces = data["namespaces"]
        if not isinstance(namespaces, dict):
            raise ValueError("`namespaces` is not an object")
        return namespaces
    except (OSError, ValueError, KeyError, TypeError) as error:
        # Ranking is a nicety: without its data, completion keeps its plain order.
        log.warning("layer statistics unavailable (%s): %s", path, error)
        return {}


def followers(previous_layer: Optional[str], namespace: str = "mindspore.nn") -> list[str]:
    """Names in `namespace` most often written after `previous_layer` in a Cell's `__init__`
    (after nothing: the usual first layers), most frequent first."""
    table = _tables().get(namespace) or {}
    counts: dict[str, int] = (
        (table.get("follows") or {}).get(previous_layer) or {}
        if previous_layer
        else table.get("first") or {}
    )
    total = sum(counts.values())
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [name for name, count in ranked if count >= MIN_COUNT and count >= MIN_SHARE * total][
        :TOP
    ]


def rank_by_context(
    previous_layer: Optional[str], namespace: str = "mindspore.nn"
) -> dict[str, str]:
    """name -> sortText that puts the usual next layers first, in order of frequency."""
    return {
        name: f"{PREFIX}{rank:02d}{name.lower()}"
        for rank, name in enumerate(followers(previous_layer, namespace))
    }
