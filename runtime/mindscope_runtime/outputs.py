"""Checks on `-o` (and every other path a run writes) before anything runs: a run that cannot
write its document must fail first, in one line, not after the model has run (and not with raw
errno text)."""

from __future__ import annotations

import os
from pathlib import Path

from mindscope_runtime.errors import RuntimeToolError


def check_output(raw: str | os.PathLike[str], flag: str = "-o") -> Path:
    """The absolute file `flag` names, or `bad-output` saying why it cannot be written."""
    return _checked(raw, folder=False, flag=flag)


def check_output_folder(raw: str | os.PathLike[str], flag: str = "-o") -> Path:
    """The absolute folder `flag` names for outputs of several files (`export -o`,
    `--keep-ir`): an existing folder, or one that can be created; `bad-output` saying why not."""
    return _checked(raw, folder=True, flag=flag)


# The optional outputs (argparse dest, flag, is a folder). Parsed as str, not Path: Path("")
# would be "." and an empty flag would write into the working folder.
EXTRA_OUTPUTS = (
    ("trace_out", "--trace-out", False),
    ("keep_ir", "--keep-ir", True),
    ("keep_profiler_output", "--keep-profiler-output", True),
    ("graph_out", "--graph-out", False),
)


def check_extra_outputs(args: object) -> None:
    """Checks (and makes absolute) each optional output path the command was given."""
    for dest, flag, folder in EXTRA_OUTPUTS:
        raw = getattr(args, dest, None)
        if raw is not None:
            setattr(args, dest, _checked(raw, folder=folder, flag=flag))


def _checked(raw: str | os.PathLike[str], folder: bool, flag: str) -> Path:
    text = os.fspath(raw)

    def bad(why: str) -> RuntimeToolError:
        return RuntimeToolError("bad-output", f"{flag} {text!r}: {why}")

    if not text.strip():
        what = "the folder to write into" if folder else f"the file to write, e.g. {flag} g.json"
        raise RuntimeToolError("bad-output", f"{flag} is empty: give {what}")
    if "\0" in text:
        raise bad("the path holds a NUL character")
    try:
        target = Path(text).expanduser().resolve()
        if folder and target.exists() and not target.is_dir():
            raise bad("is a file: this command writes into a folder")
        if not folder and target.is_dir():
            raise bad("is a folder; give a file path (e.g. inside it)")
        if not folder and target.exists() and not target.is_file():
            raise bad("exists and is not a regular file")
        parent = _nearest_existing(target if folder else target.parent)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop on Python < 3.13
        raise bad(_reason(exc)) from exc
    if not parent.is_dir():
        raise bad(f"{parent} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise bad(f"cannot write in {parent} (permission denied)")
    return target


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _reason(exc: BaseException) -> str:
    return exc.strerror.lower() if isinstance(exc, OSError) and exc.strerror else str(exc)
