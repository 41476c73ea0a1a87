"""Per-turn work: what the extractors and resolvers of one pad do to each new turn.

A :class:`TurnProcessor` annotates a batch of turns with spaCy (only the sentences the
extractors ask for), runs every extractor on a turn, merges overlapping candidates into
records, and lets the resolvers move the thread's live records through their lifecycle.
It reads and writes no database: :class:`scratchpad.pipeline.Scratchpad` stores what it
returns, one transaction per turn.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime
from itertools import islice
from typing import Any, Literal

from extractors.base import Candidate, Change, Extractor, Needs, Resolver, Reviewer, TurnView
from extractors.dialogue.tool_evidence import argument_values, reads_only, tool_failed
from extractors.merge import merge
from extractors.records import VALUE_KINDS, kind_after
from extractors.text import nlp as nlp_module
from scratchpad.messages import Message
from scratchpad.records import LIVE_STATUSES, Event, Kind, Record, Status, record_id
from scratchpad.salience import identity_key, is_value, value_key

log = logging.getLogger(__name__)
#: Statuses of the records resolvers see: the live ones, and fulfilled ones (a hold
#: that was placed can still be released).
RESOLVABLE = frozenset(s.value for s in LIVE_STATUSES | {Status.FULFILLED})
#: The most recent live records of each kind a resolver sees: what a turn costs stays
#: bounded however many items a thread has open (an older one can still be rendered and
#: queried; a later turn just no longer settles it).
LIVE_WINDOW = 200
#: Seconds of extraction one turn may take: past it, the extractors and resolvers not run
#: yet are skipped for this turn (with a warning) and the turn is stored with what was
#: found. Each regex call has its own bound (:mod:`extractors.text.guard`).
TURN_BUDGET = 20.0
#: Turns whose pattern candidates wait between :meth:`TurnProcessor.needs` and
#: :meth:`TurnProcessor.extract` (one ingest batch; a larger one recomputes some).
FOUND_CACHE = 4096


class TurnProcessor:
    """The extractors and resolvers one pad runs, and the spaCy model they read."""

    def __init__(self, extractors: Sequence[Extractor], resolvers: Sequence[Resolver],
                 model: str | None = None) -> None:
        self.extractors = list(extractors)
        self.resolvers = list(resolvers)
        self.model = model
        self.doc_extractors = [e for e in self.extractors if e.needs_doc]
        self.pattern_extractors = [e for e in self.extractors if not e.needs_doc]
        #: The pattern extractors' candidates of turns annotated but not extracted yet,
        #: by (thread, turn, text): worked out once, for :meth:`needs` and :meth:`extract`.
        self._found: dict[tuple[str, int, str], list[list[Candidate]]] = {}
        #: Extractors that review the turn's candidates once all have run.
        self.reviewers = [e for e in self.extractors if isinstance(e, Reviewer)]
        #: The kinds some resolver moves: their live records are loaded before a batch.
        self.resolved_kinds = frozenset(k.value for r in self.resolvers for k in r.kinds)

    def annotate(self, views: Sequence[TurnView]) -> list[Any]:
        """Return each turn's Doc, annotated only where its extractors need it.

        Tool output is data, not prose: the JSON extractor reads it, no rule needs its
        parse, and a large payload would cost more than the rest of the turn.
        """
        if not self.doc_extractors:
            return [None] * len(views)
        prose = [v for v in views if v.role != "tool"]
        nlp = nlp_module.load(self.model)
        requests = [(v.text, self.needs(v)) for v in prose]
        annotated = dict(zip((v.number for v in prose), nlp_module.annotate(nlp, requests),
                             strict=True))
        return [annotated.get(v.number) for v in views]

    def acted_values(self, view: TurnView) -> set[str]:
        """The values an action tool's call named in its arguments (``view`` is its
        result), as value keys: they were acted on, whether or not its result repeats them."""
        if action(view) is None or not view.tool_arguments:
            return set()
        named = view.model_copy(update={"text": argument_values(view.tool_arguments)})
        keys = set()
        for extractor in self.extractors:
            if extractor.needs_doc:
                continue
            for c in extractor.extract(named, None):
                record = to_record(c, named)
                if is_value(record):
                    keys.add(identity_key(record) or value_key(record))
        return keys

    def needs(self, view: TurnView) -> Needs:
        """Return what of ``view`` the extractors that read the Doc need annotated. They
        see the value spans the pattern extractors found (``TurnView.found``): what is
        found already need not be recognized again."""
        spans = tuple(sorted((c.start, c.end) for found in self._patterns(view) for c in found
                             if c.kind in VALUE_KINDS))
        clipped = _clipped(view).model_copy(update={"found": spans})
        total = Needs()
        for extractor in self.doc_extractors:
            ask = getattr(extractor, "needs", None)
            if ask is None:
                total |= Needs.whole(clipped.text)
                continue
            try:
                total |= ask(clipped)
            except TimeoutError:
                total |= Needs.whole(clipped.text)
        return total

    def extract(self, view: TurnView, doc: Any) -> list[Candidate]:
        """Run every extractor on one turn, let the reviewers drop what they veto, and
        merge the candidates.

        Extractors that read the parse see the parsed prefix of an over-long turn
        (:data:`extractors.text.nlp.MAX_PARSE_CHARS`); pattern extractors see all of it. A
        pattern that hits its regex timeout costs that extractor's candidates for this
        turn, with a warning, never the ingest.
        """
        clipped = _clipped(view)
        patterns = iter(self._found.pop(_key(view), None) or self._patterns(view, keep=False))
        found: list[Candidate] = []
        deadline = time.monotonic() + TURN_BUDGET
        late = False
        for n, extractor in enumerate(self.extractors):
            if not extractor.needs_doc:
                found.extend(next(patterns))  # (found already: no time left to spend)
                continue
            if not late and time.monotonic() > deadline:
                late = True
                _over_budget(view, "extractors", [e for e in self.extractors[n:]
                                                  if e.needs_doc])
            if not late:
                found.extend(_run(extractor, clipped, doc))
        for reviewer in self.reviewers:
            try:
                found = reviewer.review(view, found)
            except TimeoutError:
                log.warning("%s timed out reviewing turn %d of thread %r; the candidates "
                            "stand unreviewed", reviewer.name, view.number, view.thread)
        return merge(found)

    def _patterns(self, view: TurnView, keep: bool = True) -> list[list[Candidate]]:
        """Each pattern extractor's candidates for ``view``, in order, computed once (kept
        for :meth:`extract` when ``keep``)."""
        key = _key(view)
        found = self._found.get(key)
        if found is None:
            found = [_run(e, view, None) for e in self.pattern_extractors]
            if keep:
                if len(self._found) >= FOUND_CACHE:
                    self._found.clear()  # (a batch this large works them out again)
                self._found[key] = found
        return found

    def process(
        self, view: TurnView, doc: Any, live: dict[str, dict[str, Record]]
    ) -> tuple[list[Record], list[Record], list[Event]]:
        """Extract one turn and resolve lifecycles. ``live`` holds, per kind, the records
        resolvers may still change (by id, oldest first) and is updated in place; each
        resolver reads only its own kinds, so its cost follows those items, not the thread."""
        added = {r.id: r for r in (to_record(c, view) for c in self.extract(view, doc))}
        for r in added.values():
            if r.kind in live:
                live[r.kind][r.id] = r
        updated: dict[str, Record] = {}
        events: list[Event] = []
        deadline = time.monotonic() + TURN_BUDGET
        for n, resolver in enumerate(self.resolvers):
            if time.monotonic() > deadline:
                _over_budget(view, "resolvers", self.resolvers[n:])
                break
            kinds = [k.value for k in resolver.kinds]
            mine_live = [r for k in kinds for r in recent(live[k], LIVE_WINDOW)]
            if len(kinds) > 1:
                mine_live.sort(key=lambda r: (r.turn, r.start, r.end))
            reads = {k.value for k in getattr(resolver, "reads", frozenset())}
            mine_new = [r for r in added.values() if r.kind in kinds or r.kind in reads]
            try:
                changes = resolver.resolve(view, doc, mine_new, mine_live)
            except TimeoutError:
                log.warning("%s timed out on turn %d of thread %r (%d characters); its "
                            "changes for this turn are skipped", resolver.name, view.number,
                            view.thread, len(view.text))
                continue
            for change in changes:
                before = next((live[k][change.record_id] for k in kinds
                               if change.record_id in live[k]), None)
                if before is None:
                    log.debug("%s proposed a change to unknown record %s", resolver.name,
                              change.record_id)
                    continue
                after, event = apply_change(before, change, view, resolver.name)
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


def action(view: TurnView) -> str | None:
    """The tool whose result ``view`` is, when that tool acted (not a lookup) and did not
    report a failure: what it names or returns was acted on."""
    return acting_tool(view.tool_name, view.text) if view.role == "tool" else None


def acting_tool(name: str | None, result: str) -> str | None:
    """``name``, when the tool so named acted (not a lookup) and its ``result`` reports
    no failure."""
    if not name or reads_only(name):
        return None
    return None if tool_failed(result) else name


def recent(records: dict[str, Record], limit: int) -> list[Record]:
    """The last ``limit`` of ``records`` (kept oldest first), at a cost of ``limit``."""
    if len(records) <= limit:
        return list(records.values())
    return list(islice(reversed(records.values()), limit))[::-1]


def _over_budget(view: TurnView, what: str, skipped: Sequence[Extractor | Resolver]) -> None:
    log.warning("turn %d of thread %r (%d characters) passed its %.0f s budget; %s skipped "
                "for this turn: %s", view.number, view.thread, len(view.text), TURN_BUDGET,
                what, ", ".join(s.name for s in skipped))


def turn_views(thread: str, first: int, fresh: Sequence[Message], *, context: Sequence[Message],
               spoke: dict[str, int], reference: datetime | None,
               date_order: Literal["dmy", "mdy"] | None) -> list[TurnView]:
    """What the extractors may read of each of ``fresh``, stored as turns ``first + 1``
    on. ``context``: earlier messages still at hand (to name the tools whose results
    ``fresh`` carries); ``spoke``: the latest turn with text of each role so far."""
    calls = tool_calls([*context, *fresh])
    spoke = dict(spoke)
    views = []
    for i, m in enumerate(fresh):
        name, arguments = calls.get(m.tool_call_id or "", (None, None))
        views.append(TurnView(
            thread=thread,
            number=first + i + 1,
            role=m.role,  # type: ignore[arg-type]
            text=m.text,
            timestamp=m.timestamp,
            tool_name=name,
            tool_arguments=arguments,
            calls_tools=bool(m.tool_calls),
            previous_by_role=dict(spoke),
            reference=reference or m.timestamp,
            date_order=date_order,
        ))
        if m.text.strip():
            spoke[m.role] = first + i + 1
    return views


def _key(view: TurnView) -> tuple[str, int, str]:
    return (view.thread, view.number, view.text)


def _run(extractor: Extractor, view: TurnView, doc: Any) -> list[Candidate]:
    """One extractor on one turn; a pattern past its regex timeout costs that extractor's
    candidates for this turn, with a warning, never the ingest."""
    try:
        return list(extractor.extract(view, doc))
    except TimeoutError:
        log.warning("%s timed out on turn %d of thread %r (%d characters); its candidates "
                    "for this turn are skipped", extractor.name, view.number, view.thread,
                    len(view.text))
        return []


def _clipped(view: TurnView) -> TurnView:
    """The view extractors that read the Doc see: at most the parsed prefix."""
    if len(view.text) <= nlp_module.MAX_PARSE_CHARS:
        return view
    return view.model_copy(update={"text": view.text[: nlp_module.MAX_PARSE_CHARS]})


def tool_calls(turns: Sequence[Message]) -> dict[str, tuple[str, str | None]]:
    """Return each tool call's name and JSON arguments, by call id."""
    calls: dict[str, tuple[str, str | None]] = {}
    for m in turns:
        for call in m.tool_calls or []:
            fn = call.get("function") or {}
            if isinstance(call.get("id"), str) and isinstance(fn.get("name"), str):
                args = fn.get("arguments")
                calls[call["id"]] = (fn["name"], args if isinstance(args, str) else None)
    return calls


def to_record(c: Candidate, view: TurnView) -> Record:
    """The new record a candidate of ``view`` becomes (open if a question, else active)."""
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


def apply_change(
    record: Record, change: Change, view: TurnView, resolver: str
) -> tuple[Record | None, Event]:
    """The record after ``change`` and the event that records it; (None, None) when the
    change changes nothing."""
    old = getattr(record, change.field)
    old = old.value if hasattr(old, "value") else old
    if old == change.new and not change.attrs:
        return None, None  # type: ignore[return-value]
    start, end = change.evidence_start, change.evidence_end
    evidence = view.text[start:end] if start is not None and end is not None else None
    kind = kind_after(record.kind, change.new) if change.field == "subtype" else record.kind
    after = record.model_copy(
        update={
            change.field: change.new,
            "kind": kind,  # a commitment re-read as a session fact is a note
            # a change of attrs only (a question asked back about) moves no status
            "status_turn": view.number if old != change.new else record.status_turn,
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
