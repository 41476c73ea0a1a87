"""The OpenAI Agents SDK: pins in every model call, a session that keeps the pad in step.

* ``ScratchpadInputFilter(pad, thread, window=...)`` for
  ``RunConfig(call_model_input_filter=...)``: before each model call it syncs the
  run's input items into the pad and, once they pass ``trigger × window`` tokens, sends
  the model the carried-forward block (a system message item) and the recent items,
  each function call with its output. The session, the run's items and the agent's
  ``instructions`` stay as they were.
* ``ScratchpadSession(inner, pad)`` implements the SDK's ``Session`` protocol over any
  session (``SQLiteSession``, ...): it stores through ``inner`` and syncs the pad after
  each write under the session's id; ``pop_item`` rebuilds the pad's thread from what
  remains, ``clear_session`` forgets it.

Install with ``pip install "scratchpad[openai-agents]"``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agents.memory import Session
from agents.run_config import CallModelData, ModelInputData

from scratchpad.compaction import compact
from scratchpad.pipeline import Scratchpad
from scratchpad.summary import Summarizer


class ScratchpadInputFilter:
    """A ``call_model_input_filter`` that compacts each model call around ``pad``'s
    pins for ``thread`` (see the module docstring)."""

    def __init__(self, pad: Scratchpad, thread: str, *, window: int, keep_recent: int = 6,
                 summarizer: Summarizer | None = None, trigger: float = 0.6,
                 block_tokens: int | None = None) -> None:
        self.pad = pad
        self.thread = thread
        self.window = window
        self.keep_recent = keep_recent
        self.summarizer = summarizer
        self.trigger = trigger
        self.block_tokens = block_tokens
        #: What the last call did (compaction's JSON log line).
        self.last_log: dict[str, Any] = {}

    async def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        return await asyncio.to_thread(self.filtered, data.model_data)

    def filtered(self, model_data: ModelInputData) -> ModelInputData:
        """The input the model gets: as given while it fits the trigger, else the block
        and the recent items."""
        instructions = model_data.instructions
        head = [{"role": "system", "content": instructions}] if instructions else []
        given: list[Any] = [*head, *model_data.input]
        out = compact(given, thread=self.thread, window=self.window, trigger=self.trigger,
                      keep_recent=self.keep_recent, summarizer=self.summarizer, pad=self.pad,
                      block_tokens=self.block_tokens, format="openai")
        self.last_log = out.log
        if not out.changed or out.block is None or out.block_at is None:
            return model_data
        before = [given[i] for i in out.kept[:out.block_at] if i >= len(head)]
        after = [given[i] for i in out.kept[out.block_at:]]
        block: Any = {"role": "system", "content": out.block}  # an EasyInputMessage
        return ModelInputData(input=[*before, block, *after], instructions=instructions)


class ScratchpadSession:
    """The SDK's ``Session`` over ``inner``, with ``pad`` kept in step under the
    session's id (see the module docstring)."""

    def __init__(self, inner: Session, pad: Scratchpad) -> None:
        self.inner = inner
        self.pad = pad
        self.session_id = inner.session_id
        self.session_settings = getattr(inner, "session_settings", None)

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return await self.inner.get_items(limit)

    async def add_items(self, items: list[Any]) -> None:
        await self.inner.add_items(items)
        history = await self.inner.get_items()
        await asyncio.to_thread(self.pad.sync, self.session_id, history)

    async def pop_item(self) -> Any:
        item = await self.inner.pop_item()
        if item is not None:
            history = await self.inner.get_items()
            await asyncio.to_thread(self._rebuild, history)
        return item

    async def clear_session(self) -> None:
        await self.inner.clear_session()
        await asyncio.to_thread(self.pad.forget, self.session_id)

    def _rebuild(self, history: list[Any]) -> None:
        if history:
            self.pad.ingest(self.session_id, history, rebuild=True)
        else:
            self.pad.forget(self.session_id)
