"""Typed settings (settings.py): good values are read, COMPATIBLE included; a bad value falls
back to its default and is named to the user (window/showMessage), never dropped silently."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from mindscope_ls.checker import Severity
from mindscope_ls.settings import GraphModeSettings, parse_graph_mode

from ..diagnostics.lsp_session import CONFIG, initialize_params


def test_good_values_are_read_and_every_level_is_accepted() -> None:
    problems: list[str] = []
    for level in ("lax", "STRICT", "Compatible"):
        settings = parse_graph_mode({"syntaxLevel": level}, problems)
        assert settings.syntax_level == level.upper()
    settings = parse_graph_mode(
        {"enabled": False, "rules": {"MS301": "off", "MS201": "hint"}, "debounceMs": 0}, problems
    )
    assert settings.enabled is False and settings.debounce_ms == 0
    assert settings.disabled == frozenset({"MS301"})
    assert settings.severities == {"MS201": Severity("hint")}
    assert parse_graph_mode({"device": "ascend"}, problems).device == "Ascend"
    assert parse_graph_mode({"device": "auto"}, problems).device is None
    assert problems == []
    assert parse_graph_mode(None, problems) == GraphModeSettings() and problems == []


def test_each_bad_value_falls_back_and_is_named() -> None:
    problems: list[str] = []
    settings = parse_graph_mode(
        {
            "enabled": "yes",
            "syntaxLevel": "LOOSE",
            "debounceMs": 99999,
            "rules": {"MS30": "off", "MS201": "loud", "MS102": "off"},
            "device": "TPU",
        },
        problems,
    )
    assert settings == GraphModeSettings(disabled=frozenset({"MS102"}))
    assert [p.split(":")[0] for p in problems] == [
        "mindscope.graphMode.enabled",
        "mindscope.graphMode.syntaxLevel",
        "mindscope.graphMode.debounceMs",
        "mindscope.graphMode.rules.MS30",
        "mindscope.graphMode.rules.MS201",
        "mindscope.graphMode.device",
    ]
    assert "'LOOSE' is not STRICT/COMPATIBLE/LAX; using LAX" in problems[1]
    problems.clear()
    assert parse_graph_mode(["not", "an", "object"], problems) == GraphModeSettings()
    assert problems == [
        "mindscope.graphMode: ['not', 'an', 'object'] is not an object; using the defaults"
    ]


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    await lsp_client.initialize_session(initialize_params(tmp_path, {"syntaxLevel": "LOOSE"}))
    yield
    await lsp_client.shutdown_session()


async def _message(client: LanguageClient, containing: str) -> types.ShowMessageParams:
    for _ in range(300):
        for message in client.messages:
            if containing in message.message:
                return message
        await asyncio.sleep(0.1)
    raise AssertionError(f"no message with {containing!r}: {client.messages}")


async def test_bad_values_are_shown_to_the_user(client: LanguageClient) -> None:
    shown = await _message(client, "mindscope.graphMode.syntaxLevel")
    assert shown.type == types.MessageType.Warning and "'LOOSE'" in shown.message
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"mindscope": {"graphMode": {"debounceMs": "soon"}}}
        )
    )
    shown = await _message(client, "mindscope.graphMode.debounceMs")
    assert "'soon' is not a whole number; using 300" in shown.message
