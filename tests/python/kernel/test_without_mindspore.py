"""A kernel in an environment without MindSpore says so in one line and runs Python.

The environment is real: a fresh venv whose site-packages links every package of this one
except MindSpore (pip cannot install here without a network), so `import mindspore` fails
exactly as it would for a user who never installed it.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from .kclient import Kernel, install_spec

pytestmark = pytest.mark.slow


def _venv_without_mindspore(root: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    here = Path(sysconfig.get_paths()["purelib"])
    python = root / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    for entry in here.iterdir():
        if not entry.name.lower().startswith("mindspore"):
            (Path(site) / entry.name).symlink_to(entry)
    return python


@pytest.fixture(scope="module")
def bare_kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kernel]:
    python = _venv_without_mindspore(tmp_path_factory.mktemp("venv") / "env")
    spec = install_spec(tmp_path_factory.mktemp("spec"), "mindscope-bare", python=str(python))
    running = Kernel(spec, tmp_path_factory.mktemp("ws"))
    yield running
    running.close()


def test_says_so_once_and_runs_python(bare_kernel: Kernel) -> None:
    first = bare_kernel.execute("print(6 * 7)")
    assert first.status == "ok"
    notice = [line for line in first.stdout.splitlines() if "MindSpore is not installed" in line]
    assert len(notice) == 1 and first.stdout.strip().endswith("42")
    second = bare_kernel.execute("print('again')")
    assert second.stdout == "again\n"
    failed = bare_kernel.execute("import mindspore")
    assert failed.status == "error" and failed.reply["ename"] == "ModuleNotFoundError"


def test_magics_answer_in_one_line(bare_kernel: Kernel) -> None:
    out = bare_kernel.execute("%ms_mode").stdout
    assert out == "MindScope: MindSpore is not installed in this kernel's environment\n"
    check = bare_kernel.execute("def f(x):\n    return x\n%ms_check")
    assert check.status == "ok" and check.outputs  # the checker needs no MindSpore


def test_debugger_still_stops(bare_kernel: Kernel) -> None:
    bare_kernel.start_debugging()
    code = "a = 1\nb = a + 41\nprint(b)\n"
    bare_kernel.set_breakpoint(code, 2)
    msg_id = bare_kernel.client.execute(code)
    stopped = bare_kernel.wait_event(lambda e: e.get("event") == "stopped")
    thread = stopped["body"]["threadId"]
    top = bare_kernel.debug("stackTrace", {"threadId": thread})["body"]["stackFrames"][0]
    bare_kernel.debug("continue", {"threadId": thread})
    assert bare_kernel.collect(msg_id).stdout.endswith("42\n") and top["line"] == 2
    bare_kernel.debug("disconnect", {"restart": False})
