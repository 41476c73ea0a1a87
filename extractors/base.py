"""The extractor protocol, the candidate it returns, and the registry.

An extractor reads one turn (and, if it declares ``needs_doc``, the shared spaCy
``Doc`` of that turn, which the pipeline computes once) and returns candidates.
Extractors never call ``nlp()`` themselves and never touch the store.

spaCy is the costly part of a turn, so an extractor that reads the Doc may say which
parts of the turn it needs annotated, with a ``needs(turn) -> Needs`` method: the
pipeline then runs the entity recognizer and the parser only over those character
ranges (usually a few sentences), and every other token of the Doc carries no
annotation. Without that method, the whole turn is annotated.

An extractor is a class with a ``name`` (a versioned registry name such as
``amounts.regex.v1``), ``needs_doc`` and ``extract``::

    class RegexAmounts:
        name = "amounts.regex.v1"
        needs_doc = False

        def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
            ...

An extractor may also define ``review(turn, candidates) -> list[Candidate]``: it runs
after every extractor has read the turn, sees all their candidates, and returns those
it keeps (the act model vetoes a rule's constraint it scores as anything but one). Like
``needs``, it is optional and not part of the protocol's members.

It runs once it is in the :class:`extractors.registry.Registry` a
:class:`scratchpad.Scratchpad` is given (shipped ones are listed there).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator

from extractors.records import Kind, Record, Role, Status
from extractors.text.nlp import Needs, Range

__all__ = ["Candidate", "Change", "Extractor", "Needs", "Range", "Resolver", "Reviewer",
           "TurnView"]

if TYPE_CHECKING:
    from spacy.tokens import Doc

log = logging.getLogger(__name__)

class TurnView(BaseModel):
    """What an extractor may read of a turn."""

    model_config = ConfigDict(frozen=True)

    thread: str
    number: int = Field(ge=1)
    role: Role
    text: str
    timestamp: datetime | None = None
    tool_name: str | None = None
    #: For a tool result, the JSON arguments of the call it answers (what was done).
    tool_arguments: str | None = None
    #: Whether this (assistant) message calls tools: its text then narrates the agent's
    #: own work ("Let me look at the file") rather than replying to the user.
    calls_tools: bool = False
    #: For each role, the number of the latest earlier turn of that role that had text
    #: (tool-call-only turns do not count): lets resolvers tell a direct reply from a
    #: later one without reading the transcript.
    previous_by_role: dict[str, int] = Field(default_factory=dict)
    #: The date relative expressions ("tomorrow", "next Thursday") resolve against: the
    #: caller's reference date, else the turn's own timestamp, else None (unresolved).
    reference: datetime | None = None
    #: How this conversation writes all-numeric dates whose day and month could swap
    #: ("03/12/2026"): "dmy" or "mdy"; None leaves them unresolved.
    date_order: Literal["dmy", "mdy"] | None = None
    #: The value spans the pattern extractors found in this turn, sorted: set when the
    #: extractors that read the Doc are asked what they need (``needs``), so that they
    #: can leave alone what is found already. Empty elsewhere.
    found: tuple[tuple[int, int], ...] = ()


class Candidate(BaseModel):
    """A span an extractor proposes to pin. ``text`` is always ``source[start:end]``."""

    model_config = ConfigDict(frozen=True)

    kind: Kind
    subtype: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    score: float = Field(ge=0, le=1)
    extractor: str
    why: str = ""
    label: str | None = None
    value: dict[str, Any] | None = None
    attrs: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _span_matches_text(self) -> Candidate:
        if self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}")
        if len(self.text) != self.end - self.start:
            raise ValueError(
                f"text {self.text!r} has {len(self.text)} characters, span has "
                f"{self.end - self.start}"
            )
        return self

    @classmethod
    def of(cls, source: str, start: int, end: int, **fields: Any) -> Candidate:
        """Build a candidate whose text is sliced from ``source`` (never retyped)."""
        return cls(start=start, end=end, text=source[start:end], **fields)


@runtime_checkable
class Extractor(Protocol):
    """Reads one turn, returns candidates; deterministic and side-effect free.

    An extractor with ``needs_doc`` may also define ``needs(turn) -> Needs`` (see the
    module docstring); it is optional, so it is not part of the protocol's members.
    """

    name: ClassVar[str]
    needs_doc: ClassVar[bool]

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]: ...


@runtime_checkable
class Reviewer(Protocol):
    """An extractor that also reviews a turn's candidates once every extractor has run:
    returns the ones it keeps, in order, never adding or changing one."""

    name: ClassVar[str]

    def review(self, turn: TurnView, candidates: list[Candidate]) -> list[Candidate]: ...


class Change(BaseModel):
    """A lifecycle change a resolver proposes for an existing record.

    ``field`` is ``status`` (e.g. open -> answered) or ``subtype`` (e.g. a commitment
    offered -> agreed). The evidence span is in the turn that caused the change.
    ``attrs`` are merged into the record's attrs (e.g. the deferral quote).
    """

    model_config = ConfigDict(frozen=True)

    record_id: str
    field: Literal["status", "subtype"] = "status"
    new: str
    evidence_start: int | None = None
    evidence_end: int | None = None
    note: str = ""
    attrs: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def status(cls, record: Record, new: Status, turn: TurnView, start: int | None = None,
               end: int | None = None, note: str = "", **attrs: Any) -> Change:
        """Propose a status change of ``record`` with evidence ``turn.text[start:end]``."""
        return cls(record_id=record.id, field="status", new=new.value, evidence_start=start,
                   evidence_end=end, note=note, attrs=attrs)


@runtime_checkable
class Resolver(Protocol):
    """Moves existing records through their lifecycle when a new turn arrives.

    ``live`` holds the thread's records of the resolver's ``kinds`` whose status is in
    :data:`scratchpad.records.LIVE_STATUSES` or is ``fulfilled``, oldest first, including
    the records just created from this turn (``new``). Must be deterministic and
    side-effect free.

    A resolver may also declare ``reads``: kinds whose *new* records it reads without
    changing them (a constraint is met by a commitment of this turn); those come in
    ``new`` too, so it never has to extract them again. And ``after``: the names of
    resolvers whose changes of the same turn it must see (the registry orders them).
    """

    name: ClassVar[str]
    kinds: ClassVar[frozenset[Kind]]

    def resolve(self, turn: TurnView, doc: Doc | None, new: list[Record],
                live: list[Record]) -> list[Change]: ...
