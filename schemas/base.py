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

import functools
import json
import warnings
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar, Literal

import regex
from pydantic import BaseModel, ConfigDict, Field

from extractors.records import SUBTYPES, VALUE_KINDS, Kind, Record
from extractors.text.guard import Guarded, rx
from extractors.text.lexicon import word_stems

_NAME = rx(r"[a-z][a-z0-9_]*")
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
    #: The turn ``text`` is quoted from.
    turn: int
    #: The record ids behind the value (the quoted one first, then others saying the same).
    records: list[str]
    #: Every turn the value appears or changed status in, ascending.
    turns: list[int]
    #: Why this value fills the field: the binding it matched, the pick among the
    #: candidates, and the record (extractor and rule) it is quoted from.
    why: str = ""


class Binding(BaseModel):
    """Which records fill a field, and what to do with several."""

    model_config = ConfigDict(frozen=True)

    kinds: tuple[str, ...]
    subtypes: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    #: Records whose label holds all the words of one of these are skipped ("pull
    #: request" keeps a PR number out of a ticket field).
    not_labels: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    statuses: tuple[str, ...] = HOLDING
    #: A regex the record's text must match somewhere (case-insensitive), e.g. what
    #: makes a command a test command.
    pattern: str | None = None
    #: A regex (case-insensitive): among the matching records, those whose text matches
    #: it are picked before the others (a follow-up that names its time).
    prefer: str | None = None
    pick: Literal["latest", "first", "all"] = "latest"
    required: bool = False
    missing: str = "not given yet"

    def missing_line(self, field: str) -> str:
        """What the state's ``missing`` list says of ``field`` while it is empty."""
        return f"{field.replace('_', ' ')}: {self.missing}"

    def matches(self, record: Record) -> bool:
        """True when ``record`` may fill the field."""
        if record.kind not in self.kinds or record.status not in self.statuses:
            return False
        if self.subtypes and record.subtype not in self.subtypes:
            return False
        if self.roles and record.role not in self.roles:
            return False
        if self.pattern and not _compiled(self.pattern).search(record.text):
            return False
        words = _stems(record.label)
        if any(_stems(label) <= words for label in self.not_labels):
            return False
        if self.labels:
            return any(_stems(label) <= words for label in self.labels)
        return True

    def describe(self) -> str:
        """The binding in words (a filled field's ``why``)."""
        parts = ["/".join(self.kinds)]
        if self.subtypes:
            parts.append("subtype " + "/".join(self.subtypes))
        if self.labels:
            parts.append("label " + "/".join(repr(label) for label in self.labels))
        if self.roles:
            parts.append("said by " + "/".join(self.roles))
        if self.pattern:
            parts.append("matching the field's pattern")
        return ", ".join(parts)


def _tuple(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


@functools.lru_cache(maxsize=4096)
def _stems(label: str | None) -> frozenset[str]:
    return frozenset(word_stems(label))


@functools.cache
def _compiled(pattern: str) -> Guarded:
    return rx(pattern, regex.IGNORECASE, lazy=False)


def _check_subtypes(kinds: tuple[str, ...], subtypes: tuple[str, ...]) -> None:
    """A subtype that none of ``kinds`` can have is a typo: say so when the schema is
    declared, not by a field that never fills."""
    unknown = [k for k in kinds if k not in {kind.value for kind in Kind}]
    if unknown:
        raise ValueError(f"pin kind {unknown[0]!r} is not one of "
                         f"{', '.join(kind.value for kind in Kind)}")
    if not subtypes or any(k not in SUBTYPES for k in kinds):
        return
    valid = frozenset().union(*(SUBTYPES[k] for k in kinds))
    for subtype in subtypes:
        if subtype not in valid:
            raise ValueError(f"pin subtype {subtype!r} is not a subtype of {', '.join(kinds)}; "
                             f"valid: {', '.join(sorted(valid))}")


def _noted(kinds: tuple[str, ...], subtypes: tuple[str, ...]) -> tuple[str, ...]:
    """Session facts and claims were commitments before they were notes: a schema that
    still pins ``"commitment"`` with only note subtypes ("requested", "tried", "found",
    "planned", "claimed") reads the notes, with a warning to say so."""
    notes = SUBTYPES[Kind.NOTE]
    if Kind.COMMITMENT.value in kinds and subtypes and all(s in notes for s in subtypes):
        warnings.warn(f"pin('commitment', subtype={subtypes[0]!r}): that subtype is a note "
                      f"now; pin('note', ...) instead", DeprecationWarning, stacklevel=3)
        return tuple(dict.fromkeys(Kind.NOTE.value if k == Kind.COMMITMENT.value else k
                                   for k in kinds))
    return kinds


def pin(kind: str | Iterable[str], *, subtype: str | Iterable[str] | None = None,
        label: str | Iterable[str] | None = None, not_label: str | Iterable[str] | None = None,
        role: str | Iterable[str] | None = None,
        status: str | Iterable[str] | None = None, pattern: str | None = None,
        prefer: str | None = None,
        pick: Literal["latest", "first", "all"] = "latest", required: bool = False,
        missing: str = "not given yet", description: str | None = None) -> Any:
    """Declare a field filled from pins (see the module docstring). ``label`` entries
    match a record whose label holds all their words ("purchase price"), ``not_label``
    entries skip such records; ``pattern`` is
    a regex the record's text must contain; ``prefer``, a regex whose matching records
    are picked before the others; ``missing`` is what the missing-fields list
    says while a required field is empty."""
    for name, regex_text in (("pattern", pattern), ("prefer", prefer)):
        if regex_text is None:
            continue
        try:
            _compiled(regex_text)
        except regex.error as exc:
            raise ValueError(f"pin {name} {regex_text!r} is not a valid regex: {exc}") from None
    kinds = _noted(_tuple(kind), _tuple(subtype))
    _check_subtypes(kinds, _tuple(subtype))
    binding = Binding(kinds=kinds, subtypes=_tuple(subtype), labels=_tuple(label),
                      not_labels=_tuple(not_label), roles=_tuple(role),
                      statuses=_tuple(status) or HOLDING, pattern=pattern, prefer=prefer,
                      pick=pick, required=required, missing=missing)
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
    def schema_key(cls) -> str:
        """The schema's name: ``schema_name``, else the class name in snake case."""
        if cls.schema_name:
            return cls.schema_name
        return "".join(f"_{c.lower()}" if c.isupper() else c for c in cls.__name__).lstrip("_")

    @classmethod
    def table_name(cls) -> str:
        """The SQLite table that keeps this schema's state, one row per thread."""
        name = cls.schema_key()
        if not _NAME.fullmatch(name):
            raise ValueError(f"schema_name {name!r} must be lowercase letters, digits and _")
        return f"state_{name}"

    def state_row(self, thread: str, last_turn: int) -> dict[str, Any]:
        """This state as one row of :meth:`table_name`: per field its text (a JSON list
        of texts for list fields) and ``<field>_turns``; ``missing`` and the whole
        ``state`` as JSON; ``last_turn``, the turn it was computed at."""
        row: dict[str, Any] = {"thread": thread, "last_turn": last_turn}
        for name in self.bindings():
            value = getattr(self, name)
            if isinstance(value, list):
                row[name] = json.dumps([v.text for v in value], ensure_ascii=False)
                row[f"{name}_turns"] = json.dumps([v.turns for v in value])
            else:
                row[name] = value.text if value is not None else None
                row[f"{name}_turns"] = json.dumps(value.turns) if value is not None else None
        row["missing"] = json.dumps(self.missing, ensure_ascii=False)
        row["state"] = json.dumps(self.model_dump(mode="json"), ensure_ascii=False)
        return row

    def filled_fields(self) -> list[tuple[str, Pinned]]:
        """Every (field, value) the state holds, in declaration order."""
        out = []
        for name in self.bindings():
            value = getattr(self, name)
            out.extend((name, v) for v in (value if isinstance(value, list) else [value])
                       if v is not None)
        return out

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
            hits, others = [], []
            for r in records:
                if binding.matches(r):
                    hits.append(r)
                elif r.kind in VALUE_KINDS and r.kind in binding.kinds \
                        and r.status in binding.statuses:
                    others.append(r)
            # A value's turns are every turn it is mentioned in, whatever the label there.
            mentions = hits + others
            reason = binding.describe()
            if binding.pick == "all":
                values[name] = _distinct(hits, mentions, reason)
            elif hits:
                preferred = [r for r in hits if binding.prefer
                             and _compiled(binding.prefer).search(r.text)]
                pool = preferred or hits
                if all(r.role == "tool" for r in pool):
                    # no person named any: of the numbers a lookup listed, the one the case
                    # turned on (the order a return was then created for), by salience
                    top = max(r.salience for r in pool)
                    pool = [r for r in pool if r.salience == top]
                chosen = pool[-1] if binding.pick == "latest" else pool[0]
                distinct = len(_distinct_records(pool))
                count = f"{len(pool)} record{'s' if len(pool) > 1 else ''}"
                many = (f"the {binding.pick} of {distinct} matching values" if distinct > 1
                        else "the one matching value") + f" ({count})"
                also = f"; {len(pool)} of {len(hits)} records match the preferred pattern" \
                    if preferred and len(preferred) < len(hits) else ""
                values[name] = _pinned(chosen, mentions, f"{reason}; {many}{also}")
            if binding.required and not hits:
                missing.append(binding.missing_line(name))
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
    if a.kind == b.kind == "identifier" and "path" in (a.subtype, b.subtype):
        # "useSearch.ts" is "src/hooks/useSearch.ts" named by its file.
        short, long = sorted((a.text.strip("`'\""), b.text.strip("`'\"")), key=len)
        if short == long or long.endswith(("/" + short, "\\" + short)):
            return True
    return _key(a) == _key(b)


def _source(record: Record) -> str:
    rule = record.attrs.get("rule")
    return f"{record.id} by {record.extractor}" + (f" (rule {rule})" if rule else "")


def _pinned(chosen: Record, hits: list[Record], why: str = "") -> Pinned:
    same = [chosen] + [r for r in hits if r is not chosen and _same(r, chosen)]
    turns = sorted({r.turn for r in same} | {r.status_turn for r in same if r.status_turn})
    # The words a person used ("€1,240") read better than a tool's field ("1240.0").
    shown = chosen if chosen.role != "tool" else next(
        (r for r in same if r.role != "tool"), chosen)
    paths = [r for r in same if r.subtype == "path"]
    if paths:  # the full path as the project names it, not the file's bare name or the
        # machine's absolute path ("tests/Unit/X.php", not "/home/dev/app/tests/Unit/X.php")
        shown = max(paths, key=lambda r: (not r.text.startswith(("/", "~")), len(r.text),
                                          r.role != "tool"))
    return Pinned(text=shown.text, turn=shown.turn, value=shown.value, kind=shown.kind,
                  subtype=shown.subtype, status=shown.status, label=shown.label,
                  records=[shown.id] + [r.id for r in same if r is not shown], turns=turns,
                  why=f"{why}; quoted from {_source(shown)}" if why else "")


def _distinct_records(hits: list[Record]) -> list[Record]:
    """The first record of each distinct value, in the order values first appeared."""
    seen: list[Record] = []
    for r in hits:
        if not any(_same(r, s) for s in seen):
            seen.append(r)
    return seen


def _distinct(hits: list[Record], mentions: list[Record], why: str = "") -> list[Pinned]:
    """One :class:`Pinned` per distinct value, in the order values first appeared."""
    return [_pinned(r, mentions, f"{why}; every distinct matching value" if why else "")
            for r in _distinct_records(hits)]
