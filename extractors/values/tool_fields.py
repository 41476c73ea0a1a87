"""Values in structured tool output, typed by their JSON keys.

A tool result such as ``{"price_eur": 1240.0, "booking_ref": "COL-66104", "duration_s":
312}`` states what each number is in its key; the prose patterns cannot see that a bare
``1240.0`` (or a decimal string ``"1240.00"``) is money. This extractor scans
``"key": value`` leaf pairs (at any depth) of tool turns and of turns that are a JSON
object or list, and pins the value verbatim (the digits, or the text inside the quotes)
when the key says what it is:

* amount: a currency code in the key (``goodwill_limit_eur``, ``demurrage_gbp_per_day``)
  or a money word (``price``, ``total``, ``fee``, ``pay``, ...) without a word of another
  measure (``mileage_limit`` is a distance); ``pct``/``percent`` keys give
  percentages. The currency comes from the key's code, else from a ``"currency"`` field
  of the same text, else stays unknown.
* identifier: an id word in the key (``order_id``, ``booking_ref``, ``card_last4``, ...).
* datetime: a date/time word (``delivered_on``, ``expires_at``, ``due_date``,
  ``billing_period``; an ISO string is also the value, ``{"iso": "2026-03"}``) or a duration
  with its unit (``duration_s``, ``lockout_duration_min``, ``refund_eta_days``; value
  ``{"iso": "PT312S"}``, as the prose durations).

Booleans, nulls and keys that say nothing (``status``, ``count``, ``qty``) are skipped.
In the carried-forward block, amounts and dates from tool turns stay out (they would
flood it); identifiers are shown.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import AmountSubtype, DatetimeSubtype, Kind, Money
from extractors.text.guard import find_all, rx

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "toolfields.json.v1"
SCORE = 0.85

PAIR = rx(
    r'"(?P<key>[A-Za-z][A-Za-z0-9_ .\-]{0,63})"\s*:\s*'
    r'(?:(?P<num>-?\d{1,18}(?:\.\d{1,12})?(?:[eE][+-]?\d{1,3})?)(?![\w.])'
    r'|"(?P<str>(?:[^"\\\n]|\\.){1,300})")'
)
CURRENCY_FIELD = rx(r'"currency(?:_code)?"\s*:\s*"(?P<code>[A-Za-z]{3})"')
_CODE = rx(r"\d|^[A-Z][A-Z0-9_-]{3,}$")
_DIGIT = rx(r"\d")
_DECIMAL_STRING = rx(r"-?\d{1,18}(?:\.\d{1,12})?")
_CENTS = rx(r"-?\d{1,15}\.\d{2}")
#: An ISO 8601 month, date or date-time, kept as the value of a date field as written.
_ISO_DATE = rx(
    r"(?:19|20)\d{2}-(?:0[1-9]|1[0-2])(?:-[0-3]\d(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d"
    r"(?:\.\d{1,6})?)?(?:Z|[+-][0-2]\d:?[0-5]\d)?)?)?")
_SPLIT = rx(r"[_ .\-]+|(?<=[a-z])(?=[A-Z])")

CURRENCY_CODES = frozenset(
    "eur usd gbp chf jpy cny inr aud cad nzd sek nok dkk pln czk huf brl mxn zar sgd hkd".split()
)
MONEY_WORDS = frozenset("""
price prices amount total subtotal fee fees charge charges cost costs balance deposit refund
fare rent excess deductible payment paid premium tax vat discount credit debit sum salary
budget limit owed due insured tip surcharge penalty fine pay wage wages bonus overage loan
contribution insurance deduction deductions allowance commission compensation reimbursement
interest principal instalment installment bond duty levy rebate payout spend revenue income
""".split())
#: Words of a quantity that is not money: "mileage_limit" is a distance, "seats_total" a count.
MEASURE_WORDS = frozenset("""
mileage miles mi km kg lb lbs weight distance size bytes kb mb gb tb kwh units seats users
pages cartons pieces version ratio score rating lat lng lon latitude longitude temp
temperature
""".split())
PERCENT_WORDS = frozenset("pct percent percentage rate_pct".split())
ID_WORDS = frozenset("""
id ids ref reference number no code last4 sku pnr iban uuid sha hash locator ticket invoice
order booking confirmation account tracking registration plate vin serial imei container
awb waybill
""".split())
DATE_WORDS = frozenset("""
date time until expires expiry expiration deadline due when timestamp start end slot period
month
""".split())
#: Words that make a date key only as its last part: ``delivered_on``, ``created_at``.
DATE_SUFFIXES = frozenset("on at".split())
DURATION_WORDS = frozenset(
    "duration timeout lockout elapsed latency wait ttl delay eta notice interval uptime "
    "downtime".split())
DURATION_UNITS = {"ms": "PT{}S", "s": "PT{}S", "sec": "PT{}S", "secs": "PT{}S",
                  "seconds": "PT{}S", "min": "PT{}M", "mins": "PT{}M", "minutes": "PT{}M",
                  "h": "PT{}H", "hrs": "PT{}H", "hours": "PT{}H", "days": "P{}D", "d": "P{}D",
                  "weeks": "P{}W", "months": "P{}M", "years": "P{}Y"}
#: Plural units that make a key a duration on their own as its last part
#: (``refund_eta_days``, ``cancel_notice_hours``); "day" alone is often a day of month.
UNIT_SUFFIXES = frozenset(
    "ms secs seconds mins minutes hrs hours days weeks months years".split())
#: Keys that look like one of the above but hold counts, flags, names or a process's
#: outcome (``exit_code``: 0 is no reference).
NOT_VALUES = frozenset("""
count qty quantity nights guests items status ok success type name kind method note
description reason message label exit errno
""".split())


def key_words(key: str) -> list[str]:
    """Split a JSON key into lower-case words: ``goodwillLimit_EUR`` -> goodwill limit eur."""
    return [w.lower() for w in _SPLIT.split(key) if w]


def classify(key: str) -> tuple[Kind, str] | None:
    """Return (kind, subtype) for a key, or None when the key does not say."""
    words = key_words(key)
    if not words or set(words) & NOT_VALUES:
        return None
    last = words[-1]
    if set(words) & PERCENT_WORDS:
        return Kind.AMOUNT, AmountSubtype.PERCENT
    if set(words) & CURRENCY_CODES:
        return Kind.AMOUNT, AmountSubtype.MONEY
    if len(words) > 1 and last in UNIT_SUFFIXES:
        # "refund_eta_days": the refund is not the value
        return Kind.DATETIME, DatetimeSubtype.DURATION
    if set(words) & MEASURE_WORDS:
        return None
    if len(words) > 1 and (last in DATE_WORDS or last in DATE_SUFFIXES or last == "day"):
        return Kind.DATETIME, DatetimeSubtype.DATE  # "due_date", "paid_on": the last word says what
    if set(words) & MONEY_WORDS and not set(words) & {"id", "ref"}:
        return Kind.AMOUNT, AmountSubtype.MONEY
    if set(words) & DURATION_WORDS:
        return Kind.DATETIME, DatetimeSubtype.DURATION
    if set(words) & ID_WORDS:
        return Kind.IDENTIFIER, "reference"
    if set(words) & DATE_WORDS or (len(words) > 1 and last in DATE_SUFFIXES):
        return Kind.DATETIME, DatetimeSubtype.DATE
    return None


def _plain_key(m: regex.Match[str]) -> bool:
    """True unless the key names a count, a flag or another measure (``weight_kg``)."""
    words = set(key_words(m.group("key")))
    return not words & NOT_VALUES and not words & MEASURE_WORDS and not words & PERCENT_WORDS


def _label(key: str) -> str | None:
    words = [w for w in key_words(key) if w not in CURRENCY_CODES and w not in DURATION_UNITS
             and w not in {"id", "ref", "eur"}]
    return " ".join(words) or None


def structured(text: str) -> bool:
    """True when a text is data (a JSON object or list), not prose or console output."""
    return text.lstrip()[:1] in ("{", "[")


def _looks_structured(turn: TurnView) -> bool:
    return turn.role == "tool" or structured(turn.text)


class ToolFields:
    """Pin values of JSON leaf pairs whose key says what they are."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return candidates for the typed leaf values of a structured turn."""
        if not _looks_structured(turn):
            return []
        text = turn.text
        currency_match = CURRENCY_FIELD.search(text)
        currency = currency_match.group("code").upper() if currency_match else None
        out: list[Candidate] = []
        for m in find_all(PAIR, text, name=NAME, where=f"turn {turn.number}"):
            typed = classify(m.group("key"))
            if typed is None and currency and _CENTS.fullmatch(m.group("num") or m.group("str")
                                                               or "") and _plain_key(m):
                # Beside a "currency" field, a number with two decimals is money whatever
                # its key ("gross", "pension", "value" under "amount").
                typed = Kind.AMOUNT, AmountSubtype.MONEY
            if typed is None:
                continue
            kind, subtype = typed
            group = "num" if m.group("num") is not None else "str"
            start, end = m.span(group)
            raw = m.group(group)
            value = None
            attrs: dict[str, str] = {}
            if kind == Kind.AMOUNT:
                if group != "num" and not _DECIMAL_STRING.fullmatch(raw):
                    continue  # "€12.50" and words are the amount patterns' job
                try:
                    number = Decimal(raw)
                except InvalidOperation:
                    continue
                if number < 0:  # as the amount patterns do: the number as written, a sign
                    attrs["sign"] = "negative"
                    number = -number
                words = key_words(m.group("key"))
                codes = [w for w in words if w in CURRENCY_CODES]
                code = codes[-1].upper() if codes else currency
                money = subtype == AmountSubtype.MONEY
                value = (Money(amount=number, currency=code).as_value() if money
                         else {"percent": str(number)})  # as the amount patterns write it
            elif kind == Kind.IDENTIFIER:
                if not _CODE.search(raw):
                    continue  # "pending", "yes": words, not identifiers
                value = {"normalized": raw.upper() if group == "str" else raw}
            elif subtype == DatetimeSubtype.DURATION:
                unit = key_words(m.group("key"))[-1]
                if group != "num" or unit not in DURATION_UNITS:
                    continue
                if unit == "ms":
                    raw_seconds = format(Decimal(raw) / 1000, "f")
                    value = {"iso": DURATION_UNITS[unit].format(raw_seconds)}
                else:
                    value = {"iso": DURATION_UNITS[unit].format(raw)}
            elif group == "num" or not _DIGIT.search(raw):
                continue  # an epoch, a day count or a word under a date key says too little
            elif _ISO_DATE.fullmatch(raw):
                value = {"iso": raw}
            out.append(Candidate.of(text, start, end, kind=kind, subtype=subtype, score=SCORE,
                                    extractor=NAME, why=f"JSON key {m.group('key')!r}",
                                    label=_label(m.group("key")), value=value, attrs=attrs))
        return out
