"""The bounded LSP fuzz run (lspfuzz.py) in the suite: 300 random edits, ~90 requests, ~30 s.
`bench/lsp_fuzz.py` runs longer."""

from __future__ import annotations

from .lspfuzz import run


def test_random_edits_keep_the_editors_text_and_every_request_is_answered() -> None:
    outcome = run(seed=19, edits=300)
    assert outcome.drifts == []
    assert outcome.unanswered == 0 and not outcome.crashed
    assert outcome.edits == 300 and outcome.requests > 300
