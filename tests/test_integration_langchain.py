"""ScratchpadMiddleware in a real LangChain v1 agent (``create_agent``, its tool loop
and checkpointer) driven by a scripted chat model (``tests/agent_loop.py``): 40 messages
with tool calls, every model call within the window, carrying the block and the refund
agreed in turn 3, no tool result without its call, and the agent's stored history the
same as without it."""

from __future__ import annotations

import asyncio

import pytest
from langchain.agents import create_agent
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from scratchpad import Scratchpad
from scratchpad.integrations.langchain import ScratchpadMiddleware
from scratchpad.render import HEADER
from tests.agent_loop import (
    AGREED,
    FILLER,
    ScriptedModel,
    check_calls,
    lookup,
    tokens,
    user_text,
)

WINDOW = 700


def _run(middleware: list, model: ScriptedModel) -> list[BaseMessage]:
    agent = create_agent(model=model, tools=[lookup], system_prompt="You are a refunds agent.",
                         middleware=middleware, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "refund-42"}}
    for k in range(10):  # 10 user messages, each a tool call, its result and an answer
        agent.invoke({"messages": [HumanMessage(user_text(k))]}, config)
    return agent.get_state(config).values["messages"]  # type: ignore[arg-type]


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
    assert tokens(plain.calls[-1]) > 3 * WINDOW  # without it, far past the window
    assert check_calls(wrapped.calls, WINDOW) >= 12
    assert all(m[0].type == "system" for m in wrapped.calls)  # one system message, first
    assert all(sum(x.type == "system" for x in m) == 1 for m in wrapped.calls)


def test_an_async_agent_gets_the_same_requests() -> None:
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
    assert all(tokens(m) <= WINDOW for m in model.calls)
    assert HEADER in model.calls[-1][0].content


def test_langchains_own_summarization_keeps_the_block_verbatim_in_its_summary() -> None:
    from langchain.agents.middleware import SummarizationMiddleware

    from scratchpad.history import SUMMARY_PREFIXES
    from scratchpad.integrations.langchain import scratchpad_summarizer

    model = ScriptedModel(calls=[])
    with Scratchpad(":memory:") as pad:
        summarizing = SummarizationMiddleware(
            model=model, trigger=("messages", 12), keep=("messages", 4),
            summarizer=scratchpad_summarizer(pad), trim_tokens_to_summarize=None)
        history = _run([summarizing], model)
        stored = [t.content for t in pad.store.turns("refund-42")]
    summary = next(m for m in history if str(m.content).startswith(SUMMARY_PREFIXES))
    assert HEADER in summary.content and AGREED in summary.content  # verbatim, not "about"
    assert len(history) < 40  # the middleware did replace old messages
    assert stored and not any(t.startswith(SUMMARY_PREFIXES) for t in stored)
    assert any(AGREED in t for t in stored)
