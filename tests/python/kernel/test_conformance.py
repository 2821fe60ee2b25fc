"""jupyter_kernel_test's conformance suite against the installed MindScope kernelspec.

The kernelspec goes into a temporary prefix; the kernel manager is pointed at it (the suite's own
`start_new_kernel` would only look in the default Jupyter paths).
"""

# jupyter_kernel_test reads its code samples from (mutable) class attributes.
# ruff: noqa: RUF012

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import jupyter_kernel_test  # type: ignore[import-untyped]
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from .kclient import install_spec

NAME = "mindscope-conformance"


def _manager(prefix: Path) -> KernelManager:
    spec_dir = install_spec(prefix, NAME)
    ksm = KernelSpecManager(kernel_dirs=[str(spec_dir.parent)])
    return KernelManager(kernel_name=NAME, kernel_spec_manager=ksm)


class TestMindScopeConformance(jupyter_kernel_test.KernelTests):  # type: ignore[misc]
    kernel_name = NAME
    language_name = "python"
    file_extension = ".py"

    code_hello_world = "print('hello, world')"
    code_stderr = "import sys; print('oops', file=sys.stderr)"
    code_page_something = "print?"
    code_generate_error = "raise ValueError('expected')"
    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "'Mind' + 'Spore'", "result": "'MindSpore'"},
    ]
    code_history_pattern = "1*2"
    supported_history_operations = ("tail", "range", "search")
    code_display_data = [
        {"code": "from IPython.display import HTML, display; display(HTML('<b>ms</b>'))",
         "mime": "text/html"},
        {"code": "from IPython.display import Math, display; display(Math(r'\\frac{1}{2}'))",
         "mime": "text/latex"},
    ]  # fmt: skip
    code_inspect_sample = "zip"
    code_clear_output = "from IPython.display import clear_output; clear_output()"
    completion_samples = [{"text": "zi", "matches": {"zip"}}]
    complete_code_samples = ["1", "print('hello, world')", "def f(x):\n  return x*2\n\n\n"]
    incomplete_code_samples = ["print('''hello", "def f(x):\n  x*2"]
    invalid_code_samples = ["import = 7q"]

    prefix: Path

    @classmethod
    def setUpClass(cls) -> None:
        cls.prefix = Path(tempfile.mkdtemp(prefix="mindscope-conformance-"))
        cls.km = _manager(cls.prefix)
        # History lives in IPython's sqlite file: keep it out of the user's profile.
        env = {**os.environ, "IPYTHONDIR": str(cls.prefix / "ipython")}
        cls.km.start_kernel(env=env)
        cls.kc = cls.km.client()
        cls.kc.start_channels()
        cls.kc.wait_for_ready(timeout=90)

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        shutil.rmtree(cls.prefix, ignore_errors=True)

    def test_mindscope_implementation(self) -> None:
        self.flush_channels()
        msg_id = self.kc.kernel_info()
        reply: dict[str, Any] = self.kc.get_shell_msg(timeout=30)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["implementation"] == "mindscope"
        assert "debugger" in reply["content"]["supported_features"]


class TestMindScopeIopubWelcome(jupyter_kernel_test.IopubWelcomeTests):  # type: ignore[misc]
    kernel_name = NAME
    support_iopub_welcome = True
    prefix: Path

    @classmethod
    def setUpClass(cls) -> None:
        cls.prefix = Path(tempfile.mkdtemp(prefix="mindscope-welcome-"))
        cls.km = _manager(cls.prefix)
        cls.km.start_kernel()
        cls.kc = cls.km.client()

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        shutil.rmtree(cls.prefix, ignore_errors=True)


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
