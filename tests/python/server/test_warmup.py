"""The warm-up leaves the open documents parsed and the listings encoded, and never waits on
a request that waits for jedi (which the warm-up holds)."""

from __future__ import annotations

from mindscope_ls import sourcemodel, warmup
from mindscope_ls.apiitems import namespace_json


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

    with warmup.serving(), warmup.wanting_jedi():
        assert not warmup._user_active()
        warmup.run_yielding(work)
    assert len(steps) == 1000
    with warmup.serving():
        assert warmup._user_active()  # anything else waits while a request is answered
