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

from scratchpad.integrations.compacting import Compactor
from scratchpad.pipeline import Scratchpad
from scratchpad.summary import Summarizer


class ScratchpadInputFilter:
    """A ``call_model_input_filter`` that compacts each model call around ``pad``'s
    pins for ``thread`` (see the module docstring)."""

    def __init__(self, pad: Scratchpad, thread: str, *, window: int, keep_recent: int = 6,
                 summarizer: Summarizer | None = None, trigger: float = 0.6,
                 block_tokens: int | None = None) -> None:
        self.compactor = Compactor(pad, window, keep_recent, summarizer, trigger, block_tokens)
        self.thread = thread

    async def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        return await asyncio.to_thread(self.filtered, data.model_data)

    def filtered(self, model_data: ModelInputData) -> ModelInputData:
        """The input the model gets: as given while it fits the trigger, else the block
        and the recent items."""
        instructions = model_data.instructions
        head = [{"role": "system", "content": instructions}] if instructions else []
        found = self.compactor([*head, *model_data.input], self.thread, head=len(head))
        if found is None:
            return model_data
        block, before, after = found
        item: Any = {"role": "system", "content": block}  # an EasyInputMessage
        return ModelInputData(input=[*before, item, *after], instructions=instructions)


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
        # only the new items: sync continues the thread with them (or matches those the
        # input filter pinned already), at a cost that does not grow with the session
        await asyncio.to_thread(self.pad.sync, self.session_id, items)

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
