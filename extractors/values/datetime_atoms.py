"""Date/time atoms: one pattern match and what it tells.

Here belong :class:`Atom` (a matched piece of a date/time phrase), the roles that count
as a date or a time, and the reading of a match into known parts (month, day, weekday,
clock time, duration count and unit, ...) with the checks that drop a match that is not
a date after all ("march 5 miles", "one sec", "31 February"). The patterns are in
:mod:`extractors.values.datetime_patterns`; joining atoms into phrases is in
:mod:`extractors.values.datetimes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

import regex

from extractors.text import guard
from extractors.values.dateresolve import normalize_rel
from extractors.values.datetime_patterns import MONTHS, NUMBERS, ORDINALS, WEEKDAYS

#: Clipped units that, after a spelled count and no preposition, mean "wait a moment".
_CHAT_UNITS = frozenset({"sec", "secs", "min", "mins"})
#: Unit words that are not their unit's name plus "s".
_UNIT_NAMES = {"s": "second", "h": "hour", "ms": "millisecond", "msec": "millisecond",
               "msecs": "millisecond",
               "sec": "second", "secs": "second", "min": "minute", "mins": "minute",
               "hr": "hour", "hrs": "hour"}

DATE_ROLES = frozenset({"date", "weekday", "relday", "iso", "daterange"})
TIME_ROLES = frozenset({"time", "timerange"})


@dataclass
class Atom:
    """One matched piece of a date/time phrase and what is known of it."""

    start: int
    end: int
    role: str
    score: float
    name: str
    info: dict[str, Any] = field(default_factory=dict)


# --- atom parsing ----------------------------------------------------------------------


def _day(m: regex.Match[str]) -> int | None:
    g = m.groupdict()
    if g.get("day"):
        return int(g["day"])
    if g.get("dayword"):
        return ORDINALS.get(guard.sub(r"\s+", " ", g["dayword"].lower()))
    return None


def _hour_minute(m: regex.Match[str]) -> tuple[int, int] | None:
    g = m.groupdict()
    if g.get("noon"):
        return (0, 0) if "midnight" in g["noon"].lower() else (12, 0)
    if g.get("hour"):
        hour = int(g["hour"])
    elif g.get("hourword"):
        hour = NUMBERS[g["hourword"].lower()]
    else:
        return None
    minute = int(g["minute"]) if g.get("minute") else 0
    if g.get("minword"):
        minute = {"fifteen": 15, "thirty": 30}.get(g["minword"].lower(), 45)
    if g.get("frac"):
        frac = 30 if g["frac"].lower() == "half" else 15
        if g["dir"].lower() in ("to", "before", "till"):
            hour, minute = (hour - 1) % 12 or 12, 60 - frac
        else:
            minute = frac
    return hour, minute


def _clock(hour: int, minute: int, ampm: str | None, part: str | None,
           raw_hour: str | None) -> tuple[str | None, bool]:
    """Return (HH:MM or None, is-24h-evidence) for a clock time."""
    evidence = bool(raw_hour and (hour > 12 or raw_hour.startswith("0") or hour == 0))
    if ampm:
        pm = ampm.lower().startswith("p")
        if hour > 12:
            return None, False
        hour = (hour % 12) + (12 if pm else 0)
        return f"{hour:02d}:{minute:02d}", False
    if part:
        p = part.lower()
        if "morning" in p:
            if hour == 12:
                return None, False
        elif "night" in p:
            hour = hour + 12 if 6 <= hour < 12 else (0 if hour == 12 else hour)
        elif hour < 12:  # afternoon, evening, tonight
            hour += 12
        return f"{hour:02d}:{minute:02d}", False
    if evidence:
        return f"{hour:02d}:{minute:02d}", True
    return None, False


def atom_info(m: regex.Match[str], role: str) -> dict[str, Any]:
    g = m.groupdict()
    info: dict[str, Any] = {}
    if g.get("iso"):
        info["iso"] = g["iso"]
    if g.get("month"):
        info["month"] = MONTHS.get(g["month"].lower().rstrip("."))
        if g["month"] == "march" and g.get("day") and not g.get("year") \
                and not guard.search(r"\d(?:st|nd|rd|th)", m.group(0)):
            info["weak"] = True  # "march 5 miles": the verb, not the month
    day = _day(m)
    if day is not None:
        info["day"] = day
    if g.get("day2"):
        info["day2"] = int(g["day2"])
    if g.get("year"):
        info["year"] = int(g["year"])
    if g.get("y1"):
        info.update(year=int(g["y1"]), month=int(g["m1"]), day=int(g["d1"]))
    if g.get("a"):
        a, b, y = int(g["a"]), int(g["b"]), g["y2"]
        info["year"] = int(y) if len(y) == 4 else 2000 + int(y)
        info["short_year"] = len(y) == 2
        if a > 12 >= b:
            info.update(day=a, month=b)
        elif b > 12 >= a:
            info.update(day=b, month=a)
        elif a <= 12 and b <= 12:
            info["ambiguous"] = (a, b)
    if g.get("weekday"):
        info["weekday"] = WEEKDAYS[g["weekday"].lower().rstrip(".")]
        info["weekday_rel"] = normalize_rel(g.get("rel"))
        if g.get("week"):
            info["week_rel"] = normalize_rel(guard.sub(r"(?i)\s*week$", "", g["week"].strip()))
    elif g.get("rel") and role == "date":  # "the 9th of next month"
        info["month_rel"] = normalize_rel(guard.sub(r"(?i)\s*month$", "", g["rel"].strip()))
    if g.get("part"):
        info["part_word"] = g["part"]
    if g.get("relday"):
        info["relday"] = " ".join(g["relday"].lower().split())
    if g.get("rel") or g.get("relday") or g.get("week") or g.get("dir") and role == "duration":
        info["relative"] = True
    if role in TIME_ROLES:
        hm = _hour_minute(m)
        if hm is not None:
            clock, h24 = _clock(hm[0], hm[1], g.get("ampm"), g.get("part"), g.get("hour"))
            if g.get("noon"):
                clock = f"{hm[0]:02d}:00"
            info["clock"], info["h24"] = clock, h24
            info["hm"] = hm
            if role == "timerange" and g.get("hour2"):
                h2, m2 = int(g["hour2"]), int(g["minute2"] or 0)
                end, _ = _clock(h2, m2, g.get("ampm"), None, g["hour2"])
                start = None
                if end is not None:
                    pm = g["ampm"].lower().startswith("p")
                    h1 = hm[0] % 12 + (12 if pm else 0)
                    if h1 * 60 + hm[1] > int(end[:2]) * 60 + m2:
                        h1 -= 12
                    start = f"{h1:02d}:{hm[1]:02d}" if h1 >= 0 else None
                info["clock"], info["end_clock"] = start, end
        if g.get("tz"):
            info["tz"] = g["tz"]
    if role == "duration":
        count = g["count"].lower()
        if count.isdigit():
            info["count"] = int(count)
        elif count[0].isdigit():
            info["count"] = guard.sub(r"\s*(?:to|–)\s*", "-", count)  # "1.5", "3-5": as written
        else:
            info["count"] = NUMBERS.get(guard.sub(r"\s+", " ", count))  # None: "a few"
        info["unit"] = _UNIT_NAMES.get(g["unit"].lower(), g["unit"].lower().rstrip("s"))
        info["working"] = bool(g.get("kindword") and
                               g["kindword"].lower().strip() in ("working", "business"))
        prep = " ".join((g.get("prep") or "").lower().split())
        info["prep"] = prep
        if g.get("dir") or prep == "in":
            info["relative"] = True
            anchor = " ".join((g.get("dir") or "").lower().split())
            if anchor in ("ago", "from now") or prep == "in":
                info["direction"] = -1 if anchor == "ago" else 1
            else:  # "3 days later": counted from another event, left unresolved
                info["elsewhere"] = True
        if count in ("a", "an") and not prep:
            info["weak"] = True
        if g["unit"].lower() in _CHAT_UNITS and not count[0].isdigit() and not prep:
            info["weak"] = True  # "one sec", "two mins": a pause in chat, not a duration
    return info


def valid_atom(atom: Atom) -> bool:
    info = atom.info
    if "month" in info and info["month"] is None:
        return False
    if "day" in info and not 1 <= (info["day"] or 0) <= 31:
        return False
    if info.get("weak"):
        return False
    if atom.name == "numeric_date" and "month" not in info:
        return not info.get("short_year")  # ambiguous day/month: keep a/b/yyyy only
    if "year" in info and "month" in info and "day" in info:
        try:
            date(info["year"], info["month"], info["day"])
        except ValueError:
            return False
    return True
