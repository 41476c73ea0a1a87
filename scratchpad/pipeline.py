"""The ingest pipeline and the public :class:`Scratchpad` API.

For each turn not stored yet: annotate it once with spaCy (batched over the new turns,
and only the sentences the extractors ask for), run every extractor, merge overlapping
candidates into records, let the resolvers move live records through their lifecycle,
and store the turn, its records and the events in one transaction. Work per turn
depends on the turn and the thread's live items, never on the whole transcript.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from extractors.base import Candidate, Change, Extractor, Needs, Resolver, TurnView
from extractors.merge import merge
from extractors.registry import Registry
from extractors.text import nlp as nlp_module
from scratchpad import tokens
from scratchpad.errors import TurnConflictError, UnknownThreadError
from scratchpad.messages import Message, parse_message
from scratchpad.records import (
    LIVE_STATUSES,
    Event,
    Kind,
    MissingField,
    OpenItem,
    Record,
    Status,
    record_id,
)
from scratchpad.store import Store, StoredTurn

if TYPE_CHECKING:
    from schemas.base import DomainState
    from schemas.llm import LLMSchemaExtractor

log = logging.getLogger(__name__)
#: Statuses of the records resolvers see: the live ones, and fulfilled ones (a hold
#: that was placed can still be released).
RESOLVABLE = frozenset(s.value for s in LIVE_STATUSES | {Status.FULFILLED})


@dataclass
class IngestResult:
    """What one :meth:`Scratchpad.ingest` call did."""

    thread: str
    new_turns: list[int] = field(default_factory=list)
    records_added: int = 0
    events: int = 0

    @property
    def skipped(self) -> bool:
        """True when every message was already stored."""
        return not self.new_turns


def content_hash(message: Message) -> str:
    """Return the hash that decides whether a stored turn is the same message."""
    return hashlib.sha256(message.canonical().encode("utf-8")).hexdigest()


class Scratchpad:
    """Pins the facts of agent conversations in a SQLite file.

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
        model: str | None = None,
        encoding: str | None = None,
        reference_date: datetime | None = None,
        date_order: Literal["dmy", "mdy"] | None = None,
    ):
        #: What this pad runs: its own copy of ``registry`` (default: the shipped
        #: extractors and those of installed plugins), with ``patterns`` files loaded.
        self.registry = registry.copy() if registry is not None else Registry.default()
        for file in patterns:
            self.registry.load_patterns(file)
        names = list(extractors) if extractors is not None else self.registry.available()
        self.extractor_names = names
        self.extractors: list[Extractor] = self.registry.create(names)
        self.resolvers: list[Resolver] = self.registry.resolvers()
        self.store = Store(path)
        self._model = model
        self._reference = reference_date
        if date_order not in (None, "dmy", "mdy"):
            raise ValueError(f"date_order must be 'dmy', 'mdy' or None, not {date_order!r}")
        self._date_order = date_order
        self._encoding = encoding
        self._doc_extractors = [e for e in self.extractors if e.needs_doc]
        self._resolved_kinds = frozenset(k.value for r in self.resolvers for k in r.kinds)

    # -- context manager ----------------------------------------------------------------

    def close(self) -> None:
        """Close the database."""
        self.store.close()

    def __enter__(self) -> Scratchpad:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- ingest -------------------------------------------------------------------------

    def ingest(
        self,
        thread: str,
        messages: Iterable[Mapping[str, Any] | Message],
        *,
        rebuild: bool = False,
    ) -> IngestResult:
        """Store and extract the turns of ``messages`` that are not stored yet.

        ``messages`` is the whole conversation so far (system messages included or
        not). Turns already stored must be unchanged: re-sending the same messages adds
        nothing; an edited earlier turn raises :class:`TurnConflictError` unless
        ``rebuild`` is true, which drops the thread and ingests it again.
        """
        parsed = [
            m if isinstance(m, Message) else parse_message(m, source="messages", line=i)
            for i, m in enumerate(messages, 1)
        ]
        turns = [m for m in parsed if m.role != "system"]
        hashes = [content_hash(m) for m in turns]
        if rebuild:
            self.store.delete_thread(thread)
        stored = self.store.turn_hashes(thread)
        for number, (old, new) in enumerate(zip(stored, hashes, strict=False), 1):
            if old != new:
                raise TurnConflictError(thread, number)
        first = len(stored)
        return self._add(thread, first, turns[first:], hashes[first:], context=turns[:first])

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
        return self._add(thread, self.store.turn_count(thread), fresh,
                         [content_hash(m) for m in fresh],
                         context=[m for m in before if m.role != "system"])

    def _add(self, thread: str, first: int, fresh: list[Message], hashes: list[str],
             *, context: list[Message]) -> IngestResult:
        """Extract and store ``fresh`` as turns ``first + 1`` on."""
        result = IngestResult(thread=thread)
        if not fresh:
            return result
        schemas = self.attached(thread)  # an unloadable schema fails before any write
        turns = context + fresh
        tool_calls = _tool_calls(turns)
        spoke = self.store.last_text_turns(thread) if first else {}
        views = []
        for i, m in enumerate(fresh):
            views.append(TurnView(
                thread=thread,
                number=first + i + 1,
                role=m.role,  # type: ignore[arg-type]
                text=m.text,
                timestamp=m.timestamp,
                tool_name=tool_calls.get(m.tool_call_id or "", (None, None))[0],
                tool_arguments=tool_calls.get(m.tool_call_id or "", (None, None))[1],
                calls_tools=bool(m.tool_calls),
                previous_by_role=dict(spoke),
                reference=self._reference or m.timestamp,
                date_order=self._date_order,
            ))
            if m.text.strip():
                spoke[m.role] = first + i + 1
        docs = self._annotate(views)
        live: dict[str, dict[str, Record]] = {kind: {} for kind in self._resolved_kinds}
        for r in self.store.records(thread, kinds=self._resolved_kinds, statuses=RESOLVABLE):
            live[r.kind][r.id] = r
        for view, doc, message, digest in zip(views, docs, fresh, hashes, strict=True):
            added, updated, events = self._process(view, doc, live)
            self.store.add_turn(
                StoredTurn(
                    thread=thread,
                    turn=view.number,
                    role=view.role,
                    content=view.text,
                    content_hash=digest,
                    tokens=tokens.message_tokens(message, self._encoding),
                    message=message.raw,
                    timestamp=message.timestamp.isoformat() if message.timestamp else None,
                ),
                added,
                updated,
                events,
            )
            result.new_turns.append(view.number)
            result.records_added += len(added)
            result.events += len(events)
        self._refresh_states(thread, result.new_turns[-1], schemas)
        return result

    def _annotate(self, views: Sequence[TurnView]) -> list[Any]:
        """Return each turn's Doc, annotated only where its extractors need it.

        Tool output is data, not prose: the JSON extractor reads it, no rule needs its
        parse, and a large payload would cost more than the rest of the turn.
        """
        if not self._doc_extractors:
            return [None] * len(views)
        prose = [v for v in views if v.role != "tool"]
        nlp = nlp_module.load(self._model)
        requests = [(v.text, self.needs(v)) for v in prose]
        annotated = dict(zip((v.number for v in prose), nlp_module.annotate(nlp, requests),
                             strict=True))
        return [annotated.get(v.number) for v in views]

    def needs(self, view: TurnView) -> Needs:
        """Return what of ``view`` the extractors that read the Doc need annotated."""
        clipped = _clipped(view)
        total = Needs()
        for extractor in self._doc_extractors:
            ask = getattr(extractor, "needs", None)
            if ask is None:
                total |= Needs.whole(clipped.text)
                continue
            try:
                total |= ask(clipped)
            except TimeoutError:
                total |= Needs.whole(clipped.text)
        return total

    def extract_turn(self, view: TurnView, doc: Any) -> list[Candidate]:
        """Run every extractor on one turn and merge the candidates.

        Extractors that read the parse see the parsed prefix of an over-long turn
        (:data:`extractors.text.nlp.MAX_PARSE_CHARS`); pattern extractors see all of it. A
        pattern that hits its regex timeout costs that extractor's candidates for this
        turn, with a warning, never the ingest.
        """
        clipped = _clipped(view)
        found: list[Candidate] = []
        for extractor in self.extractors:
            try:
                if extractor.needs_doc:
                    found.extend(extractor.extract(clipped, doc))
                else:
                    found.extend(extractor.extract(view, None))
            except TimeoutError:
                log.warning("%s timed out on turn %d of thread %r (%d characters); "
                            "its candidates for this turn are skipped",
                            extractor.name, view.number, view.thread, len(view.text))
        return merge(found)

    def _process(
        self, view: TurnView, doc: Any, live: dict[str, dict[str, Record]]
    ) -> tuple[list[Record], list[Record], list[Event]]:
        """Extract one turn and resolve lifecycles. ``live`` holds, per kind, the records
        resolvers may still change (by id, oldest first) and is updated in place; each
        resolver reads only its own kinds, so its cost follows those items, not the thread."""
        added = {r.id: r for r in (_to_record(c, view) for c in self.extract_turn(view, doc))}
        for r in added.values():
            if r.kind in live:
                live[r.kind][r.id] = r
        updated: dict[str, Record] = {}
        events: list[Event] = []
        for resolver in self.resolvers:
            kinds = [k.value for k in resolver.kinds]
            mine_live = [r for k in kinds for r in live[k].values()]
            if len(kinds) > 1:
                mine_live.sort(key=lambda r: (r.turn, r.start, r.end))
            reads = {k.value for k in getattr(resolver, "reads", frozenset())}
            mine_new = [r for r in added.values() if r.kind in kinds or r.kind in reads]
            for change in resolver.resolve(view, doc, mine_new, mine_live):
                before = next((live[k][change.record_id] for k in kinds
                               if change.record_id in live[k]), None)
                if before is None:
                    log.debug("%s proposed a change to unknown record %s", resolver.name,
                              change.record_id)
                    continue
                after, event = _apply(before, change, view, resolver.name)
                if after is None:
                    continue
                events.append(event)
                if after.id in added:
                    added[after.id] = after
                else:
                    updated[after.id] = after
                if after.status in RESOLVABLE:
                    live[after.kind][after.id] = after
                else:
                    del live[after.kind][after.id]
        return list(added.values()), list(updated.values()), events

    # -- reading ------------------------------------------------------------------------

    def threads(self) -> list[str]:
        """Return every thread id in the store."""
        return self.store.threads()

    def records(
        self,
        thread: str,
        kind: Kind | str | Iterable[Kind | str] | None = None,
        status: Status | str | Iterable[Status | str] | None = None,
    ) -> list[Record]:
        """Return the records of ``thread``, in turn order, filtered by kind/status."""
        self._require(thread)
        return self.store.records(thread, kinds=_as_set(kind), statuses=_as_set(status))

    def events(self, thread: str) -> list[Event]:
        """Return every status change of ``thread``'s records, in order."""
        self._require(thread)
        return self.store.events(thread)

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
        items = self.store.open_items(thread)
        last = self.store.last_turn_times({r.thread for r in items})
        out = []
        for r in items:
            last_turn, last_time = last.get(r.thread, (r.turn, None))
            asked = self.store.turn_timestamp(r.thread, r.turn)
            seconds = None
            if asked and last_time:
                seconds = (datetime.fromisoformat(last_time)
                           - datetime.fromisoformat(asked)).total_seconds()
            out.append(OpenItem(**r.model_dump(), age_turns=last_turn - r.turn,
                                age_seconds=seconds))
        fields = self.missing_fields(thread)
        if sort == "age":
            out.sort(key=lambda o: (-(o.age_seconds if o.age_seconds is not None else -1),
                                    -o.age_turns, o.thread, o.turn, o.start))
            return [*fields, *out]  # missing since the thread began: the oldest
        by_thread: dict[str, list[OpenItem | MissingField]] = {}
        for item in [*out, *fields]:
            by_thread.setdefault(item.thread, []).append(item)
        return [item for name in sorted(by_thread) for item in by_thread[name]]

    def state(self, thread: str, schema: type[DomainState] | str, *,
              llm: LLMSchemaExtractor | None = None) -> DomainState:
        """Return ``thread``'s domain state as ``schema`` (a :class:`schemas.DomainState`
        subclass, a shipped schema's name such as ``"refund"``, or ``"module:Class"``).

        With ``llm`` (:class:`schemas.llm.LLMSchemaExtractor`), a model is asked for the
        fields the pins leave empty; only values found verbatim in the turns they cite
        are added (the rest are logged), and a failed call leaves the pinned state."""
        from schemas.registry import resolve

        self._require(thread)
        cls = resolve(schema)
        filled = cls.fill(self.store.records(thread))
        if llm is None:
            return filled
        from schemas.llm import merge

        turns = [(t.turn, t.role, t.content) for t in self.store.turns(thread)]
        return merge(filled, llm.extract(cls, turns))

    # -- schemas attached to a thread ---------------------------------------------------

    def attach(self, thread: str, schema: type[DomainState] | str) -> type[DomainState]:
        """Attach ``schema`` to ``thread`` (before or after its first ingest; kept in the
        file). From then on its state is kept current on every ingest in the table
        ``state_<name>`` (one row per thread), its missing required fields are among
        :meth:`open_items`, and its fields head the rendered block. Returns the schema
        class."""
        from schemas.registry import reference, resolve

        cls = resolve(schema)
        self.store.attach_schema(thread, reference(cls), cls.table_name())
        if self.store.has_thread(thread):
            self._refresh_states(thread, self.store.turn_count(thread), [cls])
        return cls

    def attached(self, thread: str) -> list[type[DomainState]]:
        """Return the schemas attached to ``thread``, in the order they were attached."""
        from schemas.registry import resolve

        return [resolve(name) for _, name, _ in self.store.attached_schemas(thread)]

    def _refresh_states(self, thread: str, last_turn: int,
                        schemas: Sequence[type[DomainState]]) -> None:
        """Rewrite the state rows of ``schemas`` for ``thread``: once per ingest call,
        from the thread's records of the kinds the schemas read."""
        if not schemas:
            return
        kinds = {k for cls in schemas for b in cls.bindings().values() for k in b.kinds}
        records = self.store.records(thread, kinds=kinds)
        for cls in schemas:
            self.store.save_state(cls.table_name(), cls.fill(records).state_row(thread,
                                                                                last_turn))

    def missing_fields(self, thread: str | None = None) -> list[MissingField]:
        """Return the required fields that attached schemas still miss, as open items,
        of one thread or of all threads."""
        out = []
        for name, _, table in self.store.attached_schemas(thread):
            stored = self.store.state_missing(table, name)
            if stored is None:
                continue
            missing, last_turn = stored
            for line in missing:
                out.append(MissingField(thread=name, schema_name=table.removeprefix("state_"),
                                        field=line.partition(":")[0], text=line,
                                        age_turns=last_turn))
        return out

    def render(self, thread: str, max_tokens: int | None = None) -> str:
        """Return the carried-forward block of ``thread`` (see :mod:`scratchpad.render`);
        the fields of attached schemas come first."""
        from scratchpad.render import render_block

        self._require(thread)
        records = self.store.records(thread)
        states = [cls.fill(records) for cls in self.attached(thread)]
        return render_block(records, self.store.events(thread), states=states,
                            max_tokens=max_tokens, encoding=self._encoding)

    def _require(self, thread: str) -> None:
        if not self.store.has_thread(thread):
            raise UnknownThreadError(thread, self.store.threads())


def _clipped(view: TurnView) -> TurnView:
    """The view extractors that read the Doc see: at most the parsed prefix."""
    if len(view.text) <= nlp_module.MAX_PARSE_CHARS:
        return view
    return view.model_copy(update={"text": view.text[: nlp_module.MAX_PARSE_CHARS]})


def _as_set(value: Any) -> set[str] | None:
    if value is None:
        return None
    if isinstance(value, str):  # a Kind or Status is a str too
        return {str(value)}
    return {str(v) for v in value}


def _tool_calls(turns: Sequence[Message]) -> dict[str, tuple[str, str | None]]:
    """Return each tool call's name and JSON arguments, by call id."""
    calls: dict[str, tuple[str, str | None]] = {}
    for m in turns:
        for call in m.tool_calls or []:
            fn = call.get("function") or {}
            if isinstance(call.get("id"), str) and isinstance(fn.get("name"), str):
                args = fn.get("arguments")
                calls[call["id"]] = (fn["name"], args if isinstance(args, str) else None)
    return calls


def _to_record(c: Candidate, view: TurnView) -> Record:
    initial = Status.OPEN if c.kind == Kind.QUESTION else Status.ACTIVE
    return Record(
        id=record_id(c.kind, view.number, c.start, c.end),
        thread=view.thread,
        kind=c.kind,
        subtype=c.subtype,
        text=c.text,
        turn=view.number,
        role=view.role,
        start=c.start,
        end=c.end,
        label=c.label,
        value=c.value,
        status=initial,
        status_turn=None,
        extractor=c.extractor,
        confidence=c.score,
        attrs=c.attrs,
    )


def _apply(
    record: Record, change: Change, view: TurnView, resolver: str
) -> tuple[Record | None, Event]:
    old = getattr(record, change.field)
    old = old.value if hasattr(old, "value") else old
    if old == change.new and not change.attrs:
        return None, None  # type: ignore[return-value]
    start, end = change.evidence_start, change.evidence_end
    evidence = view.text[start:end] if start is not None and end is not None else None
    after = record.model_copy(
        update={
            change.field: change.new,
            "status_turn": view.number,
            "attrs": {**record.attrs, **change.attrs},
        }
    )
    event = Event(
        thread=record.thread,
        record_id=record.id,
        turn=view.number,
        field=change.field,
        old=old,
        new=change.new,
        evidence_start=start,
        evidence_end=end,
        evidence_text=evidence,
        by_role=view.role,
        note=change.note or resolver,
    )
    return after, event
