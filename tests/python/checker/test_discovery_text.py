"""Discovery's `in_text` is `text in source`, whichever line it starts searching from."""

from __future__ import annotations

import ast

from mindscope_ls.checker import Workspace
from mindscope_ls.checker.rules.helpers.discovery import Discovery

SOURCE = "class Net(nn.Cell):\n    pass\n\r\ndef f(x):\n    return Net (x)\n\nNet(1)(f(2))\n"


def test_in_text_finds_what_a_search_of_the_whole_source_finds() -> None:
    ws = Workspace()
    module = ws.update("m.py", SOURCE)
    discovery = Discovery(ws)
    texts = ["Net(", "f(", "Net (x)", "(2))\n", "class", "nope(", "\r\n", SOURCE, SOURCE + "x"]
    for line in range(0, 10):
        near = ast.Pass(lineno=line)
        for text in texts:
            assert discovery.in_text(module, text, near) == (text in SOURCE), (line, text)
