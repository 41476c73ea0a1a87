"""Storing new turns: each extracted and written with its records, events and value
groups in one transaction, and what an ingest reports.

:func:`add_turns` is the one write path of the pipeline (``Scratchpad.ingest``, ``sync``
and ``extend`` decide which turns are new; this stores them). Per turn: the extractors
and resolvers (:class:`scratchpad.extraction.TurnProcessor`), the values a tool's plain
output shows held until relied on (:mod:`scratchpad.held`), the value groups salience
reads (:mod:`scratchpad.salience`), and the token count compaction uses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from extractors.values.tool_fields import structured
from scratchpad import tokens
from scratchpad.extraction import (
    LIVE_WINDOW,
    RESOLVABLE,
    TurnProcessor,
    acting_tool,
    action,
    tool_calls,
    turn_views,
)
from scratchpad.held import hold_keys, holds
from scratchpad.messages import Message, as_utc, parse_message
from scratchpad.readback import confirmed_questions, read_back
from scratchpad.records import Event, Kind, Record
from scratchpad.salience import (
    RecentToolOutput,
    identity_key,
    is_value,
    updated_groups,
    value_key,
)
from scratchpad.store import Store, StoredTurn

#: How many stored turns back an ingest looks for the tool output a new reply may echo.
ECHO_TURNS = 40
#: How far before the echo window a tool call may be and still name a result inside it.
CALL_REACH = 8
#: Turns annotated (spaCy) at a time: each turn's Doc is its own, so the size changes no
#: record; it bounds the Docs held at once and lets progress move as turns are stored.
ANNOTATE_BATCH = 64
#: The kinds a read-back can confirm.
VALUE_KINDS = (Kind.AMOUNT, Kind.IDENTIFIER, Kind.DATETIME)
#: Told (turns stored so far, turns to store) after each turn an ingest stores.
Progress = Callable[[int, int], None]


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


@dataclass
class SyncResult(IngestResult):
    """What one :meth:`Scratchpad.sync` call did, and what it made of each message."""

    #: Per given message, in order: the stored turn it is (a new one or one stored
    #: before), or None for what is no turn of its own -- a system message, a compaction
    #: block, a framework's summary, or a rewritten turn (one that matches no stored turn
    #: but comes before turns that do).
    numbers: list[int | None] = field(default_factory=list)
    #: How many given turns were taken for rewritten ones, neither stored nor extracted.
    rewritten: int = 0


def _annotated(processor: TurnProcessor, views: Sequence[Any]) -> Iterator[Any]:
    """Each view's Doc, annotated :data:`ANNOTATE_BATCH` turns at a time."""
    for start in range(0, len(views), ANNOTATE_BATCH):
        yield from processor.annotate(views[start:start + ANNOTATE_BATCH])


def content_hash(message: Message) -> str:
    """Return the hash that decides whether a stored turn is the same message."""
    return hashlib.sha256(message.canonical().encode("utf-8")).hexdigest()



def _acted_by(tool: str | None, result: str) -> str | None:
    """The action tool a result's values were acted on by, when it returned them as data
    (:mod:`scratchpad.held`: plain output, a listing or a log, is not relied on as such)."""
    return tool if tool and structured(result) else None


def _recent_tool_output(store: Store, thread: str, first: int) -> RecentToolOutput:
    """The tool output of the :data:`ECHO_TURNS` stored turns before turn ``first + 1``,
    each with the action tool that returned it, named by the stored calls (read from up
    to :data:`CALL_REACH` turns further back, so parallel calls' results keep their
    names; the caller's context is not scanned: per-ingest work stays the window's)."""
    out = RecentToolOutput()
    if not first:
        return out
    window = first - ECHO_TURNS + 1
    stored = store.turns(thread, since=max(1, window - CALL_REACH))
    messages = [parse_message(t.message) for t in stored]
    calls = tool_calls(messages)
    for turn, message in zip(stored, messages, strict=True):
        if turn.role == "tool" and turn.turn >= window:
            name = calls.get(message.tool_call_id or "", (None, None))[0]
            out.see(turn.role, turn.content,
                    acted_by=_acted_by(acting_tool(name, turn.content), turn.content))
    return out


def _confirmed(store: Store, thread: str, updated: Sequence[Record],
               events: Sequence[Event]) -> list[Record]:
    """The values of earlier turns the user's turn (its ``updated`` records and
    ``events``) confirmed when the assistant read them back (:mod:`scratchpad.readback`)."""
    questions = confirmed_questions(updated, events)
    out: list[Record] = []
    for turn in sorted({q.turn for q in questions}):
        said = store.records(thread, kinds=VALUE_KINDS, turn=turn)
        out.extend(v for q in questions if q.turn == turn for v in read_back(q, said))
    return out


def add_turns(store: Store, processor: TurnProcessor, thread: str, first: int,
              fresh: list[Message], hashes: list[str], *, context: list[Message],
              result: IngestResult, reference: datetime | None = None,
              date_order: Literal["dmy", "mdy"] | None = None,
              encoding: str | None = None, progress: Progress | None = None) -> None:
    """Extract and store ``fresh`` (with their content ``hashes``) as turns ``first + 1``
    on of ``thread``, counting into ``result``; ``context``: the earlier messages the
    caller has, read to name the tools whose results the new ones carry. Raises
    :class:`StaleThreadError` when another writer got there first (the turns stored
    before that stay stored). ``progress``, when given, is told after each stored turn."""
    spoke = store.last_text_turns(thread) if first else {}
    views = turn_views(thread, first, fresh, context=context, spoke=spoke,
                       reference=reference, date_order=date_order)
    docs = _annotated(processor, views)
    kinds = processor.resolved_kinds
    live: dict[str, dict[str, Record]] = {kind: {} for kind in kinds}
    for r in store.recent_records(thread, kinds, RESOLVABLE, LIVE_WINDOW):
        live[r.kind][r.id] = r
    tool_output = _recent_tool_output(store, thread, first)
    for view, doc, message, digest in zip(views, docs, fresh, hashes, strict=True):
        added, updated, events = processor.process(view, doc, live)
        acted_keys = processor.acted_values(view)
        held = [r for r in added if holds(view.role, view.text, r, acted_keys)]
        if held:
            added = [r for r in added if r not in held]
            for r in held:  # not pinned: nothing may change it until it is
                live.get(r.kind, {}).pop(r.id, None)
        values = [r for r in added if is_value(r)]
        confirmed = _confirmed(store, thread, updated, events) if view.role == "user" else []
        echoes = tool_output.echoes(values) if view.role == "assistant" else {}
        if values:  # pinned mentions: earlier held ones of the same value are relied on
            released = store.held_values(
                thread, {k for r in values for k in hold_keys(r)})
            added = [*released, *added]
            values = [*released, *values]
        tool_output.see(view.role, view.text, acted_by=_acted_by(action(view), view.text))
        keys = {value_key(r) for r in [*values, *confirmed]} | acted_keys \
            | {k for r in [*values, *confirmed] if (k := identity_key(r)) is not None}
        groups = updated_groups(thread, store.value_groups(thread, keys) if keys else {},
                                values, acted_keys, action(view),
                                narrating=view.calls_tools, echoes=echoes,
                                confirmed=confirmed)
        store.add_turn(
            StoredTurn(
                thread=thread,
                turn=view.number,
                role=view.role,
                content=view.text,
                content_hash=digest,
                tokens=tokens.message_tokens(message, encoding),
                message=message.raw,
                timestamp=as_utc(message.timestamp).isoformat() if message.timestamp else None,
            ),
            added,
            updated,
            events,
            groups,
            held,
        )
        result.new_turns.append(view.number)
        result.records_added += len(added)
        result.events += len(events)
        if progress is not None:
            progress(view.number - first, len(fresh))
