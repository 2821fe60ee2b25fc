"""An op whose `# In file` chain is the first parse's of a helper, not its own call (pure).

MindSpore 2.10 parses `tensor_index_by_number` once, inside nn.LSTM's `h[0][i]`, and the root's
later `c[-1]` of the LSTM's output keeps that chain: it claims to run in the LSTM's code before
the LSTM made the value it reads. Seen in the attribution suite's TextLSTM."""

from __future__ import annotations

from typing import Any

from mindscope_runtime.irvalues import Location
from mindscope_runtime.scopes import CellInfo
from mindscope_runtime.sharedscopes import rehome_ops

NET, RNN, UTIL = "/m/net.py", "/ms/rnns.py", "/ms/_compile_utils.py"
ENCODER = "Default/encoder-LSTM"


def loc(file: str, line: int, code: str) -> Location:
    return Location(file, line, line, 1, 40, code)


ROOT = [loc(NET, 10, "def construct(self, x):")]
IN_LSTM = [*ROOT, loc(NET, 11, "h, c = self.encoder(x)"), loc(RNN, 50, "def construct(self, x):")]
GETITEM = [loc(UTIL, 100, "def tensor_index_by_number(data, i):"), loc(UTIL, 103, "return")]
ADD = [loc("/ms/gen_ops_def.py", 20, "def add(x, y):"), loc("/ms/gen_ops_def.py", 21, "return")]
CELLS = [CellInfo("", "Net", 0, 0, (NET, 10)), CellInfo("encoder", "LSTM", 1, 1, (RNN, 50))]


def node(ref: str, scope: str) -> dict[str, Any]:
    return {"id": ref, "category": "compute", "scope": scope}


def data(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"from": a, "to": b, "kind": "data"} for a, b in pairs]


def test_an_op_run_before_its_own_input_in_the_claimed_call_goes_to_the_caller() -> None:
    nodes = [
        node("lstm", ENCODER),
        node("concat", ENCODER),
        node("slice", ENCODER),  # the root's c[-1], with the LSTM's h[0][i] chain
        node("add", ENCODER),  # `+` (ops.add) kept the LSTM's parse's scope, not its chain
    ]
    chains = {
        "lstm": [*IN_LSTM, loc(RNN, 56, "out = self.rnn(x, h_i)")],
        "concat": [*IN_LSTM, loc(RNN, 60, "c_n = ops.concat(c_n)")],
        "slice": [*IN_LSTM, loc(RNN, 55, "h_i = h[0][i]"), *GETITEM],
        "add": [*ROOT, loc(NET, 12, "return out + c[-1]"), *ADD],
    }
    edges = data(("lstm", "concat"), ("concat", "slice"), ("slice", "add"), ("lstm", "add"))
    assert rehome_ops(nodes, edges, chains, CELLS, {}) == 2
    assert [n["scope"] for n in nodes] == [ENCODER, ENCODER, "Default", "Default"]


def test_a_loop_pass_reading_the_previous_pass_stays_in_its_cell() -> None:
    """Unrolled `for`: pass 2's helper op reads pass 1's later line, and its Cell reads it."""
    nodes = [node("mul0", ENCODER), node("rnn0", ENCODER), node("mul1", ENCODER),
             node("rnn1", ENCODER)]  # fmt: skip
    scale = [*IN_LSTM, loc(RNN, 55, "x = scale(x)"), *GETITEM]
    run = [*IN_LSTM, loc(RNN, 56, "x = self.rnn(x)")]
    chains = {"mul0": scale, "rnn0": run, "mul1": scale, "rnn1": run}
    edges = data(("mul0", "rnn0"), ("rnn0", "mul1"), ("mul1", "rnn1"))
    assert rehome_ops(nodes, edges, chains, CELLS, {}) == 0
    assert {n["scope"] for n in nodes} == {ENCODER}
