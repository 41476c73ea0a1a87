"""The public :class:`Scratchpad` API: which turns of a conversation are new
(``ingest``, ``sync``, ``extend``), and reading what is pinned.

New turns are extracted and stored by :func:`scratchpad.writing.add_turns`: annotated
once with spaCy (batched over the new turns, and only the sentences the extractors ask
for), every extractor run, overlapping candidates merged into records, the resolvers'
lifecycle moves applied, and each turn stored with its records and events in one
transaction. Work per turn depends on the turn and the thread's live items, never on the
whole transcript.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from scratchpad.domain import AttachedSchemas
from scratchpad.errors import ScratchpadError, TurnConflictError, UnknownThreadError
from scratchpad.extraction import TurnProcessor
from scratchpad.history import SummaryTest, align, block_flags, is_framework_summary
from scratchpad.messages import Message, parse_message
from scratchpad.open_items import aged, ordered
from scratchpad.records import (
    Event,
    Kind,
    MissingField,
    OpenItem,
    Record,
    Status,
)
from scratchpad.render import render_block
from scratchpad.salience import is_value, value_key
from scratchpad.store import StaleThreadError, Store, StoreError, open_store
from scratchpad.writing import IngestResult, Progress, SyncResult, add_turns, content_hash

if TYPE_CHECKING:
    from extractors.registry import Registry
    from schemas.base import DomainState
    from schemas.llm import LLMSchemaExtractor

log = logging.getLogger(__name__)
#: How often one ingest re-reads a thread that another writer keeps extending.
STALE_RETRIES = 20


F = TypeVar("F", bound=Callable[..., Any])


def _one_at_a_time(method: F) -> F:
    """Run a pad method under the pad's lock: one :class:`Scratchpad` may be shared by
    threads (an agent framework's worker threads, asyncio's executor), and its calls
    then run one at a time."""

    @functools.wraps(method)
    def wrapper(self: Scratchpad, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class Scratchpad:
    """Pins the facts of agent conversations in a SQLite file.

    One pad may be used from several threads: its calls run one at a time (for async
    code, :class:`scratchpad.aio.AsyncScratchpad` runs them in a worker thread).

    >>> pad = Scratchpad(":memory:")
    >>> pad.ingest("t1", [{"role": "user", "content": "Order A-77215, refund €930 please."}])
    ... # doctest: +ELLIPSIS
    IngestResult(thread='t1', new_turns=[1], ...)
    """

    def __init__(
        self,
        path: str | Path = "scratchpad.db",
        *,
        extractors: Sequence[str] | None = None,
        registry: Registry | None = None,
        patterns: Sequence[str | Path] = (),
        schemas: Sequence[type[DomainState] | str] = (),
        model: str | None = None,
        encoding: str | None = None,
        reference_date: datetime | None = None,
        date_order: Literal["dmy", "mdy"] | None = None,
    ):
        self._lock = threading.RLock()
        self._given_registry = registry
        self._patterns = tuple(patterns)
        self._extractors = list(extractors) if extractors is not None else None
        self._model = model
        if self._extractors != [] or self._patterns or registry is not None:
            _ = self.processor  # unknown extractors and bad pattern files fail here, now
        self.store: Store = open_store(str(path))
        #: Attached schemas; ``schemas``: module:Class ones this pad may load when a
        #: thread has them attached (shipped and installed ones need not be given).
        self.schemas = AttachedSchemas(self.store, schemas)
        self._reference = reference_date
        if date_order not in (None, "dmy", "mdy"):
            raise ValueError(f"date_order must be 'dmy', 'mdy' or None, not {date_order!r}")
        self._date_order: Literal["dmy", "mdy"] | None = date_order
        self._encoding = encoding

    @cached_property
    def registry(self) -> Registry:
        """What this pad runs: its own copy of the given registry (default: the shipped
        extractors and those of installed plugins), with the ``patterns`` files loaded.
        Built at first use, so a pad that only reads (``extractors=[]``) never imports
        the extractors."""
        from extractors.registry import Registry

        given = self._given_registry
        registry = given.copy() if given is not None else Registry.default()
        for file in self._patterns:
            registry.load_patterns(file)
        return registry

    @cached_property
    def extractor_names(self) -> list[str]:
        """The extractors this pad runs, by name."""
        return self._extractors if self._extractors is not None else self.registry.available()

    @cached_property
    def processor(self) -> TurnProcessor:
        """The per-turn work: extractors, resolvers, the spaCy pass."""
        return TurnProcessor(self.registry.create(self.extractor_names),
                             self.registry.resolvers(), self._model)

    # -- context manager ----------------------------------------------------------------

    @_one_at_a_time
    def close(self) -> None:
        """Close the database."""
        self.store.close()

    def __enter__(self) -> Scratchpad:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- ingest -------------------------------------------------------------------------

    @_one_at_a_time
    def ingest(
        self,
        thread: str,
        messages: Iterable[Mapping[str, Any] | Message],
        *,
        rebuild: bool = False,
        progress: Progress | None = None,
    ) -> IngestResult:
        """Store and extract the turns of ``messages`` that are not stored yet.

        ``messages`` is the whole conversation so far (system messages included or
        not). Turns already stored must be unchanged: re-sending the same messages adds
        nothing; an edited earlier turn raises :class:`TurnConflictError` unless
        ``rebuild`` is true, which drops the thread and ingests it again. ``progress``
        is called with (turns stored, turns to store) after each new turn.
        """
        parsed = [
            m if isinstance(m, Message) else parse_message(m, source="messages", line=i)
            for i, m in enumerate(messages, 1)
        ]
        turns = [m for m in parsed if m.role != "system"]
        hashes = [content_hash(m) for m in turns]
        if rebuild:
            self.store.delete_thread(thread)
        result = IngestResult(thread=thread)
        for _ in range(STALE_RETRIES):
            stored = self.store.turn_hashes(thread)
            for number, (old, new) in enumerate(zip(stored, hashes, strict=False), 1):
                if old != new:
                    raise TurnConflictError(thread, number)
            first = len(stored)
            try:
                self._add(thread, first, turns[first:], hashes[first:], context=turns[:first],
                          result=result, progress=progress)
                if not result.new_turns:
                    self.schemas.heal(thread, self.attached(thread))
                log.info("thread %r: %d new turns, %d records, %d status changes", thread,
                         len(result.new_turns), result.records_added, result.events)
                return result
            except StaleThreadError:
                # Another process wrote turns of this thread since they were read: read
                # them again; its turns are ours if their hashes match.
                continue
        raise ScratchpadError(f"thread {thread!r} kept changing under this ingest (other "
                              f"writers); {len(result.new_turns)} turns were stored, run it "
                              f"again to add the rest")

    @_one_at_a_time
    def sync(
        self,
        thread: str,
        messages: Sequence[Any],  # messages of any format scratchpad.formats reads
        *,
        is_summary: SummaryTest | None = is_framework_summary,
        progress: Progress | None = None,
    ) -> SyncResult:
        """Bring ``thread`` up to date with a history as an agent framework holds it: its
        older turns may be gone or replaced by a summary, or it may be compaction's output
        fed back. Messages are matched to stored turns by content hash, aligned on the
        thread's end (:func:`scratchpad.history.align`); those after the last match are
        new, stored and extracted. Never extracted: system messages, compaction's block,
        summaries (``is_summary``; by default :func:`~scratchpad.history.is_framework_summary`),
        and turns that match nothing but come before one that does (rewritten). Only the
        given messages are read and hashed. A history that shares no turn with the thread
        continues it; to take stored turns back, ``ingest(..., rebuild=True)``.
        ``progress``: as for :meth:`ingest`.
        """
        parsed = [m if isinstance(m, Message) else parse_message(m, source="messages", line=i)
                  for i, m in enumerate(messages, 1)]
        blocks = block_flags([m.raw for m in parsed])
        turns = [i for i, (m, block) in enumerate(zip(parsed, blocks, strict=True))
                 if m.role != "system" and not block
                 and not (is_summary is not None and is_summary(m))]
        hashes = [content_hash(parsed[i]) for i in turns]
        result = SyncResult(thread=thread)
        for _ in range(STALE_RETRIES):
            result.numbers = [None] * len(parsed)
            before = len(result.new_turns)  # (turns an attempt stored stay stored)
            stored = self.store.turn_count(thread)
            if stored:
                found = align(hashes, self.store.last_turn_hashes(thread, len(hashes)),
                              stored, self.store.turn_numbers(thread, hashes))
            else:
                found = [None] * len(hashes)
            matched = max((p for p, n in enumerate(found) if n is not None), default=-1)
            for i, number in zip(turns, found, strict=True):
                result.numbers[i] = number
            result.rewritten = sum(1 for n in found[:matched + 1] if n is None)
            fresh = turns[matched + 1:]
            known = [parsed[i] for i, n in zip(turns, found, strict=True) if n is not None]
            try:
                self._add(thread, stored, [parsed[i] for i in fresh], hashes[matched + 1:],
                          context=known, result=result, progress=progress)
            except StaleThreadError:
                continue  # another writer extended the thread: match again
            for i, number in zip(fresh, result.new_turns[before:], strict=True):
                result.numbers[i] = number
            if not result.new_turns and stored:
                self.schemas.heal(thread, self.attached(thread))
            return result
        raise ScratchpadError(f"thread {thread!r} kept changing under this sync (other "
                              f"writers); run it again")

    @_one_at_a_time
    def forget(self, thread: str) -> None:
        """Delete ``thread`` with its turns, records, events, summary and schema rows (a
        thread never stored is no error)."""
        self.store.delete_thread(thread)

    @_one_at_a_time
    def extend(
        self,
        thread: str,
        messages: Iterable[Mapping[str, Any] | Message],
        *,
        context: Iterable[Mapping[str, Any] | Message] = (),
    ) -> IngestResult:
        """Store and extract ``messages`` as the turns that follow ``thread``'s stored
        ones, without reading or re-hashing the stored ones (what compaction does when
        its output comes back with new messages). ``context``: earlier messages the
        caller still has (e.g. the recent turns kept verbatim), read only to name the
        tools whose results the new messages carry."""
        given = [m if isinstance(m, Message) else parse_message(m, source="messages", line=i)
                 for i, m in enumerate(messages, 1)]
        before = [m if isinstance(m, Message) else parse_message(m, source="context", line=i)
                  for i, m in enumerate(context, 1)]
        fresh = [m for m in given if m.role != "system"]
        result = IngestResult(thread=thread)
        try:
            self._add(thread, self.store.turn_count(thread), fresh,
                      [content_hash(m) for m in fresh],
                      context=[m for m in before if m.role != "system"], result=result)
        except StaleThreadError as exc:
            raise ScratchpadError(f"{exc}; compact again with the whole conversation") from None
        return result

    def _add(self, thread: str, first: int, fresh: list[Message], hashes: list[str],
             *, context: list[Message], result: IngestResult,
             progress: Progress | None = None) -> None:
        """Extract and store ``fresh`` as turns ``first + 1`` on, counting into
        ``result``, then refresh the thread's schema rows. Raises
        :class:`StaleThreadError` when another writer got there first (the turns stored
        before that stay stored)."""
        if not fresh:
            return
        schemas = self.attached(thread)  # an unloadable schema fails before any write
        add_turns(self.store, self.processor, thread, first, fresh, hashes, context=context,
                  result=result, reference=self._reference, date_order=self._date_order,
                  encoding=self._encoding, progress=progress)
        self.schemas.refresh(thread, result.new_turns[-1], schemas)

    # -- reading ------------------------------------------------------------------------

    @_one_at_a_time
    def threads(self) -> list[str]:
        """Return every thread id in the store."""
        return self.store.threads()

    @_one_at_a_time
    def records(
        self,
        thread: str,
        kind: Kind | str | Iterable[Kind | str] | None = None,
        status: Status | str | Iterable[Status | str] | None = None,
    ) -> list[Record]:
        """Return the records of ``thread``, in turn order, filtered by kind/status."""
        self._require(thread)
        return self.store.records(thread, kinds=_as_set(kind), statuses=_as_set(status))

    @_one_at_a_time
    def events(self, thread: str) -> list[Event]:
        """Return every status change of ``thread``'s records, in order."""
        self._require(thread)
        return self.store.events(thread)

    @_one_at_a_time
    def open_items(self, thread: str | None = None, sort: Literal["thread", "age"] = "thread"
                   ) -> list[OpenItem | MissingField]:
        """Return open or deferred questions, of one thread or of all threads, each with its
        age in turns and (when the messages carry timestamps) in seconds, and the required
        fields of attached schemas still missing (:class:`MissingField`, after the
        thread's questions).

        ``sort="thread"`` orders them by thread and turn; ``sort="age"`` oldest first, by
        time where known, else by turns.
        """
        if thread is not None:
            self._require(thread)
        return ordered(aged(self.store, self.store.open_items(thread)),
                       self.missing_fields(thread), sort)

    @_one_at_a_time
    def state(self, thread: str, schema: type[DomainState] | str, *,
              llm: LLMSchemaExtractor | None = None) -> DomainState:
        """Return ``thread``'s domain state as ``schema`` (a :class:`schemas.DomainState`
        subclass, a shipped or installed schema's name such as ``"refund"``, or
        ``"module:Class"``).

        With ``llm`` (:class:`schemas.llm.LLMSchemaExtractor`), a model is asked for the
        fields the pins leave empty; only values found verbatim in the turns they cite
        are added (the rest are logged), and a failed call leaves the pinned state."""
        self._require(thread)
        cls = self.schemas.trust(schema)
        filled = cls.fill(self.store.records(thread))
        if llm is None:
            return filled
        from schemas.llm import merge as merge_llm  # the model-filling path, loaded for it

        turns = [(t.turn, t.role, t.content) for t in self.store.turns(thread)]
        return merge_llm(filled, llm.extract(cls, turns))

    # -- schemas attached to a thread ---------------------------------------------------

    @_one_at_a_time
    def attach(self, thread: str, schema: type[DomainState] | str) -> type[DomainState]:
        """Attach ``schema`` to ``thread`` (before or after its first ingest; kept in the
        file). From then on its state is kept current on every ingest in the table
        ``state_<name>`` (one row per thread), its missing required fields are among
        :meth:`open_items`, and its fields head the rendered block. Returns the schema
        class."""
        return self.schemas.attach(thread, schema)

    @_one_at_a_time
    def attached(self, thread: str) -> list[type[DomainState]]:
        """Return the schemas attached to ``thread``, in the order they were attached.
        A stored ``module:Class`` that this pad was not given (``schemas=``, :meth:`attach`
        or :meth:`state`) raises :class:`schemas.registry.UntrustedSchemaError`."""
        return self.schemas.of(thread)

    @_one_at_a_time
    def missing_fields(self, thread: str | None = None) -> list[MissingField]:
        """Return the required fields that attached schemas still miss, as open items,
        of one thread or of all threads."""
        return self.schemas.missing(thread)

    @_one_at_a_time
    def render(self, thread: str, max_tokens: int | None = None, *,
               explain: bool = False) -> str:
        """Return the carried-forward block of ``thread`` (see :mod:`scratchpad.render`);
        the fields of attached schemas come first. ``max_tokens``: fit it by leaving out
        the least salient lines. ``explain``: follow each line with its salience and the
        evidence behind it (for people reading it, not for the model)."""
        self._require(thread)
        schemas = self.attached(thread)
        try:
            self.schemas.heal(thread, schemas)
        except StoreError as exc:  # a read-only file still renders, from the records
            log.warning("state rows of thread %r left behind: %s", thread, exc)
        records = self.store.records(thread)
        states = [cls.fill(records) for cls in schemas]
        groups = self.store.value_groups(thread, {value_key(r) for r in records
                                                  if is_value(r)}) if explain else None
        return render_block(records, self.store.events(thread), states=states,
                            max_tokens=max_tokens, encoding=self._encoding, groups=groups,
                            explain=explain)

    def _require(self, thread: str) -> None:
        if not self.store.has_thread(thread):
            raise UnknownThreadError(thread, self.store.threads())


def _as_set(value: Any) -> set[str] | None:
    if value is None:
        return None
    if isinstance(value, str):  # a Kind or Status is a str too
        return {str(value)}
    return {str(v) for v in value}
