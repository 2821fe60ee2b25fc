"""How the extension starts every Python child: `python mindscope_start.py MODULE ARGS...` runs
MODULE as `python -m MODULE ARGS...` would, but with no workspace folder on sys.path.

`python -m X` puts the current directory first on sys.path (and imports `runpy` from it) before
any of our code runs, so a `json.py` or `mindscope_ls/` in an opened folder would run. Running
this file instead puts only its own folder (ours) there; it is dropped below, with any `''` or
current-directory entry (an empty PYTHONPATH element), before anything else is imported. Works
on Python 3.9+, where `-P` / PYTHONSAFEPATH (3.11+) cannot be relied on. A child that imports the
user's code (runtime, debug launcher, kernel) adds the model's folder itself, explicitly; folders
its parent names in MINDSCOPE_USER_PATH (the notebook's, for the kernel's runtime runs) are
searched last, after every other finder (sys.path, editable installs), so they add modules and
cannot replace ours or the standard library's.

Only `os` and `sys` are imported before the clean-up: both are loaded during start-up already.
"""

import os
import sys

MYPY = False
if MYPY:  # types only: nothing more may be imported before the clean-up
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType


def safe_path(path: list[str], cwd: str, script_entry: bool) -> list[str]:
    """`path` without the current directory and relative entries; without its first entry
    when that is the one Python added for this script (ours, but not meant to be imported)."""
    rest = path[1:] if script_entry else path
    here = os.path.normcase(os.path.abspath(cwd))
    return [p for p in rest if os.path.isabs(p) and os.path.normcase(os.path.abspath(p)) != here]


def user_path(value: str) -> list[str]:
    """The absolute folders of an `os.pathsep`-separated MINDSCOPE_USER_PATH."""
    return [p for p in value.split(os.pathsep) if os.path.isabs(p)]


class UserFolders:
    """A finder of top-level modules in `folders`, for the end of sys.meta_path: after
    setuptools' editable finder, which is not a sys.path entry and comes after sys.path's."""

    def __init__(self, folders: list[str]) -> None:
        self.folders = folders

    def find_spec(
        self,
        name: str,
        path: "Sequence[str] | None" = None,
        target: "ModuleType | None" = None,
    ) -> "ModuleSpec | None":
        if path is not None:  # a submodule: its package's own __path__ finds it
            return None
        from importlib.machinery import PathFinder

        return PathFinder.find_spec(name, self.folders)


def main() -> None:
    if len(sys.argv) < 2:
        sys.stderr.write("usage: mindscope_start.py MODULE [ARGS...]\n")
        raise SystemExit(2)
    own_dir = os.path.dirname(os.path.abspath(__file__))
    added = not getattr(sys.flags, "safe_path", False) and bool(sys.path)
    script_entry = added and os.path.abspath(sys.path[0]) == own_dir
    sys.path[:] = safe_path(sys.path, os.getcwd(), script_entry)
    folders = user_path(os.environ.pop("MINDSCOPE_USER_PATH", ""))
    if folders:
        sys.meta_path.append(UserFolders(folders))
    module = sys.argv[1]
    sys.argv = [module, *sys.argv[2:]]
    import runpy

    # What `python -m` itself calls: __main__ is the module's own, argv[0] its file.
    runpy._run_module_as_main(module, alter_argv=True)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
