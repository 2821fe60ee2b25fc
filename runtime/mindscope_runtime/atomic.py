"""Write files atomically: a temp file in the same directory, then os.replace."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from mindscope_runtime.errors import RuntimeToolError
from mindscope_runtime.interrupts import tracked


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write `text` to `path` so that readers see either the old file or the whole new one."""
    target = Path(path).resolve()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # what the early check of -o could not foresee (read-only file system)
        why = exc.strerror.lower() if exc.strerror else str(exc)
        raise RuntimeToolError("bad-output", f"cannot write {target}: {why}") from exc
    try:
        with tracked(tmp):  # a forced exit (second Ctrl-C) removes it too
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600: a document is not a secret
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target


def _umask() -> int:
    """The process's umask (reading it means setting it: put it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_json_atomic(path: str | os.PathLike[str], document: Any) -> Path:
    """Serialise `document` compactly (documents can be large) and write it atomically."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return write_text_atomic(path, text + "\n")
