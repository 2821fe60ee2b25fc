"""`python -m mindscope_kernel install ...` writes the kernelspec; anything else runs the kernel."""

from __future__ import annotations

import sys


def main() -> int:
    if sys.argv[1:2] == ["install"]:
        from mindscope_kernel.install import main as install_main

        return install_main(sys.argv[2:])
    from ipykernel.kernelapp import IPKernelApp

    from mindscope_kernel.kernel import MindScopeKernel

    IPKernelApp.launch_instance(kernel_class=MindScopeKernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
