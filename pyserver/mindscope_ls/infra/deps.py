"""Checks that the server's own dependencies can be imported, without importing them."""

from __future__ import annotations

import importlib.util

REQUIRED = ("pygls", "lsprotocol", "jedi")


def missing_dependencies() -> list[str]:
    return [name for name in REQUIRED if importlib.util.find_spec(name) is None]
