"""The amount extractor: a table of (text, expected amounts), values and labels."""

from __future__ import annotations

from decimal import Decimal

import pytest

from extractors.amounts import RegexAmounts, parse_digits, parse_words
from extractors.base import TurnView


def amounts(text: str, role: str = "assistant") -> list:
    return RegexAmounts().extract(TurnView(thread="t", number=1, role=role, text=text))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The refund would be €930 today.", [("€930", "930", "EUR")]),
        ("the €1,240 purchase price", [("€1,240", "1240", "EUR")]),
        ("That is 930 EUR in total.", [("930 EUR", "930", "EUR")]),
        ("Pay USD 12.50 now", [("USD 12.50", "12.50", "USD")]),
        ("balance of $18,124.73.", [("$18,124.73", "18124.73", "USD")]),
        ("transfer 1,790 dollars to Amir", [("1,790 dollars", "1790", "USD")]),
        ("it was 12.50 dollars", [("12.50 dollars", "12.50", "USD")]),
        ("a £12.50 fee", [("£12.50", "12.50", "GBP")]),
        ("Summe: 1.240,00 €", [("1.240,00 €", "1240.00", "EUR")]),
        ("send one hundred and sixteen bucks", [("one hundred and sixteen bucks", "116", "USD")]),
        ("about a thousand dollars", [("a thousand dollars", "1000", "USD")]),
        ("$ 3600 a month", [("$ 3600", "3600", "USD")]),
        ("a $5k budget", [("$5k", "5000", "USD")]),
        ("50 cents", [("50 cents", "0.50", None)]),
        ("CHF 40 or C$15", [("CHF 40", "40", "CHF"), ("C$15", "15", "CAD")]),
    ],
)
def test_money(text: str, expected: list[tuple[str, str, str | None]]) -> None:
    got = amounts(text)
    assert [(c.text, c.subtype) for c in got] == [(t, "money") for t, _, _ in expected]
    for cand, (_, amount, currency) in zip(got, expected, strict=True):
        assert cand.value is not None
        assert Decimal(cand.value["amount"]) == Decimal(amount)
        assert cand.value["currency"] == currency


@pytest.mark.parametrize(
    "text, span, percent",
    [
        ("less the 25% opening deduction", "25%", "25"),
        ("the humidity will be around 25 percent.", "25 percent", "25"),
        ("only 10 % chance of rain", "10 %", "10"),
        ("twenty-five percent off", "twenty-five percent", "25"),
        ("a 2.5% fee", "2.5%", "2.5"),
    ],
)
def test_percent(text: str, span: str, percent: str) -> None:
    (cand,) = amounts(text)
    assert (cand.text, cand.subtype, cand.value) == (span, "percent", {"percent": percent})


@pytest.mark.parametrize(
    "text",
    [
        "We are 2 people and need 4 tickets.",
        '{"authorized": true, "goodwill_limit_eur": 1500}',
        '{"price_eur": 1240.0, "delivery_charge_eur": 18.0}',
        "It is 81 degrees with 3 baths and 1,250 points.",
        "Python 3.11.4, line 42, port 8080, in 2026.",
        "ten o'clock, one of them, two or three",
    ],
)
def test_not_amounts(text: str) -> None:
    assert amounts(text) == []


@pytest.mark.parametrize(
    "text, label",
    [
        ("The refund would be €930 — that's it.", "refund"),
        ("I've waived the €75 restocking fee for this return.", "restocking fee"),
        ("Should the original €18 delivery charge be refunded too?", "delivery charge"),
        ("the €1,240 purchase price less", "purchase price"),
        ("The rent is $4,700 per month.", "rent"),
        ("Your account balance is $1,442.16.", "account balance"),
        ("The ride fare is $12.60.", "ride fare"),
        ("I need to transfer 800 dollars.", "transfer"),
        ("The rent costs $1,850 per month", "rent"),
        ("€930 works for me.", None),
        ('{"refund_eur": "€930"}', "refund"),
    ],
)
def test_label(text: str, label: str | None) -> None:
    (cand,) = amounts(text)
    assert cand.label == label


def test_per_unit_attr() -> None:
    (cand,) = amounts("It costs $150 per night.")
    assert cand.attrs == {"per": "night"}


def test_labelled_bare_number_has_no_currency() -> None:
    (cand,) = amounts("Rent for this unit is 1600 per month.")
    assert (cand.text, cand.value) == ("1600", {"amount": "1600", "currency": None})


@pytest.mark.parametrize(
    "raw, expected",
    [("1,240", "1240"), ("18,124.73", "18124.73"), ("1.240,00", "1240.00"), ("12,50", "12.50"),
     ("930", "930"), ("1.240.000", "1240000"), ("1.240", None), ("1,2,3", None)],
)
def test_parse_digits_never_guesses(raw: str, expected: str | None) -> None:
    got = parse_digits(raw)
    assert (None if got is None else format(got, "f")) == expected


def test_ambiguous_number_keeps_span_without_value() -> None:
    (cand,) = amounts("Price: €1.240 all in.")
    assert (cand.text, cand.value) == ("€1.240", None)


@pytest.mark.parametrize(
    "raw, expected",
    [("one hundred and sixteen", 116), ("twenty-five", 25), ("a thousand", 1000),
     ("one thousand four hundred and seventy", 1470), ("ten twenty", None)],
)
def test_parse_words(raw: str, expected: int | None) -> None:
    got = parse_words(raw)
    assert (None if got is None else int(got)) == expected


def test_values_are_decimal_strings_not_floats() -> None:
    (cand,) = amounts("$0.10")
    assert cand.value == {"amount": "0.10", "currency": "USD"}
