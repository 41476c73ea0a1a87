"""compact_for_anthropic: the block as a second system block after the caller's own
(cache markers kept), the messages a valid Messages API request: a user message first,
every tool_result with its tool_use, within the window, the agreed value carried."""

from __future__ import annotations

from scratchpad import Scratchpad
from scratchpad.cut import clean, is_user_text
from scratchpad.integrations.anthropic import compact_for_anthropic
from scratchpad.messages import parse_message
from scratchpad.render import HEADER
from scratchpad.tokens import message_tokens, messages_tokens

SYSTEM = [{"type": "text", "text": "You are a refunds agent.",
           "cache_control": {"type": "ephemeral"}}]
WINDOW = 1_500


def _loop(steps: int) -> list[dict]:
    messages: list[dict] = [
        {"role": "user", "content": "My order A-77215 arrived broken. " + "Details. " * 80},
        {"role": "assistant", "content": "I can refund €930 to your card."},
        {"role": "user", "content": "Yes, the €930 refund please."}]
    for n in range(steps):
        messages += [
            {"role": "assistant", "content": [
                {"type": "text", "text": "Checking the refund."},
                {"type": "tool_use", "id": f"tu_{n}", "name": "refund_status",
                 "input": {"order": "A-77215"}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"tu_{n}",
                 "content": "pending at the bank " * 40}]}]
        if n % 3 == 2:
            messages.append({"role": "user", "content": f"Any news? ({n})"})
            messages.append({"role": "assistant", "content": "Still pending."})
    return messages


def _tokens(system: list[dict], messages: list[dict]) -> int:
    given = [{"role": "system", "content": system}, *messages]
    return messages_tokens([message_tokens(parse_message(m)) for m in given])


def test_every_step_of_a_tool_loop_is_a_valid_request_with_the_block_in_system() -> None:
    with Scratchpad(":memory:") as pad:
        compacted = 0
        for steps in range(1, 16):
            history = _loop(steps)
            system, messages = compact_for_anthropic(SYSTEM, history, pad=pad, thread="a",
                                                     window=WINDOW, keep_recent=3)
            assert system[0] == SYSTEM[0]  # the caller's block and its cache marker
            assert messages and is_user_text(messages[0]) and clean(messages, 0), steps
            assert _tokens(system, messages) <= WINDOW, steps
            if len(system) == 2:
                compacted += 1
                assert system[1]["text"].startswith(HEADER) and "€930" in system[1]["text"]
                assert all(m in history for m in messages)  # the caller's own dicts
            else:
                assert messages == history
    assert compacted >= 10


def test_a_string_system_prompt_becomes_a_block_and_nothing_changes_under_the_trigger() -> None:
    history = [{"role": "user", "content": "Refund €930 for A-77215?"}]
    with Scratchpad(":memory:") as pad:
        system, messages = compact_for_anthropic("Be brief.", history, pad=pad, thread="b",
                                                 window=10_000)
    assert system == [{"type": "text", "text": "Be brief."}] and messages == history
