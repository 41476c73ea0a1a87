"""LlamaIndex ``Memory``: the carried-forward block as a memory block.

``Memory.from_defaults(token_limit=..., memory_blocks=[ScratchpadMemoryBlock(pad=pad,
thread="t")])``. LlamaIndex keeps the recent messages as its short-term memory and
hands a memory block the messages it flushes out of it; this block pins them in the pad
(:meth:`scratchpad.Scratchpad.sync`) and returns the rendered block, which ``Memory``
puts in the system message. Under token pressure ``Memory`` asks blocks to shrink in
priority order: this one leaves out its least salient lines (never below the lines of
live commitments, constraints and open questions, as ``render(max_tokens=...)`` does).

Install with ``pip install "scratchpad[llama-index]"``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.llms import ChatMessage
from llama_index.core.memory.memory import BaseMemoryBlock
from pydantic import ConfigDict, Field

from scratchpad import tokens
from scratchpad.pipeline import Scratchpad


class ScratchpadMemoryBlock(BaseMemoryBlock[str]):
    """A ``Memory`` block holding ``pad``'s carried-forward block of ``thread``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = "carried_forward"
    description: str | None = "Facts carried forward verbatim from earlier turns."
    #: Truncated after the blocks of lower numbers, before those of higher ones.
    priority: int = 1
    pad: Scratchpad = Field(exclude=True)
    thread: str = "default"
    #: The block's own token cap (None: as long as its pins need).
    max_tokens: int | None = None

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any
                    ) -> str:
        return await asyncio.to_thread(self._render, self.max_tokens)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        if messages:
            await asyncio.to_thread(self.pad.sync, self.thread, list(messages))

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        budget = tokens.count(content) - tokens_to_truncate
        if budget <= 0:
            return None
        return await asyncio.to_thread(self._render, budget)

    def _render(self, max_tokens: int | None) -> str:
        if not self.pad.store.has_thread(self.thread):
            return ""
        return self.pad.render(self.thread, max_tokens=max_tokens)
