"""The datetime extractor: one span per phrase, subtypes, and values only when resolvable."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from extractors.base import TurnView
from extractors.values.datetimes import RegexDatetimes


def dts(text: str, role: str = "assistant") -> list:
    return RegexDatetimes().extract(TurnView(thread="t", number=1, role=role, text=text))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'll fly on March 1st.", [("March 1st", "date")]),
        ("How about the 11th?", [("the 11th", "date")]),
        ("on the 3rd of March", [("the 3rd of March", "date")]),
        ("the 9th of this month", [("the 9th of this month", "relative")]),
        ("delivered on 8 October.", [("8 October", "date")]),
        ("Let's do it today.", [("today", "relative")]),
        ("later today works", [("later today", "relative")]),
        ("next Monday please", [("next Monday", "relative")]),
        ("Wednesday next week", [("Wednesday next week", "relative")]),
        ("until tomorrow afternoon.", [("tomorrow afternoon", "relative")]),
        ("the day after tomorrow", [("the day after tomorrow", "relative")]),
        ("any time this weekend", [("this weekend", "relative")]),
        ("at 7:30 pm", [("7:30 pm", "time")]),
        ("half past 12 in the afternoon", [("half past 12 in the afternoon", "time")]),
        ("quarter to 4 in the afternoon", [("quarter to 4 in the afternoon", "time")]),
        ("12 o\"clock in the afternoon", [("12 o\"clock in the afternoon", "time")]),
        ("four in the evening", [("four in the evening", "time")]),
        ("make it in the evening 6.", [("in the evening 6", "time")]),
        ("at 18:30.", [("18:30", "time")]),
        ("Wednesday 14:00-18:00 or", [("Wednesday 14:00-18:00", "range")]),
        ("Booked: Thursday 3 December, 14:00-18:00, reference COL-66104.",
         [("Thursday 3 December, 14:00-18:00", "range")]),
        ("usually within 5 working days.", [("within 5 working days", "duration")]),
        ('"delivered_on": "2026-10-08"', [("2026-10-08", "date")]),
        ("Friday at 5pm CET", [("Friday at 5pm CET", "datetime")]),
        ("March 3rd at 7 pm", [("March 3rd at 7 pm", "datetime")]),
        ("from 2-4pm", [("2-4pm", "range")]),
        ("Tuesday 10:00-14:00, Wednesday 14:00-18:00 or Thursday 14:00-18:00",
         [("Tuesday 10:00-14:00", "range"), ("Wednesday 14:00-18:00", "range"),
          ("Thursday 14:00-18:00", "range")]),
        ("Wednesday or Thursday afternoon", [("Wednesday", "relative"),
                                             ("Thursday afternoon", "relative")]),
        ("3 days ago", [("3 days ago", "relative")]),
        # a duration stated as a service target is a deadline, the target's words its span
        ("That carries a 4-hour resolution target.", [("4-hour resolution target", "deadline")]),
        ("P2 has a resolution target of 8 business hours.",
         [("resolution target of 8 business hours", "deadline")]),
        ("It took 4 hours to fix.", [("4 hours", "duration")]),
    ],
)
def test_phrases(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(c.text, c.subtype) for c in dts(text)] == expected


@pytest.mark.parametrize(
    "text, iso",
    [
        ("March 4th 2019", "2019-03-04"),
        ("2026-10-08", "2026-10-08"),
        ("2026-12-02T14:00/18:00", "2026-12-02T14:00/18:00"),
        ("25/12/2026", "2026-12-25"),
        ("7:30 pm", "19:30"),
        ("18:30", "18:30"),
        ("quarter to 4 in the afternoon", "15:45"),
        ("half past 12 in the afternoon", "12:30"),
        ("midnight", "00:00"),
        ("14:00-18:00", "14:00/18:00"),
        ("Monday 09:00-13:00 slot", None),
        ("8 December 2026, 14:00-18:00", "2026-12-08T14:00/2026-12-08T18:00"),
        ("for 24 hours", "PT24H"),
        ("within 5 working days", None),
        ("March 1st", None),
        ("4:30", None),
        ("12/03/2026", None),
        ("tomorrow at 3pm", None),
    ],
)
def test_value_only_when_resolvable(text: str, iso: str | None) -> None:
    (cand,) = dts(text)
    assert (cand.value or {}).get("iso") == iso


def test_attrs_keep_known_parts() -> None:
    (cand,) = dts("Thursday 3 December, 14:00-18:00")
    assert cand.attrs == {"weekday": 3, "month": 12, "day": 3, "time": "14:00",
                          "end_time": "18:00"}


@pytest.mark.parametrize(
    "text",
    [
        "Returns after day 30 may be accepted.",
        "We need 2 tickets for 4 people; it is 81 degrees and $12.50.",
        "Python 3.11.4 on port 8080, version 1.2.3, ratio 3:2.",
        "You may want the 4th floor or the first option.",
        "The courier doesn't collect at weekends in the evening.",
        "I will march 5 miles.",
        "oneday we will see",  # a number word glued to a unit is not a duration
        "Let me check, one sec.",
        "hang on two mins",
        "a stay of 3 nights",  # a count of stays, not a duration
        "it calls date.today() here",  # code, not a date
        "MS Teams crashed",
        "the suitcase 1234 tag",
    ],
)
def test_no_false_dates(text: str) -> None:
    assert dts(text) == []


# --- values against a reference date ------------------------------------------------------

#: A Sunday: "this Friday" and "next Thursday" fall in the following week.
REF = datetime(2026, 11, 29, 10, 15)


def resolved(text: str, reference: datetime | None = REF,
             date_order: str | None = None) -> list[tuple[str, str, dict | None]]:
    turn = TurnView(thread="t", number=1, role="user", text=text, reference=reference)
    return [(c.text, c.subtype, c.value)
            for c in RegexDatetimes(date_order=date_order).extract(turn)]


@pytest.mark.parametrize(
    "text, span, subtype, value",
    [
        ("on 3 Dec", "3 Dec", "date", {"iso": "2026-12-03"}),
        ("on 3 March", "3 March", "date", {"iso": "2027-03-03"}),  # next occurrence
        ("on 29 November", "29 November", "date", {"iso": "2026-11-29"}),  # on the day
        ("15.12.2026", "15.12.2026", "date", {"iso": "2026-12-15"}),
        ("2026-12-03", "2026-12-03", "date", {"iso": "2026-12-03"}),
        ("Thursday 3 December", "Thursday 3 December", "date", {"iso": "2026-12-03"}),
        ("Friday 3 December", "Friday 3 December", "date", None),  # weekday disagrees
        ("today", "today", "relative", {"iso": "2026-11-29"}),
        ("tomorrow afternoon", "tomorrow afternoon", "relative", {"iso": "2026-11-30"}),
        ("the day after tomorrow", "the day after tomorrow", "relative",
         {"iso": "2026-12-01"}),
        ("yesterday", "yesterday", "relative", {"iso": "2026-11-28"}),
        ("next Thursday", "next Thursday", "relative", {"iso": "2026-12-03"}),
        ("this Friday", "this Friday", "relative", {"iso": "2026-12-04"}),
        ("on Sunday", "Sunday", "relative", {"iso": "2026-11-29"}),
        ("last Monday", "last Monday", "relative", {"iso": "2026-11-23"}),
        ("Wednesday next week", "Wednesday next week", "relative", {"iso": "2026-12-02"}),
        ("in 3 days", "in 3 days", "relative", {"iso": "2026-12-02"}),
        ("2 weeks ago", "2 weeks ago", "relative", {"iso": "2026-11-15"}),
        ("the 11th", "the 11th", "date", {"iso": "2026-12-11"}),
        ("the 30th", "the 30th", "date", {"iso": "2026-11-30"}),
        ("the 9th of next month", "the 9th of next month", "relative",
         {"iso": "2026-12-09"}),
        ("in March", "March", "date", {"iso": "2027-03"}),
        ("March 2026", "March 2026", "date", {"iso": "2026-03"}),
        ("next week", "next week", "relative", {"iso": "2026-W49"}),
        ("next month", "next month", "relative", {"iso": "2026-12"}),
        ("end of the month", "end of the month", "relative", {"iso": "2026-11-30"}),
        ("March 3-5", "March 3-5", "range", {"iso": "2027-03-03/2027-03-05"}),
        ("Monday to Wednesday", "Monday to Wednesday", "range",
         {"iso": "2026-11-30/2026-12-02"}),
        ("14:00-18:00", "14:00-18:00", "range", {"iso": "14:00/18:00"}),
        ("Thursday 3 December, 14:00-18:00", "Thursday 3 December, 14:00-18:00", "range",
         {"iso": "2026-12-03T14:00/2026-12-03T18:00"}),
        ("March 3rd at 10:30 am to March 7th", "March 3rd at 10:30 am to March 7th", "range",
         {"iso": "2027-03-03T10:30/2027-03-07"}),
        ("16:30 next Friday until the 12th of March", "16:30 next Friday until the 12th of March",
         "range", {"iso": "2026-12-04T16:30/2027-03-12"}),
        ("Tuesday 10:00 to Thursday 14:00", "Tuesday 10:00 to Thursday 14:00", "range",
         {"iso": "2026-12-01T10:00/2026-12-03T14:00"}),
        ("from 2 pm to 5 pm on Friday", "2 pm to 5 pm on Friday", "range",
         {"iso": "2026-12-04T14:00/2026-12-04T17:00"}),
        ("this weekend at 3pm", "this weekend at 3pm", "datetime", None),
        ("at 12:30", "12:30", "time", {"iso": "12:30"}),
        ("at 10:30", "10:30", "time", None),  # 10:30 or 22:30
        ("2pm", "2pm", "time", {"iso": "14:00"}),
        ("quarter to 4 in the afternoon", "quarter to 4 in the afternoon", "time",
         {"iso": "15:45"}),
        ("tomorrow at 3pm", "tomorrow at 3pm", "datetime", {"iso": "2026-11-30T15:00"}),
        ("next Thursday at 18:30", "next Thursday at 18:30", "datetime",
         {"iso": "2026-12-03T18:30"}),
        ("pay by Friday", "by Friday", "deadline", {"iso": "2026-12-04"}),
        ("before 5pm", "before 5pm", "deadline", {"iso": "17:00"}),
        ("no later than 3 Dec", "no later than 3 Dec", "deadline", {"iso": "2026-12-03"}),
        ("within 5 working days", "within 5 working days", "duration",
         {"duration": "P5D", "business_days": True, "until": "2026-12-04"}),
        ("for 24 hours", "for 24 hours", "duration", {"iso": "PT24H"}),
        ("in 2 hours", "in 2 hours", "relative", None),  # no trusted time of day
        ("3 days later", "3 days later", "relative", None),  # later than what?
        ("two weeks from now", "two weeks from now", "relative", {"iso": "2026-12-13"}),
        ("by end of week", "by end of week", "deadline", {"iso": "2026-12-04"}),
        ("it crashed last night", "last night", "relative", {"iso": "2026-11-28"}),
        ("I called this morning", "this morning", "relative", {"iso": "2026-11-29"}),
        ("the next day it worked", "the next day", "relative", None),  # after what?
        ("timeout after 500ms", "after 500ms", "duration", {"iso": "PT0.5S"}),
        ("p95 is 250 ms", "250 ms", "duration", {"iso": "PT0.25S"}),
        ("retry for 30 secs", "for 30 secs", "duration", {"iso": "PT30S"}),
        ("for a fortnight", "for a fortnight", "duration", {"iso": "P2W"}),
        ("in a fortnight", "in a fortnight", "relative", {"iso": "2026-12-13"}),
        ("between 2 and 4pm", "between 2 and 4pm", "range", {"iso": "14:00/16:00"}),
        ("between 2:30 and 4 pm on Friday", "between 2:30 and 4 pm on Friday", "range",
         {"iso": "2026-12-04T14:30/2026-12-04T16:00"}),
        ("one o'clock", "one o'clock", "time", None),  # 1:00 or 13:00
        ("passed in 2.31s", "2.31s", "duration", {"iso": "PT2.31S"}),
        ("latency 4.8 s", "4.8 s", "duration", {"iso": "PT4.8S"}),
        ("for 1.5 hours", "for 1.5 hours", "duration", {"iso": "PT1.5H"}),
        ("see you the same day", "the same day", "relative", None),
    ],
)
def test_resolved_against_reference(text: str, span: str, subtype: str,
                                    value: dict | None) -> None:
    assert resolved(text) == [(span, subtype, value)]


@pytest.mark.parametrize(
    "text, order, iso",
    [
        ("03/12/2026", None, None),
        ("03/12/2026", "dmy", "2026-12-03"),
        ("03/12/2026", "mdy", "2026-03-12"),
        ("13/12/2026", None, "2026-12-13"),
        ("12/13/2026", None, "2026-12-13"),
        ("12/13/2026", "dmy", "2026-12-13"),  # one reading only, whatever the convention
        ("2026/12/03", None, "2026-12-03"),
    ],
)
def test_numeric_dates_need_a_convention_when_ambiguous(text: str, order: str | None,
                                                        iso: str | None) -> None:
    ((_, _, value),) = resolved(text, date_order=order)
    assert (value or {}).get("iso") == iso


def test_the_turn_can_carry_the_date_order() -> None:
    turn = TurnView(thread="t", number=1, role="user", text="on 03/12/2026", reference=REF,
                    date_order="dmy")
    assert [c.value for c in RegexDatetimes().extract(turn)] == [{"iso": "2026-12-03"}]
    # The extractor's own setting wins over the turn's.
    assert [c.value for c in RegexDatetimes(date_order="mdy").extract(turn)] == [
        {"iso": "2026-03-12"}]


def test_bad_date_order_is_refused() -> None:
    with pytest.raises(ValueError):
        RegexDatetimes(date_order="ymd")


@pytest.mark.parametrize(
    "text",
    ["today", "tomorrow afternoon", "next Thursday", "this Friday", "in 3 days", "the 11th",
     "3 Dec", "Thursday 3 December", "by Friday", "tomorrow at 3pm", "next week",
     "3 days ago", "in March"],
)
def test_no_reference_leaves_relative_values_none(text: str) -> None:
    ((_, _, value),) = resolved(text, reference=None)
    assert value is None


@pytest.mark.parametrize("text, iso", [("2pm", "14:00"), ("3 December 2026", "2026-12-03"),
                                       ("for 24 hours", "PT24H")])
def test_absolute_values_need_no_reference(text: str, iso: str) -> None:
    ((_, _, value),) = resolved(text, reference=None)
    assert value == {"iso": iso}


def test_same_input_and_reference_same_values() -> None:
    text = ("Tomorrow at 3pm or next Thursday 14:00-18:00; the 11th; by Friday; "
            "within 5 working days; 03/12/2026; in 3 days.")
    runs = [resolved(text, date_order="dmy") for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    assert all(value is not None for _, _, value in runs[0])
    other = resolved(text, reference=datetime(2026, 12, 7), date_order="dmy")
    assert other != runs[0]  # the values follow the reference, nothing else


def test_timestamp_time_of_day_is_ignored() -> None:
    late = datetime(2026, 11, 29, 23, 59, tzinfo=UTC)
    assert resolved("tomorrow", reference=late) == resolved("tomorrow")
