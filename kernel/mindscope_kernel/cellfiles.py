"""Each cell's source on disk, under the name ipykernel's debugger gives it (`dumpCell`).

IPython compiles a cell under the name `get_file_name(raw_code)` (a murmur2 hash in
`/tmp/ipykernel_<pid>/`), but that file only exists once a debugger has dumped the cell.
MindSpore's GRAPH_MODE parser resolves the real path of the file a `construct` came from and
logs `GetRealPath] Get realpath failed` when it is missing, so the kernel writes the file before
every execution. Source locations in compile errors then point at real, readable cell files.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from ipykernel import compiler

# The debugger's own naming (dumpCell): a murmur2 hash of the cell in /tmp/ipykernel_<pid>/.
get_file_name: Callable[[str], str] = compiler.get_file_name
get_tmp_directory: Callable[[], str] = compiler.get_tmp_directory


@dataclass(frozen=True)
class CellFile:
    path: str
    code: str
    execution_count: Optional[int]


class CellFiles:
    """Writes cell files and remembers which execution each one came from."""

    def __init__(self) -> None:
        self._by_path: dict[str, CellFile] = {}
        self._created_dir = False
        self.current: Optional[CellFile] = None  # the cell being (or last) executed

    def write(self, code: str, execution_count: Optional[int] = None) -> str:
        path = get_file_name(code)
        folder = Path(path).parent
        if not folder.exists():
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            self._created_dir = True
        if not _same_text(path, code):
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as handle:
                handle.write(code)
            os.replace(tmp, path)
        self.current = self._by_path[path] = CellFile(path, code, execution_count)
        return path

    def lookup(self, path: str) -> Optional[CellFile]:
        return self._by_path.get(path) or self._by_path.get(os.path.realpath(path))

    def is_cell_file(self, path: str) -> bool:
        return os.path.dirname(os.path.abspath(path)) == os.path.abspath(get_tmp_directory())

    def executed(self) -> list[CellFile]:
        """Cells in the order they were last executed (re-running a cell moves it last)."""
        return sorted(self._by_path.values(), key=lambda c: c.execution_count or 0)

    def cleanup(self) -> None:
        if self._created_dir:
            shutil.rmtree(get_tmp_directory(), ignore_errors=True)


def _same_text(path: str, code: str) -> bool:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read() == code
    except OSError:
        return False
