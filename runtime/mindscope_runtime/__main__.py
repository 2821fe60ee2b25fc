"""`python -m mindscope_runtime graph|profile|stats|mindir …`."""

from __future__ import annotations

from mindscope_runtime.cli import main

raise SystemExit(main())
