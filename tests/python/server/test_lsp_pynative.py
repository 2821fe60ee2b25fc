"""`mindscope.graphMode.pynativeOnly` through the protocol, from the real server: a file the
globs name gets its graph-mode findings as Information that says why; others keep errors; a
new value of the setting applies to the open documents."""

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
    import mindspore as ms
    from mindspore import nn


    class Net(nn.Cell):
        def construct(self, x):
            del x
            return 1
    """
)


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    settings = {"debounceMs": 0, "pynativeOnly": ["legacy/**"]}
    await lsp_client.initialize_session(initialize_params(tmp_path, settings))
    yield
    await lsp_client.shutdown_session()


def _severities(diagnostics: object) -> list[types.DiagnosticSeverity | None]:
    assert isinstance(diagnostics, (list, tuple))
    return [d.severity for d in diagnostics]


async def test_the_setting_lowers_graph_mode_errors_of_the_files_it_names(
    client: LanguageClient, tmp_path: Path
) -> None:
    legacy, models = tmp_path / "legacy" / "net.py", tmp_path / "models" / "net.py"
    for path in (legacy, models):
        path.parent.mkdir()
        path.write_text(NET)
        open_document(client, path.as_uri(), NET)
    lowered = await wait_diagnostics(client, legacy.as_uri(), lambda d: len(d) == 1)
    assert _severities(lowered) == [types.DiagnosticSeverity.Information]
    assert lowered[0].code == "MS102"
    assert lowered[0].message.startswith("runs in PyNative here (pynative glob ")
    assert "would fail under GRAPH_MODE: `del`" in lowered[0].message
    kept = await wait_diagnostics(client, models.as_uri(), lambda d: len(d) == 1)
    assert _severities(kept) == [types.DiagnosticSeverity.Error]

    # The user widens the setting: the open documents are checked again with it.
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"mindscope": {"graphMode": {"debounceMs": 0, "pynativeOnly": ["*"]}}}
        )
    )
    error = types.DiagnosticSeverity.Error
    now = await wait_diagnostics(client, models.as_uri(), lambda d: error not in _severities(d))
    assert _severities(now) == [types.DiagnosticSeverity.Information]
