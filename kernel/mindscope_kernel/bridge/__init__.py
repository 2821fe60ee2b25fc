"""A stdio bridge to one MindScope kernel: JSON lines in and out, jupyter_client underneath.

The VS Code extension runs `python -m mindscope_kernel.bridge --cwd DIR` and speaks the Jupyter
messaging protocol through it without a native ZeroMQ module in Node (see docs/architecture.md).
"""
