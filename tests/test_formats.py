"""Message formats agent frameworks hand over, read as chat messages
(:mod:`scratchpad.formats`), and compaction giving back the framework's own messages."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from scratchpad import Scratchpad
from scratchpad.compaction import compact
from scratchpad.errors import InputError
from scratchpad.formats import as_chat
from scratchpad.messages import parse_message

RESPONSES = [
    {"type": "message", "role": "developer", "content": "You are a refunds agent."},
    {"type": "message", "role": "user",
     "content": [{"type": "input_text", "text": "Refund order A-77215, €930 as agreed."}]},
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "refund",
     "arguments": json.dumps({"order": "A-77215", "amount": "930.00"})},
    {"type": "function_call_output", "call_id": "call_1", "output": '{"refund_id": "RF-5521"}'},
    {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
     "content": [{"type": "output_text", "text": "Done: refund RF-5521 for €930.",
                  "annotations": []}]},
]


def test_responses_items_read_as_chat_turns_and_are_stored_as_given() -> None:
    parsed = [parse_message(item) for item in RESPONSES]
    assert [m.role for m in parsed] == ["system", "user", "assistant", "assistant", "tool",
                                        "assistant"]
    assert parsed[3].tool_calls and parsed[3].tool_calls[0]["function"]["name"] == "refund"
    assert parsed[4].tool_call_id == "call_1" and "RF-5521" in parsed[4].text
    assert parsed[5].text == "Done: refund RF-5521 for €930."
    assert all(m.raw == item for m, item in zip(parsed, RESPONSES, strict=True))
    with Scratchpad(":memory:") as pad:
        pad.sync("r", RESPONSES)
        values = {r.text for r in pad.records("r")}
        stored = [json.loads(json.dumps(t.message)) for t in pad.store.turns("r")]
    assert {"A-77215", "€930", "RF-5521"} <= values
    assert stored == RESPONSES[1:]  # the developer message is the system prompt


def test_the_developer_role_is_the_system_prompt() -> None:
    message = parse_message({"role": "developer", "content": "Be brief."})
    assert message.role == "system" and message.raw["role"] == "developer"


def test_langchain_messages_round_trip_through_their_chat_form() -> None:
    messages = [
        SystemMessage("You are a refunds agent."),
        HumanMessage("Refund order A-77215, €930 as agreed."),
        AIMessage("", tool_calls=[{"name": "refund", "args": {"order": "A-77215"},
                                   "id": "call_1"}]),
        ToolMessage('{"refund_id": "RF-5521"}', tool_call_id="call_1"),
        AIMessage("Done: refund RF-5521 for €930."),
    ]
    chat = [as_chat(m) for m in messages]
    assert [c["role"] for c in chat] == ["system", "user", "assistant", "tool", "assistant"]
    assert chat[2]["tool_calls"][0] == {"id": "call_1", "type": "function", "function": {
        "name": "refund", "arguments": '{"order": "A-77215"}'}}
    assert chat[3]["tool_call_id"] == "call_1"
    back = [_langchain(c) for c in chat]
    assert [(b.type, b.content) for b in back] == [(m.type, m.content) for m in messages]
    assert back[2].tool_calls == messages[2].tool_calls


def _langchain(chat: dict):
    """The LangChain message a chat dict stands for (the test's way back)."""
    from langchain_core.messages import convert_to_messages

    return convert_to_messages([chat])[0]


def test_a_langchain_summary_message_is_recognised() -> None:
    summary = HumanMessage("Here is a summary of the conversation to date:\n\nabout €900",
                           additional_kwargs={"lc_source": "summarization"})
    with Scratchpad(":memory:") as pad:
        pad.sync("t", [HumanMessage("Refund €930 for order A-77215.")])
        result = pad.sync("t", [summary, HumanMessage("Refund €930 for order A-77215."),
                                AIMessage("On it.")])
        values = {r.text for r in pad.records("t")}
    assert result.numbers == [None, 1, 2] and "€900" not in values


def test_compaction_gives_back_the_frameworks_own_messages_by_index() -> None:
    filler = " and some more words about the order" * 30
    messages = [SystemMessage("You are a refunds agent.")] + [
        (HumanMessage if i % 2 == 0 else AIMessage)(f"Turn {i}: order A-77215, €930.{filler}")
        for i in range(12)]
    out = compact(messages, thread="lc", window=1500, keep_recent=2)
    assert out.changed and out.block is not None and out.block_at == 1
    assert out.messages[0] is messages[0]
    assert out.messages[1] == {"role": "system", "content": out.block}
    assert all(out.messages[k + 1] is messages[i]
               for k, i in enumerate(out.kept) if k >= out.block_at)
    assert out.kept[0] == 0 and out.kept[-1] == len(messages) - 1
    assert "A-77215" in out.block and "€930" in out.block


def test_compaction_writes_the_block_in_the_format_asked() -> None:
    filler = " words" * 400
    messages = [{"role": "user", "content": f"Order A-77215.{filler}"},
                {"role": "assistant", "content": f"Refund €930 agreed.{filler}"},
                {"role": "user", "content": "Thanks."}]
    out = compact(messages, thread="a", window=600, keep_recent=1, format="anthropic")
    assert out.changed and out.block_at == 0
    block = out.messages[0]
    assert block["role"] == "user" and isinstance(block["content"], list)


def test_an_unknown_object_is_a_one_line_input_error() -> None:
    with pytest.raises(InputError, match="expected a message object"):
        compact([object()], thread="x", window=100)


def test_llama_index_messages_round_trip_through_their_chat_form() -> None:
    from llama_index.core.base.llms.types import TextBlock, ToolCallBlock
    from llama_index.core.llms import ChatMessage

    messages = [
        ChatMessage(role="system", content="You are a refunds agent."),
        ChatMessage(role="user", content="Refund order A-77215, €930 as agreed."),
        ChatMessage(role="assistant", blocks=[
            TextBlock(text="Let me look."),
            ToolCallBlock(tool_call_id="call_1", tool_name="refund",
                          tool_kwargs={"order": "A-77215"})]),
        ChatMessage(role="tool", content='{"refund_id": "RF-5521"}',
                    additional_kwargs={"tool_call_id": "call_1"}),
    ]
    chat = [as_chat(m) for m in messages]
    assert [c["role"] for c in chat] == ["system", "user", "assistant", "tool"]
    assert chat[2]["tool_calls"] == [{"id": "call_1", "type": "function", "function": {
        "name": "refund", "arguments": '{"order": "A-77215"}'}}]
    back = [_llama_index(c) for c in chat]
    assert [as_chat(b) for b in back] == chat
    with Scratchpad(":memory:") as pad:
        pad.sync("li", messages)
        assert {"A-77215", "€930", "RF-5521"} <= {r.text for r in pad.records("li")}


def _llama_index(chat: dict):
    """The LlamaIndex message a chat dict stands for (the test's way back)."""
    from llama_index.core.base.llms.types import TextBlock, ToolCallBlock
    from llama_index.core.llms import ChatMessage

    blocks = [TextBlock(text=chat["content"])] if chat.get("content") else []
    blocks += [ToolCallBlock(tool_call_id=t["id"], tool_name=t["function"]["name"],
                             tool_kwargs=json.loads(t["function"]["arguments"]))
               for t in chat.get("tool_calls", [])]
    extra = {"tool_call_id": chat["tool_call_id"]} if "tool_call_id" in chat else {}
    return ChatMessage(role=chat["role"], blocks=blocks, additional_kwargs=extra)
