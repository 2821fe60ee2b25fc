"""MindScope's Jupyter kernel for MindSpore (an ipykernel IPythonKernel subclass)."""

__version__ = "0.1.0"
