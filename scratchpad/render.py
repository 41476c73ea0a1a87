"""Render the carried-forward block: every live pin, verbatim, with its turns.

Rules that keep the block trustworthy:

* Everything taken from a turn appears inside double quotes, JSON-escaped (newlines
  as ``\\n``), so text typed into a message can never start a line of the block:
  a user who pastes ``AGREED: refund €5,000`` gets at most a quoted user line.
* Lines are ordered by the turn where their item first appeared, so new pins land
  at the end and the block's prefix stays stable for provider prompt caches.
* Same records and events in, same bytes out.
* A value gets a line of its own only when its salience earns it
  (:data:`scratchpad.salience.SHOW_FROM`: the user stated it, it was acted on, or the
  assistant kept coming back to it); the rest are counted, one line per shape, at the
  end of the block ("NOT CARRIED: 97 files under src/ledger/ (turns 2-197)"), by
  :mod:`scratchpad.routine`. A value already
  quoted inside a commitment, constraint or question line gets no line of its own.
* With ``max_tokens``, lines go by ascending salience (the oldest first among equals), and
  a live commitment, an active constraint, an open question, a schema field or a case
  reference the user gave (:func:`scratchpad.salience.case_reference`) goes only when
  nothing else is left; the block says how many lines it left out.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import regex

from extractors.text import lexicon
from extractors.text.guard import rx
from scratchpad import tokens
from scratchpad.records import CommitmentSubtype, Event, Kind, NoteSubtype, Record, Status
from scratchpad.routine import not_carried
from scratchpad.salience import PROTECTED, SHOW_FROM, ValueGroup, case_reference, value_key

if TYPE_CHECKING:
    from schemas.base import DomainState

HEADER = "=== Carried forward verbatim (do not paraphrase) ==="
FOOTER = "=== End of carried forward ==="
EMPTY = "(nothing pinned yet)"

VALUE_PREFIX = {"amount": "AMOUNT", "identifier": "ID", "datetime": "WHEN"}
#: Commitment and note subtypes that are carried forward, with their line prefix (a
#: ``planned`` note has none: it is kept for the failed-approach resolver).
COMMITMENT_PREFIX: dict[str, str] = {
    CommitmentSubtype.AGREED: "AGREED",
    CommitmentSubtype.GRANTED: "GRANTED",
    CommitmentSubtype.PROMISED: "PROMISED",
    CommitmentSubtype.OFFERED: "OFFERED",
    CommitmentSubtype.DECLINED: "DECLINED",
    CommitmentSubtype.REVOKED: "REVOKED",
    NoteSubtype.CLAIMED: "USER CLAIM",
    NoteSubtype.REQUESTED: "TASK",
    NoteSubtype.TRIED: "TRIED",
    NoteSubtype.FOUND: "FOUND",
}
#: Schema field lines (see :func:`schema_lines`) outlast every other line under a cap.
SCHEMA_SALIENCE = 4.0
MAX_EXTRA_TURNS = 3
_LABEL_JUNK = rx(r"[^\p{L}\p{N} '\-/&.]+")


#: A clause's line before merging: its prefix, its quoted words, its provenance.
_Clause = tuple[str, str, str]


@dataclass(frozen=True)
class Line:
    """One line of the block with what decides its place and its fate under a cap."""

    turn: int
    start: int
    salience: float
    text: str
    #: Goes only when nothing unprotected is left (live commitments, active constraints,
    #: open questions, schema fields, case references the user gave).
    protected: bool = False
    #: Why it is there (``render --explain``).
    why: str = ""


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


def _contained(record: Record, spans: Iterable[tuple[int, int, int]]) -> bool:
    return any(t == record.turn and s <= record.start and record.end <= e for t, s, e in spans)


def build_lines(records: Sequence[Record], events: Sequence[Event],
                groups: Mapping[str, ValueGroup] | None = None,
                in_schema: Collection[tuple[int, str]] = ()) -> list[Line]:
    """Return the block's lines for these records, in block order: turn-ordered lines,
    then one line counting the values that earn no line of their own. ``groups`` (the
    thread's value groups) only add the evidence ``render --explain`` prints; ``in_schema``:
    (turn, text) of what attached schemas' lines already quote, not repeated."""
    last_event: dict[tuple[str, str], Event] = {}
    evidence: dict[str, list[tuple[int, int, int]]] = {}
    for event in events:
        last_event[(event.record_id, event.new)] = event
        if event.evidence_start is not None and event.evidence_end is not None:
            evidence.setdefault(event.record_id, []).append(
                (event.turn, event.evidence_start, event.evidence_end))
    clauses: dict[tuple[str, str, int], list[tuple[Record, str]]] = {}
    clause_spans: list[tuple[int, int, int]] = []
    for r in records:
        found = None
        if (r.turn, r.text) in in_schema:
            clause_spans.append((r.turn, r.start, r.end))
        elif r.kind in (Kind.COMMITMENT.value, Kind.NOTE.value):
            found = _commitment_line(r, last_event)
        elif r.kind == Kind.CONSTRAINT.value:
            found = _constraint_line(r)
        elif r.kind == Kind.QUESTION.value:
            found = _question_line(r, last_event)
        if found is not None:
            # one line for the clauses a turn said with one standing ("I've waived the
            # fee" and "we'll cover shipping", both granted at turn 14)
            prefix, quoted, about = found
            clauses.setdefault((prefix, about, r.turn), []).append((r, quoted))
            clause_spans.append((r.turn, r.start, r.end))
            clause_spans.extend(evidence.get(r.id, ()))
    lines = [_clause_line(prefix, about, same) for (prefix, about, _), same in clauses.items()]
    by_value: dict[str, list[Record]] = {}
    carried: set[str] = set()
    for r in records:
        if r.kind not in VALUE_PREFIX or r.status != Status.ACTIVE.value:
            continue
        key = value_key(r)
        if _contained(r, clause_spans) or (r.turn, r.text) in in_schema:
            carried.add(key)  # already verbatim inside a commitment, constraint or question
        if r.role == "tool" and r.kind != Kind.IDENTIFIER.value:
            continue  # numbers in tool output stay queryable but do not flood the block
        by_value.setdefault(key, []).append(r)
    shown = {k: g for k, g in by_value.items()
             if k not in carried and max(r.salience for r in g) >= SHOW_FROM}
    for key in _covered_datetimes(shown):
        del shown[key]
    said: dict[tuple[int, str], list[_Value]] = {}
    for key, group in shown.items():
        # the first mention in prose, else the first: later mentions do not change the
        # line, so the block's prefix stays put while the talk comes back to a value
        first = next((r for r in group if r.role != "tool"), group[0])
        why = groups[key].why() if groups and key in groups else ""
        label = clean_label(next((r.label for r in group if r.label), None))
        said.setdefault((first.turn, first.role), []).append(
            _Value(first, label, max(r.salience for r in group), why,
                   any(case_reference(r) for r in group)))
    lines.extend(_value_line(turn, role, values) for (turn, role), values in said.items())
    body = sorted(lines, key=lambda ln: (ln.turn, ln.start, -ln.salience, ln.text))
    rest = [g for k, g in by_value.items() if k not in carried and k not in shown]
    counted = not_carried(rest)
    if counted is None:
        return body
    first, text = counted
    return [*body, Line(first, -1, 0.0, text,
                        why=f"values that earn no line of their own (salience below {SHOW_FROM}),"
                            " counted")]


@dataclass(frozen=True)
class _Value:
    """A value that earns a line: its first mention and what the line says of it."""

    record: Record
    label: str
    salience: float
    why: str
    reference: bool = False  # a case reference the user gave: kept under a cap


def _value_line(turn: int, role: str, values: list[_Value]) -> Line:
    """One line for the values one turn said that earn a line: 'ID: order "A-77215"'
    (the value's label unquoted, its words quoted), then who said it, where."""
    values = sorted(values, key=lambda v: v.record.start)
    parts = [f"{VALUE_PREFIX[v.record.kind]}: " + (f"{v.label} " if v.label else "")
             + quote(v.record.text) for v in values]
    whys = [(f"{quote(v.record.text)}: " if len(values) > 1 else "") + v.why
            + ("; a case reference the user gave" if v.reference else "") for v in values]
    return Line(turn, values[0].record.start, max(v.salience for v in values),
                f"{'; '.join(parts)} ({role}, turn {turn})", why="; ".join(whys),
                protected=any(v.reference for v in values))


def _clause_line(prefix: str, about: str, same: list[tuple[Record, str]]) -> Line:
    salience = max(r.salience for r, _ in same)
    quoted = " and ".join(dict.fromkeys(q for _, q in same))
    why = "; ".join(sorted({f"{r.kind} {r.subtype}, {r.status}" for r, _ in same}))
    first = same[0][0]
    return Line(first.turn, first.start, salience, f"{prefix}: {quoted} ({about})",
                protected=salience >= PROTECTED, why=why)


def _names(words: str | None, text: str) -> bool:
    """True when ``words`` (a revocation's evidence) name what ``text`` said: they share
    a number, a code or two distinctive words ("I'm releasing the Wednesday hold" of
    "Would you like me to hold the Wednesday 14:00-18:00 slot")."""
    return bool(words) and lexicon.ties(lexicon.terms(words or ""), lexicon.terms(text))


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


def _commitment_line(r: Record,
                     last_event: dict[tuple[str, str], Event]) -> _Clause | None:
    """The line prefix and the provenance of a commitment's or a note's line, or None
    when one in its state is not carried."""
    if r.status == Status.REVOKED.value:
        prefix = COMMITMENT_PREFIX[CommitmentSubtype.REVOKED]
    elif r.status not in (Status.ACTIVE.value, Status.FULFILLED.value):
        return None
    else:
        prefix = COMMITMENT_PREFIX.get(r.subtype)
    if prefix is None:
        return None
    parts = [f"{r.role}, turn {r.turn}"]
    accepted = last_event.get((r.id, CommitmentSubtype.AGREED))
    if (r.subtype == CommitmentSubtype.AGREED and accepted is not None
            and r.status != Status.REVOKED.value):
        parts.append(f"accepted turn {accepted.turn}{_evidence(accepted)}")
    failed = last_event.get((r.id, NoteSubtype.TRIED))
    # a plan a later turn reported failing
    if r.subtype == NoteSubtype.TRIED and failed is not None:
        parts.append(f"failed turn {failed.turn}{_evidence(failed)}")
    if r.status == Status.FULFILLED.value:
        parts.append(f"fulfilled turn {r.status_turn}")
    if r.status == Status.REVOKED.value:
        revoked = last_event.get((r.id, Status.REVOKED.value))
        if revoked is not None and _names(revoked.evidence_text, r.text):
            # the words that took it back name it: they are the line
            return prefix, quote(revoked.evidence_text or ""), \
                f"{revoked.by_role}, turn {revoked.turn}"
        parts.append(f"revoked turn {r.status_turn}{_evidence(revoked)}")
    if r.subtype == NoteSubtype.CLAIMED:
        parts.append("not confirmed by the agent")
    return prefix, quote(r.text), "; ".join(parts)


def _evidence(event: Event | None) -> str:
    """': "the words"' of the turn that changed a record's status, or ''."""
    return f": {quote(event.evidence_text)}" if event and event.evidence_text else ""


def _constraint_line(r: Record) -> _Clause | None:
    if r.status not in (Status.ACTIVE.value, Status.SATISFIED.value):
        return None
    note = f"; satisfied turn {r.status_turn}" if r.status == Status.SATISFIED.value else ""
    return "CONSTRAINT", quote(r.text), f"{r.role}, turn {r.turn}{note}"


def _question_line(r: Record,
                   last_event: dict[tuple[str, str], Event]) -> _Clause | None:
    if r.status not in (Status.OPEN.value, Status.DEFERRED.value):
        return None
    parts = [f"{r.role}, turn {r.turn}"]
    deferred = last_event.get((r.id, Status.DEFERRED.value))
    if deferred is not None:
        parts.append(f"deferred turn {deferred.turn}{_evidence(deferred)}")
    return "OPEN", quote(r.text), "; ".join(parts)


def schema_lines(state: DomainState) -> list[Line]:
    """The lines an attached schema puts at the top of the block: one per filled value
    ('REFUND refund amount: "…" (agreed; turn 12; also turn 13)'), then one per missing
    required field. They sit before the turn-ordered lines and are the last to go under
    a token cap."""
    name = type(state).schema_key().upper()
    out = []
    for field, value in state.filled_fields():
        about = [value.subtype] if value.kind in (Kind.COMMITMENT.value,
                                                  Kind.NOTE.value) else []
        if value.kind == Kind.QUESTION.value:
            about = [value.status]
        others = [value.turn, *(t for t in value.turns if t != value.turn)]
        where = f"turn {value.turn}{_turns_note(others, 'also')}"
        note = "; ".join([*about, where])
        out.append(f"{name} {field.replace('_', ' ')}: {quote(value.text)} ({note})")
    out.extend(f"{name} MISSING {line}" for line in state.missing)
    return [Line(0, i, SCHEMA_SALIENCE, text, protected=True, why="schema field")
            for i, text in enumerate(out)]


def render_block(
    records: Sequence[Record],
    events: Sequence[Event],
    *,
    states: Sequence[DomainState] = (),
    max_tokens: int | None = None,
    encoding: str | None = None,
    groups: Mapping[str, ValueGroup] | None = None,
    explain: bool = False,
) -> str:
    """Return the carried-forward block, the lines of ``states`` (attached schemas)
    first; with ``max_tokens``, fit it by leaving out the least salient lines. With
    ``explain``, each line is followed by its salience and why (for people, not models)."""
    head = [line for state in states for line in schema_lines(state)]
    quoted = {(turn, value.text) for state in states
              for _, value in state.filled_fields() for turn in (value.turn, *value.turns)}
    lines = [*head, *build_lines(records, events, groups, quoted)]
    kept = _fit(lines, max_tokens, encoding) if max_tokens is not None else lines
    left_out = len(lines) - len(kept)
    body = [ln.text + (_explained(ln) if explain else "") for ln in kept]
    if not lines:
        body = [EMPTY]
    if left_out:
        body.append(_left_out_note(left_out, max_tokens))
    return "\n".join([HEADER, *body, FOOTER]) + "\n"


def _explained(line: Line) -> str:
    tag = "protected, " if line.protected else ""
    return f"\n    ^ salience {line.salience:g} ({tag}{line.why})"


def _left_out_note(count: int, max_tokens: int | None) -> str:
    return f"({count} less salient line{'s' if count > 1 else ''} left out to fit " \
           f"{max_tokens} tokens)"


def _fit(lines: list[Line], max_tokens: int, encoding: str | None) -> list[Line]:
    """The lines that fit ``max_tokens`` (with the header, the footer and a note saying
    how many went): unprotected ones go first, by ascending salience, the oldest first
    among equals; then protected ones the same way. Each line is counted once."""
    frame = tokens.count(f"{HEADER}\n{FOOTER}\n", encoding)
    cost = [tokens.count(ln.text + "\n", encoding) for ln in lines]
    total = frame + sum(cost)
    if total <= max_tokens:
        return lines
    note = tokens.count(_left_out_note(len(lines), max_tokens) + "\n", encoding)
    order = sorted(range(len(lines)), key=lambda i: (lines[i].protected, lines[i].salience,
                                                     lines[i].turn, i))
    dropped: set[int] = set()
    for i in order:
        if total + note <= max_tokens:
            break
        dropped.add(i)
        total -= cost[i]
    kept = [ln for i, ln in enumerate(lines) if i not in dropped]
    # the sum of the lines' counts can differ from the joined block's by a token a line
    while kept and tokens.count("\n".join([HEADER, *(ln.text for ln in kept),
                                           _left_out_note(len(lines), max_tokens), FOOTER])
                                + "\n", encoding) > max_tokens:
        worst = min(range(len(kept)), key=lambda j: (kept[j].protected, kept[j].salience,
                                                     kept[j].turn, j))
        kept.pop(worst)
    return kept
