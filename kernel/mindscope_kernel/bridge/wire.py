"""The bridge's line protocol: what the extension sends and what the bridge answers.

In (one JSON object a line): `{"op": "send", "channel": "shell"|"control"|"stdin",
"msg_type": ..., "content": {...}, "msg_id": ...}` or `{"op": "shutdown"}`.
Out: `{"event": "started", "kernel_pid": N}`, `{"event": "message", "channel": ..., "msg": {...}}`,
`{"event": "died", "exit_code": N}`, `{"event": "failed", "message": ...}`, `{"event": "stopped"}`.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any

CHANNELS = ("shell", "control", "stdin")


class WireError(ValueError):
    """A line the bridge cannot act on; the message says why in one line."""


@dataclass(frozen=True)
class Send:
    channel: str
    msg_type: str
    content: dict[str, Any]
    msg_id: str | None


@dataclass(frozen=True)
class Shutdown:
    pass


Command = Send | Shutdown


def parse_command(line: str) -> Command:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise WireError(f"not JSON: {e.msg}") from None
    if not isinstance(data, dict):
        raise WireError("a command must be a JSON object")
    op = data.get("op")
    if op == "shutdown":
        return Shutdown()
    if op != "send":
        raise WireError(f"unknown op {op!r}")
    channel, msg_type, content = data.get("channel"), data.get("msg_type"), data.get("content", {})
    if channel not in CHANNELS:
        raise WireError(f"unknown channel {channel!r}")
    if not isinstance(msg_type, str) or not isinstance(content, dict):
        raise WireError("send needs a string msg_type and an object content")
    msg_id = data.get("msg_id")
    return Send(channel, msg_type, content, msg_id if isinstance(msg_id, str) else None)


def _default(value: object) -> object:
    # Headers carry datetimes; buffers (comm binary data) are not forwarded.
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, bytes | memoryview):
        return None
    return str(value)


def event_line(event: str, **fields: object) -> bytes:
    return (json.dumps({"event": event, **fields}, default=_default) + "\n").encode()


def message_fields(msg: dict[str, Any]) -> dict[str, Any]:
    """The parts of a deserialized Jupyter message the extension uses."""
    return {
        "header": msg.get("header", {}),
        "parent_header": msg.get("parent_header", {}),
        "metadata": msg.get("metadata", {}),
        "content": msg.get("content", {}),
    }
