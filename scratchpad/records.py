"""Typed records: what Scratchpad pins, with provenance and a lifecycle.

The pin vocabulary itself (:class:`Record`, :class:`Kind`, :class:`Status`,
:class:`Money`) is defined at the bottom of the layers, in :mod:`extractors.records`,
because extractors and resolvers produce and read it; this module is its public face and
adds what only the core needs: status-change events and open items.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from extractors.records import (
    LIVE_STATUSES,
    OPEN_STATUSES,
    VALUE_KINDS,
    AmountSubtype,
    CommitmentSubtype,
    ConstraintSubtype,
    DatetimeSubtype,
    Kind,
    Money,
    NoteSubtype,
    QuestionSubtype,
    Record,
    Role,
    Status,
    record_id,
)

__all__ = ["LIVE_STATUSES", "OPEN_STATUSES", "VALUE_KINDS", "AmountSubtype", "CommitmentSubtype",
           "ConstraintSubtype", "DatetimeSubtype", "Event", "Kind", "MissingField", "Money",
           "NoteSubtype", "OpenItem", "QuestionSubtype", "Record", "Role", "Status", "record_id"]


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
