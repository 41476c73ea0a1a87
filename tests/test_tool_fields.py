"""Typed values from JSON tool output, by key."""

from __future__ import annotations

import pytest

from extractors.base import TurnView
from extractors.values.tool_fields import ToolFields, classify

EXTRACTOR = ToolFields()


def extract(text: str, role: str = "tool"):
    return EXTRACTOR.extract(TurnView(thread="t", number=1, role=role, text=text))


@pytest.mark.parametrize("key, expected", [
    ("price_eur", ("amount", "money")),
    ("goodwillLimitEUR", ("amount", "money")),
    ("balance_after", ("amount", "money")),
    ("disk_used_pct", ("amount", "percent")),
    ("booking_ref", ("identifier", "reference")),
    ("card_last4", ("identifier", "reference")),
    ("delivered_on", ("datetime", "date")),
    ("expires_at", ("datetime", "date")),
    ("lockout_duration_min", ("datetime", "duration")),
    ("status", None),
    ("guest_count", None),
    ("exit_code", None),  # a process's outcome, not a reference
    ("errno", None),
    ("order_status", None),
    ("on", None),
    ("customer_name", None),
    ("demurrage_gbp_per_day", ("amount", "money")),
    ("gross_pay", ("amount", "money")),
    ("student_loan", ("amount", "money")),
    ("mileage_limit", None),
    ("price_per_kg_eur", ("amount", "money")),
    ("refund_eta_days", ("datetime", "duration")),
    ("cancel_notice_hours", ("datetime", "duration")),
    ("due_day", ("datetime", "date")),
    ("days", None),
    ("billing_period", ("datetime", "date")),
    ("registration", ("identifier", "reference")),
])
def test_classify(key, expected):
    got = classify(key)
    assert (got if got is None else (got[0].value, got[1])) == expected


def test_amounts_ids_dates_and_durations_from_one_result():
    text = ('{"order_id": "A-77215", "price_eur": 1240.0, "fee": 0.00, "currency": "EUR", '
            '"refund": {"total": 930}, "delivered_on": "2026-10-08", "duration_s": 312, '
            '"status": "delivered", "authorized": true, "guests": 2}')
    found = {c.text: c for c in extract(text)}
    assert set(found) == {"A-77215", "1240.0", "0.00", "930", "2026-10-08", "312"}
    assert found["1240.0"].value == {"amount": "1240.0", "currency": "EUR"}
    assert found["930"].value == {"amount": "930", "currency": "EUR"}
    assert found["312"].value == {"iso": "PT312S"}
    assert found["1240.0"].label == "price"
    for c in found.values():
        assert text[c.start:c.end] == c.text


def test_prose_turns_are_left_to_the_prose_patterns():
    assert extract('The "price": 12 is wrong', role="user") == []
    assert extract('{"price": 12}', role="user")  # a pasted JSON object is structured


def test_words_are_not_identifiers_or_dates():
    assert extract('{"booking_ref": "pending", "due_date": "soon", "end": 5}') == []


def test_decimal_strings_and_negative_amounts():
    text = '{"amount": "-312.50", "currency": "USD", "sum_insured_chf": "180000", "fee": "n/a"}'
    found = {c.text: c for c in extract(text)}
    assert set(found) == {"-312.50", "180000"}
    assert found["-312.50"].value == {"amount": "312.50", "currency": "USD"}
    assert found["-312.50"].attrs == {"sign": "negative"}
    assert found["180000"].value == {"amount": "180000", "currency": "CHF"}


def test_currency_from_any_key_word_durations_by_unit_suffix_and_iso_months():
    text = ('{"demurrage_gbp_per_day": "85.00", "refund_eta_days": 5, '
            '"cancel_notice_hours": 24, "period": "2026-03", "mileage_limit": 100000}')
    found = {c.text: c for c in extract(text)}
    assert set(found) == {"85.00", "5", "24", "2026-03"}
    assert found["85.00"].value == {"amount": "85.00", "currency": "GBP"}
    assert found["5"].value == {"iso": "P5D"}
    assert found["24"].value == {"iso": "PT24H"}
    assert found["2026-03"].value == {"iso": "2026-03"}


def test_two_decimals_beside_a_currency_field_are_money_whatever_the_key():
    text = ('{"gross": "4333.33", "pension": 216.67, "pension_pct": 5, "weight_kg": 12.50, '
            '"amount": {"value": "2500.00", "currency": "GBP"}, "version": "2.10"}')
    found = {c.text: c.value for c in extract(text)}
    assert found == {"4333.33": {"amount": "4333.33", "currency": "GBP"},
                     "216.67": {"amount": "216.67", "currency": "GBP"},
                     "5": {"percent": "5"},
                     "2500.00": {"amount": "2500.00", "currency": "GBP"}}
