"""LangChain v1 agents: pins carried into every model call, the agent's state untouched.

``ScratchpadMiddleware(pad, window=...)`` is an ``AgentMiddleware`` for
``langchain.agents.create_agent``. Before each model call it syncs the agent's messages
into the pad and, once they pass ``trigger × window`` tokens, hands the model a
compacted request: the carried-forward block (with the running summary) after the
system prompt, then the most recent messages verbatim, tool calls with their results.
Only the request is rewritten (``ModelRequest.override``); the messages the agent keeps
in its state, and its checkpointer stores, stay as they were.

Install with ``pip install "scratchpad[langchain]"``. The thread is the LangGraph run's
``thread_id`` (``config={"configurable": {"thread_id": ...}}``), else the ``thread``
given (a name, or a function of the request).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import SystemMessage

from scratchpad.compaction import compact
from scratchpad.pipeline import Scratchpad
from scratchpad.summary import Summarizer

ThreadOf = str | Callable[[ModelRequest], str]


class ScratchpadMiddleware(AgentMiddleware):
    """Compact each model request of a LangChain agent around ``pad``'s pins."""

    def __init__(self, pad: Scratchpad, *, window: int, keep_recent: int = 6,
                 summarizer: Summarizer | None = None, trigger: float = 0.6,
                 block_tokens: int | None = None, thread: ThreadOf = "default") -> None:
        super().__init__()
        self.pad = pad
        self.window = window
        self.keep_recent = keep_recent
        self.summarizer = summarizer
        self.trigger = trigger
        self.block_tokens = block_tokens
        self.thread = thread
        #: What the last call did (compaction's JSON log line), for logs and tests.
        self.last_log: dict[str, Any] = {}

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
        given: list[Any] = ([system] if system is not None else []) + list(request.messages)
        out = compact(given, thread=self._thread(request), window=self.window,
                      trigger=self.trigger, keep_recent=self.keep_recent,
                      summarizer=self.summarizer, pad=self.pad,
                      block_tokens=self.block_tokens, format="openai")
        self.last_log = out.log
        if not out.changed or out.block is None or out.block_at is None:
            return request
        head = [given[i] for i in out.kept[:out.block_at] if given[i] is not system]
        rest = [given[i] for i in out.kept[out.block_at:]]
        return request.override(system_message=_with_block(system, out.block),
                                messages=head + rest)

    def _thread(self, request: ModelRequest) -> str:
        if callable(self.thread):
            return self.thread(request)
        try:
            from langgraph.config import get_config

            thread_id = get_config().get("configurable", {}).get("thread_id")
        except (ImportError, RuntimeError):  # outside a LangGraph run
            thread_id = None
        return str(thread_id) if thread_id is not None else self.thread


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
