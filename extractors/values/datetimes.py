"""Dates, times, ranges, durations and relative dates: atoms, then one span per phrase.

Named, scored patterns find *atoms* (a calendar date, a weekday, "tomorrow", a clock
time, a part of the day, a duration); adjacent atoms joined by light words ("Thursday
3 December, 14:00") or range words ("14:00-18:00") are merged into one candidate, so a
date+time phrase is one span, not fragments. A phrase after "by", "before" or "no later
than" takes that word into its span and has subtype ``deadline``.
The patterns are in :mod:`extractors.values.datetime_patterns`, the reading of one
match into an atom in :mod:`extractors.values.datetime_atoms`.

Values (resolution rules in :mod:`extractors.values.dateresolve`); ``None`` when the phrase does
not resolve, and anything relative (no year, a weekday, "tomorrow", "in 3 days") needs
``turn.reference``:

- ``{"iso": "2026-12-03"}`` a day; ``"2026-12"`` a month; ``"2026-W49"`` a week;
  ``"14:00"`` a clock time alone; ``"2026-12-03T14:00"`` a date and time.
- Ranges are ISO 8601 intervals in the same key: ``{"iso": "14:00/18:00"}``,
  ``{"iso": "2026-12-03T14:00/2026-12-03T18:00"}``, ``{"iso": "2026-12-03/2026-12-05"}``.
- Durations: ``{"iso": "P3D"}`` (``PT24H``, ...); in working days there is no exact
  ISO duration, so ``{"duration": "P5D", "business_days": true}``; "within" + a
  reference adds ``"until"``, the last day. "in 3 days" / "3 days ago" are dates.
- Numeric dates ``a/b/yyyy`` with both parts <= 12 resolve only with a ``date_order``
  (``"dmy"`` or ``"mdy"``) given to the extractor.

The known parts go to ``attrs`` (``month``, ``day``, ``weekday``, ``time``,
``end_time``, ``part``, ...) whether or not the phrase resolves.
"""

from __future__ import annotations

import logging
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import DatetimeSubtype, Kind
from extractors.text import spans
from extractors.text.gates import GateIndex, matches_from, start_positions, tokens
from extractors.text.guard import LONG_TEXT, find_all, rx
from extractors.values.dateresolve import DateParts, Segment, combine, resolve_duration
from extractors.values.datetime_atoms import DATE_ROLES, TIME_ROLES, Atom, atom_info, valid_atom
from extractors.values.datetime_patterns import PATTERNS, DtPattern

if TYPE_CHECKING:
    from spacy.tokens import Doc

log = logging.getLogger(__name__)

NAME = "datetimes.regex.v1"

# --- merging ---------------------------------------------------------------------------

_LIGHT_JOIN = rx(
    r"^(?:\s*,?\s*|\s*,?\s*(?:at|on|from|by|around|about|@|the|of)\s+|\s*\(\s*|\s*,\s*"
    r"(?:at|on|from|between)\s+)$", regex.IGNORECASE)
_RANGE_JOIN = rx(
    r"^\s*(?:-|–|—|to|until|till|til|through|thru)\s*$|^\s*(?:-|–|—)\s*$", regex.IGNORECASE)
_AND_JOIN = rx(r"^\s+and\s+$", regex.IGNORECASE)
_BETWEEN = rx(r"(?i)\bbetween\s+$")


def _category(role: str) -> str:
    if role in DATE_ROLES:
        return "date"
    if role in TIME_ROLES:
        return "time"
    return role


def _joinable(text: str, chain: list[Atom], nxt: Atom, joins: list[str]) -> str | None:
    """Return how ``nxt`` joins the chain ('light' or 'range'), or None if it does not."""
    last = chain[-1]
    gap = text[last.end:nxt.start]
    if len(gap) > 12 or "\n" in gap:
        return None
    a, b = _category(last.role), _category(nxt.role)
    if "duration" in (a, b):
        return None
    between = _BETWEEN.search(text[max(0, chain[0].start - 9):chain[0].start])
    if _RANGE_JOIN.match(gap) or (_AND_JOIN.match(gap) and between):
        if a == b and a in ("date", "time") and not (a == "date" and last.role == "relday"):
            return "range"
        if a == "time" and b == "date" and any(_category(x.role) == "date" for x in chain):
            return "range"
        return None
    if not _LIGHT_JOIN.match(gap):
        return None
    roles = {x.role for x in chain}
    side = chain[max((i + 1 for i, j in enumerate(joins) if j == "range"), default=0):]
    # one clock time per side: "Tuesday 10:00 to Thursday 14:00", not "Tuesday 10:00 14:00"
    has_time = any(_category(x.role) == "time" for x in side)
    has_date = any(_category(x.role) == "date" for x in side)
    if b == "part":
        return "light" if a == "date" and "part" not in roles and not has_time else None
    if a == "part":
        return "light" if b == "time" and not has_time else None
    if b == "time":  # one clock time (or range) per phrase: "Thursday 3 December, 14:00"
        return "light" if not has_time else None
    if b == "date" and a == "time":  # "7 pm on Friday", but not a list "18:30, Monday"
        return "light" if not has_date and "," not in gap else None
    if a == "date" and b == "date" and not has_time:
        kinds = {last.role, nxt.role}
        if kinds == {"weekday", "date"} and "weekday" not in {x.role for x in chain[:-1]}:
            return "light" if gap.strip(" ,(") in ("", "the") else None
    return None


def _subtype(chain: list[Atom], joins: list[str]) -> DatetimeSubtype:
    cats = {_category(a.role) for a in chain}
    if "range" in joins or any(a.role in ("timerange", "daterange") for a in chain) \
            or any("/" in a.info.get("iso", "") for a in chain):
        return DatetimeSubtype.RANGE
    if cats == {"duration"}:
        relative = chain[0].info.get("relative")
        return DatetimeSubtype.RELATIVE if relative else DatetimeSubtype.DURATION
    if "date" in cats and "time" in cats:
        return DatetimeSubtype.DATETIME
    if "time" in cats:
        return DatetimeSubtype.TIME
    if any(a.info.get("relative") or a.role in ("relday",) for a in chain):
        return DatetimeSubtype.RELATIVE
    if any(a.role == "weekday" for a in chain) and not any(a.role == "date" for a in chain):
        return DatetimeSubtype.RELATIVE
    if any(a.role == "iso" and "T" in a.info.get("iso", "") for a in chain):
        return DatetimeSubtype.DATETIME
    return DatetimeSubtype.DATE


_PART_KEY = rx(r"(?i)morning|afternoon|evening|night|noon|lunchtime")
_DATE_KEYS = ("year", "month", "day", "weekday", "weekday_rel", "week_rel", "month_rel",
              "relday", "ambiguous")


def _atom_dates(atom: Atom) -> list[DateParts]:
    """Return the date parts one atom gives: none, one, or two ("March 3-5")."""
    parts = DateParts(**{k: atom.info[k] for k in _DATE_KEYS if atom.info.get(k) is not None})
    if atom.role == "iso":
        parts.iso = atom.info["iso"]
    if atom.info.get("day2") is not None:
        return [parts, DateParts(**{**parts.__dict__, "day": atom.info["day2"]})]
    return [parts]


def _times(chain: list[Atom]) -> list[list[str | None]]:
    """Return the clock times of each atom (empty for a non-time atom)."""
    out: list[list[str | None]] = [[] for _ in chain]
    h24 = any(a.info.get("h24") for a in chain if a.role in TIME_ROLES)
    for i, atom in enumerate(chain):
        if atom.role not in TIME_ROLES:
            continue
        clock = atom.info.get("clock")
        if clock is None and atom.info.get("hm") and atom.role == "time" \
                and "ampm" not in atom.info:
            hour, minute = atom.info["hm"]
            if h24 or hour == 12:  # a 24-hour partner; "12:30" reads alike in both clocks
                clock = f"{hour:02d}:{minute:02d}"
        out[i].append(clock)
        if atom.info.get("end_clock"):
            out[i].append(atom.info["end_clock"])
    return out


def _segments(chain: list[Atom], joins: list[str]) -> list[Segment]:
    """Split the phrase at range words into (dates, times) per side."""
    segments: list[Segment] = []
    for i, (atom, times) in enumerate(zip(chain, _times(chain), strict=True)):
        if not segments or joins[i - 1] == "range":
            segments.append(([], []))
        dates, seg_times = segments[-1]
        if _category(atom.role) == "date":
            if dates and atom.role != "iso":  # "Thursday 3 December": one date, more parts
                for key in _DATE_KEYS:
                    if atom.info.get(key) is not None and getattr(dates[-1], key) is None:
                        setattr(dates[-1], key, atom.info[key])
            else:
                dates.extend(_atom_dates(atom))
        seg_times.extend(times)
    return segments


def _value(chain: list[Atom], joins: list[str], subtype: str, ref: date | None,
           order: str | None) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    attrs: dict[str, Any] = {}
    for atom in chain:
        for key in ("year", "month", "day", "day2", "weekday", "tz", "count", "unit", "working"):
            if key in atom.info and key not in attrs:
                attrs[key] = atom.info[key]
        if atom.role == "iso":
            attrs["iso"] = atom.info["iso"]
        if atom.role == "part" or atom.info.get("part_word"):
            found = _PART_KEY.search(atom.info.get("part_word") or "")
            if found and "part" not in attrs:
                attrs["part"] = found.group(0).lower()
    times = [t for per_atom in _times(chain) for t in per_atom]
    if times:
        attrs["time"] = times[0]
        if len(times) > 1:
            attrs["end_time"] = times[-1]
    if "iso" in attrs and len(chain) == 1:
        return {"iso": attrs.pop("iso")}, attrs
    if all(a.role == "duration" for a in chain):
        info = chain[0].info
        if info.get("elsewhere"):
            return None, attrs
        value = resolve_duration(attrs.get("count"), attrs.get("unit"), ref,
                                 working=bool(attrs.get("working")),
                                 direction=info.get("direction", 0), prep=info.get("prep", ""))
        return value, attrs
    iso = combine(_segments(chain, joins), ref, order)
    return ({"iso": iso} if iso else None), attrs


def _non_overlapping(atoms: list[Atom]) -> list[Atom]:
    preferred = sorted(atoms, key=lambda a: (a.start - a.end, -a.score, a.start))
    return spans.select(preferred, lambda a: (a.start, a.end))


_DEADLINE = rx(r"(?i)(?<![\w])(?:by|before|no\s+later\s+than|not\s+later\s+than)"
                          r"\s+(?:the\s+end\s+of\s+)?$")
#: A duration stated as a service target makes it a deadline, and the target's words
#: are its span ("a resolution target of 8 business hours", "a 4-hour response target").
_TARGET = r"(?:(?:first[\s-])?response|resolution|fix|reply|repair)\s+(?:target|time|sla)|sla"
_TARGET_BEFORE = rx(rf"(?i)(?<![\w])(?:{_TARGET})\s+(?:of|is)\s+(?:within\s+)?$", linear=True)
_TARGET_AFTER = rx(rf"(?i)\s{{1,3}}(?:{_TARGET})\b", linear=True)


def reference_date(turn: TurnView) -> date | None:
    """Return the calendar date relative phrases of ``turn`` resolve against, if any."""
    ref = turn.reference
    if isinstance(ref, datetime):
        return ref.date()
    return ref


class RegexDatetimes:
    """Find dates, times, ranges, durations and relative dates, one span per phrase.

    ``date_order`` (``"dmy"`` or ``"mdy"``) resolves numeric dates whose day and month
    are both <= 12; without it they keep their span and get no value.
    """

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False
    patterns: ClassVar[tuple[DtPattern, ...]] = PATTERNS

    def __init__(self, date_order: str | None = None, prefilter: bool = True) -> None:
        if date_order not in (None, "dmy", "mdy"):
            raise ValueError(f"date_order must be 'dmy', 'mdy' or None, not {date_order!r}")
        self.date_order = date_order
        #: Skip the patterns whose gate a turn fails (:mod:`extractors.text.gates`).
        self.prefilter = prefilter
        self._gates = GateIndex([p.gate for p in self.patterns])

    def atoms(self, text: str) -> list[Atom]:
        """Return the non-overlapping atoms of ``text``, longest first on conflicts."""
        atoms: list[Atom] = []
        orders = (self._gates.admitted(tokens(text)) if self.prefilter
                  else range(len(self.patterns)))
        found_at: dict[frozenset[str], list[int] | None] = {}  # patterns share start sets
        for order in orders:
            pat = self.patterns[order]
            positions = None
            if self.prefilter and pat.starts and len(text) < LONG_TEXT:
                if pat.starts not in found_at:
                    found_at[pat.starts] = start_positions(text, pat.starts)
                positions = found_at[pat.starts]
            # Shipped, linear patterns (tests/test_value_properties.py): guarded on long
            # texts only.
            found = (matches_from(pat.pattern, text, positions) if positions is not None
                     else find_all(pat.pattern, text, name=pat.name))
            for m in found:
                atom = Atom(m.start(), m.end(), pat.role, pat.score, pat.name,
                            atom_info(m, pat.role))
                if valid_atom(atom):
                    atoms.append(atom)
        return _non_overlapping(atoms)

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return datetime candidates of one turn, merged into phrases, in text order."""
        text = turn.text
        out: list[Candidate] = []
        chains: list[tuple[list[Atom], list[str]]] = []
        for atom in self.atoms(text):
            if chains:
                chain, joins = chains[-1]
                how = _joinable(text, chain, atom, joins)
                if how:
                    chain.append(atom)
                    joins.append(how)
                    continue
            chains.append(([atom], []))
        for chain, joins in chains:
            if all(a.role == "part" for a in chain):
                continue
            start, end = chain[0].start, chain[-1].end
            subtype = _subtype(chain, joins)
            value, attrs = _value(chain, joins, subtype, reference_date(turn),
                                  self.date_order or turn.date_order)
            lead = _DEADLINE.search(text, max(0, start - 32), start)
            if lead and chain[0].role != "duration" and subtype != DatetimeSubtype.RANGE:
                start, subtype = lead.start(), DatetimeSubtype.DEADLINE
            elif subtype == DatetimeSubtype.DURATION:
                target = _TARGET_BEFORE.search(text, max(0, start - 48), start)
                after = None if target else _TARGET_AFTER.match(text, end)
                if target or after:
                    start = target.start() if target else start
                    end = after.end() if after else end
                    subtype = DatetimeSubtype.DEADLINE
            out.append(Candidate.of(
                text, start, end, kind=Kind.DATETIME, subtype=subtype,
                score=max(a.score for a in chain), extractor=NAME,
                why="patterns " + "+".join(repr(a.name) for a in chain),
                value=value, attrs=attrs,
            ))
        return out
