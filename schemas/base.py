"""Declare domain state as a pydantic model whose fields are bound to pins.

A field declared with :func:`pin` says which records fill it: their kind, subtype, label
words, role and status, and which to take when several match (the latest, the first,
or all of them). :meth:`DomainState.fill` reads a thread's records and returns the model
with each field a :class:`Pinned` value (verbatim text, normalized value, status, and
the records and turns it came from), and ``missing`` naming the required fields no
record fills yet::

    class Refund(DomainState):
        schema_name = "refund"
        order_id: Pinned | None = pin("identifier", subtype="order", label="order",
                                      required=True)
        refund_amount: Pinned | None = pin("commitment", subtype="agreed", label="refund",
                                           required=True, missing="not yet agreed")
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from extractors.overlap import word_stems
from scratchpad.records import Record

#: Statuses a field reads by default: what still holds (not superseded or revoked).
HOLDING = ("active", "fulfilled", "satisfied", "open", "deferred")


class Pinned(BaseModel):
    """A field's value as the pins give it, with where it came from."""

    model_config = ConfigDict(frozen=True)

    text: str
    value: dict[str, Any] | None = None
    kind: str
    subtype: str
    status: str
    label: str | None = None
    #: The record ids behind the value (the chosen one first, then others saying the same).
    records: list[str]
    #: Every turn the value appears or changed status in, ascending.
    turns: list[int]


class Binding(BaseModel):
    """Which records fill a field, and what to do with several."""

    model_config = ConfigDict(frozen=True)

    kinds: tuple[str, ...]
    subtypes: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    statuses: tuple[str, ...] = HOLDING
    pick: Literal["latest", "first", "all"] = "latest"
    required: bool = False
    missing: str = "not given yet"

    def matches(self, record: Record) -> bool:
        """True when ``record`` may fill the field."""
        if record.kind not in self.kinds or record.status not in self.statuses:
            return False
        if self.subtypes and record.subtype not in self.subtypes:
            return False
        if self.roles and record.role not in self.roles:
            return False
        if self.labels:
            words = word_stems(record.label)
            return any(word_stems(label) <= words for label in self.labels)
        return True


def _tuple(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def pin(kind: str | Iterable[str], *, subtype: str | Iterable[str] | None = None,
        label: str | Iterable[str] | None = None, role: str | Iterable[str] | None = None,
        status: str | Iterable[str] | None = None,
        pick: Literal["latest", "first", "all"] = "latest", required: bool = False,
        missing: str = "not given yet", description: str | None = None) -> Any:
    """Declare a field filled from pins (see the module docstring). ``label`` entries
    match a record whose label holds all their words ("purchase price"); ``missing`` is
    what the missing-fields list says while a required field is empty."""
    binding = Binding(kinds=_tuple(kind), subtypes=_tuple(subtype), labels=_tuple(label),
                      roles=_tuple(role), statuses=_tuple(status) or HOLDING, pick=pick,
                      required=required, missing=missing)
    default: Any = [] if pick == "all" else None
    return Field(default=default, description=description,
                 json_schema_extra={"pin": binding.model_dump(mode="json")})


class DomainState(BaseModel):
    """Base class of domain schemas: subclass it, set ``schema_name``, declare fields
    with :func:`pin` typed ``Pinned | None`` (or ``list[Pinned]`` with ``pick="all"``)."""

    model_config = ConfigDict(frozen=True)

    schema_name: ClassVar[str] = ""
    #: The required fields no record fills yet, as "field: what is missing".
    missing: list[str] = Field(default_factory=list)

    @classmethod
    def bindings(cls) -> dict[str, Binding]:
        """Each pinned field's binding, in declaration order."""
        out = {}
        for name, info in cls.model_fields.items():
            extra = info.json_schema_extra
            if isinstance(extra, dict) and "pin" in extra:
                out[name] = Binding.model_validate(extra["pin"])
        return out

    @classmethod
    def fill(cls, records: Iterable[Record]) -> DomainState:
        """Return the state ``records`` (one thread's, in turn order) give."""
        records = list(records)
        values: dict[str, Any] = {}
        missing = []
        for name, binding in cls.bindings().items():
            hits = [r for r in records if binding.matches(r)]
            if binding.pick == "all":
                values[name] = _distinct(hits)
            elif hits:
                chosen = hits[-1] if binding.pick == "latest" else hits[0]
                values[name] = _pinned(chosen, hits)
            if binding.required and not hits:
                missing.append(f"{name.replace('_', ' ')}: {binding.missing}")
        return cls(**values, missing=missing)


def _key(record: Record) -> Any:
    """What makes two records say the same: the normalized value (an amount as a
    number, "1240.0" and "1240" alike), else the text."""
    value = record.value or {}
    if "amount" in value:
        try:
            return ("amount", Decimal(str(value["amount"])), value.get("currency"))
        except InvalidOperation:
            pass
    if value:
        return tuple(sorted((k, str(v)) for k, v in value.items()))
    return record.text


def _same(a: Record, b: Record) -> bool:
    return _key(a) == _key(b)


def _pinned(chosen: Record, hits: list[Record]) -> Pinned:
    same = [chosen] + [r for r in hits if r is not chosen and _same(r, chosen)]
    turns = sorted({r.turn for r in same} | {r.status_turn for r in same if r.status_turn})
    return Pinned(text=chosen.text, value=chosen.value, kind=chosen.kind,
                  subtype=chosen.subtype, status=chosen.status, label=chosen.label,
                  records=[r.id for r in same], turns=turns)


def _distinct(hits: list[Record]) -> list[Pinned]:
    """One :class:`Pinned` per distinct value, in the order values first appeared."""
    out: list[Pinned] = []
    seen: list[Record] = []
    for r in hits:
        if any(_same(r, s) for s in seen):
            continue
        seen.append(r)
        out.append(_pinned(r, hits))
    return out
