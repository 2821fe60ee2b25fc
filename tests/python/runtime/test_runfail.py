"""Locating and classifying run failures from MindSpore's real message text (no MindSpore)."""

from __future__ import annotations

from mindscope_runtime.runfail import (
    construct_locations,
    is_input_mismatch,
    message_head,
    run_failure,
    user_location,
)

# MindSpore 2.10's message for a (2, 3, 16) input to a Conv2d net (graph and PyNative alike).
SHAPE_MESSAGE = """For primitive[Conv2D], the x shape size must be equal to 4, but got 3.

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/core/utils/check_convert_utils.cc:626 CheckInteger

----------------------------------------------------
- The Traceback of Net Construct Code:
----------------------------------------------------
# 0 In file /work/model.py:16, 54~66
        return self.fc(self.flatten(self.relu(self.bn(self.conv(x)))))
                                                      ^~~~~~~~~~~~
# 1 In file /venv/lib/python3.11/site-packages/mindspore/nn/layer/conv.py:374~375, 8~53
        if self.has_bias:
# 2 In file /venv/lib/python3.11/site-packages/mindspore/nn/layer/conv.py:373, 17~44
        output = self.conv2d(x, self.weight)
                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 (See file '/tmp/x/rank_0/om/analyze_fail.ir' for more details.)"""
INPUTS = [{"shape": [2, 3, 16], "dtype": "Float32"}]


def test_locations_and_the_users_innermost_line() -> None:
    locations = construct_locations(SHAPE_MESSAGE)
    assert [(loc.file.rsplit("/", 1)[-1], loc.line) for loc in locations] == [
        ("model.py", 16),
        ("conv.py", 374),
        ("conv.py", 373),
    ]
    chosen = user_location(locations)
    assert chosen is not None and (chosen.file, chosen.line) == ("/work/model.py", 16)
    assert user_location([]) is None


def test_shape_errors_are_input_mismatches() -> None:
    error = run_failure(ValueError(SHAPE_MESSAGE), kind="stats-failed", inputs=INPUTS, root="Net")
    assert error.kind == "input-mismatch"
    assert error.message == (
        "Net does not run on the inputs (2, 3, 16):Float32: "
        "For primitive[Conv2D], the x shape size must be equal to 4, but got 3."
    )
    assert (error.file, error.line) == ("/work/model.py", 16)
    assert error.to_json()["inputs"] == INPUTS


def test_other_failures_keep_their_kind_and_drop_the_cpp_stack() -> None:
    text = SHAPE_MESSAGE.replace("the x shape size must be equal to 4, but got 3", "boom")
    assert not is_input_mismatch(RuntimeError(text))
    assert message_head(text) == "For primitive[Conv2D], boom."
    error = run_failure(RuntimeError(text), kind="run-failed", inputs=INPUTS, root="Net")
    assert (error.kind, error.message) == (
        "run-failed",
        "RuntimeError: For primitive[Conv2D], boom.",
    )
    assert is_input_mismatch(TypeError("For primitive[Conv2D], the input type must be same."))
    join = "Cannot join the return values of different branches. Shape Join Failed: (2, 3)"
    assert not is_input_mismatch(ValueError(join))
