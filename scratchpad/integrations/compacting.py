"""What every adapter does before a model call: compact the framework's messages around
the pad's pins and say which of them go before the block and which after it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scratchpad.compaction import compact
from scratchpad.pipeline import Scratchpad
from scratchpad.summary import Summarizer


@dataclass
class Compactor:
    """:func:`scratchpad.compaction.compact` on ``pad`` with one adapter's settings."""

    pad: Scratchpad
    window: int
    keep_recent: int = 6
    summarizer: Summarizer | None = None
    trigger: float = 0.6
    block_tokens: int | None = None
    #: What the last call did (compaction's JSON log line), for logs.
    last_log: dict[str, Any] = field(default_factory=dict)

    def __call__(self, given: Sequence[Any], thread: str, *, head: int = 0
                 ) -> tuple[str, list[Any], list[Any]] | None:
        """``(block, before, after)``: the block text and the messages of ``given`` sent
        before and after it, leaving out the first ``head`` (the adapter's own system
        prompt, which it sends its own way); None while ``given`` fits the trigger."""
        out = compact(given, thread=thread, window=self.window, trigger=self.trigger,
                      keep_recent=self.keep_recent, summarizer=self.summarizer, pad=self.pad,
                      block_tokens=self.block_tokens, format="openai")
        self.last_log = out.log
        if not out.changed or out.block is None or out.block_at is None:
            return None
        return (out.block, [given[i] for i in out.kept[:out.block_at] if i >= head],
                [given[i] for i in out.kept[out.block_at:]])
