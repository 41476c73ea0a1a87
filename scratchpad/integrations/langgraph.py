"""LangGraph's prebuilt ReAct agent: a ``pre_model_hook`` that hands the model the
compacted history and leaves the graph's ``messages`` as they are.

``create_react_agent(model, tools, pre_model_hook=pre_model_hook(pad, window=...))``:
before each model call the hook syncs the state's messages into the pad and returns
``{"llm_input_messages": ...}``: the messages while they fit ``trigger × window``
tokens, else the carried-forward block (a system message) and the recent messages, tool
calls with their results. LangGraph sends those to the model and keeps ``messages``
unchanged. The agent's ``prompt`` is added by LangGraph after the hook: pass it as
``system_prompt`` so that the window counts it.

Install with ``pip install "scratchpad[langgraph]"``. The thread is the run's
``thread_id`` (``config={"configurable": {"thread_id": ...}}``), else ``thread``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.messages import SystemMessage
from langchain_core.runnables import RunnableConfig

from scratchpad.integrations.compacting import Compactor
from scratchpad.pipeline import Scratchpad
from scratchpad.summary import Summarizer

Hook = Callable[[Any, RunnableConfig], dict[str, Any]]


def pre_model_hook(pad: Scratchpad, *, window: int, keep_recent: int = 6,
                   summarizer: Summarizer | None = None, trigger: float = 0.6,
                   block_tokens: int | None = None, system_prompt: str | None = None,
                   thread: str = "default") -> Hook:
    """A ``pre_model_hook`` for ``langgraph.prebuilt.create_react_agent`` that compacts
    the model's input around ``pad``'s pins (see the module docstring)."""
    prompt = [SystemMessage(content=system_prompt)] if system_prompt else []
    compactor = Compactor(pad, window, keep_recent, summarizer, trigger, block_tokens)

    def hook(state: Any, config: RunnableConfig) -> dict[str, Any]:
        messages = list(state["messages"] if isinstance(state, Mapping) else state.messages)
        thread_id = ((config or {}).get("configurable") or {}).get("thread_id")
        found = compactor([*prompt, *messages],
                          str(thread_id) if thread_id is not None else thread, head=len(prompt))
        if found is None:
            return {"llm_input_messages": messages}
        block, before, after = found
        return {"llm_input_messages": [*before, SystemMessage(content=block), *after]}

    return hook
