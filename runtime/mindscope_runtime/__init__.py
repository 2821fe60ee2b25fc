"""MindScope runtime: capture MindSpore graphs, profiles and tensor statistics as
versioned JSON documents.

Runs in the user's own MindSpore interpreter. MindSpore itself is imported lazily, only by
the modules that execute user code, so the pure parsers can be used (and tested) without it.
"""

from __future__ import annotations

__all__ = ["GRAPH_DOC_VERSION", "PROFILE_DOC_VERSION", "STATS_DOC_VERSION", "__version__"]

__version__ = "0.1.0"
GRAPH_DOC_VERSION = 1
PROFILE_DOC_VERSION = 1
STATS_DOC_VERSION = 1
