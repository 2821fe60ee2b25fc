"""Module state and the standard library at compile time (round 36, measured on MindSpore 2.10):
deques rebound by their methods (MS1135), `next()` of itertools objects (MS1136), `isinstance`
against typing aliases (MS1137), `operator.contains` (MS1138), IntEnum members (MS1139,
MS3026), heapq/bisect on a copy (MS3025), and the widened MS148, MS207, MS224, MS227, MS313,
MS390."""

from __future__ import annotations

import textwrap

from mindscope_ls.checker import Finding, check_source


def codes(body: str, pre: str = "", level: str = "LAX") -> list[tuple[int, str]]:
    """Findings of a Cell whose `construct` is `body` (line 1 of `body` is line 8 of the file)."""
    source = (
        textwrap.dedent(pre)
        + "\nimport numpy as np\nfrom mindspore import Tensor, nn\n\n\nclass Net(nn.Cell):\n"
        + "    def construct(self, x):\n"
        + textwrap.indent(textwrap.dedent(body), "        ")
    )
    found: list[Finding] = check_source(source, "m.py", level=level)
    return [(f.line - textwrap.dedent(pre).count("\n") - 7, f.code) for f in found]


DEQUE = "from collections import deque"


def test_deque_append_then_read_fails() -> None:
    body = "d = deque([1, 2])\nd.append(3)\nreturn x * len(d)\n"
    assert codes(body, DEQUE) == [(3, "MS1135")]
    assert codes(body, DEQUE, "STRICT") == [(3, "MS1135")]


def test_deque_pop_value_fails_where_it_is() -> None:
    assert codes("d = deque([1, 2])\nv = d.pop()\nreturn x * v\n", DEQUE) == [(2, "MS1135")]


def test_deque_module_level_and_loop() -> None:
    pre = DEQUE + "\nQ = deque([1])"
    assert codes("Q.append(2)\nreturn x * len(Q)\n", pre) == [(2, "MS1135")]
    body = "d = deque(maxlen=2)\nfor i in range(3):\n    d.append(i)\nreturn x\n"
    assert codes(body, DEQUE) == [(3, "MS1135")]


def test_deque_look_alikes_are_clean() -> None:
    assert codes("d = deque([1, 2])\nd.append(3)\nreturn x\n", DEQUE) == []
    assert codes("d = deque([1, 2])\nd.appendleft(0)\nreturn x * d[0]\n", DEQUE) == []
    assert codes("d = [1, 2]\nd.append(3)\nreturn x * len(d)\n", DEQUE) == []


def test_next_of_itertools_object_fails_without_ms337() -> None:
    pre = "import itertools\nC = itertools.count()"
    assert codes("return x * next(C)\n", pre) == [(1, "MS1136")]
    local = "from itertools import cycle"
    assert codes("c = cycle([1, 2])\na = next(c)\nreturn x * a\n", local) == [(2, "MS1136")]
    loop = "s = 0\nfor i, v in zip(itertools.count(), [1, 2]):\n    s += i * v\nreturn x * s\n"
    assert codes(loop, "import itertools") == []


def test_isinstance_of_typing_alias_fails() -> None:
    pre = "from typing import List, Union"
    assert codes("if isinstance([1], List):\n    return x\nreturn x * 2\n", pre) == [(1, "MS1137")]
    assert codes("if isinstance(2, Union[int, float]):\n    return x\nreturn x\n", pre) == [
        (1, "MS1137")
    ]
    assert codes("if isinstance(2, int | float):\n    return x\nreturn x\n") == [(1, "MS1137")]
    assert codes("if isinstance([1], (list, tuple)):\n    return x\nreturn x\n", pre) == []


def test_operator_contains_reversed() -> None:
    pre = "import operator"
    assert codes("return x * operator.contains([1, 2], 2)\n", pre) == [(1, "MS1138")]
    assert codes("return x * operator.contains(('a', 'b'), 'a')\n", pre) == [(1, "MS1138")]
    assert codes("return x * (2 in [1, 2])\n", pre) == []


INT_ENUM = "import enum\nclass K(enum.IntEnum):\n    A = 1\n    B = 2"


def test_int_enum_member_attribute_and_return() -> None:
    assert codes("return x * K.B.value\n", INT_ENUM) == [(1, "MS1139")]
    assert codes("return x, K.B\n", INT_ENUM) == [(1, "MS3026")]
    assert codes("return x * K.B\n", INT_ENUM) == []
    plain = "import enum\nclass K(enum.Enum):\n    A = 1\n    B = 2"
    assert codes("return x * K.B.value\n", plain) == []


def test_heapq_and_insort_warn_when_the_list_is_read() -> None:
    assert codes("h = [3, 1, 2]\nheapq.heapify(h)\nreturn x * h[0]\n", "import heapq") == [
        (2, "MS3025")
    ]
    assert codes("l = [1, 3]\nbisect.insort(l, 2)\nreturn x * l[1]\n", "import bisect") == [
        (2, "MS3025")
    ]
    assert codes("return x * heapq.nlargest(1, [3, 1, 2])[0]\n", "import heapq") == []


def test_builtins_graph_mode_translates_to_reduce_fail() -> None:
    pre = "import functools\nimport itertools"
    assert codes("return x * functools.reduce(max, [1, 5, 2])\n", pre) == [(1, "MS148")]
    assert codes("return x * sum(itertools.starmap(pow, [(2, 2)]))\n", pre) == [(1, "MS148")]
    assert codes("return x * functools.reduce(divmod, [7, 2])[0]\n", pre) == []


def test_strict_fallback_calls() -> None:
    assert codes("return typing.cast(Tensor, x) * 2\n", "import typing", "STRICT") == [(1, "MS207")]
    assert codes("return operator.iadd(x, 1)\n", "import operator", "STRICT") == [(1, "MS207")]
    assert codes("return operator.add(x, x)\n", "import operator", "STRICT") == []
    assert codes("return x / sqrt(x.shape[-1])\n", "from math import sqrt", "STRICT") == [
        (1, "MS207")
    ]
    assert codes("return x / math.sqrt(x.shape[-1])\n", "import math", "STRICT") == []
    getter = "return x * operator.attrgetter('ndim')(x)\n"
    assert codes(getter, "import operator", "STRICT") == [(1, "MS227")]


def test_strict_len_of_module_str() -> None:
    assert codes("return x * len(NAME)\n", "NAME = 'resnet'", "STRICT") == [(1, "MS224")]
    assert codes("return x * len(string.digits)\n", "import string", "STRICT") == [(1, "MS224")]
    assert codes("NAME = 'a'\nreturn x * len(NAME)\n", "NAME = 'resnet'", "STRICT") == [
        (2, "MS224")
    ]


def test_compile_time_once_widened() -> None:
    assert codes("warnings.warn('w')\nreturn x\n", "import warnings") == [(1, "MS313")]
    pre = "import logging\nlogger = logging.getLogger(__name__)"
    assert codes("logger.info('step')\nreturn x\n", pre) == [(1, "MS313")]
    rng = "RNG = np.random.default_rng(0)"
    assert codes("return x * RNG.random()\n", "import numpy as np\n" + rng) == [(1, "MS313")]
    seeded = "np.random.seed(0)\nreturn x * np.random.rand()\n"
    assert codes(seeded, "import numpy as np") == []


def test_id_and_hash_remainders() -> None:
    assert codes("return x * (id(self) % 5)\n") == [(1, "MS390")]
    assert codes("return x * (hash('abc') % 5)\n") == [(1, "MS390")]
    assert codes("return x * (hash(12) % 5)\n") == []


def test_self_referencing_global_does_not_crash() -> None:
    pre = "L = []"
    assert codes("global L\nL = L + [1]\nreturn x * len(L)\n", pre, "STRICT") == [(2, "MS301")]


def test_environment_changed_between_calls_is_stale() -> None:
    source = textwrap.dedent(
        """
        import os
        import numpy as np
        from mindspore import Tensor, nn


        class Net(nn.Cell):
            def construct(self, x):
                return x * float(os.environ.get("SCALE", "1"))


        def run():
            net = Net()
            a = net(Tensor(np.ones((2, 3), np.float32)))
            os.environ["SCALE"] = "3"
            return a, net(Tensor(np.ones((2, 3), np.float32)))
        """
    )
    found = check_source(source, "m.py")
    assert [(f.line, f.code) for f in found] == [(15, "MS317")]


def test_typing_isinstance_under_a_none_guard_is_left_alone() -> None:
    """Graph mode folds `if masks is not None:` when the caller leaves `masks` out, so the
    branch's `isinstance(masks, List)` is never evaluated (measured; mindone's processors)."""
    body = (
        "from typing import List\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n"
        "    def construct(self, x, masks=None):\n        if masks is not None:\n"
        "            if not isinstance(masks, List):\n                x = x + 1\n        return x\n"
    )
    assert [f.code for f in check_source(body, "m.py")] == []
    unguarded = body.replace("if masks is not None:", "if x is not None:")
    assert [f.code for f in check_source(unguarded, "m.py")] == ["MS1137"]
