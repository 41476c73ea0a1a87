"""Money amounts and percentages: named, scored patterns plus a small extractor class.

An amount needs a currency marker (symbol, ISO code or currency word) or a percent
marker next to the number; a bare number is never an amount, so counts ("2 people")
and numbers inside tool JSON (``"limit_eur": 1500``) stay out. Values are ``Decimal``
(as strings, never float); a number whose format is genuinely ambiguous ("€1.240":
1240 or 1.24?) keeps its span but gets no value.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, ClassVar

import regex

from extractors import spans
from extractors.base import Candidate, TurnView, find_all, register
from scratchpad.records import Kind, Money

if TYPE_CHECKING:
    from spacy.tokens import Doc

log = logging.getLogger(__name__)

NAME = "amounts.regex.v1"
#: Seconds a single pattern may run on one turn (the patterns are linear; this is a guard).
TIMEOUT = 1.0

# --- number grammar --------------------------------------------------------------------

#: A digit number: 1,240 | 18,124.73 | 1.240,00 | 1 240,00 | 930 | 12.50 | 12,50.
_NUM = r"""
(?<![\d.,])
(?:
    \d{1,3}(?:,\d{3})+(?:\.\d+)?
  | \d{1,3}(?:\.\d{3})+(?:,\d{1,2})?
  | \d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?:,\d{1,2})?
  | \d+(?:[.,]\d+)?
)
(?![\d])(?!,\d)(?!\.\d)
"""

UNIT_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
SCALE_WORDS: dict[str, int] = {
    "hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
}
_WORD = r"(?:" + "|".join(sorted({*UNIT_WORDS, *SCALE_WORDS}, key=len, reverse=True)) + r")"
#: A spelled-out number: "one hundred and sixteen", "twenty-five", "a thousand".
_WORDNUM = (
    r"(?<![\w-])(?:(?:a|an)\s+(?=(?:hundred|thousand|million|billion)\b))?"
    + _WORD + r"(?:(?:\s+and\s+|[\s-]+)" + _WORD + r")*\b"
)
_MULT = r"(?P<mult>\s?(?:k|K|m|M|bn|mn)\b|\s(?i:thousand|million|billion)\b)?"

# --- currencies ------------------------------------------------------------------------

SYMBOLS: dict[str, str] = {
    "US$": "USD", "A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD", "NZ$": "NZD",
    "HK$": "HKD", "S$": "SGD", "R$": "BRL", "$": "USD", "€": "EUR", "£": "GBP",
    "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY", "₪": "ILS", "₱": "PHP",
}
CODES: frozenset[str] = frozenset(
    "USD EUR GBP JPY CHF CAD AUD NZD CNY HKD SGD INR SEK NOK DKK PLN CZK HUF RON BGN "
    "BRL MXN ARS CLP COP ZAR KRW RUB TRY AED SAR ILS THB PHP IDR MYR VND NGN KES EGP".split()
)
#: Currency words after a number. "dollars" is read as USD, like "$".
WORDS: dict[str, str | None] = {
    "dollar": "USD", "dollars": "USD", "bucks": "USD", "buck": "USD", "usd": "USD",
    "euro": "EUR", "euros": "EUR", "pound sterling": "GBP", "pounds sterling": "GBP",
    "quid": "GBP", "cent": None, "cents": None, "pence": "GBP",
    "yen": "JPY", "rupees": "INR", "francs": "CHF",
}
_SYM = "|".join(regex.escape(s) for s in sorted(SYMBOLS, key=len, reverse=True))
_CODE = "|".join(sorted(CODES))
_CURWORD = "|".join(regex.escape(w) for w in sorted(WORDS, key=len, reverse=True))


@dataclass(frozen=True)
class AmountPattern:
    """One named, scored amount pattern; groups: ``num`` or ``words``, ``cur``, ``mult``."""

    name: str
    pattern: regex.Pattern[str]
    score: float
    subtype: str = "money"
    #: The group whose span is the candidate (default: the whole match).
    span_group: str | int = 0


def _compile(body: str) -> regex.Pattern[str]:
    return regex.compile(body, regex.VERBOSE | regex.V0)


PATTERNS: tuple[AmountPattern, ...] = (
    AmountPattern("symbol_before", _compile(
        rf"(?<![\w$€£¥₹₩₽₺₪₱])(?P<cur>{_SYM})\ ?(?P<num>{_NUM}){_MULT}"), 0.95),
    AmountPattern("code_before", _compile(
        rf"(?<![\w])(?P<cur>{_CODE})\ ?(?P<num>{_NUM}){_MULT}"), 0.95),
    AmountPattern("symbol_or_code_after", _compile(
        rf"(?P<num>{_NUM}){_MULT}\ ?(?P<cur>€|£|¥|₹|(?<![A-Za-z]){_CODE}(?![A-Za-z]))"), 0.9),
    AmountPattern("word_after", _compile(
        rf"(?P<num>{_NUM}){_MULT}\ ?(?P<cur>(?i:{_CURWORD}))\b"), 0.85),
    AmountPattern("spelled_word_after", _compile(
        rf"(?P<words>(?i:{_WORDNUM}))\ (?P<cur>(?i:{_CURWORD}))\b"), 0.8),
    AmountPattern("labelled_bare_number", _compile(
        rf"(?<![\w])(?i:price|cost|rent|fare|total|balance|fee|charge|refund|deposit)"
        rf"(?:\s+[A-Za-z]+){{0,3}}?\s+(?i:is|was|will\s+be|would\s+be|comes\s+to|of|:)"
        rf"\s+(?P<num>(?=\d{{2}}){_NUM})(?!\s*(?i:%|percent|people|persons|guests|tickets|"
        rf"items|nights|days|hours|minutes|rooms|seats|adults|children|kids|stars|degrees)\b)"
        rf"(?!\s?(?:{_SYM}|{_CODE}|(?i:{_CURWORD})\b))"), 0.6, span_group="num"),
    AmountPattern("percent", _compile(
        rf"(?P<num>{_NUM})\ ?(?:%|(?i:per\ ?cent|pct)\b)"), 0.9, "percent"),
    AmountPattern("spelled_percent", _compile(
        rf"(?P<words>(?i:{_WORDNUM}))\ (?i:per\ ?cent)\b"), 0.8, "percent"),
)

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
STOPWORDS: frozenset[str] = frozenset(
    "a an the my your our their his her its this that these those of for to is was are "
    "were be been being would will can could should may might and or but with at by on "
    "in from as per each every any some no not it i you we they he she which what who "
    "there here so than then also just only about around approximately roughly gonna "
    "wanna going please".split()
)
_WORD_RE = regex.compile(r"[A-Za-z][A-Za-z'-]*")
_SENTENCE_BREAK = regex.compile(r"[.!?;\n](?=\s|$)|[\n{}\[\]]")
_CLAUSE_BREAK = regex.compile(r",\s|\b(?:and|but|or|while|whereas|so)\b", regex.IGNORECASE)
_JSON_KEY = regex.compile(r"\"([A-Za-z_][\w-]*)\"\s*:\s*\"?\s*$")
_PER = regex.compile(
    r"\s*(?:per|a|an|each|every|/)\s*(night|month|day|week|year|hour|person|ticket|head)\b",
    regex.IGNORECASE,
)


def _label_after(text: str, end: int) -> str | None:
    words = _WORD_RE.findall(text[end:end + 40].split("\n", 1)[0])
    gap = text[end:end + 40]
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
    key = regex.sub(r"(?i)[_-]?(eur|usd|gbp|amount|value)$", "", match.group(1))
    return key.replace("_", " ").lower() or None


def find_label(text: str, start: int, end: int) -> str | None:
    """Return what the amount at ``text[start:end]`` is for, from nearby words."""
    return _label_json(text, start) or _label_after(text, end) or _label_before(text, start)


# --- values ----------------------------------------------------------------------------


def parse_digits(raw: str) -> Decimal | None:
    """Parse a digit number; return None when its format is ambiguous ("1.240")."""
    s = raw.replace("\u00a0", "").replace("\u202f", "").replace("\u2009", "")
    try:
        if "," in s and "." in s:
            if s.rfind(",") > s.rfind("."):  # 1.240,00
                return Decimal(s.replace(".", "").replace(",", "."))
            return Decimal(s.replace(",", ""))  # 18,124.73
        if "," in s:
            head, _, tail = s.rpartition(",")
            if len(tail) == 3:  # 1,240: English thousands separator
                return Decimal(s.replace(",", ""))
            if s.count(",") == 1:  # 12,50: decimal comma
                return Decimal(f"{head}.{tail}")
            return None
        if "." in s:
            if s.count(".") > 1:  # 1.240.000
                parts = s.split(".")
                return Decimal("".join(parts)) if all(len(p) == 3 for p in parts[1:]) else None
            head, _, tail = s.partition(".")
            if len(tail) == 3:  # 1.240: thousands or three decimals
                return None
            return Decimal(s)
        return Decimal(s)
    except InvalidOperation:
        return None


def parse_words(raw: str) -> Decimal | None:
    """Parse a spelled-out number ("one hundred and sixteen"); None if malformed."""
    total, current, seen = 0, 0, False
    for word in regex.split(r"[\s-]+", raw.lower()):
        if word in ("a", "an"):
            current = max(current, 1)
            continue
        if word == "and":
            continue
        if word in UNIT_WORDS:
            value = UNIT_WORDS[word]
            low = current % 100
            if seen and low and not (low % 10 == 0 and low >= 20 and value < 10):
                return None  # "ten twenty", "five six"
            current += value
        elif word in SCALE_WORDS:
            scale = SCALE_WORDS[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            return None
        seen = True
    return Decimal(total + current) if seen else None


_MULTIPLIERS: dict[str, int] = {
    "k": 1_000, "thousand": 1_000, "m": 1_000_000, "mn": 1_000_000, "million": 1_000_000,
    "bn": 1_000_000_000, "billion": 1_000_000_000,
}


def _value(match: regex.Match[str], subtype: str) -> dict[str, str | None] | None:
    number = (parse_digits(match.group("num")) if match.groupdict().get("num")
              else parse_words(match.group("words")))
    if number is None:
        return None
    mult = (match.groupdict().get("mult") or "").strip().lower()
    if mult:
        number *= _MULTIPLIERS[mult]
    if subtype == "percent":
        return {"percent": format(number, "f")}
    cur = match.groupdict().get("cur")
    if cur is None:
        return Money(amount=number).as_value()
    currency = SYMBOLS.get(cur) or (cur if cur in CODES else None)
    if currency is None:
        low = cur.lower()
        currency = WORDS.get(low, "USD" if low == "usd" else None)
        if low in ("cent", "cents", "pence"):
            number = number / 100
            currency = "GBP" if low == "pence" else None
    return Money(amount=number, currency=currency).as_value()


def _select(found: list[tuple[int, int, float, int, Candidate]]) -> list[Candidate]:
    """Keep non-overlapping candidates: longest first, then best score, then pattern order."""
    preferred = sorted(found, key=lambda f: (f[0] - f[1], -f[2], f[3], f[0]))
    return [f[4] for f in spans.select(preferred, lambda f: (f[0], f[1]))]


@register(NAME)
class RegexAmounts:
    """Find money amounts and percentages next to an explicit currency or percent marker."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False
    patterns: ClassVar[tuple[AmountPattern, ...]] = PATTERNS

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        """Return amount candidates of one turn, without overlaps, in text order."""
        text = turn.text
        found: list[tuple[int, int, float, int, Candidate]] = []
        for order, pat in enumerate(self.patterns):
            for m in find_all(pat.pattern, text, timeout=TIMEOUT, name=pat.name,
                              where=f"turn {turn.number}"):
                start, end = m.span(pat.span_group)
                attrs: dict[str, str] = {}
                per = _PER.match(text, end)
                if per and pat.subtype == "money":
                    attrs["per"] = per.group(1).lower()
                cand = Candidate.of(
                    text, start, end, kind=Kind.AMOUNT, subtype=pat.subtype, score=pat.score,
                    extractor=NAME, why=f"pattern {pat.name!r}",
                    label=find_label(text, start, end), value=_value(m, pat.subtype),
                    attrs=attrs,
                )
                found.append((start, end, pat.score, order, cand))
        return _select(found)


def money_value(text: str) -> dict[str, str | None] | None:
    """Return the value of the one money amount in ``text``; None if none or several."""
    view = TurnView(thread="-", number=1, role="assistant", text=text)
    money = [c for c in RegexAmounts().extract(view) if c.subtype == "money"]
    return money[0].value if len(money) == 1 else None
