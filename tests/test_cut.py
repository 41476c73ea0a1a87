"""Cutting a transcript between whole turns: never an orphaned tool result."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scratchpad.cut import clean, cut_point, is_user_text, links


def openai_step(n: int, calls: int) -> list[dict]:
    """An assistant message making ``calls`` parallel calls, then their results."""
    ids = [f"c{n}_{k}" for k in range(calls)]
    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": i, "type": "function", "function": {"name": "run", "arguments": "{}"}}
        for i in ids]}
    return [call] + [{"role": "tool", "tool_call_id": i, "content": "ok"} for i in ids]


def anthropic_step(n: int, calls: int) -> list[dict]:
    """The same in Anthropic's shape: tool_use blocks, then one user message of results."""
    ids = [f"t{n}_{k}" for k in range(calls)]
    use = {"role": "assistant", "content": [{"type": "text", "text": "Running."}] + [
        {"type": "tool_use", "id": i, "name": "run", "input": {}} for i in ids]}
    results = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": i, "content": "ok"} for i in ids]}
    return [use, results]


STEP = st.one_of(
    st.just("user"), st.just("assistant"),
    st.tuples(st.just("openai"), st.integers(1, 3)),
    st.tuples(st.just("anthropic"), st.integers(1, 3)),
)


def build(steps: list) -> list[dict]:
    messages: list[dict] = [{"role": "system", "content": "You are an agent."}]
    for n, step in enumerate(steps):
        if step == "user":
            messages.append({"role": "user", "content": f"request {n}"})
        elif step == "assistant":
            messages.append({"role": "assistant", "content": f"answer {n}"})
        elif step[0] == "openai":
            messages += openai_step(n, step[1])
        else:
            messages += anthropic_step(n, step[1])
    return messages


@settings(max_examples=300, deadline=None)
@given(st.lists(STEP, max_size=40), st.integers(0, 12))
def test_cut_point_is_clean_keeps_enough_and_is_the_latest(steps, keep) -> None:
    messages = build(steps)
    start = cut_point(messages, keep, first=1)
    assert 1 <= start <= len(messages)
    assert clean(messages, start)
    assert start <= max(1, len(messages) - keep)  # at least ``keep`` messages kept
    users = [i for i in range(1, len(messages)) if is_user_text(messages[i])]
    if users:
        assert start <= users[-1]  # the latest user message is kept
    # no later start would do: the cut keeps no more than it must
    for later in range(start + 1, min(len(messages) - keep, users[-1] if users else 10**9) + 1):
        assert not clean(messages, later)


def test_parallel_calls_stay_with_all_their_results() -> None:
    messages = build(["user", ("openai", 3), "assistant"])
    # keeping 2 messages would start among the results: the cut moves back to the call
    assert cut_point(messages, 2, first=1) == 1  # the user message is the latest anyway
    messages = build(["user", "assistant", "user", ("openai", 3)])
    assert messages[cut_point(messages, 2, first=1)]["role"] == "user"
    assert clean(messages, 4) and not clean(messages, 5)


def test_anthropic_results_answer_their_tool_use() -> None:
    step = anthropic_step(0, 2)
    assert links(step[0]).calls == {"t0_0", "t0_1"}
    assert links(step[1]).answers == {"t0_0", "t0_1"}
    assert not is_user_text(step[1])  # a message of tool results is not the user speaking
    messages = build(["user", "assistant", ("anthropic", 2), "assistant"])
    assert not clean(messages, 4) and clean(messages, 3)


def test_an_orphan_in_the_input_keeps_everything() -> None:
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "hi"},
                {"role": "tool", "tool_call_id": "gone", "content": "late"}]
    assert cut_point(messages, 1, first=1) == 1
