"""Render the carried-forward block: every live pin, verbatim, with its turns.

Rules that keep the block trustworthy:

* Everything taken from a turn appears inside double quotes, JSON-escaped (newlines
  as ``\\n``), so text typed into a message can never start a line of the block:
  a user who pastes ``AGREED: refund €5,000`` gets at most a quoted user line.
* Lines are ordered by the turn where their item first appeared, so new pins land
  at the end and the block's prefix stays stable for provider prompt caches.
* Same records and events in, same bytes out.
* With ``max_tokens``, the lowest-priority lines go first (dates, then amounts,
  then identifiers, constraints, commitments; open questions last) and the block
  says how many lines it left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import regex

from extractors.text.guard import rx
from scratchpad import tokens
from scratchpad.records import CommitmentSubtype, Event, Kind, Record, Status

if TYPE_CHECKING:
    from schemas.base import DomainState

HEADER = "=== Carried forward verbatim (do not paraphrase) ==="
FOOTER = "=== End of carried forward ==="
EMPTY = "(nothing pinned yet)"

#: Drop order under a token cap: lowest first.
PRIORITY = {
    Kind.DATETIME.value: 0,
    Kind.AMOUNT.value: 1,
    Kind.IDENTIFIER.value: 2,
    Kind.CONSTRAINT.value: 3,
    Kind.COMMITMENT.value: 4,
    Kind.QUESTION.value: 5,
}
VALUE_PREFIX = {"amount": "AMOUNT", "identifier": "ID", "datetime": "WHEN"}
#: Commitment subtypes and statuses that are carried forward, with their line prefix.
COMMITMENT_PREFIX: dict[str, str] = {
    CommitmentSubtype.AGREED: "AGREED",
    CommitmentSubtype.GRANTED: "GRANTED",
    CommitmentSubtype.PROMISED: "PROMISED",
    CommitmentSubtype.OFFERED: "OFFERED",
    CommitmentSubtype.DECLINED: "DECLINED",
    CommitmentSubtype.REVOKED: "REVOKED",
    CommitmentSubtype.CLAIMED: "USER CLAIM",
    CommitmentSubtype.REQUESTED: "TASK",
    CommitmentSubtype.TRIED: "TRIED",
    CommitmentSubtype.FOUND: "FOUND",
}
#: Schema field lines (see :func:`schema_lines`) outlast every other line under a cap.
SCHEMA_PRIORITY = 6
MAX_EXTRA_TURNS = 3
_LABEL_JUNK = rx(r"[^\p{L}\p{N} '\-/&.]+")


@dataclass(frozen=True)
class Line:
    """One line of the block with what decides its place and its fate under a cap."""

    turn: int
    start: int
    priority: int
    text: str


def quote(text: str) -> str:
    """Quote turn text so it cannot break out of its line (JSON string escaping)."""
    return json.dumps(text, ensure_ascii=False)


def clean_label(label: str | None) -> str:
    """Return a label safe to print unquoted: letters, digits and a little punctuation."""
    if not label:
        return ""
    return " ".join(_LABEL_JUNK.sub(" ", label).split())[:60]


def _turns_note(turns: Sequence[int], word: str = "again") -> str:
    extra = [t for t in turns[1:]]
    if not extra:
        return ""
    shown = ", ".join(str(t) for t in extra[:MAX_EXTRA_TURNS])
    more = f" and {len(extra) - MAX_EXTRA_TURNS} more" if len(extra) > MAX_EXTRA_TURNS else ""
    return f"; {word} turn{'s' if len(extra) > 1 else ''} {shown}{more}"


def _value_key(record: Record) -> str:
    """Return what makes two mentions one line: the identifier's normal form, the
    amount's value, a date/time's own words (two phrasings of one day say different
    things: "Thursday 14:00-18:00" offered, "Thursday 3 December, 14:00-18:00" booked)."""
    value = record.value or {}
    if record.kind == Kind.DATETIME.value:
        return f"{record.kind}|{' '.join(record.text.split()).casefold()}"
    for key in ("normalized", "e164"):
        if isinstance(value.get(key), str):
            return f"{record.kind}|{value[key]}"
    if record.kind == Kind.AMOUNT.value and value.get("amount") is not None:
        return f"{record.kind}|{value.get('currency')}|{value['amount']}"
    return f"{record.kind}|{' '.join(record.text.split()).casefold()}"


def _contained(record: Record, spans: Iterable[tuple[int, int, int]]) -> bool:
    return any(t == record.turn and s <= record.start and record.end <= e for t, s, e in spans)


def build_lines(records: Sequence[Record], events: Sequence[Event]) -> list[Line]:
    """Return the block's lines for these records, in block order."""
    last_event: dict[tuple[str, str], Event] = {}
    evidence: dict[str, list[tuple[int, int, int]]] = {}
    for event in events:
        last_event[(event.record_id, event.new)] = event
        if event.evidence_start is not None and event.evidence_end is not None:
            evidence.setdefault(event.record_id, []).append(
                (event.turn, event.evidence_start, event.evidence_end))
    lines: list[Line] = []
    clause_spans: list[tuple[int, int, int]] = []
    for r in records:
        line = None
        if r.kind == Kind.COMMITMENT.value:
            line = _commitment_line(r, last_event)
        elif r.kind == Kind.CONSTRAINT.value:
            line = _constraint_line(r)
        elif r.kind == Kind.QUESTION.value:
            line = _question_line(r, last_event)
        if line is not None:
            lines.append(Line(r.turn, r.start, PRIORITY[r.kind], line))
            clause_spans.append((r.turn, r.start, r.end))
            clause_spans.extend(evidence.get(r.id, ()))
    groups: dict[str, list[Record]] = {}
    for r in records:
        if r.kind not in VALUE_PREFIX or r.status != Status.ACTIVE.value:
            continue
        if r.role == "tool" and r.kind != Kind.IDENTIFIER.value:
            continue  # numbers in tool output stay queryable but do not flood the block
        if _contained(r, clause_spans):
            continue  # already verbatim inside a commitment, constraint or question line
        groups.setdefault(_value_key(r), []).append(r)
    for key in _covered_datetimes(groups):
        del groups[key]
    for group in groups.values():
        first = group[0]
        turns = sorted({r.turn for r in group})
        label = clean_label(next((r.label for r in group if r.label), None))
        head = f"{VALUE_PREFIX[first.kind]}: " + (f"{label} " if label else "")
        text = f"{head}{quote(first.text)} ({first.role}, turn {first.turn}{_turns_note(turns)})"
        lines.append(Line(first.turn, first.start, PRIORITY[first.kind], text))
    return sorted(lines, key=lambda ln: (ln.turn, ln.start, -ln.priority, ln.text))


def _covered_datetimes(groups: dict[str, list[Record]]) -> list[str]:
    """Return date/time groups whose text is a whole-word part of a longer date/time
    ("Thursday" inside "Thursday 3 December, 14:00-18:00"): the longer line carries it."""
    texts = {key: " ".join(g[0].text.split()).casefold() for key, g in groups.items()
             if g[0].kind == Kind.DATETIME.value}
    covered = []
    for key, text in texts.items():
        pattern = rx(rf"(?<!\w){regex.escape(text)}(?!\w)")
        if any(other != text and pattern.search(other) for other in texts.values()):
            covered.append(key)
    return covered


def _commitment_line(r: Record, last_event: dict[tuple[str, str], Event]) -> str | None:
    if r.status == Status.REVOKED.value:
        prefix = COMMITMENT_PREFIX[CommitmentSubtype.REVOKED]
    elif r.status not in (Status.ACTIVE.value, Status.FULFILLED.value):
        return None
    else:
        prefix = COMMITMENT_PREFIX.get(r.subtype)
    if prefix is None:
        return None
    label = clean_label(r.label)
    parts = [f"{r.role}, turn {r.turn}"]
    accepted = last_event.get((r.id, CommitmentSubtype.AGREED))
    if r.subtype == CommitmentSubtype.AGREED and accepted is not None:
        parts = [f"offered by {r.role}, turn {r.turn}"]
        quoted = f": {quote(accepted.evidence_text)}" if accepted.evidence_text else ""
        parts.append(f"accepted by {accepted.by_role}, turn {accepted.turn}{quoted}")
    failed = last_event.get((r.id, CommitmentSubtype.TRIED))
    # a plan a later turn reported failing
    if r.subtype == CommitmentSubtype.TRIED and failed is not None:
        quoted = f": {quote(failed.evidence_text)}" if failed.evidence_text else ""
        parts.append(f"failed turn {failed.turn}{quoted}")
    if r.status == Status.FULFILLED.value:
        parts.append(f"fulfilled turn {r.status_turn}")
    if r.status == Status.REVOKED.value:
        revoked = last_event.get((r.id, Status.REVOKED.value))
        quoted = f": {quote(revoked.evidence_text)}" if revoked and revoked.evidence_text else ""
        parts.append(f"revoked turn {r.status_turn}{quoted}")
    if r.subtype == CommitmentSubtype.CLAIMED:
        parts.append("not confirmed by the agent")
    head = f"{prefix}: " + (f"{label}: " if label else "")
    return f"{head}{quote(r.text)} ({'; '.join(parts)})"


def _constraint_line(r: Record) -> str | None:
    if r.status not in (Status.ACTIVE.value, Status.SATISFIED.value):
        return None
    note = f"; satisfied turn {r.status_turn}" if r.status == Status.SATISFIED.value else ""
    return f"CONSTRAINT: {quote(r.text)} ({r.role}, turn {r.turn}{note})"


def _question_line(r: Record, last_event: dict[tuple[str, str], Event]) -> str | None:
    if r.status not in (Status.OPEN.value, Status.DEFERRED.value):
        return None
    parts = [f"asked by {r.role}, turn {r.turn}"]
    deferred = last_event.get((r.id, Status.DEFERRED.value))
    if deferred is not None:
        quoted = f": {quote(deferred.evidence_text)}" if deferred.evidence_text else ""
        parts.append(f"deferred by {deferred.by_role}, turn {deferred.turn}{quoted}")
    parts.append("never answered")
    return f"OPEN: {quote(r.text)} ({'; '.join(parts)})"


def schema_lines(state: DomainState) -> list[Line]:
    """The lines an attached schema puts at the top of the block: one per filled value
    ('REFUND refund amount: "…" (agreed; turn 12; also turn 13)'), then one per missing
    required field. They sit before the turn-ordered lines and are the last to go under
    a token cap."""
    name = type(state).schema_key().upper()
    out = []
    for field, value in state.filled_fields():
        about = [value.subtype] if value.kind == Kind.COMMITMENT.value else []
        if value.kind == Kind.QUESTION.value:
            about = [value.status]
        others = [value.turn, *(t for t in value.turns if t != value.turn)]
        where = f"turn {value.turn}{_turns_note(others, 'also')}"
        note = "; ".join([*about, where])
        out.append(f"{name} {field.replace('_', ' ')}: {quote(value.text)} ({note})")
    out.extend(f"{name} MISSING {line}" for line in state.missing)
    return [Line(0, i, SCHEMA_PRIORITY, text) for i, text in enumerate(out)]


def render_block(
    records: Sequence[Record],
    events: Sequence[Event],
    *,
    states: Sequence[DomainState] = (),
    max_tokens: int | None = None,
    encoding: str | None = None,
) -> str:
    """Return the carried-forward block, the lines of ``states`` (attached schemas)
    first; with ``max_tokens``, drop low-priority lines."""
    head = [line for state in states for line in schema_lines(state)]
    lines = [*head, *build_lines(records, events)]
    body = [ln.text for ln in lines] or [EMPTY]
    block = "\n".join([HEADER, *body, FOOTER]) + "\n"
    if max_tokens is None or tokens.count(block, encoding) <= max_tokens:
        return block
    # Drop lowest priority first; among equals, the oldest first.
    order = sorted(range(len(lines)), key=lambda i: (lines[i].priority, lines[i].turn, i))
    dropped: set[int] = set()
    for index in order:
        dropped.add(index)
        kept = [ln.text for i, ln in enumerate(lines) if i not in dropped]
        note = f"({len(dropped)} lower-priority line{'s' if len(dropped) > 1 else ''} left out " \
               f"to fit {max_tokens} tokens)"
        block = "\n".join([HEADER, *kept, note, FOOTER]) + "\n"
        if tokens.count(block, encoding) <= max_tokens:
            return block
    return block
