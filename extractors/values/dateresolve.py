"""Turn the parts of a date/time phrase into ISO 8601 values against a reference date.

Pure functions, no clock: the same parts and the same reference always give the same
value, and anything that needs a reference resolves to ``None`` when there is none.

Rules (the reference is a calendar date; its time of day is never used):

- A date without a year is its occurrence nearest the reference (at most half a year
  away, a tie goes forward): tense-free, so "delivered on 8 October" said on 29 November
  is last October and "March 1st" is next March. A weekday given with it must agree,
  else the phrase is left unresolved.
- ``Thursday`` / ``this Thursday`` / ``coming Thursday``: the first Thursday on or
  after the reference. ``next Thursday`` / ``the following Thursday`` / ``Thursday next
  week``: the Thursday of the week (Monday to Sunday) after the reference's week.
  ``last Thursday``: the latest Thursday before the reference.
- ``the 11th``: the next 11th on or after the reference (months without one skipped).
- ``today`` / ``tonight`` / ``tomorrow`` / ``yesterday`` / ``the day after tomorrow``:
  a date. ``this week``: an ISO week (``2026-W48``); ``next month``: ``2026-12``;
  ``next year``: ``2027``; ``this weekend``: ``Saturday/Sunday`` as a date interval;
  ``end of the week``: the first Friday on or after the reference (``end of next
  week``: a week later); ``end of the month``: its last day.
- A month alone (``in March``): ``YYYY-MM``, the next such month on or after the
  reference's month unless a year is written.
- Numeric dates ``a/b/yyyy`` resolve when one part is > 12 or when the caller gives a
  convention (``"dmy"`` or ``"mdy"``); a two-digit year is 20yy. ``yyyy/mm/dd`` and
  ISO dates are never ambiguous.
- In N days/weeks/months/years, N ... ago, N ... from now: a date. Hours and minutes
  are not resolved (the reference carries no trusted time of day), nor "N days later"
  (counted from an event, not from the reference).
- Business days skip Saturdays and Sundays only (no holiday calendar).
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from extractors.text.guard import rx

#: ISO 8601 duration designators per unit (minutes and months share ``M``).
UNIT_CODES: dict[str, tuple[str, str]] = {
    "second": ("PT", "S"), "minute": ("PT", "M"), "hour": ("PT", "H"), "day": ("P", "D"),
    "night": ("P", "D"), "week": ("P", "W"), "month": ("P", "M"), "year": ("P", "Y"),
}
#: Units written as a multiple of another: (unit, factor). Milliseconds become decimal
#: seconds (ISO 8601 has no smaller unit): "500ms" is PT0.5S.
UNIT_MULTIPLES: dict[str, tuple[str, Decimal]] = {
    "millisecond": ("second", Decimal("0.001")), "fortnight": ("week", Decimal(2)),
}
ORDERS = frozenset({"dmy", "mdy"})


@dataclass
class DateParts:
    """What one date phrase (or one side of a date range) says."""

    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None  # Monday == 0
    weekday_rel: str | None = None  # this | next | last
    week_rel: str | None = None  # this | next ("Wednesday next week")
    month_rel: str | None = None  # this | next | last ("the 9th of next month")
    relday: str | None = None  # normalized: "tomorrow", "next week", "end of month", ...
    ambiguous: tuple[int, int] | None = None  # (a, b) of "a/b/yyyy", both <= 12
    iso: str | None = None  # an ISO date written as such


def normalize_rel(word: str | None) -> str | None:
    """Return ``this``, ``next`` or ``last`` for a relative modifier, None if none."""
    if not word:
        return None
    w = " ".join(word.lower().split())
    if w in ("next", "the following", "the next", "following"):
        return "next"
    if w in ("last", "previous", "the previous"):
        return "last"
    return "this"  # this, coming, this coming, the coming, the


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    return date(d.year + y, m + 1, min(d.day, calendar.monthrange(d.year + y, m + 1)[1]))


def _month_start(d: date, months: int = 0) -> date:
    return _add_months(d.replace(day=1), months)


def add_business_days(d: date, n: int) -> date:
    """Return the date ``n`` working days (Monday to Friday) after ``d``."""
    step = 1 if n >= 0 else -1
    left = abs(n)
    while left:
        d += timedelta(days=step)
        if d.weekday() < 5:
            left -= 1
    return d


def _next_md(ref: date, month: int, day: int) -> date | None:
    """Return the occurrence of month/day nearest the reference (a tie goes forward):
    "March 1st" said in November is next March, "delivered on 8 October" last October."""
    found = []
    for year in range(ref.year - 4, ref.year + 5):  # 29 February: the nearest leap year
        try:
            found.append(date(year, month, day))
        except ValueError:
            continue
    if not found:
        return None
    return min(found, key=lambda d: (abs((d - ref).days), d < ref))


def _next_day_of_month(ref: date, day: int) -> date | None:
    for k in range(12):
        first = _month_start(ref, k)
        if day <= calendar.monthrange(first.year, first.month)[1]:
            d = first.replace(day=day)
            if d >= ref:
                return d
    return None


def _weekday(ref: date, weekday: int, rel: str | None, week_rel: str | None) -> date:
    monday = ref - timedelta(days=ref.weekday())
    if week_rel == "next" or rel == "next":
        return monday + timedelta(days=7 + weekday)
    if week_rel == "this":
        return monday + timedelta(days=weekday)
    if rel == "last":
        return ref - timedelta(days=(ref.weekday() - weekday - 1) % 7 + 1)
    return ref + timedelta(days=(weekday - ref.weekday()) % 7)


def _iso_week(d: date) -> str:
    year, week, _ = d.isocalendar()
    return f"{year}-W{week:02d}"


def _relday(ref: date, phrase: str) -> str | None:
    p = phrase.removeprefix("the ")
    offsets = {"today": 0, "later today": 0, "earlier today": 0, "tonight": 0, "eod": 0,
               "end of day": 0, "end of the day": 0, "this morning": 0, "this afternoon": 0,
               "this evening": 0, "tomorrow": 1, "tmrw": 1, "yesterday": -1,
               "last night": -1, "day after tomorrow": 2, "day before yesterday": -2}
    if p in ("next day", "following day"):
        return None  # the day after some other day, not after the reference
    if p in offsets:
        return (ref + timedelta(days=offsets[p])).isoformat()
    words = p.split()
    end = words[:2] == ["end", "of"]
    if end:
        words = words[2:]
    rel = normalize_rel(" ".join(words[:-1])) if len(words) > 1 else "this"
    unit = words[-1] if words else ""
    if p == "eow":
        unit, rel, end = "week", "this", True
    shift = {"this": 0, "next": 1, "last": -1}[rel or "this"]
    monday = ref - timedelta(days=ref.weekday()) + timedelta(weeks=shift)
    if unit == "week" and end:  # the first Friday on or after the reference, then +-7
        friday = ref + timedelta(days=(4 - ref.weekday()) % 7 + 7 * shift)
        return friday.isoformat()
    if unit == "week":
        return _iso_week(monday)
    if unit == "weekend":
        if ref.weekday() == 6 and shift == 0:
            sat = ref - timedelta(days=1)
        else:
            sat = monday + timedelta(days=5)
        return f"{sat.isoformat()}/{(sat + timedelta(days=1)).isoformat()}"
    if unit == "month":
        first = _month_start(ref, shift)
        if end:
            last = calendar.monthrange(first.year, first.month)[1]
            return first.replace(day=last).isoformat()
        return f"{first.year:04d}-{first.month:02d}"
    if unit == "year":
        return f"{ref.year + shift:04d}-12-31" if end else f"{ref.year + shift:04d}"
    return None


def resolve_date(parts: DateParts, ref: date | None, order: str | None = None) -> str | None:
    """Return the ISO date (or month, week, interval) the parts name, None if unknown."""
    if parts.iso:
        return parts.iso
    month, day, year = parts.month, parts.day, parts.year
    if parts.ambiguous is not None and month is None:
        if order not in ORDERS:
            return None
        a, b = parts.ambiguous
        day, month = (a, b) if order == "dmy" else (b, a)
    if month is not None and day is not None:
        if year is not None:
            try:
                found: date | None = date(year, month, day)
            except ValueError:
                return None
        elif ref is None:
            return None
        else:
            found = _next_md(ref, month, day)
        if found is None or (parts.weekday is not None and found.weekday() != parts.weekday):
            return None
        return found.isoformat()
    if month is not None:
        if year is None:
            if ref is None:
                return None
            year = ref.year + (1 if month < ref.month else 0)
        return f"{year:04d}-{month:02d}"
    if ref is None:
        return None
    if day is not None:
        if parts.month_rel is not None:
            first = _month_start(ref, {"this": 0, "next": 1, "last": -1}[parts.month_rel])
            try:
                return first.replace(day=day).isoformat()
            except ValueError:
                return None
        found = _next_day_of_month(ref, day)
        if found is None or (parts.weekday is not None and found.weekday() != parts.weekday):
            return None
        return found.isoformat()
    if parts.weekday is not None:
        return _weekday(ref, parts.weekday, parts.weekday_rel, parts.week_rel).isoformat()
    if parts.relday:
        return _relday(ref, parts.relday)
    return None


#: One side of a phrase: its dates (0-2) and clock times (0-2, None when unknown).
Segment = tuple[list["DateParts"], list[str | None]]


def combine(segments: list[Segment], ref: date | None, order: str | None = None) -> str | None:
    """Return the ISO value (date, time, date-time or interval) of a phrase's sides, or None.

    One side may hold two dates ("March 3-5") or two times ("14:00-18:00"); with several
    sides (split at range words), a side without a date takes its neighbour's.
    """
    resolved = [([resolve_date(d, ref, order) for d in dates], times)
                for dates, times in segments]
    if any(d is None for days, times in resolved for d in days) \
            or any(t is None for days, times in resolved for t in times):
        return None
    if len(resolved) == 1:
        days, times = resolved[0]
        if not days or not times:
            return "/".join(str(x) for x in days + times)
        if len(days) == 1:
            days = days * len(times)
        if len(days) != len(times) or any(len(str(d)) != 10 for d in days):
            return None  # a time on a week, month or interval
        return "/".join(f"{d}T{t}" for d, t in zip(days, times, strict=True))
    if any(len(days) > 1 or len(times) > 1 for days, times in resolved):
        return None
    own = [days[0] if days else None for days, _ in resolved]
    ends: list[str] = []
    for i, (_, times) in enumerate(resolved):
        day = own[i] or next((d for d in reversed(own[:i]) if d), None) \
            or next((d for d in own[i + 1:] if d), None)
        if times and day is not None and len(day) != 10:
            return None
        ends.append(f"{day}T{times[0]}" if times and day else str(times[0] if times else day))
    return "/".join(ends)


def resolve_duration(count: int | str | None, unit: str | None, ref: date | None, *,
                     working: bool = False, direction: int = 0,
                     prep: str = "") -> dict[str, Any] | None:
    """Return the value of a duration phrase: an ISO duration, or a date if it points.

    ``direction`` +1/-1 ("in 3 days", "3 days ago") makes it a date (days or longer,
    with a reference); ``working`` days have no exact ISO duration, so they come as
    ``{"duration": "P5D", "business_days": True}``; "within" adds the last day,
    ``"until"``, when there is a reference.
    """
    if isinstance(count, str) and _DECIMAL.fullmatch(count) and unit and not direction:
        code = duration_code(Decimal(count), unit)  # "2.31s", "1.5 hours": as written
        return {"iso": code} if code else None
    if not isinstance(count, int) or not isinstance(unit, str):
        return None
    working = working and unit == "day"
    if direction:
        moved = shift_date(ref, count * direction, unit, working) if ref else None
        return {"iso": moved.isoformat()} if moved else None
    code = duration_code(count, unit)
    if code is None:
        return None
    value: dict[str, Any] = ({"duration": code, "business_days": True} if working
                             else {"iso": code})
    if ref is not None and prep == "within":
        until = shift_date(ref, count, unit, working)
        if until is not None:
            value["until"] = until.isoformat()
    return value


_DECIMAL = rx(r"\d{1,9}\.\d{1,6}", linear=True)


def duration_code(count: int | Decimal, unit: str) -> str | None:
    """Return the ISO 8601 duration of ``count`` ``unit``s (``P3D``, ``PT2H``), or None."""
    amount = Decimal(count)
    if unit in UNIT_MULTIPLES:
        unit, factor = UNIT_MULTIPLES[unit]
        amount *= factor
    if unit not in UNIT_CODES:
        return None
    prefix, code = UNIT_CODES[unit]
    return f"{prefix}{_plain(amount)}{code}"


def _plain(amount: Decimal) -> str:
    """``Decimal`` as plain digits without trailing zeros: 0.500 -> "0.5", 14 -> "14"."""
    text = f"{amount:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def shift_date(ref: date, count: int, unit: str, working: bool = False) -> date | None:
    """Return ``ref`` moved by ``count`` units of days or longer (negative: back), or None."""
    if working and unit == "day":
        return add_business_days(ref, count)
    if unit in ("day", "night"):
        return ref + timedelta(days=count)
    if unit == "week":
        return ref + timedelta(weeks=count)
    if unit == "fortnight":
        return ref + timedelta(weeks=2 * count)
    if unit == "month":
        return _add_months(ref, count)
    if unit == "year":
        return _add_months(ref, 12 * count)
    return None
