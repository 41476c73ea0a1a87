"""pre_model_hook in LangGraph's prebuilt ReAct agent (``create_react_agent``, its tool
node and checkpointer) driven by the scripted chat model of ``tests/agent_loop.py``:
40 messages with tool calls, every model call within the window with the block and the
refund agreed in turn 3, no orphan tool result, and the graph's ``messages`` the same as
without the hook."""

from __future__ import annotations

import warnings

import pytest
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from scratchpad import Scratchpad
from scratchpad.integrations.langgraph import pre_model_hook
from tests.agent_loop import ScriptedModel, check_calls, lookup, tokens, user_text

WINDOW = 700
PROMPT = "You are a refunds agent."


def _run(hook, model: ScriptedModel) -> list[BaseMessage]:
    with warnings.catch_warnings():  # (create_react_agent is deprecated for create_agent)
        warnings.simplefilter("ignore")
        from langgraph.prebuilt import create_react_agent

        agent = create_react_agent(model, [lookup], prompt=PROMPT, pre_model_hook=hook,
                                   checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "refund-7"}}
    for k in range(10):
        agent.invoke({"messages": [HumanMessage(user_text(k))]}, config)
    return agent.get_state(config).values["messages"]


@pytest.fixture(scope="module")
def runs():
    plain, hooked = ScriptedModel(calls=[]), ScriptedModel(calls=[])
    with Scratchpad(":memory:") as pad:
        history = _run(pre_model_hook(pad, window=WINDOW, keep_recent=4, system_prompt=PROMPT),
                       hooked)
        threads = pad.threads()
    assert threads == ["refund-7"]
    return _run(None, plain), history, plain, hooked


def test_the_graphs_messages_are_what_they_are_without_the_hook(runs) -> None:
    plain_history, history, _, _ = runs
    assert len(history) == 40
    assert [(type(m), m.content) for m in history] == \
        [(type(m), m.content) for m in plain_history]


def test_every_model_call_fits_and_carries_the_agreed_refund(runs) -> None:
    _, _, plain, hooked = runs
    assert len(hooked.calls) == 20
    assert tokens(plain.calls[-1]) > 3 * WINDOW
    assert check_calls(hooked.calls, WINDOW) >= 12
    assert all(m[0].content == PROMPT for m in hooked.calls)  # the agent's prompt first
