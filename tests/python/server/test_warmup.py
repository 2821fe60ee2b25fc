"""The warm-up leaves the open documents parsed and the listings encoded, and never waits on
a request that waits for jedi (which the warm-up holds)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mindscope_ls.analysis import sourcemodel
from mindscope_ls.analysis.apiitems import namespace_json
from mindscope_ls.infra import warmup

REPO = Path(__file__).resolve().parents[3]


def test_open_documents_are_parsed_and_listings_encoded() -> None:
    text = "from mindspore import nn\n\nclass Net(nn.Cell):\n    pass\n\nnet = Net()\n"
    uri = "file:///warm/net.py"
    ran: list[str] = []
    warmup.warm_up(lambda: [(uri, text)], lambda: ran.append("jedi"))
    assert ran == ["jedi"]
    assert namespace_json.cache_info().currsize >= 2 * len(warmup.NAMESPACES)
    sourcemodel.model_of("import os\n" + text, 0, uri)
    assert sourcemodel._document(uri).parser.parsed == 1  # only the new line's block


def test_work_wanted_by_a_request_is_not_paused() -> None:
    steps: list[int] = []

    def work() -> None:
        for step in range(1000):
            steps.append(step)

    warmup.request_arrived("r")
    try:
        with warmup.wanting_held_lock():
            assert not warmup._user_active()
            warmup.run_yielding(work)
        assert len(steps) == 1000
        assert warmup._user_active()  # anything else waits while a request is answered
    finally:
        warmup.request_answered("r")


def test_a_request_counts_from_its_arrival_to_its_answer() -> None:
    # The protocol tells as soon as a request is read, before a handler runs.
    assert not warmup.answering_requests()
    warmup.request_arrived("1")
    assert warmup.answering_requests() and warmup._requests_or_input()
    warmup.request_answered("1")
    assert not warmup.answering_requests()


def test_background_work_starts_once_the_essentials_are_ready() -> None:
    ran: list[str] = []
    warmup._essentials.clear()
    try:
        worker = threading.Thread(target=warmup.in_background, args=(lambda: ran.append("index"),))
        worker.start()
        worker.join(0.05)
        assert ran == []  # waits for the warm-up (or for `skip` when none runs)
        warmup.skip()
        worker.join()
        assert ran == ["index"]
    finally:
        warmup._essentials.set()


_POLICY = """
import gc, sys
from mindscope_ls.infra import gcpause
if sys.argv[1] == "server":
    gcpause.use_server_policy()
before = gc.get_freeze_count()
with gcpause.gc_paused():
    tree = [[index] for index in range(50_000)]  # as many objects as a large parse leaves
print(gc.get_freeze_count() - before >= 50_000, gc.isenabled())
"""


@pytest.mark.parametrize(("policy", "frozen"), [("server", "True"), ("default", "False")])
def test_large_parses_are_frozen_in_the_server_only(policy: str, frozen: str) -> None:
    # Other processes parse too (the checker's command line, the kernel running user code).
    out = subprocess.run(
        [sys.executable, "-c", _POLICY, policy],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO / "pyserver")},
    )
    assert out.stdout.split() == [frozen, "True"]


def test_superseded_work_stops_and_gives_none() -> None:
    steps: list[int] = []

    def step(number: int) -> None:  # a Python call: the hook checks every 64 of them
        steps.append(number)

    def work() -> str:
        for number in range(10_000):
            step(number)
        return "done"

    assert warmup.run_yielding(work, lambda: len(steps) >= 100) is None
    assert 100 <= len(steps) < 10_000
    assert warmup.run_yielding(lambda: "done", lambda: False) == "done"
    assert sys.getprofile() is None


def test_an_item_list_pauses_for_a_waiting_request_in_the_warm_up_only() -> None:
    order: list[str] = []
    warmup.request_arrived("r")
    warmup.pause_point()  # a request's own thread: never waits
    order.append("request thread went on")

    def answer() -> None:
        order.append("answered")
        warmup.request_answered("r")

    warmup._thread.warming_up = True
    try:
        threading.Timer(0.05, answer).start()
        warmup.pause_point()  # the warm-up's: waits for the answer
        order.append("warm-up went on")
    finally:
        warmup._thread.warming_up = False
    assert order == ["request thread went on", "answered", "warm-up went on"]
