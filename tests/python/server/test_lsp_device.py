"""`mindscope.graphMode.device` through the protocol, from the real server: on Ascend a failure
for want of a CPU kernel (MS179) is Information that says why; `auto` keeps it an error; a bad
value falls back to `auto` and is said."""

from __future__ import annotations

import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from ..diagnostics.lsp_session import CONFIG, initialize_params, open_document, wait_diagnostics

NET = textwrap.dedent(
    """\
    from mindspore import nn


    class Net(nn.Cell):
        def construct(self, x):
            return x.cumsum(dim=1)
    """
)


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    await lsp_client.initialize_session(initialize_params(tmp_path, {"debounceMs": 0}))
    yield
    await lsp_client.shutdown_session()


def _severities(diagnostics: object) -> list[types.DiagnosticSeverity | None]:
    assert isinstance(diagnostics, (list, tuple))
    return [d.severity for d in diagnostics]


async def test_the_device_setting_lowers_cpu_kernel_failures(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "net.py"
    path.write_text(NET)
    open_document(client, path.as_uri(), NET)
    first = await wait_diagnostics(client, path.as_uri(), lambda d: len(d) == 1)
    assert first[0].code == "MS179"
    assert _severities(first) == [types.DiagnosticSeverity.Error]

    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"mindscope": {"graphMode": {"debounceMs": 0, "device": "Ascend"}}}
        )
    )
    info = types.DiagnosticSeverity.Information
    now = await wait_diagnostics(client, path.as_uri(), lambda d: _severities(d) == [info])
    assert now[0].message.startswith("runs on Ascend here (the declared device)")

    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"mindscope": {"graphMode": {"debounceMs": 0, "device": "TPU"}}}
        )
    )
    error = types.DiagnosticSeverity.Error
    back = await wait_diagnostics(client, path.as_uri(), lambda d: _severities(d) == [error])
    assert back[0].code == "MS179"
