"""Typed records: what Scratchpad pins, with provenance and a lifecycle.

A record is one verbatim span of one turn (``text == content[start:end]``) plus what
it means: its kind, subtype, label, normalized value and current status. Status
changes are :class:`Event` rows; the record keeps only its latest state.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Role = Literal["user", "assistant", "tool"]


class Kind(StrEnum):
    """The six kinds of pinned facts."""

    AMOUNT = "amount"
    IDENTIFIER = "identifier"
    DATETIME = "datetime"
    COMMITMENT = "commitment"
    CONSTRAINT = "constraint"
    QUESTION = "question"


VALUE_KINDS = frozenset({Kind.AMOUNT, Kind.IDENTIFIER, Kind.DATETIME})


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


class OpenItem(Record):
    """An open or deferred question with its age, for dashboards: turns since it was
    asked (to the thread's last turn) and, when both turns carry a timestamp, seconds."""

    age_turns: int
    age_seconds: float | None = None


class MissingField(BaseModel):
    """A required field of a schema attached to a thread that no pin fills yet: an open
    item too ("refund amount: not yet agreed"). Not a record: it has no span."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["missing"] = "missing"
    thread: str
    schema_name: str
    field: str
    #: What the state's ``missing`` list says, e.g. "refund amount: not yet agreed".
    text: str
    status: Literal["open"] = "open"
    #: Turns the thread has had without it.
    age_turns: int

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form ``scratchpad open --json`` prints."""
        return self.model_dump(mode="json")


class Event(BaseModel):
    """A status (or subtype) change of a record, with the turn and span that caused it."""

    model_config = ConfigDict(frozen=True)

    thread: str
    record_id: str
    turn: int
    field: Literal["status", "subtype"]
    old: str | None
    new: str
    evidence_start: int | None = None
    evidence_end: int | None = None
    evidence_text: str | None = None
    by_role: Role | None = None
    note: str = ""


def record_id(kind: Kind | str, turn: int, start: int, end: int) -> str:
    """Return the deterministic id of a record: unique within its thread."""
    kind_value = kind.value if isinstance(kind, Kind) else kind
    return f"{kind_value}:{turn}:{start}-{end}"
