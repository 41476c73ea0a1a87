"""Resolution of date parts against a reference date: pure, deterministic, no clock."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from extractors.values.dateresolve import (
    DateParts,
    add_business_days,
    duration_code,
    normalize_rel,
    resolve_date,
    shift_date,
)

REF = date(2026, 11, 29)  # a Sunday


@pytest.mark.parametrize(
    "parts, iso",
    [
        (DateParts(month=12, day=3), "2026-12-03"),
        (DateParts(month=11, day=28), "2026-11-28"),  # the day before: yesterday
        (DateParts(month=10, day=8), "2026-10-08"),  # "delivered on 8 October"
        (DateParts(month=3, day=1), "2027-03-01"),  # nearer next March than last
        (DateParts(month=2, day=29), "2028-02-29"),  # next leap year
        (DateParts(year=2025, month=2, day=29), None),
        (DateParts(month=12, day=3, weekday=3), "2026-12-03"),
        (DateParts(month=12, day=3, weekday=4), None),
        (DateParts(month=3), "2027-03"),
        (DateParts(month=11), "2026-11"),
        (DateParts(day=11), "2026-12-11"),
        (DateParts(day=29), "2026-11-29"),
        (DateParts(day=31), "2026-12-31"),
        (DateParts(day=31, month_rel="this"), None),  # no 31 November
        (DateParts(day=9, month_rel="last"), "2026-10-09"),
        (DateParts(weekday=6), "2026-11-29"),
        (DateParts(weekday=0), "2026-11-30"),
        (DateParts(weekday=0, weekday_rel="next"), "2026-11-30"),
        (DateParts(weekday=5, weekday_rel="last"), "2026-11-28"),
        (DateParts(weekday=6, weekday_rel="last"), "2026-11-22"),
        (DateParts(weekday=2, week_rel="this"), "2026-11-25"),
        (DateParts(relday="tonight"), "2026-11-29"),
        (DateParts(relday="the day before yesterday"), "2026-11-27"),
        (DateParts(relday="this week"), "2026-W48"),
        (DateParts(relday="last month"), "2026-10"),
        (DateParts(relday="next year"), "2027"),
        (DateParts(relday="end of the week"), "2026-12-04"),  # Friday not yet past
        (DateParts(relday="end of next week"), "2026-12-11"),
        (DateParts(relday="end of next month"), "2026-12-31"),
        (DateParts(relday="next weekend"), "2026-12-05/2026-12-06"),
        (DateParts(relday="end of the year"), "2026-12-31"),
        (DateParts(iso="2026-10-08"), "2026-10-08"),
        (DateParts(year=2026, ambiguous=(3, 12)), None),
    ],
)
def test_resolve_date(parts: DateParts, iso: str | None) -> None:
    assert resolve_date(parts, REF) == iso


def test_next_thursday_from_a_monday_is_the_week_after() -> None:
    monday = date(2026, 11, 30)
    assert resolve_date(DateParts(weekday=3), monday) == "2026-12-03"
    assert resolve_date(DateParts(weekday=3, weekday_rel="next"), monday) == "2026-12-10"


@pytest.mark.parametrize("order, iso", [(None, None), ("dmy", "2026-12-03"),
                                        ("mdy", "2026-03-12")])
def test_ambiguous_numeric_date_follows_convention(order: str | None, iso: str | None) -> None:
    assert resolve_date(DateParts(year=2026, ambiguous=(3, 12)), REF, order) == iso


@pytest.mark.parametrize(
    "parts",
    [DateParts(month=12, day=3), DateParts(day=11), DateParts(weekday=3),
     DateParts(relday="tomorrow"), DateParts(month=3)],
)
def test_no_reference_no_value(parts: DateParts) -> None:
    assert resolve_date(parts, None) is None


def test_full_dates_need_no_reference() -> None:
    assert resolve_date(DateParts(year=2026, month=12, day=3), None) == "2026-12-03"


@pytest.mark.parametrize("word, rel", [("next", "next"), ("The  following", "next"),
                                       ("this coming", "this"), ("coming", "this"),
                                       ("last", "last"), (None, None), ("", None)])
def test_normalize_rel(word: str | None, rel: str | None) -> None:
    assert normalize_rel(word) == rel


@pytest.mark.parametrize("count, unit, code", [(3, "day", "P3D"), (2, "hour", "PT2H"),
                                               (30, "minute", "PT30M"), (6, "month", "P6M"),
                                               (2, "night", "P2D"), (1, "year", "P1Y"),
                                               (1, "fortnight", "P2W"), (3, "fortnight", "P6W"),
                                               (500, "millisecond", "PT0.5S"),
                                               (1500, "millisecond", "PT1.5S"),
                                               (1, "furlong", None)])
def test_duration_code(count: int, unit: str, code: str | None) -> None:
    assert duration_code(count, unit) == code


@pytest.mark.parametrize(
    "start, n, end",
    [(date(2026, 11, 27), 1, date(2026, 11, 30)),  # Friday + 1 -> Monday
     (date(2026, 11, 29), 5, date(2026, 12, 4)),
     (date(2026, 11, 30), -1, date(2026, 11, 27)),
     (date(2026, 11, 30), 0, date(2026, 11, 30))],
)
def test_add_business_days(start: date, n: int, end: date) -> None:
    assert add_business_days(start, n) == end


@pytest.mark.parametrize(
    "count, unit, working, end",
    [(1, "month", False, date(2026, 12, 29)), (-2, "week", False, date(2026, 11, 15)),
     (3, "day", True, date(2026, 12, 2)), (1, "year", False, date(2027, 11, 29)),
     (2, "hour", False, None)],
)
def test_shift_date(count: int, unit: str, working: bool, end: date | None) -> None:
    assert shift_date(REF, count, unit, working) == end


def test_month_end_clamps() -> None:
    assert shift_date(date(2027, 1, 31), 1, "month") == date(2027, 2, 28)


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2090, 12, 31)),
       st.integers(1, 12), st.integers(1, 31), st.sampled_from([None, 0, 3, 6]))
def test_year_less_dates_are_the_nearest_occurrence(ref: date, month: int, day: int,
                                                     weekday: int | None) -> None:
    iso = resolve_date(DateParts(month=month, day=day, weekday=weekday), ref)
    if iso is not None:
        found = date.fromisoformat(iso)
        assert (found.month, found.day) == (month, day)
        assert abs((found - ref).days) <= 183 or (month, day) == (2, 29)
        assert weekday is None or found.weekday() == weekday
    assert iso == resolve_date(DateParts(month=month, day=day, weekday=weekday), ref)


@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2090, 12, 31)), st.integers(0, 6),
       st.sampled_from([None, "this", "next", "last"]))
def test_weekdays_land_on_their_weekday(ref: date, weekday: int, rel: str | None) -> None:
    found = date.fromisoformat(resolve_date(DateParts(weekday=weekday, weekday_rel=rel), ref))
    assert found.weekday() == weekday
    assert (found < ref) if rel == "last" else (found >= ref)
    assert abs((found - ref).days) <= 13
