"""`python -m mindscope_kernel.bridge --cwd DIR`: start a kernel and relay it over stdio."""

from __future__ import annotations

import importlib.util
import json
import sys

# Without these the kernel cannot start; without MindSpore it starts and says so in its banner.
REQUIRED = ("ipykernel", "jupyter_client")
WANTED = ("mindspore",)


def missing_packages() -> tuple[list[str], bool]:
    missing = [name for name in REQUIRED + WANTED if importlib.util.find_spec(name) is None]
    return missing, any(name in REQUIRED for name in missing)


def main() -> int:
    missing, fatal = missing_packages()
    if missing:
        line = {
            "event": "missing",
            "python": sys.version.split()[0],
            "packages": missing,
            "fatal": fatal,
        }
        print(json.dumps(line), flush=True)
        if fatal:
            return 3
    from mindscope_kernel.bridge.relay import main as relay_main

    return relay_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
