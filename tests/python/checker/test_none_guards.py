"""Round 36: the branch of `if p is not None:` that no call in the module passes `p` to is
folded by graph mode before inference, so the value rules stay quiet there
(`dead_raises.unpassed_none_branches`); the parser's refusals still fail. Each shape was
compiled with MindSpore 2.10 at LAX and STRICT (`tests/graphmode/cases/round36/ng_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn\n\n\n"


def program(branch: str, call: str = "Net()(x)", guard: str = "mask is not None") -> str:
    return (
        f"{HEAD}class Net(nn.Cell):\n    def construct(self, x, mask=None):\n"
        f"        if {guard}:\n            {branch}\n        return x\n\n\n"
        f"def run():\n    x = Tensor(np.ones((2, 3), np.float32))\n    return {call}\n"
    )


def errors(source: str, level: str) -> list[str]:
    return [f.code for f in check_source(source, "m.py", level=level) if f.severity.name == "ERROR"]


JOIN = "if x.sum() > 0:\n                x = x.astype(ms.int32)"


def test_a_branch_no_call_reaches_is_not_judged() -> None:
    for call in ("Net()(x)", "Net()(x, None)", "Net()(x, mask=None)"):
        assert errors(program("y = mask.asnumpy()", call), "STRICT") == [], call
        assert errors(program(JOIN, call), "LAX") == [], call
    # `if mask is None: ... else:` leaves the else dead the same way
    inverted = program("pass\n        else:\n            y = mask.asnumpy()", guard="mask is None")
    assert errors(inverted, "STRICT") == []


def test_a_passed_mask_or_unknown_callers_keep_the_findings() -> None:
    assert errors(program("y = mask.asnumpy()", "Net()(x, x)"), "STRICT") == ["MS201"]
    assert errors(program(JOIN, "Net()(x, mask=x)"), "LAX") == ["MS112"]
    args = program("y = mask.asnumpy()", "Net()(*(x, x))")
    assert errors(args, "STRICT") == ["MS201"]  # `*args` may pass it
    no_call = program("y = mask.asnumpy()").split("\n\ndef run")[0] + "\n"
    assert errors(no_call, "STRICT") == ["MS201"]  # no call in the module: nothing is known


def test_a_rebound_parameter_or_a_parser_refusal_still_counts() -> None:
    rebound = program("y = mask.asnumpy()").replace(
        "        if mask", "        mask = x * 2\n        if mask"
    )
    assert errors(rebound, "STRICT") == ["MS201"]
    assert errors(program("del x"), "LAX") == ["MS102"]
