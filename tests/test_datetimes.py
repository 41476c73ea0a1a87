"""The datetime extractor: one span per phrase, subtypes, and values only when resolvable."""

from __future__ import annotations

import pytest

from extractors.base import TurnView
from extractors.datetimes import RegexDatetimes


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
    ],
)
def test_no_false_dates(text: str) -> None:
    assert dts(text) == []
