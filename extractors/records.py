"""The pin vocabulary: what Scratchpad pins, with provenance and a lifecycle.

A record is one verbatim span of one turn (``text == content[start:end]``) plus what
it means: its kind, subtype, label, normalized value and current status. Status
changes are :class:`scratchpad.records.Event` rows; the record keeps only its latest
state. Extractors and resolvers produce and read these types, so they live at the bottom
of the layers; :mod:`scratchpad.records` is their public face.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Role = Literal["user", "assistant", "tool"]


class Kind(StrEnum):
    """The kinds of pinned facts: the design brief's six, and ``note``, what the
    conversation established that binds no one (an extension of the record contract)."""

    AMOUNT = "amount"
    IDENTIFIER = "identifier"
    DATETIME = "datetime"
    COMMITMENT = "commitment"
    CONSTRAINT = "constraint"
    QUESTION = "question"
    NOTE = "note"


VALUE_KINDS = frozenset({Kind.AMOUNT, Kind.IDENTIFIER, Kind.DATETIME})


class AmountSubtype(StrEnum):
    """What an amount is."""

    MONEY = "money"
    PERCENT = "percent"
    RANGE = "range"  # "€40-60"
    QUANTITY = "quantity"  # a measure or count a case turns on: "77G", "368 batches"


class DatetimeSubtype(StrEnum):
    """What a date/time span is."""

    DATE = "date"
    TIME = "time"
    DATETIME = "datetime"  # a date with its time
    RANGE = "range"
    DURATION = "duration"
    RELATIVE = "relative"  # "tomorrow", "next week"
    DEADLINE = "deadline"  # "by Friday", "within 5 days"


class CommitmentSubtype(StrEnum):
    """A commitment's state (see the label guide)."""

    OFFERED = "offered"
    AGREED = "agreed"
    GRANTED = "granted"
    PROMISED = "promised"
    DECLINED = "declined"
    REVOKED = "revoked"


class NoteSubtype(StrEnum):
    """What a note holds: facts of the session that bind no one, so they are no
    commitments in the label guide's sense, but a reader after a compaction needs them
    (the task, what failed, the cause) or must not mistake them (a user's claim)."""

    REQUESTED = "requested"  # the opening request of a session
    TRIED = "tried"  # an attempt that failed
    FOUND = "found"  # a stated cause
    PLANNED = "planned"  # an announced plan (kept, not rendered)
    CLAIMED = "claimed"  # a user's claim about what the agent said
    REPORTED = "reported"  # a grant that only reports an earlier commitment kept


class ConstraintSubtype(StrEnum):
    """What a user constraint asks."""

    REQUIREMENT = "requirement"
    PROHIBITION = "prohibition"
    PREFERENCE = "preference"


class QuestionSubtype(StrEnum):
    """What a question expects."""

    YESNO = "yesno"
    CHOICE = "choice"
    WH = "wh"
    REQUEST = "request"  # a request for information without "?"
    SUGGESTION = "suggestion"  # "What about the 7:30 one?"


#: The subtypes each kind can have, where the set is closed (identifier subtypes come
#: from patterns, users' included, so any is accepted).
SUBTYPES: dict[str, frozenset[str]] = {
    Kind.AMOUNT: frozenset(AmountSubtype), Kind.DATETIME: frozenset(DatetimeSubtype),
    Kind.COMMITMENT: frozenset(CommitmentSubtype), Kind.CONSTRAINT: frozenset(ConstraintSubtype),
    Kind.QUESTION: frozenset(QuestionSubtype), Kind.NOTE: frozenset(NoteSubtype),
}


def kind_after(kind: str, subtype: str) -> str:
    """The kind of a record of ``kind`` re-read as ``subtype``: a commitment re-read as a
    session fact (a plan that failed is ``tried``) becomes a note."""
    if kind == Kind.COMMITMENT and subtype in SUBTYPES[Kind.NOTE]:
        return Kind.NOTE.value
    return kind


class Status(StrEnum):
    """Lifecycle states. Values, commitments and constraints start ``active``;
    questions start ``open``."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    REVOKED = "revoked"
    FULFILLED = "fulfilled"
    SATISFIED = "satisfied"  # a constraint a later turn met
    OPEN = "open"
    DEFERRED = "deferred"
    ANSWERED = "answered"
    WITHDRAWN = "withdrawn"


#: Statuses under which an item still needs attention.
OPEN_STATUSES = frozenset({Status.OPEN, Status.DEFERRED})
#: Statuses under which a record is carried forward.
LIVE_STATUSES = frozenset({Status.ACTIVE, Status.OPEN, Status.DEFERRED, Status.SATISFIED})


class Money(BaseModel):
    """A normalized amount of money: ``Decimal`` plus an ISO 4217 code, never float."""

    model_config = ConfigDict(frozen=True)

    amount: Decimal
    currency: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")

    def as_value(self) -> dict[str, str | None]:
        """Return the JSON form used in ``Record.value`` (Decimal as a string)."""
        return {"amount": format(self.amount, "f"), "currency": self.currency}


class Record(BaseModel):
    """One pinned fact; its JSON form is the record contract of the design brief."""

    model_config = ConfigDict(frozen=True, use_enum_values=True)

    id: str
    thread: str
    kind: Kind
    subtype: str
    text: str
    turn: int = Field(ge=1)
    role: Role
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    label: str | None = None
    value: dict[str, Any] | None = None
    status: Status
    status_turn: int | None = None
    extractor: str
    confidence: float = Field(ge=0, le=1)
    #: Kind-specific details (a question's expected answer, a commitment's actor and
    #: linked records, a deferral quote). An extension of the record contract.
    attrs: dict[str, Any] = Field(default_factory=dict)
    #: How much it matters, from what the conversation shows of it (see
    #: :mod:`scratchpad.salience`); filled when records are read from a store.
    salience: float = Field(default=0.0, ge=0)

    @field_validator("end")
    @classmethod
    def _end_after_start(cls, end: int, info: Any) -> int:
        start = info.data.get("start", 0)
        if end < start:
            raise ValueError(f"end {end} is before start {start}")
        return end

    @property
    def money(self) -> Money | None:
        """The normalized amount as :class:`Money`, when this is a money amount."""
        if self.kind != Kind.AMOUNT.value or not self.value or "amount" not in self.value:
            return None
        if self.value.get("amount") is None:
            return None
        return Money(amount=Decimal(self.value["amount"]), currency=self.value.get("currency"))

    def to_json(self) -> dict[str, Any]:
        """Return the record JSON (the ``--json`` form)."""
        return self.model_dump(mode="json")


def record_id(kind: Kind | str, turn: int, start: int, end: int) -> str:
    """Return the deterministic id of a record: unique within its thread."""
    kind_value = kind.value if isinstance(kind, Kind) else kind
    return f"{kind_value}:{turn}:{start}-{end}"
