"""Counting messages as a provider does: text, tool calls and the format's overheads."""

from __future__ import annotations

import json

from scratchpad import Scratchpad
from scratchpad.messages import parse_message
from scratchpad.tokens import (
    MESSAGE_OVERHEAD,
    NAME_OVERHEAD,
    REPLY_PRIMING,
    count,
    message_tokens,
    messages_tokens,
)

CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function",
     "function": {"name": "get_order", "arguments": '{"order_id": "A-77215"}'}}]}


def test_a_message_costs_its_role_text_and_overhead() -> None:
    m = parse_message({"role": "user", "content": "Hello there, how are you?"})
    assert message_tokens(m) == MESSAGE_OVERHEAD + count("user") + count(m.text)
    named = parse_message({"role": "user", "name": "ana", "content": m.text})
    assert message_tokens(named) == message_tokens(m) + NAME_OVERHEAD + count("ana")


def test_tool_calls_cost_their_whole_json_and_err_high() -> None:
    m = parse_message(CALL)
    call = CALL["tool_calls"][0]
    assert message_tokens(m) == (MESSAGE_OVERHEAD + count("assistant") + 0
                                 + MESSAGE_OVERHEAD + count(json.dumps(call)))
    # never less than what the provider bills: the name and the arguments with overheads
    floor = 2 * MESSAGE_OVERHEAD + count("assistant") + count("get_order") \
        + count('{"order_id": "A-77215"}')
    assert message_tokens(m) > floor
    # the same call in Anthropic's shape: a content block costs a wrapper too
    anthropic = parse_message({"role": "assistant", "content": [
        {"type": "tool_use", "id": "c1", "name": "get_order", "input": {"order_id": "A-77215"}}]})
    assert message_tokens(anthropic) > floor


def test_a_tool_result_costs_its_call_id() -> None:
    bare = parse_message({"role": "tool", "content": "shipped"})
    result = parse_message({"role": "tool", "tool_call_id": "call_123", "content": "shipped"})
    assert message_tokens(result) == message_tokens(bare) + NAME_OVERHEAD + count("call_123")


def test_a_request_adds_the_reply_priming() -> None:
    assert messages_tokens([10, 5]) == 15 + REPLY_PRIMING
    assert messages_tokens([]) == REPLY_PRIMING


def test_the_store_keeps_each_turns_count() -> None:
    messages = [{"role": "user", "content": "Where is order A-77215?"}, CALL,
                {"role": "tool", "tool_call_id": "c1", "content": '{"status": "shipped"}'}]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        stored = [t.tokens for t in pad.store.turns("t")]
    assert stored == [message_tokens(parse_message(m)) for m in messages]
