"""ScratchpadMiddleware in a real LangChain v1 agent (``create_agent``, its tool loop
and checkpointer) driven by a scripted chat model: 40 turns with tool calls, every model
call within the window, carrying the block and the refund agreed in turn 3, no tool
result without its call, and the agent's stored history the same as without it."""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from scratchpad import Scratchpad
from scratchpad.integrations.langchain import ScratchpadMiddleware
from scratchpad.render import HEADER
from scratchpad.tokens import message_tokens

WINDOW = 700
FILLER = ("The courier portal shows the parcel moving between depots, with the usual "
          "scans at each hub and nothing unusual in the notes. ") * 3
AGREED = "€930"


class ScriptedModel(BaseChatModel):
    """Calls the lookup tool for each user message, then answers; records its input."""

    calls: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:  # type: ignore[override]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None,
                  run_manager: Any = None, **kwargs: Any) -> ChatResult:
        self.calls.append(list(messages))
        last = messages[-1]
        n = len(self.calls)
        if isinstance(last, HumanMessage):
            reply = AIMessage("", tool_calls=[{"name": "lookup", "args": {"order": "A-77215"},
                                               "id": f"call_{n}"}])
        elif n == 6:  # the reply to the user's third message: the agreement
            reply = AIMessage(f"Agreed: I will refund {AGREED} to your card for A-77215.")
        else:
            reply = AIMessage(f"Update {n}: {FILLER}")
        return ChatResult(generations=[ChatGeneration(message=reply)])


@tool
def lookup(order: str) -> str:
    """Look an order up."""
    return f"Order {order}: in transit. {FILLER}"


def _run(middleware: list, model: ScriptedModel) -> list[BaseMessage]:
    agent = create_agent(model=model, tools=[lookup], system_prompt="You are a refunds agent.",
                         middleware=middleware, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "refund-42"}}
    for k in range(10):  # 10 user messages, each a tool call, its result and an answer
        text = (f"Can you refund the espresso machine? {FILLER}" if k == 0 else
                "Yes, please go ahead with that refund." if k == 2 else f"Any news? ({k})")
        agent.invoke({"messages": [HumanMessage(text)]}, config)
    return agent.get_state(config).values["messages"]  # type: ignore[arg-type]


def _tokens(messages: list[BaseMessage]) -> int:
    """What the request costs, counted as compaction counts it (to err high)."""
    from scratchpad.messages import parse_message
    from scratchpad.tokens import messages_tokens

    return messages_tokens([message_tokens(parse_message(m)) for m in messages])


@pytest.fixture(scope="module")
def runs() -> tuple[list[BaseMessage], list[BaseMessage], ScriptedModel, ScriptedModel]:
    plain, wrapped = ScriptedModel(calls=[]), ScriptedModel(calls=[])
    with Scratchpad(":memory:") as pad:
        middleware = ScratchpadMiddleware(pad, window=WINDOW, keep_recent=4)
        with_pad = _run([middleware], wrapped)
        threads = pad.threads()
    assert threads == ["refund-42"]  # the LangGraph thread id names the pad's thread
    return _run([], plain), with_pad, plain, wrapped


def test_the_agents_history_is_what_it_is_without_the_middleware(runs) -> None:
    plain_history, history, _, _ = runs
    assert len(history) == 40
    assert [(type(m), m.content) for m in history] == \
        [(type(m), m.content) for m in plain_history]


def test_every_model_call_fits_and_carries_the_agreed_refund(runs) -> None:
    _, _, plain, wrapped = runs
    assert len(wrapped.calls) == 20
    assert _tokens(plain.calls[-1]) > 3 * WINDOW  # without it, far past the window
    compacted = 0
    for n, messages in enumerate(wrapped.calls, 1):
        assert _tokens(messages) <= WINDOW, n
        system = messages[0].content
        if HEADER in system:
            compacted += 1
        if n > 6:  # after the agreement, in the block or in the recent messages
            assert any(AGREED in str(m.content) for m in messages), n
            assert HEADER in system and AGREED in system, n
        called = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
        assert all(m.tool_call_id in called for m in messages if isinstance(m, ToolMessage)), n
    assert compacted >= 12


def test_an_async_agent_gets_the_same_requests() -> None:
    import asyncio

    model = ScriptedModel(calls=[])
    with Scratchpad(":memory:") as pad:
        agent = create_agent(model=model, tools=[lookup], system_prompt="You are an agent.",
                             middleware=[ScratchpadMiddleware(pad, window=WINDOW)],
                             checkpointer=InMemorySaver())
        config = {"configurable": {"thread_id": "a"}}

        async def main() -> None:
            for k in range(6):
                await agent.ainvoke({"messages": [HumanMessage(f"News? {k} {FILLER}")]},
                                    config)

        asyncio.run(main())
    assert len(model.calls) == 12
    assert all(_tokens(m) <= WINDOW for m in model.calls)
    assert HEADER in model.calls[-1][0].content
