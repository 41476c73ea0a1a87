"""Dates, times, ranges, durations and relative dates: atoms, then one span per phrase.

Named, scored patterns find *atoms* (a calendar date, a weekday, "tomorrow", a clock
time, a part of the day, a duration); adjacent atoms joined by light words ("Thursday
3 December, 14:00") or range words ("14:00-18:00") are merged into one candidate, so a
date+time phrase is one span, not fragments. A phrase after "by", "before" or "no later
than" takes that word into its span and has subtype ``deadline``.

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
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind
from extractors.text import guard, spans
from extractors.text.gates import (
    ALWAYS,
    DIGIT,
    Gate,
    GateIndex,
    gate,
    matches_from,
    start_positions,
    tokens,
    words_of,
)
from extractors.text.guard import LONG_TEXT, Guarded, find_all, rx
from extractors.values.dateresolve import (
    DateParts,
    Segment,
    combine,
    normalize_rel,
    resolve_duration,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

log = logging.getLogger(__name__)

NAME = "datetimes.regex.v1"

# --- vocabulary --------------------------------------------------------------------------

MONTHS: dict[str, int] = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
WEEKDAYS: dict[str, int] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6, "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
    "fri": 4, "sat": 5, "sun": 6,
}
ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17,
    "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}
for _unit, _n in list(ORDINALS.items())[:9]:
    ORDINALS[f"twenty-{_unit}"] = 20 + _n
    ORDINALS[f"twenty {_unit}"] = 20 + _n
ORDINALS["thirty-first"] = ORDINALS["thirty first"] = 31
NUMBERS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60,
    "ninety": 90, "a": 1, "an": 1, "a couple of": 2, "couple of": 2,
}


def _alt(words: list[str] | dict[str, Any]) -> str:
    return "|".join(regex.escape(w).replace(r"\ ", r"\s+")
                    for w in sorted(words, key=len, reverse=True))


_MONTH_FULL = _alt([m for m in MONTHS if len(m) > 4 or m in ("june", "july")])
_MONTH_ABBR = _alt([m for m in MONTHS if len(m) <= 4 and m not in ("may", "june", "july")])
#: Full names in any case; abbreviations and "May" (a modal verb too) only capitalized.
_MONTH = (rf"(?P<month>(?i:{_MONTH_FULL})|May|MAY|(?:{_MONTH_ABBR.title()}|{_MONTH_ABBR.upper()})"
          r"\.?)(?![\w])")
_WEEKDAY_FULL = _alt([w for w in WEEKDAYS if len(w) > 5])
_WEEKDAY_ABBR = "|".join(w.title() for w in WEEKDAYS if len(w) <= 5)
_DAYNUM = r"(?:[12]\d|3[01]|0?[1-9])"
_SUFFIX = r"(?:st|nd|rd|th)"
_ORDWORD = rf"(?i:{_alt(ORDINALS)})"
_YEAR = r"(?P<year>(?:19|20)\d{2})(?!\d)"
_AMPM = r"(?P<ampm>(?i:a\.m\.?|p\.m\.?|am|pm))(?![A-Za-z])"
_PART = r"(?P<part>(?i:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tonight))(?![A-Za-z])"
_HOUR12 = r"(?:1[0-2]|0?[1-9])"
_HOUR_WORDS = [w for w, n in NUMBERS.items() if 1 <= n <= 12 and w.isalpha() and len(w) > 2]
_HOURWORD = rf"(?<![A-Za-z])(?P<hourword>(?i:{_alt(_HOUR_WORDS)}))(?![A-Za-z])"
_MIN = r"(?P<minute>[0-5]\d)"
_TZ = (r"(?:\s?(?P<tz>UTC|GMT|CET|CEST|EET|EEST|WET|BST|IST|EST|EDT|CST|CDT|MST|MDT|PST|PDT|Z)"
       r"(?:[+-]\d{1,2})?(?![\w]))")
_OCLOCK = r"(?:\s?o\s?['’\"]?\s?clock(?![A-Za-z]))"
_NOT_COUNT = (r"(?!\s*(?:%|percent|people|persons|guests|tickets|seats|rooms|nights|days|"
              r"hours|minutes|of|dollars|bucks|degrees|stars|adults|kids|children)\b)")
#: Nights are left out: "3 nights" counts stays (a hotel's unit), it is not a duration.
_DURATION_UNIT = (r"(?P<unit>(?i:milliseconds?|msecs?|seconds?|secs?|minutes?|mins?|hours?|hrs?|"
                  r"days?|weeks?|fortnights?|months?|years?)|ms)(?![\w])")
_COUNT_WORDS = [w for w in NUMBERS if w not in ("a", "an")]
_COUNT = (r"(?P<count>\d{1,4}(?:\.\d)?(?:\s?(?:-|–|to)\s?\d{1,4})?"
          rf"|(?i:{_alt(_COUNT_WORDS)})|(?i:a\s+few|several|a|an)(?=\s))")


#: Gate tokens: a month name, the am/pm markers, a duration unit.
_MONTH_WORDS = words_of(*MONTHS)
_AMPM_WORDS = "am pm <a.m>"
_UNIT_WORDS = ("millisecond milliseconds msec msecs ms second seconds sec secs minute minutes "
               "min mins hour hours hr hrs day days week weeks fortnight fortnights month "
               "months year years")
#: Clipped units that, after a spelled count and no preposition, mean "wait a moment".
_CHAT_UNITS = frozenset({"sec", "secs", "min", "mins"})
#: Unit words that are not their unit's name plus "s".
_UNIT_NAMES = {"s": "second", "ms": "millisecond", "msec": "millisecond", "msecs": "millisecond",
               "sec": "second", "secs": "second", "min": "minute", "mins": "minute",
               "hr": "hour", "hrs": "hour"}


@dataclass(frozen=True)
class DtPattern:
    """One named, scored atom pattern. ``role`` decides how atoms merge into a phrase."""

    name: str
    pattern: Guarded
    score: float
    role: str  # date|weekday|relday|iso|daterange|time|timerange|part|duration|reldur
    #: What a turn must hold for the pattern to match at all (:mod:`extractors.text.gates`).
    gate: Gate = ALWAYS
    #: The words (and DIGIT: a run of digits) a match can begin with, so that only their
    #: positions are tried (:func:`extractors.text.gates.start_positions`); None: scan.
    starts: frozenset[str] | None = None


def _c(body: str) -> Guarded:
    """Compile a shipped pattern: verbose, version 0, linear (``tests/test_guard.py``)."""
    return rx(body, regex.VERBOSE | regex.V0, linear=True)


def _starts(*words: str | Iterable[str], digits: bool = False) -> frozenset[str]:
    """Return the start words of a pattern (first letter runs, lower case), plus DIGIT."""
    out = {DIGIT} if digits else set()
    for group in words:
        out |= words_of(*([group] if isinstance(group, str) else group))
    return frozenset(out)


_REL_WORDS = ["next", "this", "last", "coming", "the"]
_DURATION_PREPS = ("within for in over after under about around up at another the next "
                   "last past").split()
_S_DIGIT = _starts(digits=True)
_S_HOUR = _starts(_HOUR_WORDS, digits=True)
_S_DAY = _starts("the", ORDINALS, digits=True)
_S_MONTH = _starts(MONTHS)
_S_DURATION = _starts(_DURATION_PREPS, _COUNT_WORDS, "a an several".split(), digits=True)


PATTERNS: tuple[DtPattern, ...] = (
    DtPattern("iso", _c(
        r"(?<![\w-])(?P<iso>\d{4}-[01]\d-[0-3]\d(?:[T\ ][0-2]\d:[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?"
        r"(?:Z|[+-][0-2]\d:?[0-5]\d)?)?(?:/(?:\d{4}-[01]\d-[0-3]\dT?)?(?:[0-2]\d:[0-5]\d"
        r"(?::[0-5]\d)?(?:Z|[+-][0-2]\d:?[0-5]\d)?)?)?)(?![\w-])"), 0.95, "iso",
        gate=gate("<d/d>"),
        starts=_S_DIGIT),
    DtPattern("numeric_date", _c(
        r"(?<![\w/.-])(?:(?P<y1>(?:19|20)\d{2})/(?P<m1>[01]?\d)/(?P<d1>[0-3]?\d)"
        r"|(?P<a>[0-3]?\d)(?P<sep>[/.-])(?P<b>[0-3]?\d)(?P=sep)(?P<y2>(?:19|20)\d{2}|\d{2}(?![\d])))"
        r"(?![\w/-]|\.\d)"), 0.8, "date",
        gate=gate("<d/d>"),
        starts=_S_DIGIT),
    DtPattern("month_day_range", _c(
        rf"(?<![\w]){_MONTH}\s+(?P<day>{_DAYNUM}){_SUFFIX}?\s*(?:-|–|—|to|through|until)\s*"
        rf"(?P<day2>{_DAYNUM}){_SUFFIX}?(?![\d:])(?:,?\s+{_YEAR})?"), 0.9, "daterange",
        gate=gate(DIGIT, _MONTH_WORDS),
        starts=_S_MONTH),
    DtPattern("day_month_range", _c(
        rf"(?<![\w])(?P<day>{_DAYNUM}){_SUFFIX}?\s*(?:-|–|—|to|through|until)\s*"
        rf"(?P<day2>{_DAYNUM}){_SUFFIX}?\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?"), 0.9,
        "daterange",
        gate=gate(DIGIT, _MONTH_WORDS),
        starts=_S_DIGIT),
    DtPattern("month_day", _c(
        rf"(?<![\w]){_MONTH}\s+(?:the\s+)?(?:(?P<day>{_DAYNUM}){_SUFFIX}?(?![\d:])(?!\s*(?i:am|pm|a\.m|p\.m|%|percent))"
        rf"|(?P<dayword>{_ORDWORD})(?![\w-]))(?:,?\s+{_YEAR})?"), 0.9, "date",
        gate=gate(_MONTH_WORDS),
        starts=_S_MONTH),
    DtPattern("day_month", _c(
        rf"(?<![\w])(?:the\s+)?(?:(?P<day>{_DAYNUM}){_SUFFIX}?|(?P<dayword>{_ORDWORD}))"
        rf"\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?"), 0.9, "date",
        gate=gate(_MONTH_WORDS),
        starts=_S_DAY),
    DtPattern("month_year", _c(rf"(?<![\w]){_MONTH}\s+{_YEAR}"), 0.85, "date",
        gate=gate(DIGIT, _MONTH_WORDS),
        starts=_S_MONTH),
    DtPattern("nth_of_month", _c(
        rf"(?<![\w])(?:the\s+)?(?:(?P<day>{_DAYNUM}){_SUFFIX}|(?P<dayword>{_ORDWORD}))\s+of\s+"
        r"(?P<rel>(?i:this|next|last|the\s+(?:next|following|coming)|the)\s+month)(?![\w])"),
        0.9, "date",
        gate=gate("month"),
        starts=_S_DAY),
    DtPattern("the_nth", _c(
        rf"(?<![\w])(?i:the)\s+(?P<day>{_DAYNUM}){_SUFFIX}(?![\w])"
        r"(?!\s+(?i:floor|place|row|century|grade|time|round|edition|anniversary|birthday|"
        r"person|one|item|option|step|level|street|avenue|st|ave|percentile|attempt))"), 0.8,
        "date",
        gate=gate(DIGIT, "the"),
        starts=_starts("the")),
    DtPattern("prep_the_ordinal", _c(
        rf"(?<=(?i:\b(?:on|by|until|till|before|after|from|for|since)\s))(?i:the)\s+"
        rf"(?P<dayword>{_ORDWORD})(?![\w-])(?!\s+(?i:time|one|option|floor|place|round))"),
        0.7, "date",
        gate=gate("the", words_of(*ORDINALS)),
        starts=_starts("the")),
    DtPattern("month_alone", _c(
        r"(?<=(?i:\b(?:in|during|since|until|till|by|of|for|from|through|early|late|mid|"
        r"next|last|this|end\s+of|beginning\s+of)\s))(?!May\b|may\b|march\b)"
        + _MONTH.replace("?P<month>", "?P<month>")
        + r"(?!\s+\d)"), 0.6, "date",
        gate=gate(_MONTH_WORDS),
        starts=_S_MONTH),
    DtPattern("weekday", _c(
        r"(?<![\w])(?P<rel>(?i:next|this|last|coming|this\s+coming|the\s+following)\s+)?"
        rf"(?P<weekday>(?i:{_WEEKDAY_FULL})(?!s\b)(?![\w])|(?:{_WEEKDAY_ABBR})\.?(?=,?\s+(?:the\s+)?\d))"
        r"(?P<week>\s+(?i:next|this|the\s+following)\s+week)?"), 0.85, "weekday",
        gate=gate(words_of(*WEEKDAYS)),
        starts=_starts(_REL_WORDS, WEEKDAYS)),
    DtPattern("relative_day", _c(
        r"(?<![\w.])(?P<relday>(?i:(?:the\s+)?day\s+after\s+tomorrow|(?:the\s+)?day\s+before\s+"
        r"yesterday|(?:later|earlier)\s+today|today|tonight|tomorrow|tmrw|yesterday|last\s+night|"
        r"this\s+(?:morning|afternoon|evening)|the\s+(?:next|following|same)\s+day|"
        r"(?:this|next|last|coming|the\s+following|this\s+coming)\s+(?:week(?:end)?|month|year)|"
        r"(?:the|this)\s+weekend|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+|next\s+)?"
        r"(?:day|week|month|year)|eod|eow))(?![\w])(?!\()"), 0.85, "relday",
        gate=gate("today tonight tomorrow tmrw yesterday week weekend month year day eod eow "
                  "night morning afternoon evening"),
        starts=_starts("day the later earlier today tonight tomorrow tmrw yesterday this next "
                       "last coming end eod eow".split())),
    DtPattern("part_of_day", _c(
        r"(?<![\w])(?P<part>(?i:(?:in\s+the\s+|this\s+)?(?:morning|afternoon|evening)|"
        r"(?:at\s+)?night|noon|lunchtime))(?![\w])"), 0.5, "part",
        gate=gate("morning afternoon evening night noon lunchtime"),
        starts=_starts("in this morning afternoon evening at night noon lunchtime".split())),
    DtPattern("clock_24h", _c(
        r"(?<![\d:.,$€£])(?P<hour>[01]?\d|2[0-3])(?::|h)" + _MIN + r"(?::[0-5]\d)?(?![\d:])"
        rf"(?:\s?{_AMPM}|\s?{_OCLOCK})?(?:\s+{_PART})?{_TZ}?"), 0.9, "time",
        gate=gate(DIGIT, ": h"),
        starts=_S_DIGIT),
    DtPattern("clock_ampm", _c(
        rf"(?<![\d:.,$€£])(?P<hour>{_HOUR12})\s?{_AMPM}(?:\s+{_PART})?{_TZ}?"), 0.9, "time",
        gate=gate(DIGIT, _AMPM_WORDS),
        starts=_S_DIGIT),
    DtPattern("clock_oclock", _c(
        rf"(?<![\d:.,$€£])(?:(?P<hour>{_HOUR12})|{_HOURWORD}){_OCLOCK}(?:\s+{_PART}|\s?{_AMPM})?"),
        0.85, "time",
        gate=gate("clock oclock"),
        starts=_S_HOUR),
    DtPattern("clock_part", _c(
        rf"(?<![\d:.,$€£])(?:(?P<hour>{_HOUR12})|{_HOURWORD}(?:[\s-](?P<minword>(?i:fifteen|"
        rf"thirty|forty-five|forty\s+five)))?)\s+(?:{_PART}|{_AMPM})"), 0.85, "time",
        gate=gate([DIGIT, *_HOUR_WORDS], _AMPM_WORDS + " morning afternoon evening night tonight"),
        starts=_S_HOUR),
    DtPattern("clock_half_quarter", _c(
        r"(?<![\w])(?P<frac>(?i:half|(?:a\s+)?quarter))\s+(?P<dir>(?i:past|after|to|before|till))\s+"
        rf"(?:(?P<hour>{_HOUR12})(?![\d:])|{_HOURWORD}(?![\w]))(?:\s+{_PART}|\s?{_AMPM}|{_OCLOCK})?"),
        0.85, "time",
        gate=gate("half quarter"),
        starts=_starts("half a quarter".split())),
    DtPattern("part_then_clock", _c(
        r"(?<![\w])(?:(?i:this|in\s+the|at|tomorrow|tonight)\s+)?"
        r"(?P<part>(?i:morning|afternoon|evening|night))\s+(?:(?i:at)\s+)?"
        r"(?P<hour>[01]?\d|2[0-3])(?::" + _MIN + rf")?(?:\s?{_AMPM})?(?![\d:]){_NOT_COUNT}"),
        0.8, "time",
        gate=gate(DIGIT, "morning afternoon evening night"),
        starts=_starts("this in at tomorrow tonight morning afternoon evening night".split())),
    DtPattern("noon_midnight", _c(
        r"(?<![\w])(?P<noon>(?:12\s+)?(?i:noon|midday|midnight))(?![\w])"), 0.85, "time",
        gate=gate("noon midday midnight"),
        starts=_starts("noon midday midnight".split(), digits=True)),
    DtPattern("shared_ampm_range", _c(
        rf"(?<![\d:.,$€£])(?P<hour>{_HOUR12})(?::(?P<minute>[0-5]\d))?\s*(?:-|–|—|to|until|till)\s*"
        rf"(?P<hour2>{_HOUR12})(?::(?P<minute2>[0-5]\d))?\s?{_AMPM}"), 0.9, "timerange",
        gate=gate(DIGIT, _AMPM_WORDS),
        starts=_S_DIGIT),
    DtPattern("between_ampm_range", _c(
        rf"(?<![\w])(?i:between)\s+(?P<hour>{_HOUR12})(?::(?P<minute>[0-5]\d))?\s+(?i:and)\s+"
        rf"(?P<hour2>{_HOUR12})(?::(?P<minute2>[0-5]\d))?\s?{_AMPM}"), 0.9, "timerange",
        gate=gate(DIGIT, _AMPM_WORDS, "between"),
        starts=_starts("between")),
    DtPattern("decimal_seconds", _c(
        r"(?<![\w.])(?P<count>\d{1,5}\.\d{1,3})\s?(?P<unit>s)(?![\w])"), 0.7, "duration",
        gate=gate("<w.w>"),
        starts=_S_DIGIT),
    DtPattern("duration", _c(
        r"(?<![\w])(?P<prep>(?i:within|for|in|over|after|under|about|around|up\s+to|at\s+least|"
        r"at\s+most|another|the\s+next|the\s+last|the\s+past|next|last|past)\s+)?"
        + _COUNT + r"(?:(?<=\d)[\s-]*|[\s-]+)"  # "500ms" glued, after digits only
        r"(?P<kindword>(?i:working|business|calendar|full|whole)\s+)?"
        + _DURATION_UNIT + r"(?P<dir>\s+(?i:ago|from\s+now|later|earlier))?"), 0.7, "duration",
        gate=gate(_UNIT_WORDS),
        starts=_S_DURATION),
)

_LIGHT_JOIN = rx(
    r"^(?:\s*,?\s*|\s*,?\s*(?:at|on|from|by|around|about|@|the|of)\s+|\s*\(\s*|\s*,\s*"
    r"(?:at|on|from|between)\s+)$", regex.IGNORECASE)
_RANGE_JOIN = rx(
    r"^\s*(?:-|–|—|to|until|till|til|through|thru)\s*$|^\s*(?:-|–|—)\s*$", regex.IGNORECASE)
_AND_JOIN = rx(r"^\s+and\s+$", regex.IGNORECASE)
_BETWEEN = rx(r"(?i)\bbetween\s+$")
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


def _info(m: regex.Match[str], role: str) -> dict[str, Any]:
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


def _valid(atom: Atom) -> bool:
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


# --- merging ---------------------------------------------------------------------------


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


def _subtype(chain: list[Atom], joins: list[str]) -> str:
    cats = {_category(a.role) for a in chain}
    if "range" in joins or any(a.role in ("timerange", "daterange") for a in chain) \
            or any("/" in a.info.get("iso", "") for a in chain):
        return "range"
    if cats == {"duration"}:
        return "relative" if chain[0].info.get("relative") else "duration"
    if "date" in cats and "time" in cats:
        return "datetime"
    if "time" in cats:
        return "time"
    if any(a.info.get("relative") or a.role in ("relday",) for a in chain):
        return "relative"
    if any(a.role == "weekday" for a in chain) and not any(a.role == "date" for a in chain):
        return "relative"
    if any(a.role == "iso" and "T" in a.info.get("iso", "") for a in chain):
        return "datetime"
    return "date"


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
                atom = Atom(m.start(), m.end(), pat.role, pat.score, pat.name, _info(m, pat.role))
                if _valid(atom):
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
            if lead and chain[0].role != "duration" and subtype != "range":
                start, subtype = lead.start(), "deadline"
            out.append(Candidate.of(
                text, start, end, kind=Kind.DATETIME, subtype=subtype,
                score=max(a.score for a in chain), extractor=NAME,
                why="patterns " + "+".join(repr(a.name) for a in chain),
                value=value, attrs=attrs,
            ))
        return out
