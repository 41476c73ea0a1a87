"""The date/time pattern table and what it is built from.

Here belong the word tables (month, weekday, ordinal and number words), the regex
fragments the patterns share (``_MONTH``, ``_DAYNUM``, ``_COUNT``, ``_DURATION_UNIT``,
...), the gate tokens and start-word sets, and :data:`PATTERNS`: one :class:`DtPattern`
per kind of atom (a calendar date, a weekday, a relative day, a clock time, a part of
the day, a duration). What a match means is read in :mod:`extractors.values.datetime_atoms`;
how atoms join into phrases, in :mod:`extractors.values.datetimes`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import regex

from extractors.text.gates import ALWAYS, DIGIT, Gate, gate, words_of
from extractors.text.guard import Guarded, rx

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
    # When something happens, said without a date: "next business day", "the same day",
    # "just now", "with immediate effect", "in business hours" ("the day after" alone is
    # left out: in booking talk it is part of a date being chosen, not a value).
    DtPattern("timing_phrase", _c(
        r"(?<![\w])(?P<relday>(?i:(?:the\s+)?(?:next|same|following)\s+(?:business|working)\s+day"
        r"|(?:the\s+)?same\s+day|the\s+(?:same\s+or\s+next|next\s+or\s+same)\s+day"
        r"|just\s+now|with\s+immediate\s+effect|immediately"
        r"|(?:in|during|within|outside(?:\s+of)?)\s+(?:business|office|working)\s+hours))"
        r"(?![\w])"), 0.6, "relday",
        gate=gate("day now immediate immediately hours"),
        starts=_starts("the next same following just with immediately in during within "
                       "outside".split())),
    DtPattern("part_of_day", _c(
        r"(?<![\w])(?P<part>(?i:(?:in\s+the\s+|this\s+)?(?:(?:early|late|mid)[\s-])?"
        r"(?:morning|afternoon|evening)|"
        r"(?:at\s+)?night|noon|lunchtime))(?![\w])"), 0.5, "part",
        gate=gate("morning afternoon evening night noon lunchtime"),
        starts=_starts("in this early late mid morning afternoon evening at night noon "
                       "lunchtime".split())),
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
    # "4h", "30 min", "30 s" (a glued "s" is a plural: "the 502s", "under-18s").
    DtPattern("compact_duration", _c(
        r"(?<![\w.:$€£-])(?P<count>\d{1,5})(?:\s?(?P<unit>h|min)|\s(?P<unit>s))(?![\w.])"),
        0.6, "duration",
        gate=gate(DIGIT, "h s min"),
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
