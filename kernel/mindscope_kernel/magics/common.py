"""What every `%ms_*` magic shares: the kernel, argument parsing with IPython's
`magic_arguments`, one-line errors in place of tracebacks, and the run-the-runtime-then-show
steps of the magics that capture a document in a child process."""

from __future__ import annotations

import argparse
import functools
from typing import Any, Callable, Optional

from IPython import display as _display
from IPython.core.error import UsageError
from IPython.core.magic import Magics
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from mindscope_kernel import runtime_cli
from mindscope_kernel.nbtargets import TargetError, target_for

__all__ = [
    "MODEL_ARGUMENTS",
    "KernelMagics",
    "UsageError",
    "arg",
    "fail",
    "ms_magic",
    "show",
]

display: Callable[..., None] = _display.display
Magic = Callable[[Any, str], None]  # a line magic: (self, line)


def arg(*names: str, **options: Any) -> Any:
    """One argument of a magic (IPython's `magic_arguments.argument`, typed)."""
    return argument(*names, **options)  # type: ignore[no-untyped-call]


def ms_magic(
    *arguments: Any, reports: tuple[type[BaseException], ...] = ()
) -> Callable[[Callable[[Any, argparse.Namespace], None]], Magic]:
    """A line magic's body called with its parsed arguments (IPython's `magic_arguments`, with
    these `arg(...)`s in the order `%magic?` lists them). A bad argument, an unknown target and
    `reports` are one line, never a traceback: magics report, they do not raise."""
    caught: tuple[type[BaseException], ...] = (UsageError, TargetError, *reports)

    def decorate(body: Callable[[Any, argparse.Namespace], None]) -> Magic:
        @functools.wraps(body)
        def magic(self: Any, line: str) -> None:
            try:
                body(self, parse_argstring(magic, line))  # type: ignore[no-untyped-call]
            except caught as exc:
                prefix = f"%{body.__name__}: " if isinstance(exc, UsageError) else ""
                fail(f"{prefix}{exc}")

        for add in reversed(arguments):
            add(magic)  # records the argument on `magic`
        magic_arguments()(magic)  # type: ignore[no-untyped-call]  # builds `magic.parser`
        return magic

    return decorate


# The arguments of the magics that run the runtime on a Cell of the notebook.
MODEL_ARGUMENTS = (
    arg("name", help="a Cell instance, Cell class or factory in the notebook"),
    arg("--input", action="append", default=[], metavar="SHAPE:DTYPE"),
)


class KernelMagics(Magics):
    """The base of MindScope's magics: they know the kernel (its cell files, eager switch)."""

    def __init__(self, shell: Any, kernel: Any) -> None:
        super().__init__(shell)
        self.kernel = kernel

    @property
    def user_ns(self) -> dict[str, Any]:
        assert self.shell is not None
        namespace: dict[str, Any] = self.shell.user_ns
        return namespace

    def run_runtime(
        self,
        command: str,
        args: argparse.Namespace,
        options: list[str],
        bundle: Callable[[dict[str, Any]], dict[str, Any]],
        output: Optional[str] = None,
    ) -> None:
        """`python -m mindscope_runtime COMMAND` on the notebook's `args.name` with
        `args.input`, in a child process; its document shown as `bundle` makes it."""
        if not args.input:
            raise UsageError("give the inputs, e.g. --input 2,3,32,32:float32")
        target = self._target(args.name)
        inputs = [opt for spec in args.input for opt in ("--input", spec)]
        result = runtime_cli.run(command, target, inputs + options, output=output)
        if result.document is None:
            return fail(f"{command} of {args.name} failed: {result.error}")
        show(bundle(result.document))
        return None

    def _transform(self, code: str) -> str:
        assert self.shell is not None
        return str(self.shell.transform_cell(code))  # type: ignore[no-untyped-call]

    def _target(self, name: str) -> str:
        files = self.kernel.cell_files
        return target_for(
            name,
            self.user_ns,
            [c.code for c in files.executed()],
            self._transform,
            files.is_cell_file,
        )


def show(data: dict[str, Any]) -> None:
    display(data, raw=True)


def fail(message: str) -> None:
    """One readable line instead of a traceback."""
    print(f"MindScope: {message}")
