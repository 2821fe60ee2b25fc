"""The kernel class. Subclassing IPythonKernel brings the Jupyter debug protocol and debugpy."""

from __future__ import annotations

from typing import Any

from ipykernel.ipkernel import IPythonKernel

from mindscope_kernel import __version__


class MindScopeKernel(IPythonKernel):
    implementation = "mindscope"
    implementation_version = __version__
    banner = "MindScope kernel for MindSpore"

    @property
    def kernel_info(self) -> dict[str, Any]:
        info: dict[str, Any] = super().kernel_info
        info["help_links"] = [
            *info.get("help_links", []),
            {"text": "MindSpore", "url": "https://www.mindspore.cn/docs/en/master/index.html"},
        ]
        return info
