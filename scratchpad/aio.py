"""Scratchpad for asyncio code: the same calls as :class:`~scratchpad.Scratchpad`, as
coroutines.

Extraction is CPU work (spaCy, the rules) and the store is SQLite, so each call runs the
pad's own method in a worker thread (:func:`asyncio.to_thread`) and the event loop stays
free meanwhile. The pad is shared by those threads safely: its calls run one at a time.

>>> import asyncio
>>> async def main():
...     async with AsyncScratchpad(":memory:") as pad:
...         await pad.ingest("t1", [{"role": "user", "content": "Refund €930, order A-77215."}])
...         return await pad.render("t1")
>>> "A-77215" in asyncio.run(main())
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from scratchpad.compaction import Compaction, compact
from scratchpad.messages import Message
from scratchpad.pipeline import Scratchpad
from scratchpad.records import Event, Kind, MissingField, OpenItem, Record, Status
from scratchpad.writing import IngestResult, SyncResult

if TYPE_CHECKING:
    from schemas.base import DomainState
    from schemas.llm import LLMSchemaExtractor


class AsyncScratchpad:
    """A :class:`~scratchpad.Scratchpad` whose calls are coroutines. Pass a pad, or the
    arguments to open one (``AsyncScratchpad("pins.db", extractors=[...])``)."""

    def __init__(self, pad: Scratchpad | str | Path = "scratchpad.db", **options: Any) -> None:
        self.pad = pad if isinstance(pad, Scratchpad) else Scratchpad(pad, **options)

    async def __aenter__(self) -> AsyncScratchpad:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the database."""
        await asyncio.to_thread(self.pad.close)

    async def ingest(self, thread: str, messages: Iterable[Mapping[str, Any] | Message], *,
                     rebuild: bool = False) -> IngestResult:
        """:meth:`Scratchpad.ingest`."""
        return await asyncio.to_thread(self.pad.ingest, thread, list(messages), rebuild=rebuild)

    async def sync(self, thread: str, messages: Sequence[Any]
                   ) -> SyncResult:
        """:meth:`Scratchpad.sync`."""
        return await asyncio.to_thread(self.pad.sync, thread, list(messages))

    async def extend(self, thread: str, messages: Iterable[Mapping[str, Any] | Message], *,
                     context: Iterable[Mapping[str, Any] | Message] = ()) -> IngestResult:
        """:meth:`Scratchpad.extend`."""
        return await asyncio.to_thread(self.pad.extend, thread, list(messages),
                                       context=list(context))

    async def threads(self) -> list[str]:
        """:meth:`Scratchpad.threads`."""
        return await asyncio.to_thread(self.pad.threads)

    async def records(self, thread: str, kind: Kind | str | Iterable[Kind | str] | None = None,
                      status: Status | str | Iterable[Status | str] | None = None
                      ) -> list[Record]:
        """:meth:`Scratchpad.records`."""
        return await asyncio.to_thread(self.pad.records, thread, kind, status)

    async def events(self, thread: str) -> list[Event]:
        """:meth:`Scratchpad.events`."""
        return await asyncio.to_thread(self.pad.events, thread)

    async def open_items(self, thread: str | None = None,
                         sort: Literal["thread", "age"] = "thread"
                         ) -> list[OpenItem | MissingField]:
        """:meth:`Scratchpad.open_items`."""
        return await asyncio.to_thread(self.pad.open_items, thread, sort)

    async def missing_fields(self, thread: str | None = None) -> list[MissingField]:
        """:meth:`Scratchpad.missing_fields`."""
        return await asyncio.to_thread(self.pad.missing_fields, thread)

    async def state(self, thread: str, schema: type[DomainState] | str, *,
                    llm: LLMSchemaExtractor | None = None) -> DomainState:
        """:meth:`Scratchpad.state`."""
        return await asyncio.to_thread(self.pad.state, thread, schema, llm=llm)

    async def attach(self, thread: str, schema: type[DomainState] | str
                     ) -> type[DomainState]:
        """:meth:`Scratchpad.attach`."""
        return await asyncio.to_thread(self.pad.attach, thread, schema)

    async def render(self, thread: str, max_tokens: int | None = None, *,
                     explain: bool = False) -> str:
        """:meth:`Scratchpad.render`."""
        return await asyncio.to_thread(self.pad.render, thread, max_tokens, explain=explain)

    async def compact(self, messages: Sequence[Mapping[str, Any]], *, thread: str,
                      window: int, **options: Any) -> Compaction:
        """:func:`scratchpad.compaction.compact` on this pad (the summarizer, too, runs in
        the worker thread)."""
        return await asyncio.to_thread(compact, list(messages), thread=thread, window=window,
                                       pad=self.pad, **options)
