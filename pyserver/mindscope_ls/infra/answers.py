"""Every request gets an answer: a result, or an error response with a short message.

pygls drops a request whose params do not fit the method's types (hover at line -1, completion
without a position): it logs, shows "Error in server" and never answers, so the client waits
forever. And an exception in a handler goes back as -32603 with its raw text and traceback
("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff…"). These say what was wrong in a
line; the traceback goes to the server's log.
"""

from __future__ import annotations

import logging
from typing import Any

import cattrs
from lsprotocol import types

log = logging.getLogger(__name__)


class Answered:
    """What `structure_message` gives for a request it already answered with an error."""


def invalid_params(method: str, error: BaseException) -> types.ResponseError:
    """InvalidParams naming what did not fit, e.g. `position.line`: expected an unsigned int."""
    cause = error.__cause__ if error.__cause__ is not None else error
    details: list[str] = []
    if isinstance(cause, cattrs.BaseValidationError):
        details = [_short(line) for line in cattrs.transform_error(cause)]
    detail = "; ".join(dict.fromkeys(details[:3])) or type(cause).__name__
    return types.ResponseError(
        code=types.ErrorCodes.InvalidParams, message=f"Invalid params for {method}: {detail}"
    )


def _short(line: str) -> str:
    # cattrs says "invalid value for type, expected int @ $.params.position.line"
    what, _, where = line.partition(" @ ")
    where = where.removeprefix("$.params.").removeprefix("$.params").removeprefix("$.")
    return f"{where or 'params'}: {what}"


def internal_error(method: Any, error: BaseException) -> types.ResponseError:
    log.error("answering %s failed", method, exc_info=error)
    return types.ResponseError(
        code=types.ErrorCodes.InternalError,
        message=f"mindscope-ls could not answer {method or 'this request'} "
        f"({type(error).__name__}); the details are in its log",
    )
