"""`python -m mindscope_ls`: the language server over stdio."""

from __future__ import annotations

import json
import sys


def main() -> int:
    from mindscope_ls.infra.deps import missing_dependencies

    missing = missing_dependencies()
    if "--probe" in sys.argv[1:]:
        # The extension asks this before starting the server, to explain problems up front.
        print(json.dumps({"python": sys.version.split()[0], "missing": missing}))
        return 0
    if missing:
        # One line the extension shows verbatim, with the command that fixes it.
        print(
            f"mindscope-ls: missing Python packages: {', '.join(missing)}. "
            f"Install them with: {sys.executable} -m pip install {' '.join(missing)}",
            file=sys.stderr,
        )
        return 3
    from mindscope_ls.server import build_server

    build_server().start_io()
    return 0


if __name__ == "__main__":
    sys.exit(main())
