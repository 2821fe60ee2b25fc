"""False positives found on the model zoos (docs/checker-realcode.md) whose reduced program
cannot be compiled on this machine: MindSpore's CPU build has no `Unique2` kernel, so
`mint.unique` fails there for want of a kernel, not of syntax."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = "from mindspore import mint, nn, ops\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"


def codes(body: str) -> list[str]:
    return [f.code for f in check_source(HEAD + body, "net.py")]


def test_mint_unique_gives_one_tensor() -> None:
    # mindone's Lumina2: `mint.unique(seq_lengths).shape[0] > 1` (PyNative: a Tensor).
    assert codes("        return mint.unique(x).shape[0]\n") == []
    assert codes("        return x.unique().shape[0]\n") == []


def test_unique_asked_for_indices_or_ops_unique_gives_a_tuple() -> None:
    assert "MS155" in codes("        return mint.unique(x, return_inverse=True).shape[0]\n")
    assert "MS155" in codes("        return ops.unique(x).shape[0]\n")
