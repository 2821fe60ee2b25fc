"""Writes the kernelspec: `python -m mindscope_kernel install [--user|--sys-prefix|--prefix P]`."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

DEFAULT_NAME = "mindscope"
DISPLAY_NAME = "MindSpore (MindScope)"
RESOURCES = Path(__file__).parent / "resources"


def kernel_json(python: str) -> dict[str, object]:
    return {
        "argv": [python, "-m", "mindscope_kernel", "-f", "{connection_file}"],
        "display_name": DISPLAY_NAME,
        "language": "python",
        # Front-ends only offer the debugger for kernels that declare it.
        "metadata": {"debugger": True},
        # Interrupts arrive as messages: MindSpore replaces the native SIGINT handler (sigint.py).
        "interrupt_mode": "message",
    }


def write_spec(directory: Path, python: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "kernel.json").write_text(json.dumps(kernel_json(python), indent=1) + "\n")
    for logo in RESOURCES.glob("logo-*.png"):
        shutil.copy(logo, directory / logo.name)


def install(name: str, user: bool, prefix: str | None) -> str:
    from jupyter_client.kernelspec import KernelSpecManager

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / name
        write_spec(source, sys.executable)
        destination: str = KernelSpecManager().install_kernel_spec(
            str(source), kernel_name=name, user=user, prefix=prefix
        )
    return destination


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m mindscope_kernel install")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="install for the current user")
    where.add_argument("--sys-prefix", action="store_true", help="install into sys.prefix")
    where.add_argument("--prefix", help="install into PREFIX/share/jupyter/kernels")
    parser.add_argument("--name", default=DEFAULT_NAME, help="kernelspec name")
    args = parser.parse_args(argv)
    prefix = sys.prefix if args.sys_prefix else args.prefix
    destination = install(args.name, user=args.user, prefix=prefix)
    print(f"Installed the MindScope kernelspec '{args.name}' in {destination}")
    return 0
