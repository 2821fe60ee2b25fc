"""Strings, formatting and printing in compiled code (round 36, `sf_`): MS1110/MS3001 (a str
a Tensor condition picks, then used or printed), MS307 through `str_joins.check_outputs`,
MS1111/MS3002 (a Parameter turned into text), MS3000 (`print` of several arguments), MS3003
(`self.name` through `%`/`repr`), and the widened MS322/MS347/MS381/MS382. Each shape here was
compiled with MindSpore 2.10 and run in PyNative (`tests/graphmode/cases/round36/sf_*`)."""

from __future__ import annotations

from mindscope_ls.checker import check_source

HEAD = (
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import Parameter, Tensor, nn\n\n\n"
)
RUN = "\n\ndef run():\n    return Net()(Tensor(np.ones(3, np.float32)))\n"
INIT = (
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.name = 'conv'\n"
    "        self.mode = 'train'\n"
    "        self.k = 3\n"
    "        self.w = Parameter(Tensor(np.ones(3, np.float32)), name='w')\n\n"
)


def found(source: str, level: str = "LAX") -> list[tuple[str, int]]:
    """(code, line in `source`) of each finding, lines counted from the source's first line."""
    offset = HEAD.count("\n")
    return sorted(
        (f.code, f.range.line - offset)
        for f in check_source(HEAD + source + RUN, "m.py", level=level)
    )


def net(body: str) -> str:
    """A Cell with str/int/Parameter attributes; its `construct` starts on line 9 (body: 10)."""
    lines = "".join(f"        {line}\n" for line in body.strip().splitlines())
    return "class Net(nn.Cell):\n" + INIT + "    def construct(self, x):\n" + lines


def codes(source: str, level: str = "LAX") -> list[str]:
    return [code for code, _ in found(source, level)]


# --- MS1110 / MS3001 ----------------------------------------------------------------------


def test_a_str_a_tensor_if_picks_fails_when_used_as_a_str() -> None:
    join = "s = 'a'\nif x.sum() > 2:\n    s = 'b'\n"
    assert found(net(join + "if s == 'b':\n    x = x * 2\nreturn x")) == [("MS1110", 13)]
    assert found(net(join + "return x * len(s)"), "LAX") == [("MS1110", 13), ("MS224", 13)]
    assert ("MS1110", 13) in found(net(join + "y = s.upper()\nreturn x"))
    assert ("MS1110", 13) in found(net(join + "y = 'pre_' + s\nreturn x"))
    ifexp = "s = 'a' if x.sum() > 2 else 'b'\nif s == 'a':\n    x = x + 1\nreturn x"
    assert found(net(ifexp)) == [("MS1110", 11)]
    attr = (
        "s = self.mode\nif x.sum() > 2:\n    s = 'eval'\n"
        "if s != self.mode:\n    x = x + 1\nreturn x"
    )
    assert found(net(attr), "STRICT") == [("MS1110", 13)]


def test_a_str_a_python_condition_picks_or_one_str_is_clean() -> None:
    assert (
        codes(net("s = 'a'\nif self.k > 2:\n    s = 'b'\nif s == 'b':\n    x = x * 2\nreturn x"))
        == []
    )
    same = "s = 'a'\nif x.sum() > 2:\n    s = 'a'\nif s == 'a':\n    x = x + 1\nreturn x"
    assert codes(net(same)) == []
    inner = "s = 'a'\nif x.sum() > 2:\n    s = 'b'\n    if s == 'b':\n        x = x + 1\nreturn x"
    assert codes(net(inner)) == []
    in_tuple = "s = 'a'\nif x.sum() > 2:\n    s = 'b'\nif s in ('a', 'c'):\n    x = x + 1\nreturn x"
    assert codes(net(in_tuple)) == []


def test_a_tensor_joined_str_printed_diverges() -> None:
    body = "if x.sum() > 2:\n    s = 'big'\nelse:\n    s = 'small'\nprint(s)\nreturn x"
    assert found(net(body)) == [("MS3001", 14)]
    assert codes(net("if x.sum() > 2:\n    print('big')\nreturn x")) == []


def test_a_joined_str_in_the_output_is_ms307() -> None:
    body = "s = self.mode\nif x.sum() > 2:\n    s = 'eval'\nreturn x, s"
    assert found(net(body)) == [("MS307", 13)]
    loop = "s = 'a'\ni = Tensor(0, ms.int32)\nwhile i < 2:\n    s = 'b'\n    i = i + 1\nreturn x, s"
    assert found(net(loop)) == [("MS307", 15)]
    early = "if x.sum() > 2:\n    return x, 'big'\nreturn x, 'small'"
    assert found(net(early)) == [("MS307", 12)]
    # if/else and conditional expressions stay outputs.py's (one finding)
    both = "if x.sum() > 2:\n    s = 'a'\nelse:\n    s = 'b'\nreturn x, s"
    assert codes(net(both)) == ["MS307"]


# --- MS3000 ---------------------------------------------------------------------------------


def test_print_of_several_arguments_writes_one_line_each() -> None:
    assert found(net("print('k', self.k)\nreturn x")) == [("MS3000", 10)]
    assert found(net("for i in range(2):\n    print('step', i)\nreturn x")) == [("MS3000", 11)]
    assert found(net("print()\nreturn x"), "STRICT") == [("MS3000", 10)]
    assert found(net("args = ('a', 'b')\nprint(*args)\nreturn x")) == [("MS3000", 11)]


def test_print_of_one_argument_or_run_by_the_fallback_is_clean() -> None:
    assert codes(net("print('a b')\nreturn x")) == []
    assert codes(net("print(f'k {self.k}')\nreturn x")) == []
    assert codes(net("n = int(x.sum())\nprint('picked', f'head{n}')\nreturn x")) == []
    assert codes(net("print('a', x.asnumpy())\nreturn x")) == ["MS201"]  # STRICT's rule
    jit = "@ms.jit\ndef f(x):\n    print('k', 3)\n    return x\n\n\n" + net("return f(x)")
    assert codes(jit) == []


# --- MS1111 / MS3002 ------------------------------------------------------------------------


def test_a_parameter_made_text() -> None:
    assert found(net("s = str(self.w)\nreturn x, s")) == [("MS1111", 10), ("MS204", 10)]
    assert found(net("return x, f'w={self.w}'")) == [("MS3002", 10)]
    assert found(net("return x, '{}'.format(self.w)")) == [("MS215", 10), ("MS3002", 10)]
    # STRICT: MS204 / MS309 say it
    assert "MS1111" not in codes(net("s = str(self.w)\nreturn x, s"), "STRICT")
    assert codes(net("return x, f'{self.w.dtype}'")) == []
    assert codes(net("return x, repr(self.w)")) == ["MS204"]


# --- MS3003 ---------------------------------------------------------------------------------


def test_self_name_through_percent_or_repr_is_the_namespace_label() -> None:
    assert found(net("return x, '%s-%s' % (self.name, self.k)")) == [("MS3003", 10)]
    assert found(net("return x, repr(self.name)"), "STRICT") == [("MS3003", 10)]
    assert codes(net("return x, '%s' % self.mode")) == []
    assert codes(net("n = self.name\nreturn x, '%s' % n")) == []
    assert codes(net("return x, f'{self.name}'")) == []


# --- widened: MS322 nested specs, MS347/MS382 in print, one-item tuples ---------------------


def test_nested_format_spec_and_prints_of_fstrings() -> None:
    assert found(net("w = 6\nreturn x, f'{self.k:>{w}}'")) == [("MS322", 11)]
    assert found(net("print(f'{self.training}')\nreturn x")) == [("MS347", 10)]
    assert found(net("print(f'{[self.name]}')\nreturn x")) == [("MS382", 10)]
    jit = "@ms.jit\ndef f(x):\n    print(f'{x.shape[0] > 1}')\n    return x\n\n\n" + net(
        "return f(x)"
    )
    assert codes(jit) == []


def test_one_item_tuples_and_1d_shapes_lose_their_comma() -> None:
    assert found(net("return x, f'{x.shape}'")) == [("MS382", 10)]
    assert found(net("print(x.shape)\nreturn x")) == [("MS381", 10)]
    assert found(net("print((self.k,))\nreturn x")) == [("MS381", 10)]
    assert codes(net("y = x.reshape((1, 3))\nreturn x, f'{y.shape}'")) == []
    assert codes(net("return x, str(x.shape)")) == []
