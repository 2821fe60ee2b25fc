"""MindScope language server: MindSpore-aware completion and graph-mode diagnostics."""

__version__ = "0.1.0"
