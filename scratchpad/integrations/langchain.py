"""LangChain v1 agents: pins carried into every model call, the agent's state untouched.

``ScratchpadMiddleware(pad, window=...)`` is an ``AgentMiddleware`` for
``langchain.agents.create_agent``. Before each model call it syncs the agent's messages
into the pad and, once they pass ``trigger × window`` tokens, hands the model a
compacted request: the carried-forward block (with the running summary) after the
system prompt, then the most recent messages verbatim, tool calls with their results.
Only the request is rewritten (``ModelRequest.override``); the messages the agent keeps
in its state, and its checkpointer stores, stay as they were.

``scratchpad_summarizer(pad)`` is for LangChain's own ``SummarizationMiddleware``
instead (``summarizer=``): the messages it summarizes are pinned in the pad, and the
summary message it writes in their place holds the carried-forward block verbatim, then
an extractive summary (no model). That middleware does change the agent's state; give it
``trim_tokens_to_summarize=None`` so that every summarized message reaches the pad.

Install with ``pip install "scratchpad[langchain]"``. The thread is the LangGraph run's
``thread_id`` (``config={"configurable": {"thread_id": ...}}``), else the ``thread``
given (a name, or a function of the request).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import BaseMessage, SystemMessage

from scratchpad.compaction import stored_summary
from scratchpad.integrations.compacting import Compactor
from scratchpad.messages import parse_message
from scratchpad.pipeline import Scratchpad
from scratchpad.summary import (
    DeterministicSummarizer,
    Summarizer,
    SummaryRequest,
    SummaryTurn,
)

ThreadOf = str | Callable[[ModelRequest], str]


class ScratchpadMiddleware(AgentMiddleware):
    """Compact each model request of a LangChain agent around ``pad``'s pins."""

    def __init__(self, pad: Scratchpad, *, window: int, keep_recent: int = 6,
                 summarizer: Summarizer | None = None, trigger: float = 0.6,
                 block_tokens: int | None = None, thread: ThreadOf = "default") -> None:
        super().__init__()
        self.compactor = Compactor(pad, window, keep_recent, summarizer, trigger, block_tokens)
        self.thread = thread

    def wrap_model_call(self, request: ModelRequest,
                        handler: Callable[[ModelRequest], ModelResponse]) -> Any:
        return handler(self.compacted(request))

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
                               ) -> Any:
        return await handler(await asyncio.to_thread(self.compacted, request))

    def compacted(self, request: ModelRequest) -> ModelRequest:
        """The request the model gets: ``request`` itself while it fits the trigger, else
        with the block in its system message and only the recent messages."""
        system = request.system_message
        head = [system] if system is not None else []
        found = self.compactor([*head, *request.messages], self._thread(request),
                               head=len(head))
        if found is None:
            return request
        block, before, after = found
        return request.override(system_message=_with_block(system, block),
                                messages=[*before, *after])

    def _thread(self, request: ModelRequest) -> str:
        return self.thread(request) if callable(self.thread) else _run_thread(self.thread)


def scratchpad_summarizer(pad: Scratchpad, *, thread: str = "default",
                          block_tokens: int | None = None,
                          summarizer: Summarizer | None = None
                          ) -> Callable[[Sequence[BaseMessage]], str]:
    """A ``summarizer`` for ``SummarizationMiddleware``: pins the messages it is given in
    ``pad`` (the run's thread, else ``thread``) and returns the block, then the running
    summary with those messages appended (``summarizer``, by default the extractive one;
    kept in the pad between calls, as compaction keeps it)."""
    writer = summarizer or DeterministicSummarizer()

    def summarize(messages: Sequence[BaseMessage]) -> str:
        name = _run_thread(thread)
        synced = pad.sync(name, list(messages))
        block = pad.render(name, max_tokens=block_tokens) if pad.store.has_thread(name) else ""
        turns = [SummaryTurn(turn=n, role=parsed.role, text=parsed.text)
                 for m, n in zip(messages, synced.numbers, strict=True)
                 if n is not None and (parsed := parse_message(m)).role != "system"]
        previous = stored_summary(pad, name)  # carried from call to call, as compaction does
        new = writer.summarize(SummaryRequest(turns=turns, pinned=block, previous=previous))
        summary = previous.followed_by(new) if previous else new
        if summary.turns_covered:
            pad.store.save_summary(name, summary.model_dump_json(), summary.turns_covered[1])
        text = summary.render()
        return "\n\n".join(part for part in (block.strip(), text.strip()) if part)

    return summarize


def _run_thread(default: str) -> str:
    """The running LangGraph thread's id, else ``default``."""
    try:
        from langgraph.config import get_config

        thread_id = get_config().get("configurable", {}).get("thread_id")
    except (ImportError, RuntimeError):  # outside a LangGraph run
        thread_id = None
    return str(thread_id) if thread_id is not None else default


def _with_block(system: SystemMessage | None, block: str) -> SystemMessage:
    """The system message with the block after the user's own text (its content blocks,
    and any cache markers on them, kept as they are)."""
    if system is None:
        return SystemMessage(content=block)
    if isinstance(system.content, str):
        content: Any = f"{system.content}\n\n{block}" if system.content else block
    else:
        content = [*system.content, {"type": "text", "text": block}]
    return system.model_copy(update={"content": content})
