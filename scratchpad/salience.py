"""Salience: how much a pinned fact matters, from what the conversation shows of it.

Every record has a deterministic ``salience`` (a number; higher matters more) that decides
whether a value gets a line of its own in the block or is folded into a count, and what
goes first when the block must fit a budget.

**Values** (amounts, identifiers, dates/times) are scored per *value* -- every mention of
"A-77215" shares one score, kept in the store's ``value_groups`` table and updated as
mentions arrive (work per turn: the values of that turn):

==========================================  =======
evidence                                    points
==========================================  =======
it is in the conversation at all            0.25
the user stated it, or confirmed it when    1.5
the assistant read it back ("is it
j.hallberg@northwind-group.com?" "Yes")
the assistant stated it first, in a reply   1.25
the assistant repeated it after a tool      0.5
showed it, or named it while calling tools
it was acted on: in an action tool's call   1.0
or result (not a ``get_``/``search_``
lookup), or a file the agent edited
each further user or assistant turn that    0.25
mentions it (at most four), unless it only
echoes a tool or is a date the agent named
==========================================  =======

Durations and relative days ("for two weeks", "next week", "Saturday") mean little once
the talk has moved on: for them only being acted on counts. A date or time the agent
states counts as an echo (0.5): the slots it offers and the dates it reads out matter
when the user picks or states one, or a tool books it. A date/time is acted on when
its resolved value (``value["iso"]``) is what an action tool was called with or returned,
however it was phrased.

Who said it first matters because an agent's reply echoes what its tools returned: an
amount read off an order lookup and repeated is an echo (user > agent > echoed tool
output), and so is a file the agent names while calling a tool on it ("Let me open
src/app.py"). So a path a tool merely listed scores 0.25, one an edit tool wrote 1.25, one
the agent read and then says it edited 1.75, an environment variable the agent named in a
reply 1.5, an order number the user gave and the agent repeated twice 2.75, a collection
slot the booking tool returned and the agent confirmed 1.75. **Clauses** (commitments,
constraints, questions) score by what they are and where they stand:
:data:`CLAUSE_SALIENCE`. Recency is not part of the score (it would change every
record every turn); the block uses it only to break ties.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation

from extractors.text.guard import rx
from extractors.values.id_labels import SUBTYPES
from scratchpad.records import (
    CommitmentSubtype,
    DatetimeSubtype,
    Kind,
    NoteSubtype,
    Record,
    Status,
)

#: Points of evidence (see the module docstring).
PRESENT = 0.25
BY_USER = 1.5
BY_ASSISTANT = 1.25
ECHO = 0.5
ACTED = 1.0
PER_MENTION = 0.25
MAX_MENTIONS = 4
#: A value scoring less gets no line of its own in the block: it is counted on one line
#: with the others of its shape. The user stating it, the assistant stating it first, the
#: assistant repeating what was acted on, or coming back to it in four turns earns a
#: line; tool output alone
#: does not, acted on or not (a session that edits 300 files through a tool would fill
#: the block with them).
SHOW_FROM = 1.5

#: A live commitment, an active constraint, an open question: what a block never drops
#: while anything below remains.
PROTECTED = 3.0
#: Identifier subtypes that name the case itself: an account, an order, a booking, a
#: claim ... (see :func:`case_reference`).
CASE_REFERENCES = SUBTYPES | {"reference"}
#: Salience of clause records by kind, then subtype or status.
CLAUSE_SALIENCE: dict[str, dict[str, float]] = {
    # user > agent here too: a question still waiting for the user, a rule the user set
    # and a deal the user accepted outlast what the agent alone said it did or will do
    Kind.QUESTION: {Status.OPEN: PROTECTED + 0.5, Status.DEFERRED: PROTECTED + 0.5},
    Kind.CONSTRAINT: {Status.ACTIVE: PROTECTED + 0.5, Status.SATISFIED: 2.0},
    Kind.COMMITMENT: {
        CommitmentSubtype.AGREED: PROTECTED + 0.5, CommitmentSubtype.GRANTED: PROTECTED,
        CommitmentSubtype.PROMISED: PROTECTED, CommitmentSubtype.OFFERED: 2.0,
        CommitmentSubtype.DECLINED: 1.5, CommitmentSubtype.REVOKED: 1.0,
    },
    Kind.NOTE: {
        NoteSubtype.REQUESTED: 2.5, NoteSubtype.FOUND: 2.0, NoteSubtype.TRIED: 1.5,
        NoteSubtype.CLAIMED: 1.5, NoteSubtype.REPORTED: 0.5,
    },
}
#: Statuses after which a clause no longer needs carrying (answered, superseded, ...).
_SETTLED = 0.5
#: A commitment carried out within the conversation: worth a line (it happened), no
#: longer live, so not protected under a cap (as a satisfied constraint).
FULFILLED = 2.0


@dataclass(frozen=True)
class ValueGroup:
    """What the thread has shown of one value so far."""

    thread: str
    key: str
    prose_turns: int = 0  # distinct user/assistant turns that mention it
    last_prose_turn: int = 0
    by_user: bool = False
    by_assistant: bool = False
    acted: str | None = None  # how it was acted on: a tool's name, or "edited"
    echoed: bool = False  # first seen in tool output or in the agent's narration of a call
    weak: bool = False  # a duration or a relative day: only being acted on counts
    confirmed: bool = False  # the assistant read it back and the user said yes

    @property
    def salience(self) -> float:
        """The value's score (see the module docstring)."""
        score = PRESENT + (ACTED if self.acted else 0.0)
        if not self.weak:
            score += BY_USER if self.by_user or self.confirmed else 0.0
            echo = self.echoed or self.is_time
            if self.by_assistant:
                score += ECHO if echo else BY_ASSISTANT
            # not an agent reading a tool's figure out again
            if self.by_user or self.confirmed or not echo:
                score += PER_MENTION * min(max(self.prose_turns - 1, 0), MAX_MENTIONS)
        return round(score, 2)

    @property
    def is_time(self) -> bool:
        """A date/time: the agent naming one (a slot it offers, a date it read out) earns
        no line; the user stating it or acting on it does."""
        return self.key.startswith((f"{Kind.DATETIME.value}|", "when|"))

    def why(self) -> str:
        """The evidence behind the score, in words (``render --explain``)."""
        said = [who for who, flag in (("the user", self.by_user),
                                      ("the assistant", self.by_assistant)) if flag]
        parts = [f"stated by {' and '.join(said)}" if said else "only in tool output"]
        if self.confirmed:
            parts.append("the user confirmed it when the assistant read it back")
        if self.echoed and self.by_assistant:
            parts.append("the assistant's words echo a tool")
        if self.acted:
            parts.append(f"acted on ({self.acted})")
        if self.prose_turns > 1:
            parts.append(f"in {self.prose_turns} turns")
        if self.weak:
            parts.append("a duration or relative day: only acting on it counts")
        return "; ".join(parts)


def value_key(record: Record) -> str:
    """What makes two mentions one value: the identifier's normal form, the amount's
    value, a date/time's own words (two phrasings of one day say different things:
    "Thursday 14:00-18:00" offered, "Thursday 3 December, 14:00-18:00" booked)."""
    value = record.value or {}
    if record.kind == Kind.DATETIME.value:
        return f"{record.kind}|{' '.join(record.text.split()).casefold()}"
    for key in ("normalized", "e164"):
        if isinstance(value.get(key), str):
            return f"{record.kind}|{value[key]}"
    if record.kind == Kind.AMOUNT.value and value.get("amount") is not None:
        return f"{record.kind}|{value.get('currency')}|{_number(value['amount'])}"
    return f"{record.kind}|{' '.join(record.text.split()).casefold()}"


def _number(amount: object) -> str:
    """One spelling per number: "1240.0" and "1240" are one amount."""
    try:
        number = Decimal(str(amount))
    except InvalidOperation:
        return str(amount)
    if not number.is_finite():
        return str(amount)
    return f"{number.normalize():f}"


#: Date/time subtypes that name no point in time.
WEAK_DATETIMES = frozenset({DatetimeSubtype.DURATION, DatetimeSubtype.RELATIVE})


_ISO_DAY = rx(r"(?:\d{4}-)?(\d{2})-(\d{2})(T\d{2}:\d{2})?(?:/(?:\d{4}-\d{2}-\d{2}T)?"
              r"(\d{2}:\d{2}))?", linear=True)


def identity_key(record: Record) -> str | None:
    """The calendar day (and times) behind a date/time's words, without the year, when
    it names one: how a tool's "2026-12-03T14:00/18:00" and "Thursday 3 December,
    14:00-18:00" (no year, no reference date) are known to be one slot. Other values'
    keys are their normal forms already."""
    if record.kind != Kind.DATETIME.value:
        return None
    iso = (record.value or {}).get("iso")
    if isinstance(iso, str):
        m = _ISO_DAY.fullmatch(iso)
        if m is None:
            return None
        month, day, time, end = m.groups()
        return f"when|--{month}-{day}{time or ''}{'/' + end if end else ''}"
    attrs = record.attrs
    if isinstance(attrs.get("month"), int) and isinstance(attrs.get("day"), int):
        time = f"T{attrs['time']}" if isinstance(attrs.get("time"), str) else ""
        end = f"/{attrs['end_time']}" if time and isinstance(attrs.get("end_time"), str) else ""
        return f"when|--{attrs['month']:02d}-{attrs['day']:02d}{time}{end}"
    return None


def case_reference(record: Record) -> bool:
    """An identifier the user gave with a noun saying what it names ("mortgage account
    7730-2214", "my order number is A-77215"): every later act on the case needs it quoted,
    so under a token cap its line is kept like a live commitment's, whatever its score."""
    return (record.kind == Kind.IDENTIFIER.value and record.role == "user"
            and record.label is not None and record.subtype in CASE_REFERENCES)


def is_value(record: Record) -> bool:
    """Amounts, identifiers and dates/times are scored per value; the rest per clause."""
    return record.kind in (Kind.AMOUNT.value, Kind.IDENTIFIER.value, Kind.DATETIME.value)


def clause_salience(record: Record) -> float:
    """The score of a commitment, constraint or question, by what it is now."""
    by_kind = CLAUSE_SALIENCE.get(record.kind, {})
    if record.kind in (Kind.COMMITMENT.value, Kind.NOTE.value):
        if record.status == Status.REVOKED.value:
            return CLAUSE_SALIENCE[Kind.COMMITMENT][CommitmentSubtype.REVOKED]
        if record.status == Status.SUPERSEDED.value:
            return _SETTLED
        score = by_kind.get(record.subtype, 1.0)
        return min(score, FULFILLED) if record.status == Status.FULFILLED.value else score
    return by_kind.get(record.status, _SETTLED)


def mentioned(group: ValueGroup, record: Record, acted: str | None = None,
              narrating: bool = False) -> ValueGroup:
    """``group`` after ``record`` (a mention of its value) arrived, ``acted`` saying how
    its turn acted on it, ``narrating`` that its turn is the agent calling tools."""
    updated = group
    if group.prose_turns == 0 and not group.by_user and not group.by_assistant \
            and (record.role == "tool" or narrating):
        updated = replace(updated, echoed=True)  # a tool showed it before anyone said it
    if record.role in ("user", "assistant") and record.turn != group.last_prose_turn:
        updated = replace(updated, prose_turns=updated.prose_turns + 1,
                          last_prose_turn=record.turn)
    if record.role == "user":
        updated = replace(updated, by_user=True)
    elif record.role == "assistant":
        updated = replace(updated, by_assistant=True)
    if record.label == "edited":
        acted = acted or "edited"
    if acted and not updated.acted:
        updated = replace(updated, acted=acted)
    if record.kind == Kind.DATETIME.value and record.subtype in WEAK_DATETIMES:
        updated = replace(updated, weak=True)
    return updated


def updated_groups(thread: str, known: dict[str, ValueGroup], values: list[Record],
                   acted_keys: set[str], tool: str | None,
                   narrating: bool = False,
                   echoes: Mapping[str, str | None] | None = None,
                   confirmed: Iterable[Record] = ()) -> list[ValueGroup]:
    """The value groups one turn changes: its value records are new mentions (acted on by
    ``tool`` when the turn is the result of an action tool; ``narrating`` when the turn is
    the agent calling tools; ``echoes``: ids of records that repeat recent tool output,
    each with the action tool whose result they repeat, if any),
    and ``acted_keys`` are the values an action tool's call named; ``confirmed``: values of
    an earlier turn that the user confirmed in this one. ``known``: those groups as
    stored."""
    out: dict[str, ValueGroup] = {}

    def group(key: str) -> ValueGroup:
        return out.get(key) or known.get(key) or ValueGroup(thread=thread, key=key)

    echoes = echoes or {}

    def act_on_day(slot: str, acted: str | None) -> None:
        """A slot acted on was its day too: "Wednesday 12 June at 8:30", a clock time
        that names no half of the day, is one day that an action tool booked at 08:30."""
        day = slot.split("T", 1)[0]
        if acted and day != slot and slot.startswith("when|"):
            out[day] = replace(group(day), acted=group(day).acted or acted)

    for record in values:
        key, same = value_key(record), identity_key(record)
        acted = tool or echoes.get(record.id)
        if same is not None:  # the slot behind the words: acted on in any phrasing
            out[same] = mentioned(group(same), record, acted=acted,
                                  narrating=narrating or record.id in echoes)
            act_on_day(same, acted)
        # a tool showed the same day or slot in other words ("2026-10-08", "8 October")
        echo = narrating or record.id in echoes or bool(same and group(same).echoed)
        out[key] = mentioned(group(key), record, acted=acted or (group(same).acted
                                                                   if same else None),
                             narrating=echo)
    for key in sorted(acted_keys):
        out[key] = replace(group(key), acted=group(key).acted or tool)
        act_on_day(key, tool)
    for record in confirmed:
        for key in (value_key(record), identity_key(record)):
            if key is not None:
                out[key] = replace(group(key), confirmed=True)
    return [g for key, g in sorted(out.items()) if g != known.get(key)]


#: How much recent tool output an agent's reply is compared with (the newest is kept).
ECHO_CHARS = 64_000


class RecentToolOutput:
    """The latest tool output (at most :data:`ECHO_CHARS`): a value an agent's reply
    repeats from it is an echo of a tool, not the agent's own statement ("the last scan
    was at depot D17" after a tracking call returned ``"depot": "D17"``). An echo of what
    an action tool returned as data was acted on, as that tool's own records of it are
    ("the release commit c7a19e3 is created" after ``git commit`` printed it), even
    where the tool's words alone did not say what the value was."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self._parts: deque[tuple[str, str | None]] = deque()
        self._size = 0
        for text in texts:
            self._add(text, None)

    def _add(self, text: str, acted_by: str | None) -> None:
        text = text[-ECHO_CHARS:].casefold()
        self._parts.append((text, acted_by))
        self._size += len(text)
        while self._size > ECHO_CHARS:
            self._size -= len(self._parts.popleft()[0])

    def see(self, role: str, text: str, acted_by: str | None = None) -> None:
        """Take in one turn (only tool results are kept); ``acted_by``: the action tool
        whose structured result it is, if any."""
        if role == "tool":
            self._add(text, acted_by)

    def echoes(self, records: Iterable[Record]) -> dict[str, str | None]:
        """The ids of ``records`` whose words the kept tool output holds, each with the
        action tool whose result holds them (the newest), or None."""
        if not self._parts:
            return {}
        blob = "\n".join(text for text, _ in self._parts)
        acting = [(text, tool) for text, tool in reversed(self._parts) if tool]
        out: dict[str, str | None] = {}
        for r in records:
            words = r.text.casefold()
            if words in blob:
                out[r.id] = next((tool for text, tool in acting if words in text), None)
        return out
