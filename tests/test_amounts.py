"""The amount extractor: a table of (text, expected amounts), values and labels."""

from __future__ import annotations

from decimal import Decimal

import pytest

from extractors.base import TurnView
from extractors.values.amounts import RegexAmounts, parse_digits, parse_words


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
    "text, expected",
    [
        ("total 2.340,00 € (Kaution 1.560,00 and Miete 780,00)",
         [("2.340,00 €", "money"), ("1.560,00", "money"), ("780,00", "money")]),
        ("pay 2000 now, the 4,061.10 on a plan", [("2000", "money"), ("4,061.10", "money")]),
        ("disk 77G used of 80G, quota 500 GB", [("77G", "quantity"), ("80G", "quantity"),
                                               ("500 GB", "quantity")]),
        ("~18.4M rows in 368 batches, 7 disconnects", [("~18.4M rows", "quantity"),
                                                       ("368 batches", "quantity"),
                                                       ("7 disconnects", "quantity")]),
        ("the margin is 9 percentage points", [("9 percentage points", "percent")]),
    ],
)
def test_bare_money_and_quantities(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(c.text, c.subtype) for c in amounts(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Version 3.10 and 3.12 are both fine.",  # two decimals, but no money in the turn
        "We paid a visit at 10.30 with 2 people, 0 connections.",
    ],
)
def test_bare_numbers_need_money(text: str) -> None:
    assert [c.text for c in amounts(text) if c.subtype != "percent"] == []


def test_a_quantity_value_keeps_its_unit() -> None:
    (found,) = amounts("we have 18.4M rows")
    assert found.value == {"quantity": "18400000", "unit": "rows"}


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
        # what the buyer paid, said after it; a total, said after it
        ("On the 12.995,00 kr. you paid, that's a tenth.", "purchase price"),
        ("the $49 that I was charged", "purchase price"),
        ("That's 1 947 kr in total.", "total"),
        ("USD 1,627.68 including sales tax.", "total"),
        ("So the $7.95 label fee comes off the refund.", "deduction"),
        ("€20 is deducted for the missing charger.", "deduction"),
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


@pytest.mark.parametrize(
    "text, span, amount, currency",
    [
        ("€930", "€930", "930", "EUR"),
        ("930 EUR", "930 EUR", "930", "EUR"),
        ("USD 12.50", "USD 12.50", "12.50", "USD"),
        ("12.50 dollars", "12.50 dollars", "12.50", "USD"),
        ("£12.50", "£12.50", "12.50", "GBP"),
        ("CHF 89.– net", "CHF 89.–", "89", "CHF"),
        ("89,- €", "89,- €", "89", "EUR"),
        ("1.240,00 €", "1.240,00 €", "1240.00", "EUR"),
        ("total 1 240,00 €", "1 240,00 €", "1240.00", "EUR"),
        ("total 1\u202f240,00 €", "1\u202f240,00 €", "1240.00", "EUR"),
        ("total 1\u00a0240,00 EUR", "1\u00a0240,00 EUR", "1240.00", "EUR"),
        ("CHF 1'314.97", "CHF 1'314.97", "1314.97", "CHF"),
        ("CHF 1’314.97", "CHF 1’314.97", "1314.97", "CHF"),
        ("¥1,200", "¥1,200", "1200", "JPY"),
        ("¥1.200", "¥1.200", "1200", "JPY"),
        ("₹500", "₹500", "500", "INR"),
        ("R$ 20,00", "R$ 20,00", "20.00", "BRL"),
        ("kr 350", "kr 350", "350", None),
        ("350 kr.", "350 kr.", "350", None),
        ("$5k", "$5k", "5000", "USD"),
        ("$1.2m", "$1.2m", "1200000", "USD"),
        ("€2bn", "€2bn", "2000000000", "EUR"),
        ("25000 cents", "25000 cents", "250.00", None),
        ("20 swiss francs", "20 swiss francs", "20", "CHF"),
    ],
)
def test_currency_forms(text: str, span: str, amount: str, currency: str | None) -> None:
    (cand,) = amounts(text)
    assert (cand.text, cand.subtype, cand.value) == (
        span, "money", {"amount": amount, "currency": currency})


def test_cents_take_the_currency_of_the_turn() -> None:
    got = amounts("That is $3 plus 25000 cents.")
    assert [c.value for c in got] == [{"amount": "3", "currency": "USD"},
                                      {"amount": "250.00", "currency": "USD"}]


@pytest.mark.parametrize("text, span", [("Price: €1.240 all in.", "€1.240"),
                                        ("1.240 EUR", "1.240 EUR"), ("$2.500", "$2.500")])
def test_ambiguous_dot_group_has_no_value(text: str, span: str) -> None:
    (cand,) = amounts(text)
    assert (cand.text, cand.value) == (span, None)


@pytest.mark.parametrize(
    "text, span, signed",
    [
        ("Adjustment -€20 applied", "-€20", True),
        ("Adjustment: −€20", "−€20", True),
        ("balance €-20", "€-20", True),
        ("You get a €20 credit.", "€20", True),
        ("Line total €20 CR", "€20", True),
        ("Refund: (€20)\nTotal: €100", "€20", True),
        ("| Refund | (€20) |", "€20", True),
        ("the fee (€20) is waived", "€20", False),
        ("a €20 fee", "€20", False),
        ("prices €10-€15", "€10-€15", False),
    ],
)
def test_negative_sign(text: str, span: str, signed: bool) -> None:
    cand = amounts(text)[0]
    assert cand.text == span
    assert cand.attrs.get("sign") == ("negative" if signed else None)
    if cand.subtype == "money":
        assert cand.value is not None and not cand.value["amount"].startswith("-")


@pytest.mark.parametrize(
    "text, span, low, high, currency",
    [
        ("rooms are €10–15 a night", "€10–15", "10", "15", "EUR"),
        ("$10-$15", "$10-$15", "10", "15", "USD"),
        ("$10 - $15", "$10 - $15", "10", "15", "USD"),
        ("between 10 and 15 euros", "between 10 and 15 euros", "10", "15", "EUR"),
        ("Between €10 and €15.", "Between €10 and €15", "10", "15", "EUR"),
        ("10 to 15 euros", "10 to 15 euros", "10", "15", "EUR"),
        ("10–15 €", "10–15 €", "10", "15", "EUR"),
        ("$5k-$10k", "$5k-$10k", "5000", "10000", "USD"),
    ],
)
def test_ranges(text: str, span: str, low: str, high: str, currency: str) -> None:
    (cand,) = amounts(text)
    assert (cand.text, cand.subtype) == (span, "range")
    assert cand.value == {"min": low, "max": high, "currency": currency}


@pytest.mark.parametrize(
    "text, spans",
    [
        ("It went from $10 to $15.", ["$10", "$15"]),
        ("2024-25 EUR", ["25 EUR"]),
        ("$15-$10", ["$15", "$10"]),
        ("€10 and €15", ["€10", "€15"]),
    ],
)
def test_not_ranges(text: str, spans: list[str]) -> None:
    got = amounts(text)
    assert [c.text for c in got] == spans
    assert all(c.subtype == "money" for c in got)


@pytest.mark.parametrize(
    "text, per",
    [
        ("It costs $150 per night.", "night"),
        ("$24.00 per seat per month", "seat per month"),
        ("$9/mo", "month"),
        ("€12 a day", "day"),
        ("$30 per adult", "adult"),
        ("$30 per the contract", None),
        ("$30 today", None),
    ],
)
def test_rates(text: str, per: str | None) -> None:
    (cand,) = amounts(text)
    assert cand.attrs.get("per") == per


@pytest.mark.parametrize(
    "text, label",
    [
        ("We'll refund €930 today.", "refund"),
        ("There is a €75 restocking fee.", "restocking fee"),
        ("plus €18 delivery charge", "delivery charge"),
        ("plus $4.20 tax", "tax"),
        ("The tax is $4.20.", "tax"),
    ],
)
def test_more_labels(text: str, label: str) -> None:
    (cand,) = amounts(text)
    assert cand.label == label


@pytest.mark.parametrize(
    "text",
    [
        "We are 2 people.",
        "I need 10 seats for 3 nights.",
        "Book 4 rooms for 2 adults and 1 child.",
        "The flight has 180 seats and takes 3 hours.",
        "It's 2 miles away, 15 minutes on foot.",
        "Apartment with 2 bedrooms, 1,250 square feet.",
        "Version 1.240, build 1 240.",
        "Call me at 5, we have 3 tickets.",
    ],
)
def test_counts_are_not_amounts(text: str) -> None:
    assert amounts(text) == []


def test_money_value_is_importable_and_single() -> None:
    from extractors.values.amounts import money_value

    assert money_value("a refund of €930") == {"amount": "930", "currency": "EUR"}
    assert money_value("€930 or €40") is None
    assert money_value("€10–15") is None


@pytest.mark.parametrize("text", [
    "1," * 500_000, "9" * 1_000_000, "1 " * 500_000 + "€", "1'" * 500_000, "1.–" * 330_000,
    "1,2" * 330_000 + " EUR", "between 1 and " * 70_000 + "euros",
    # dense in amounts: every few characters is one, so 100 KB is plenty
    "€1-" * 33_000, "$1 per " * 14_000,
])
def test_megabyte_runs_return_verbatim(text: str) -> None:
    """Return on 1 MB runs of digits and separators (the patterns are linear)."""
    for cand in amounts(text):
        assert text[cand.start:cand.end] == cand.text
