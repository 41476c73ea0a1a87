"""Parse written numbers and currency markers into exact values; never guess, never float.

Decision table for a digit number (``,`` ``.`` are marks; groups are 3 digits):

===============================  ==========================  ============================
written                          read as                     example
===============================  ==========================  ============================
both ``,`` and ``.``             the last mark is decimal    18,124.73 | 1.240,00
space / NBSP / NNBSP / thin sp.  thousands; ``,``/``.`` dec  1 240,00 | 1 240.50
apostrophe (Swiss)               thousands; ``.`` decimal    1'314.97
``,`` + 3-digit groups           thousands (English text)    1,240 | 1,240,000
``,`` + 1-2 digits               decimal comma               12,50
``.`` + 1-2 digits               decimal point               12.50
``.`` + several 3-digit groups   thousands                   1.240.000
``.`` + one 3-digit group        AMBIGUOUS -> None,          €1.240 (1240 or 1.24?)
                                 unless the currency has no  ¥1.200 -> 1200
                                 minor unit (JPY, KRW, ...)
``.``/``,`` + dash (Swiss/DE)    whole amount, no cents      CHF 89.– | 89,-
anything else (1,2,3 | 1,24,0)   None                        --
===============================  ==========================  ============================

The span of an ambiguous amount is kept verbatim by the extractor; only its value is None.
"""

from __future__ import annotations

from decimal import MAX_PREC, Decimal, InvalidOperation, localcontext

import regex

from extractors.text import guard

#: Group separators besides ``,`` and ``.``: NBSP, narrow NBSP, thin space, apostrophes.
_SPACES = "\u00a0\u202f\u2009"
_APOS = "'\u2019"
_DASH_TAIL = r"(?:[.,][\-\u2013\u2014](?![\d\-\u2013\u2014]))"

#: A digit number (see the table); ``{sp}`` is filled with the allowed space separators.
_NUM_TEMPLATE = r"""
(?<![\d.,'\u2019])
(?:
    \d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?
  | \d{{1,3}}(?:\.\d{{3}})+(?:,\d{{1,2}})?
  | \d{{1,3}}(?:[{sp}]\d{{3}})+(?:[,.]\d{{1,2}})?
  | \d{{1,3}}(?:['\u2019]\d{{3}})+(?:\.\d{{1,2}})?
  | \d+(?:[.,]\d+)?
)
(?:{dash})?
(?![\d])(?!,\d)(?!\.\d)(?!['\u2019]\d)
"""
#: A number that may group with NBSP-like spaces only (safe anywhere).
NUM = _NUM_TEMPLATE.format(sp=_SPACES, dash=_DASH_TAIL)
#: A number that may also group with plain spaces ("1 240,00 €"); only used right before
#: a currency symbol or code, where "2 100" cannot be two separate counts.
NUM_SPACED = _NUM_TEMPLATE.format(sp=" " + _SPACES, dash=_DASH_TAIL)

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
WORDNUM = (
    r"(?<![\w-])(?:(?:a|an)\s+(?=(?:hundred|thousand|million|billion)\b))?"
    + _WORD + r"(?:(?:\s+and\s+|[\s-]+)" + _WORD + r")*\b"
)
#: A multiplier suffix: $5k, $1.2m, €2bn, 3 million.
MULT = r"(?P<mult>\s?(?:k|K|m|M|bn|mn)\b|\s(?i:thousand|million|billion)\b)?"
MULTIPLIERS: dict[str, int] = {
    "k": 1_000, "thousand": 1_000, "m": 1_000_000, "mn": 1_000_000, "million": 1_000_000,
    "bn": 1_000_000_000, "billion": 1_000_000_000,
}

# --- currencies ------------------------------------------------------------------------

#: Symbols; None where the symbol names several currencies ("kr": SEK, NOK, DKK, ISK).
SYMBOLS: dict[str, str | None] = {
    "US$": "USD", "A$": "AUD", "AU$": "AUD", "C$": "CAD", "CA$": "CAD", "NZ$": "NZD",
    "HK$": "HKD", "S$": "SGD", "R$": "BRL", "$": "USD", "€": "EUR", "£": "GBP",
    "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY", "₪": "ILS", "₱": "PHP",
    "₫": "VND", "₦": "NGN", "₴": "UAH", "฿": "THB", "zł": "PLN", "Fr.": "CHF",
    "kr.": None, "kr": None, "Kč": "CZK",
}
CODES: frozenset[str] = frozenset(
    "USD EUR GBP JPY CHF CAD AUD NZD CNY HKD SGD INR SEK NOK DKK PLN CZK HUF RON BGN "
    "BRL MXN ARS CLP COP ZAR KRW RUB TRY AED SAR ILS THB PHP IDR MYR VND NGN KES EGP "
    "UAH ISK TWD RMB".split()
)
#: Currencies written without a minor unit: a dot before 3 digits can only group.
ZERO_DECIMAL: frozenset[str] = frozenset("JPY KRW CLP VND ISK HUF IDR".split())
#: Currency words after a number. "dollars" is read as USD, like "$".
WORDS: dict[str, str | None] = {
    "dollar": "USD", "dollars": "USD", "bucks": "USD", "buck": "USD", "usd": "USD",
    "euro": "EUR", "euros": "EUR", "pound sterling": "GBP", "pounds sterling": "GBP",
    "quid": "GBP", "cent": None, "cents": None, "pence": "GBP", "yen": "JPY",
    "rupee": "INR", "rupees": "INR", "franc": "CHF", "francs": "CHF", "swiss francs": "CHF",
    "yuan": "CNY", "renminbi": "CNY", "rand": "ZAR", "reais": "BRL", "real": "BRL",
    "pesos": None, "kronor": "SEK", "kroner": None, "krona": "SEK",
}
#: Words that are a fraction of the main unit.
MINOR_WORDS: frozenset[str] = frozenset({"cent", "cents", "pence"})

SYM = "|".join(regex.escape(s) for s in sorted(SYMBOLS, key=len, reverse=True))
CODE = "|".join(sorted(CODES))
CURWORD = "|".join(regex.escape(w) for w in sorted(WORDS, key=len, reverse=True))
SYMBOL_CHARS = "$€£¥₹₩₽₺₪₱₫₦₴฿"


def currency_of(marker: str | None) -> str | None:
    """Return the ISO code a currency marker names; None if unknown or ambiguous."""
    if not marker:
        return None
    if marker in SYMBOLS:
        return SYMBOLS[marker]
    if marker in CODES:
        return "CNY" if marker == "RMB" else marker
    return WORDS.get(" ".join(marker.lower().split()))


def parse_digits(raw: str, currency: str | None = None) -> Decimal | None:
    """Parse a digit number by the module's table; None when its format is ambiguous."""
    s = raw
    for ch in _SPACES + _APOS + " ":
        s = s.replace(ch, "")
    if s[-1:] in "-\u2013\u2014":  # 89.– | 89,-
        s = s[:-2]
    try:
        if "," in s and "." in s:
            if s.rfind(",") > s.rfind("."):  # 1.240,00
                head, _, tail = s.rpartition(",")
                return _grouped(head, ".", tail)
            head, _, tail = s.rpartition(".")  # 18,124.73
            return _grouped(head, ",", tail)
        if "," in s:
            head, _, tail = s.rpartition(",")
            if len(tail) == 3:  # 1,240: English thousands separator
                return _grouped(s, ",", "")
            if s.count(",") == 1:  # 12,50: decimal comma
                return Decimal(f"{head}.{tail}")
            return None
        if "." in s:
            head, _, tail = s.rpartition(".")
            if s.count(".") > 1 or (len(tail) == 3 and currency in ZERO_DECIMAL):
                return _grouped(s, ".", "")  # 1.240.000 | ¥1.200
            if len(tail) == 3:  # €1.240: thousands or three decimals
                return None
            return Decimal(s)
        return Decimal(s)
    except InvalidOperation:
        return None


def _grouped(whole: str, sep: str, fraction: str) -> Decimal | None:
    """Join ``whole`` split by ``sep`` in 3-digit groups, plus a decimal ``fraction``."""
    parts = whole.split(sep)
    if not (1 <= len(parts[0]) <= 3 or len(parts) == 1) or any(len(p) != 3 for p in parts[1:]):
        return None
    digits = "".join(parts)
    if not digits.isdigit() or (fraction and not fraction.isdigit()):
        return None
    return Decimal(f"{digits}.{fraction}" if fraction else digits)


def parse_words(raw: str) -> Decimal | None:
    """Parse a spelled-out number ("one hundred and sixteen"); None if malformed."""
    total, current, seen = 0, 0, False
    for word in guard.split(r"[\s-]+", raw.lower()):
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


def parse_number(digits: str | None, words: str | None, mult: str | None,
                 currency: str | None = None) -> Decimal | None:
    """Parse a matched number (digits or words) and apply its multiplier suffix."""
    number = parse_digits(digits, currency) if digits else parse_words(words or "")
    if number is None:
        return None
    key = (mult or "").strip().lower()
    if not key:
        return number
    # Exact whatever the length: the default context would round past 28 digits.
    with localcontext(prec=MAX_PREC):
        number *= MULTIPLIERS[key]
        return number.quantize(Decimal(1)) if number == number.to_integral_value() else number
