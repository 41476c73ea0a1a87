"""The OpenAI Agents SDK adapters in a real ``Runner`` loop (its tool execution, its
``SQLiteSession``) with a scripted ``Model``: 40 items of user messages, function calls
and outputs; every model input within the window, carrying the block and the refund
agreed in turn 3, no function output without its call; the session's items the same as
without the adapters; ``pop_item`` and ``clear_session`` keep the pad in step."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from agents import Agent, Runner, function_tool
from agents.items import ModelResponse
from agents.memory import SQLiteSession
from agents.models.interface import Model
from agents.run_config import RunConfig
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from scratchpad import Scratchpad
from scratchpad.formats import as_chat
from scratchpad.integrations.openai_agents import ScratchpadInputFilter, ScratchpadSession
from scratchpad.messages import parse_message
from scratchpad.render import HEADER
from scratchpad.tokens import message_tokens, messages_tokens
from tests.agent_loop import AGREED, FILLER, user_text

WINDOW = 700


class ScriptedModel(Model):
    """Calls the lookup tool for each user message, then answers; records its input."""

    def __init__(self) -> None:
        self.calls: list[list[Any]] = []

    async def get_response(self, system_instructions, input, model_settings, tools,
                           output_schema, handoffs, tracing, **kwargs) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else list(input)
        self.calls.append([{"role": "system", "content": system_instructions}, *items])
        n = len(self.calls)
        last = as_chat(items[-1])
        if last.get("role") == "tool":
            text = (f"Agreed: I will refund {AGREED} to your card for A-77215." if n == 6
                    else f"Update {n}: {FILLER}")
            out: Any = ResponseOutputMessage(
                id=f"msg_{n}", type="message", role="assistant", status="completed",
                content=[ResponseOutputText(type="output_text", text=text, annotations=[])])
        else:
            out = ResponseFunctionToolCall(type="function_call", id=f"fc_{n}",
                                           call_id=f"call_{n}", name="lookup",
                                           arguments=json.dumps({"order": "A-77215"}),
                                           status="completed")
        return ModelResponse(output=[out], usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):  # not used here
        raise NotImplementedError


@function_tool
def lookup(order: str) -> str:
    """Look an order up."""
    return f"Order {order}: in transit. {FILLER}"


def _tokens(items: list[Any]) -> int:
    """What the input costs, counted as compaction counts it (to err high)."""
    return messages_tokens([message_tokens(parse_message(i)) for i in items])


async def _run(model: ScriptedModel, session: Any, config: RunConfig) -> None:
    agent = Agent(name="refunds", instructions="You are a refunds agent.", model=model,
                  tools=[lookup])
    for k in range(10):
        await Runner.run(agent, user_text(k), session=session, run_config=config)


@pytest.fixture(scope="module")
def runs():
    plain_model, model = ScriptedModel(), ScriptedModel()
    plain_session = SQLiteSession("s")
    with Scratchpad(":memory:") as pad:
        session = ScratchpadSession(SQLiteSession("refund-42"), pad)
        config = RunConfig(tracing_disabled=True, call_model_input_filter=ScratchpadInputFilter(
            pad, "refund-42", window=WINDOW, keep_recent=4))
        asyncio.run(_run(plain_model, plain_session, RunConfig(tracing_disabled=True)))
        asyncio.run(_run(model, session, config))
        items = asyncio.run(session.get_items())
        plain_items = asyncio.run(plain_session.get_items())
        stored = [t.content for t in pad.store.turns("refund-42")]
        yield plain_model, model, items, plain_items, stored, session, pad


def test_the_sessions_items_are_what_they_are_without_the_adapters(runs) -> None:
    _, _, items, plain_items, stored, _, _ = runs
    assert len(items) == 40
    assert [as_chat(i) for i in items] == [as_chat(i) for i in plain_items]
    assert len(stored) == 40  # the session's items, all pinned under its id


def test_every_model_input_fits_and_carries_the_agreed_refund(runs) -> None:
    plain_model, model, _, _, _, _, _ = runs
    assert len(model.calls) == 20
    assert _tokens(plain_model.calls[-1]) > 3 * WINDOW
    compacted = 0
    for n, items in enumerate(model.calls, 1):
        assert _tokens(items) <= WINDOW, n
        chat = [as_chat(i) for i in items]
        system = "\n".join(str(c.get("content")) for c in chat if c.get("role") == "system")
        compacted += HEADER in system
        if n > 6:
            assert HEADER in system and AGREED in system, n
        called = {c["id"] for c in chat for c in (c.get("tool_calls") or [])}
        assert all(c["tool_call_id"] in called for c in chat if c.get("role") == "tool"), n
    assert compacted >= 12


def test_pop_and_clear_keep_the_pad_in_step(runs) -> None:
    _, _, _, _, _, session, pad = runs
    popped = asyncio.run(session.pop_item())
    assert popped is not None
    items = asyncio.run(session.get_items())
    assert [t.content for t in pad.store.turns("refund-42")] == \
        [parse_message(i).text for i in items]
    asyncio.run(session.clear_session())
    assert asyncio.run(session.get_items()) == [] and "refund-42" not in pad.threads()
