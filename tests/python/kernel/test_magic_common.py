"""The shared magic boilerplate (`ms_magic`): IPython's magic_arguments, one-line errors."""

from __future__ import annotations

from argparse import Namespace
from typing import Any, ClassVar

import pytest
from IPython.core.magic import line_magic, magics_class

from mindscope_kernel.magics.common import KernelMagics, arg, ms_magic
from mindscope_kernel.nbtargets import TargetError


@magics_class
class Probe(KernelMagics):
    seen: ClassVar[list[Namespace]] = []

    @line_magic
    @ms_magic(arg("name"), arg("--steps", type=int, default=5), reports=(RuntimeError,))
    def ms_probe(self, args: Namespace) -> None:
        """Probe the parser."""
        if args.name == "boom":
            raise RuntimeError("MindSpore is not installed")
        if args.name == "bug":
            raise KeyError("steps")
        if args.name == "missing":
            raise TargetError("missing is not defined in the notebook")
        self.seen.append(args)


@pytest.fixture
def probe() -> Any:
    Probe.seen = []
    return Probe(None, kernel=object())


def test_arguments_are_parsed_by_magic_arguments(probe: Any) -> None:
    probe.ms_probe("net --steps 3")
    assert [(a.name, a.steps) for a in Probe.seen] == [("net", 3)]
    assert "%ms_probe [--steps STEPS] name" in (Probe.ms_probe.__doc__ or "")  # `%ms_probe?`


@pytest.mark.parametrize(
    ("line", "printed"),
    [
        ("", "MindScope: %ms_probe: the following arguments are required: name\n"),
        ("net --steps x", "MindScope: %ms_probe: argument --steps: invalid int value: 'x'\n"),
        ("boom", "MindScope: MindSpore is not installed\n"),
        ("missing", "MindScope: missing is not defined in the notebook\n"),
    ],
)
def test_errors_are_one_line(probe: Any, capsys: pytest.CaptureFixture[str], line: str,
                             printed: str) -> None:  # fmt: skip
    probe.ms_probe(line)
    assert capsys.readouterr().out == printed and Probe.seen == []


def test_other_errors_still_raise(probe: Any) -> None:
    with pytest.raises(KeyError):
        probe.ms_probe("bug")  # a bug in a magic is not hidden as a usage line
