"""Values in structured tool output, typed by their JSON keys.

A tool result such as ``{"price_eur": 1240.0, "booking_ref": "COL-66104", "duration_s":
312}`` states what each number is in its key; the prose patterns cannot see that a bare
``1240.0`` (or a decimal string ``"1240.00"``) is money. This extractor scans
``"key": value`` leaf pairs (at any depth) of tool turns and of turns that are a JSON
object or list, and pins the value verbatim (the digits, or the text inside the quotes)
when the key says what it is:

* amount: a money word in the key (``price``, ``total``, ``fee``, ``balance``, ...) or a
  currency code as its last part (``goodwill_limit_eur``); ``pct``/``percent`` keys give
  percentages. The currency comes from the key's code, else from a ``"currency"`` field
  of the same text, else stays unknown.
* identifier: an id word in the key (``order_id``, ``booking_ref``, ``card_last4``, ...).
* datetime: a date/time word (``delivered_on``, ``expires_at``, ``due_date``) or a
  duration with its unit (``duration_s``, ``lockout_duration_min``).

Booleans, nulls and keys that say nothing (``status``, ``count``, ``qty``) are skipped.
In the carried-forward block, amounts and dates from tool turns stay out (they would
flood it); identifiers are shown.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView, find_all, register
from scratchpad.records import Kind, Money

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "toolfields.json.v1"
TIMEOUT = 1.0
SCORE = 0.85

PAIR = regex.compile(
    r'"(?P<key>[A-Za-z][A-Za-z0-9_ .\-]{0,63})"\s*:\s*'
    r'(?:(?P<num>-?\d{1,18}(?:\.\d{1,12})?(?:[eE][+-]?\d{1,3})?)(?![\w.])'
    r'|"(?P<str>(?:[^"\\\n]|\\.){1,300})")'
)
CURRENCY_FIELD = regex.compile(r'"currency(?:_code)?"\s*:\s*"(?P<code>[A-Za-z]{3})"')
_CODE = regex.compile(r"\d|^[A-Z][A-Z0-9_-]{3,}$")
_DIGIT = regex.compile(r"\d")
_DECIMAL_STRING = regex.compile(r"-?\d{1,18}(?:\.\d{1,12})?")
_SPLIT = regex.compile(r"[_ .\-]+|(?<=[a-z])(?=[A-Z])")

CURRENCY_CODES = frozenset(
    "eur usd gbp chf jpy cny inr aud cad nzd sek nok dkk pln czk huf brl mxn zar sgd hkd".split()
)
MONEY_WORDS = frozenset("""
price prices amount total subtotal fee fees charge charges cost costs balance deposit refund
fare rent excess deductible payment paid premium tax vat discount credit debit sum salary
budget limit owed due insured tip surcharge penalty fine
""".split())
PERCENT_WORDS = frozenset("pct percent percentage rate_pct".split())
ID_WORDS = frozenset("""
id ids ref reference number no code last4 sku pnr iban uuid sha hash locator ticket invoice
order booking confirmation account tracking
""".split())
DATE_WORDS = frozenset("""
date time until expires expiry expiration deadline due when timestamp start end slot
""".split())
#: Words that make a date key only as its last part: ``delivered_on``, ``created_at``.
DATE_SUFFIXES = frozenset("on at".split())
DURATION_WORDS = frozenset("duration timeout lockout elapsed latency wait ttl".split())
DURATION_UNITS = {"ms": "PT{}S", "s": "PT{}S", "sec": "PT{}S", "secs": "PT{}S",
                  "seconds": "PT{}S", "min": "PT{}M", "mins": "PT{}M", "minutes": "PT{}M",
                  "h": "PT{}H", "hours": "PT{}H", "days": "P{}D", "d": "P{}D"}
#: Keys that look like one of the above but hold counts, flags or names.
NOT_VALUES = frozenset("""
count qty quantity nights guests items status ok success type name kind method note
description reason message label
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
        return Kind.AMOUNT, "percent"
    if last in CURRENCY_CODES or set(words) & MONEY_WORDS and not set(words) & {"id", "ref"}:
        return Kind.AMOUNT, "money"
    if set(words) & DURATION_WORDS:
        return Kind.DATETIME, "duration"
    if set(words) & ID_WORDS:
        return Kind.IDENTIFIER, "reference"
    if set(words) & DATE_WORDS or (len(words) > 1 and last in DATE_SUFFIXES):
        return Kind.DATETIME, "date"
    return None


def _label(key: str) -> str | None:
    words = [w for w in key_words(key) if w not in CURRENCY_CODES and w not in DURATION_UNITS
             and w not in {"id", "ref", "eur"}]
    return " ".join(words) or None


def _looks_structured(turn: TurnView) -> bool:
    head = turn.text.lstrip()[:1]
    return turn.role == "tool" or head in ("{", "[")


@register(NAME)
class ToolFields:
    """Pin values of JSON leaf pairs whose key says what they are."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return candidates for the typed leaf values of a structured turn."""
        if not _looks_structured(turn):
            return []
        text = turn.text
        currency_match = CURRENCY_FIELD.search(text, timeout=TIMEOUT)
        currency = currency_match.group("code").upper() if currency_match else None
        out: list[Candidate] = []
        for m in find_all(PAIR, text, timeout=TIMEOUT, name=NAME, where=f"turn {turn.number}"):
            typed = classify(m.group("key"))
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
                code = words[-1].upper() if words[-1] in CURRENCY_CODES else currency
                value = Money(amount=number, currency=code if subtype == "money" else None
                              ).as_value()
            elif kind == Kind.IDENTIFIER:
                if not _CODE.search(raw):
                    continue  # "pending", "yes": words, not identifiers
                value = {"normalized": raw.upper() if group == "str" else raw}
            elif subtype == "duration":
                unit = key_words(m.group("key"))[-1]
                if group != "num" or unit not in DURATION_UNITS:
                    continue
                if unit == "ms":
                    raw_seconds = format(Decimal(raw) / 1000, "f")
                    value = {"duration": DURATION_UNITS[unit].format(raw_seconds)}
                else:
                    value = {"duration": DURATION_UNITS[unit].format(raw)}
            elif group == "num" or not _DIGIT.search(raw):
                continue  # an epoch, a day count or a word under a date key says too little
            out.append(Candidate.of(text, start, end, kind=kind, subtype=subtype, score=SCORE,
                                    extractor=NAME, why=f"JSON key {m.group('key')!r}",
                                    label=_label(m.group("key")), value=value, attrs=attrs))
        return out
