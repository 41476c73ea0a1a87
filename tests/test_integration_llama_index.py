"""ScratchpadMemoryBlock in LlamaIndex's real ``Memory`` (its short-term FIFO, its flush
into memory blocks, its token accounting and truncation): over 40 messages with tool
calls, what ``Memory`` returns fits its limit, carries the refund agreed in turn 3 once
it left the short-term memory, and the memory's own stored messages are unchanged."""

from __future__ import annotations

import asyncio

import pytest
from llama_index.core.base.llms.types import TextBlock, ToolCallBlock
from llama_index.core.llms import ChatMessage
from llama_index.core.memory import Memory

from scratchpad import Scratchpad
from scratchpad.integrations.llama_index import ScratchpadMemoryBlock
from scratchpad.messages import parse_message
from scratchpad.render import HEADER
from scratchpad.tokens import message_tokens, messages_tokens
from tests.agent_loop import AGREED, FILLER, user_text

LIMIT = 900
#: LlamaIndex's own pydantic use warns on every run; none of it is this adapter's.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _messages() -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for k in range(10):
        out.append(ChatMessage(role="user", content=user_text(k)))
        out.append(ChatMessage(role="assistant", blocks=[
            TextBlock(text="Let me look."),
            ToolCallBlock(tool_call_id=f"call_{k}", tool_name="lookup",
                          tool_kwargs={"order": "A-77215"})]))
        out.append(ChatMessage(role="tool", content=f"Order A-77215: in transit. {FILLER}",
                               additional_kwargs={"tool_call_id": f"call_{k}"}))
        answer = (f"Agreed: I will refund {AGREED} to your card for A-77215." if k == 2
                  else f"Update {k}: {FILLER}")
        out.append(ChatMessage(role="assistant", content=answer))
    return out


def _tokens(messages: list[ChatMessage]) -> int:
    """What the messages cost, counted as compaction counts it (to err high)."""
    return messages_tokens([message_tokens(parse_message(m)) for m in messages])


def test_memory_carries_the_block_within_its_limit_and_keeps_its_history() -> None:
    async def main() -> tuple[list[list[ChatMessage]], list[ChatMessage], int]:
        with Scratchpad(":memory:") as pad:
            memory = Memory.from_defaults(
                session_id="refund-42", token_limit=LIMIT, chat_history_token_ratio=0.6,
                token_flush_size=300,
                memory_blocks=[ScratchpadMemoryBlock(pad=pad, thread="refund-42")])
            seen = []
            for message in _messages():
                await memory.aput(message)
                seen.append(await memory.aget())
            stored = len(pad.store.turns("refund-42"))
            return seen, await memory.aget_all(), stored

    seen, history, stored = asyncio.run(main())
    assert [m.content for m in history] == [m.content for m in _messages()]
    assert 0 < stored < 40  # the flushed part; the recent messages stay short-term
    with_block = 0
    for n, got in enumerate(seen, 1):
        assert _tokens(got) <= LIMIT, n
        system = "\n".join(str(m.content) for m in got if m.role.value == "system")
        with_block += HEADER in system
        if AGREED in system:
            assert "A-77215" in system
    last = "\n".join(str(m.content) for m in seen[-1] if m.role.value == "system")
    assert HEADER in last and AGREED in last
    assert with_block >= 20


def test_under_pressure_the_block_shrinks_by_salience_before_it_goes() -> None:
    async def main() -> tuple[str, str | None, str | None]:
        with Scratchpad(":memory:") as pad:
            pad.ingest("t", [{"role": "user", "content": "Order A-77215, ref RF-5521, "
                                                         "tracking 1Z999AA10123456784."},
                             {"role": "assistant", "content": f"I'll refund {AGREED}."},
                             {"role": "user", "content": "Is the €18 delivery refunded?"}])
            block = ScratchpadMemoryBlock(pad=pad, thread="t")
            full = await block.aget()
            return full, await block.atruncate(full, 20), await block.atruncate(full, 10_000)

    full, shorter, gone = asyncio.run(main())
    assert shorter is not None and len(shorter) < len(full) and "€18" in shorter
    assert gone is None


def test_a_function_agent_loop_gets_the_block_once_the_agreement_is_flushed() -> None:
    """LlamaIndex's ``FunctionAgent`` with its ``MockFunctionCallingLLM`` (scripted: a
    tool call for each user message, then an answer), ten runs on one ``Memory``."""
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.llms.mock import MockFunctionCallingLLM

    from scratchpad.tokens import count

    calls: list[list[ChatMessage]] = []

    def scripted(messages, **kwargs) -> ChatMessage:
        calls.append(list(messages))
        n = len(calls)
        if messages[-1].role.value == "tool":
            text = (f"Agreed: I will refund {AGREED} to your card for A-77215." if n == 6
                    else f"Update {n}: {FILLER}")
            return ChatMessage(role="assistant", content=text)
        return ChatMessage(role="assistant", blocks=[ToolCallBlock(
            tool_call_id=f"call_{n}", tool_name="lookup", tool_kwargs={"order": "A-77215"})])

    def lookup(order: str) -> str:
        """Look an order up."""
        return f"Order {order}: in transit. {FILLER}"

    async def main() -> tuple[int, int]:
        with Scratchpad(":memory:") as pad:
            memory = Memory.from_defaults(
                session_id="refund-42", token_limit=LIMIT,
                memory_blocks=[ScratchpadMemoryBlock(pad=pad, thread="refund-42")])
            agent = FunctionAgent(tools=[lookup], system_prompt="You are a refunds agent.",
                                  llm=MockFunctionCallingLLM(response_generator=scripted))
            for k in range(10):
                await agent.run(user_msg=user_text(k), memory=memory)
            return len(await memory.aget_all()), len(pad.store.turns("refund-42"))

    kept, pinned = asyncio.run(main())
    assert kept == 40 and 0 < pinned < 40
    assert len(calls) == 20
    carried = 0
    for n, messages in enumerate(calls[6:], 7):  # every call after the agreement
        assert sum(count(str(m.content)) for m in messages) <= LIMIT, n
        system = "\n".join(str(m.content) for m in messages if m.role.value == "system")
        recent = [str(m.content) for m in messages if m.role.value != "system"]
        if not any(AGREED in text for text in recent):  # flushed out of the short term
            assert HEADER in system and AGREED in system, n
            carried += 1
    assert carried >= 8
