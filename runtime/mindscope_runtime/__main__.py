"""`python -m mindscope_runtime graph|profile|stats|mindir …`."""

from __future__ import annotations

import os
import sys

from mindscope_runtime.cli import EXIT_INTERRUPTED, main
from mindscope_runtime.interrupts import remove_leftovers

code = main()
if code == EXIT_INTERRUPTED:
    # Skip MindSpore's atexit hooks (the Profiler's would write into folders just removed).
    remove_leftovers()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
raise SystemExit(code)
