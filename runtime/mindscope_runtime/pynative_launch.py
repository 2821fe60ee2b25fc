"""Run a script, or one forward call of a Cell, with MindSpore forced into PyNative.

Used by MindScope's "Debug in PyNative" (a `mindscope` debug configuration runs this module
under debugpy's own adapter), so that breakpoints inside `construct` and `@ms.jit` functions
stop even in a script that sets GRAPH_MODE, without editing it:

    python -m mindscope_runtime.pynative_launch train.py --steps 2
    python -m mindscope_runtime.pynative_launch --cell model.py:ResNet --input 2,3,32,32:float32
    python -m mindscope_runtime.pynative_launch --cell model.py:ResNet --inputs-from :make_inputs

How (measured on MindSpore 2.10): `Cell.__call__` compiles only when the mode is GRAPH_MODE and
`MS_JIT != "0"`, and `ms.jit` (capture_mode "ast") calls the undecorated function when
`MS_JIT == "0"`; both read the variable at every call. This module sets `MS_JIT=0`, switches
the context to PYNATIVE_MODE and makes `set_context(mode=GRAPH_MODE)` keep PyNative (saying so
once on stderr). `ms.jit(capture_mode="trace"|"bytecode")` ignores MS_JIT and is not covered.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

_NOTICE = (
    "[mindscope] Debug in PyNative: set_context(mode=GRAPH_MODE) kept PYNATIVE_MODE "
    "so that breakpoints in construct() stop."
)


def force_pynative() -> bool:
    """Set MS_JIT=0 and patch mindspore.set_context; False when MindSpore is not installed."""
    os.environ["MS_JIT"] = "0"
    try:
        import mindspore as ms
    except ImportError:
        return False
    original: Callable[..., Any] = ms.set_context
    told = False

    def set_context(*args: Any, **kwargs: Any) -> Any:
        nonlocal told
        if "mode" in kwargs and kwargs["mode"] == ms.GRAPH_MODE:
            kwargs["mode"] = ms.PYNATIVE_MODE
            if not told:
                print(_NOTICE, file=sys.stderr, flush=True)
                told = True
        return original(*args, **kwargs)

    set_context.__doc__ = original.__doc__
    original(mode=ms.PYNATIVE_MODE)
    ms.set_context = set_context
    ms.context.set_context = set_context
    return True


def run_script(script: str, args: Sequence[str]) -> None:
    """Run `script` as `__main__` with `args`, as `python script args…` would."""
    path = Path(script).resolve()
    sys.argv = [str(path), *args]
    sys.path.insert(0, str(path.parent))
    runpy.run_path(str(path), run_name="__main__")


def run_cell(target: str, input_specs: Sequence[str], inputs_from: str | None) -> None:
    """Build the Cell named by `file.py:Name`, call it once on the given inputs."""
    import mindspore as ms

    from mindscope_runtime.inputs import inputs_from as load_inputs
    from mindscope_runtime.inputs import make_tensors, parse_input_spec
    from mindscope_runtime.targets import parse_target, resolve_cell

    spec = parse_target(target)
    cell = resolve_cell(spec, ms.nn.Cell)
    if inputs_from:
        values = load_inputs(inputs_from, spec.file)
    else:
        values = make_tensors([parse_input_spec(s) for s in input_specs])
    output = cell(*values)
    outputs = output if isinstance(output, (tuple, list)) else [output]
    shapes = [getattr(o, "shape", type(o).__name__) for o in outputs]
    print(f"[mindscope] {spec.name} returned {shapes}", file=sys.stderr, flush=True)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m mindscope_runtime.pynative_launch")
    parser.add_argument("--cell", help="file.py:Name of a Cell, Cell class or factory")
    parser.add_argument("--input", action="append", default=[], help="SHAPE:DTYPE")
    parser.add_argument("--inputs-from", help="file.py:make_inputs (':make_inputs' = same file)")
    parser.add_argument("script", nargs="?", help="the script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    options = parse_args(sys.argv[1:] if argv is None else argv)
    if not options.cell and not options.script:
        raise SystemExit("pynative_launch: give a script or --cell file.py:Name")
    force_pynative()
    if options.cell:
        run_cell(options.cell, options.input, options.inputs_from)
    else:
        run_script(options.script, options.args)


if __name__ == "__main__":
    main()
