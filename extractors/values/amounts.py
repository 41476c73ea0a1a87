"""Money amounts, ranges, rates and percentages: named, scored patterns plus a small class.

An amount needs a currency marker (symbol, ISO code or currency word, before or after
the number) or a percent marker; a bare number is never an amount, so counts
("2 people", "10 seats", "3 nights") and numbers inside tool JSON stay out. The one
exception is a number right after a money noun and a copula ("the rent is 1600"), with
no currency. Numbers are parsed by :mod:`extractors.values.money` (``Decimal`` strings, never
float); a genuinely ambiguous number ("€1.240": 1240 or 1.24?) keeps its span, value None.
The patterns are in :mod:`extractors.values.amount_patterns`.

Value shapes (``Candidate.value``):

* subtype ``money``: ``{"amount": "930", "currency": "EUR"}``; currency None when the
  marker names no single currency ("kr", "cents" with no other currency in the turn).
  "25000 cents" is 250.00 in the one currency the turn's other amounts use, else None.
* subtype ``range``: ``{"min": "10", "max": "15", "currency": "EUR"}`` for "€10–15",
  "$10-$15", "between €10 and €15", "10 to 15 euros". When the ends do not make a
  range (other currencies, min >= max, an ambiguous end: "2024-25 EUR"), each end
  that is an amount on its own is found alone.
  ("from $10 to $15" stays two amounts: it is as often a change as a range.)
* subtype ``percent``: ``{"percent": "25"}``.

Signs: the amount is always the magnitude as written; a negative reading goes in
``attrs["sign"] = "negative"``: a minus right before or after the symbol ("-€20",
"€-20", the minus is inside the span), accounting parentheses closing a line or table
cell ("Refund: (€20)"; "the fee (€20) is waived" is an aside, not a sign), or a credit
marker right after ("€20 credit", "€20 CR"). Values of the same money then compare equal
however they were signed. Rates: "$24.00 per seat per month" has ``attrs["per"] =
"seat per month"``.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import AmountSubtype, Kind, Money
from extractors.text import guard, spans
from extractors.text.gates import GateIndex, tokens
from extractors.text.guard import find_all, rx
from extractors.text.lexicon import function_words
from extractors.values.amount_patterns import PATTERNS, AmountPattern
from extractors.values.money import (
    CODES,
    MINOR_WORDS,
    SYMBOL_CHARS,
    SYMBOLS,
    WORDS,
    currency_of,
    parse_digits,
    parse_number,
    parse_words,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["CODES", "NAME", "SYMBOLS", "WORDS", "RegexAmounts", "find_label", "money_value",
           "parse_digits", "parse_words"]

log = logging.getLogger(__name__)

NAME = "amounts.regex.v1"

# --- labels ----------------------------------------------------------------------------

#: Nouns that name what an amount is for.
LABEL_HEADS: frozenset[str] = frozenset(
    "refund fee fees charge charges price cost fare fares rent balance deposit "
    "discount deduction credit payment total subtotal tip tax surcharge penalty fine "
    "salary budget limit compensation reimbursement voucher allowance commission premium "
    "wage bill rate withdrawal shipping postage excess copay installment "
    "instalment fee".split()
)
#: Verbs before an amount that say what it is for.
LABEL_VERBS: dict[str, str] = {
    "refund": "refund", "refunded": "refund", "refunding": "refund",
    "transfer": "transfer", "transferred": "transfer", "transferring": "transfer",
    "pay": "payment", "paid": "payment", "paying": "payment",
    "cost": "cost", "costs": "cost", "charge": "charge", "charged": "charge",
    "withdraw": "withdrawal", "withdrew": "withdrawal", "deposit": "deposit",
    "deposited": "deposit",
}
STOPWORDS: frozenset[str] = function_words(
    "a an the my your our their his her its this that these those of for to is was are "
    "were be been being would will can could should may might and or but with at by on "
    "in from as per each every any some no not it i you we they he she which what who "
    "there here so than then also just only about around approximately roughly gonna "
    "wanna going please")
_WORD_RE = rx(r"[A-Za-z][A-Za-z'-]*")
_SENTENCE_BREAK = rx(r"[.!?;\n](?=\s|$)|[\n{}\[\]]")
_CLAUSE_BREAK = rx(r",\s|\b(?:and|but|or|while|whereas|so)\b", regex.IGNORECASE)
_JSON_KEY = rx(r"\"([A-Za-z_][\w-]*)\"\s*:\s*\"?\s*$")


#: What the buyer paid, said after the amount: "the 12.995,00 kr. you paid", "€89 that I
#: was charged", "1 947 kr in total", "USD 1,627.68 including 8.875% sales tax".
PAID_AFTER = rx(r"(?<!\s)(?:\s*(?:(?:that|which)\s+)?(?:you|I|we)\s+"
                r"(?:(?:have|had|originally|already)\s+)?"
                r"(?P<paid>paid|spent|were\s+charged|was\s+charged)\b"
                r"|\s+(?P<total>in\s+total|total|all\s+in|including\s+(?:[\d.,]+%\s+)?"
                r"(?:\w+\s+)?(?:tax|vat|gst))\b)", regex.IGNORECASE, linear=True)


#: What is taken off, said after the amount: "the $7.95 label fee comes off the refund",
#: "€20 is deducted for the missing charger".
DEDUCTED_AFTER = rx(r"(?<!\s)(?:\s+[\w-]+){0,3}?\s+(?:comes?|is|are|will\s+be|gets?|get)\s+"
                    r"(?:off|deducted|taken\s+off|kept\s+back|withheld|subtracted)\b",
                    regex.IGNORECASE, linear=True)


def _label_after(text: str, end: int) -> str | None:
    words = _WORD_RE.findall(text[end:end + 40].split("\n", 1)[0])
    gap = text[end:end + 40]
    if DEDUCTED_AFTER.match(gap):
        return "deduction"
    paid = PAID_AFTER.match(gap)
    if paid is not None:
        return "purchase price" if paid.group("paid") else "total"
    if gap and not gap[:1].isspace():
        return None
    for i, word in enumerate(words[:3]):
        low = word.lower()
        if low in LABEL_HEADS:
            return " ".join(w.lower() for w in words[: i + 1])
        if low in STOPWORDS or not word.isalpha():
            return None
    return None


def _label_before(text: str, start: int) -> str | None:
    window = text[max(0, start - 80):start]
    breaks = list(_SENTENCE_BREAK.finditer(window))
    if breaks:
        window = window[breaks[-1].end():]
    clauses = list(_CLAUSE_BREAK.finditer(window))
    if clauses:
        window = window[clauses[-1].end():]
    words = list(_WORD_RE.finditer(window))[-5:]
    for i in range(len(words) - 1, -1, -1):
        low = words[i].group(0).lower()
        if low in LABEL_HEADS:
            prev = words[i - 1] if i > 0 else None
            if prev is not None and prev.group(0).isalpha() \
                    and window[prev.end():words[i].start()].isspace() \
                    and prev.group(0).lower() not in STOPWORDS \
                    and prev.group(0).lower() not in LABEL_VERBS:
                return f"{prev.group(0).lower()} {low}"
            return low
        if low in LABEL_VERBS:  # "the rent costs $X": the subject noun wins over the verb
            for j in range(i - 1, max(-1, i - 3), -1):
                if words[j].group(0).lower() in LABEL_HEADS:
                    return words[j].group(0).lower()
            return LABEL_VERBS[low]
    return None


def _label_json(text: str, start: int) -> str | None:
    match = _JSON_KEY.search(text[max(0, start - 60):start])
    if not match:
        return None
    key = guard.sub(r"(?i)[_-]?(eur|usd|gbp|amount|value)$", "", match.group(1))
    return key.replace("_", " ").lower() or None


def find_label(text: str, start: int, end: int) -> str | None:
    """Return what the amount at ``text[start:end]`` is for, from nearby words."""
    return _label_json(text, start) or _label_after(text, end) or _label_before(text, start)


# --- values, signs and rates ------------------------------------------------------------


def _number(groups: dict[str, str | None], currency: str | None, second: bool = False
            ) -> Decimal | None:
    suffix = "2" if second else ""
    return parse_number(groups.get("num" + suffix), groups.get("words"),
                        groups.get("mult" + suffix), currency)


def _money(groups: dict[str, str | None]) -> dict[str, str | None] | None:
    marker = groups.get("cur")
    currency = currency_of(marker)
    number = _number(groups, currency)
    if number is None:
        return None
    if marker and marker.lower() in MINOR_WORDS:
        number = number.scaleb(-2)
    return Money(amount=number, currency=currency).as_value()


def _range(groups: dict[str, str | None]) -> dict[str, str | None] | None:
    marker = groups.get("cur") or ""
    currency = currency_of(marker)
    other = groups.get("cur2")
    if other and currency_of(other) != currency:
        return None
    low, high = _number(groups, currency), _number(groups, currency, second=True)
    if low is None or high is None or low >= high:
        return None
    if marker.lower() in MINOR_WORDS:
        low, high = low.scaleb(-2), high.scaleb(-2)
    return {"min": format(low, "f"), "max": format(high, "f"), "currency": currency}


def _value(groups: dict[str, str | None], subtype: str) -> dict[str, str | None] | None:
    if subtype == AmountSubtype.QUANTITY:
        number = _number(groups, None)
        unit = " ".join((groups.get("unit") or "").split())
        return None if number is None else {"quantity": format(number, "f"), "unit": unit}
    if subtype == AmountSubtype.PERCENT:
        number = _number(groups, None)
        return None if number is None else {"percent": format(number, "f")}
    if subtype == AmountSubtype.RANGE:
        return _range(groups)
    return _money(groups)


_PER = rx(
    r"\s*(?:(?:per|/)\s*(?!(?:the|a|an|cent)\b)([A-Za-z]{2,15})"
    r"|(?:a|an|each|every)\s+(night|month|day|week|year|hour|person|ticket|head|seat|user"
    r"|guest|room|adult|child|mile|kilometer|km|minute|item|unit|visit|session|lesson))\b",
    regex.IGNORECASE,
)
#: Short forms after "/" ("$9/mo").
_PER_SHORT: dict[str, str] = {"mo": "month", "hr": "hour", "yr": "year", "wk": "week",
                              "h": "hour", "d": "day"}
_CREDIT_AFTER = rx(r"\s(?:(?i:credit)|CR|Cr)\b")
_CELL_END = rx(r"\)[ \t]*(?:$|\n|\|)")


def _per(text: str, end: int) -> str | None:
    """Return the unit(s) of a rate after ``end`` ("per seat per month"), at most three."""
    units: list[str] = []
    pos = end
    while len(units) < 3:
        m = _PER.match(text, pos)
        if not m:
            break
        word = (m.group(1) or m.group(2)).lower()
        units.append(_PER_SHORT.get(word, word) if m.group(0).lstrip().startswith("/")
                     else word)
        pos = m.end()
    return " per ".join(units) or None


def _sign(text: str, start: int, end: int, groups: dict[str, str | None]
          ) -> tuple[int, bool]:
    """Return the span start (widened over a leading minus) and whether it reads negative."""
    if groups.get("neg"):
        return start, True
    if start >= 1 and text[start - 1] in "-\u2212" and (
            start == 1 or not (text[start - 2].isalnum() or text[start - 2] in SYMBOL_CHARS)):
        return start - 1, True
    if start >= 1 and text[start - 1] == "(" and _CELL_END.match(text, end) and (
            start == 1 or text[start - 2] in " \t\n|:"):
        return start, True
    return start, bool(_CREDIT_AFTER.match(text, end))


def _select(found: list[tuple[int, int, float, int, Candidate]]) -> list[Candidate]:
    """Keep non-overlapping candidates: longest first, then best score, then pattern order."""
    preferred = sorted(found, key=lambda f: (f[0] - f[1], -f[2], f[3], f[0]))
    return [f[4] for f in spans.select(preferred, lambda f: (f[0], f[1]))]


def _minor_currency(found: list[Candidate]) -> list[Candidate]:
    """Give "25000 cents" the one currency the turn's other amounts use, if there is one."""
    used = {c.value["currency"] for c in found
            if c.subtype in ("money", "range") and c.value and c.value.get("currency")}
    if len(used) != 1:
        return found
    (currency,) = used
    out = []
    for c in found:
        words = c.text.lower().split()
        if c.value and c.value.get("currency") is None and words and words[-1] in MINOR_WORDS:
            c = c.model_copy(update={"value": {**c.value, "currency": currency}})
        out.append(c)
    return out


class RegexAmounts:
    """Find money amounts, ranges and percentages next to a currency or percent marker."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False
    patterns: ClassVar[tuple[AmountPattern, ...]] = PATTERNS

    def __init__(self, prefilter: bool = True) -> None:
        #: Skip the patterns whose gate a turn fails (:mod:`extractors.text.gates`).
        self.prefilter = prefilter
        self._gates = GateIndex([p.gate for p in self.patterns])

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return amount candidates of one turn, without overlaps, in text order."""
        text = turn.text
        found: list[tuple[int, int, float, int, Candidate]] = []
        orders = (self._gates.admitted(tokens(text)) if self.prefilter
                  else range(len(self.patterns)))
        needs_met: dict[int, bool] = {}  # patterns share one "turn talks money" check
        for order in orders:
            pat = self.patterns[order]
            if pat.needs is not None:
                met = needs_met.get(id(pat.needs))
                if met is None:
                    met = needs_met[id(pat.needs)] = pat.needs.search(text) is not None
                if not met:
                    continue
            # Shipped, linear patterns (tests/test_value_properties.py): guarded on long
            # texts only.
            for m in find_all(pat.pattern, text, name=pat.name,
                              where=f"turn {turn.number}"):
                start, end = m.span(pat.span_group)
                groups = m.groupdict()
                attrs: dict[str, Any] = {}
                if pat.subtype not in (AmountSubtype.PERCENT, AmountSubtype.QUANTITY):
                    start, negative = _sign(text, start, end, groups)
                    if negative:
                        attrs["sign"] = "negative"
                    per = _per(text, end)
                    if per:
                        attrs["per"] = per
                value = _value(groups, pat.subtype)
                if value is None and pat.subtype == AmountSubtype.RANGE:
                    continue  # "2024-25 EUR", "$10 -$5": not a range; the ends stand alone
                cand = Candidate.of(
                    text, start, end, kind=Kind.AMOUNT, subtype=pat.subtype, score=pat.score,
                    extractor=NAME, why=f"pattern {pat.name!r}",
                    label=find_label(text, start, end), value=value, attrs=attrs,
                )
                found.append((start, end, pat.score, order, cand))
        return _minor_currency(_select(found))


def money_value(text: str) -> dict[str, str | None] | None:
    """Return the value of the one money amount in ``text``; None if none or several."""
    view = TurnView(thread="-", number=1, role="assistant", text=text)
    money = [c for c in RegexAmounts().extract(view) if c.subtype == AmountSubtype.MONEY]
    return money[0].value if len(money) == 1 else None
