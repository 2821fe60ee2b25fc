"""Shared pieces of the magics: argument parsing that never exits, and one-line errors."""

from __future__ import annotations

import argparse
import shlex
from typing import Any, Callable, NoReturn

from IPython import display as _display

display: Callable[..., None] = _display.display


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise UsageError(message or self.format_help())


def parse(parser: Parser, line: str) -> argparse.Namespace:
    return parser.parse_args(shlex.split(line))


def user_ns(magics: Any) -> dict[str, Any]:
    shell = magics.shell
    assert shell is not None
    namespace: dict[str, Any] = shell.user_ns
    return namespace


def show(data: dict[str, Any]) -> None:
    display(data, raw=True)


def fail(message: str) -> None:
    """One readable line instead of a traceback (magics report, they do not raise)."""
    print(f"MindScope: {message}")
