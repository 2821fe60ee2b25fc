"""Memory over open/edit/close cycles (issue 19): 12 different 2,000-line files opened, edited,
asked about and closed leave the server's RSS where it was after the first (~40 s)."""

from __future__ import annotations

from .memcycles import run

# Before closed documents were freed, each cycle kept ~5-8 MB (40 files: 126 -> 461 MB).
BOUND_MB = 25.0


def test_closed_documents_are_freed() -> None:
    cycles = run(cycles=12, lines=2_000)
    assert cycles.unanswered == 0
    settled = cycles.rss_mb[2]  # after the first cycles' one-time costs (catalogue, jedi)
    growth = cycles.rss_mb[-1] - settled
    assert growth < BOUND_MB, f"RSS after each cycle (MB): {[round(m) for m in cycles.rss_mb]}"
