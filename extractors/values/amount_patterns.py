"""The amount pattern table and the fragments and gate tokens it is built from.

Here belong :class:`AmountPattern` and :data:`PATTERNS`: one named, scored pattern per
way an amount is written (a symbol or code before or after the number, a currency word,
a spelled number, a range, a labelled bare number, a percent), the regex fragments they
share and the gate tokens a turn must hold for each. The currency vocabulary and number
fragments come from :mod:`extractors.values.money`; reading a match into a value, a
sign, a rate and a label is in :mod:`extractors.values.amounts`.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from extractors.records import AmountSubtype
from extractors.text.gates import ALWAYS, DIGIT, Gate, gate, words_of
from extractors.text.guard import AnyOf, Guarded, rx
from extractors.values.money import (
    CODE,
    CODES,
    CURWORD,
    MULT,
    NUM,
    NUM_SPACED,
    SCALE_WORDS,
    SYM,
    SYMBOL_CHARS,
    UNIT_WORDS,
    WORDNUM,
    WORDS,
)

_MULT2 = MULT.replace("?P<mult>", "?P<mult2>")
_NOT_AFTER_SYM = rf"(?<![\w{SYMBOL_CHARS}])"
#: Markers that may follow a number: symbols except "$" ("10 $20" is "$20"), codes.
_AFTER = (rf"(?:[€£¥₹₩₽₺₪₱₫₦₴฿]|(?<![A-Za-z])(?:kr\.?|zł|Kč|{CODE})(?![A-Za-z]))")
_DASH = r"\s?[\-\u2013\u2014]\s?"


@dataclass(frozen=True)
class AmountPattern:
    """One named, scored amount pattern; groups ``num``/``words``, ``cur``, ``mult``, ...

    A range pattern also has ``num2``, ``mult2`` and maybe ``cur2``.
    """

    name: str
    pattern: Guarded
    score: float
    subtype: str = AmountSubtype.MONEY
    #: The group whose span is the candidate (default: the whole match).
    span_group: str | int = 0
    #: What a turn must hold for the pattern to match at all (:mod:`extractors.text.gates`).
    gate: Gate = ALWAYS
    #: Somewhere in the turn, for a bare number to be money (a currency or a money word).
    needs: Guarded | AnyOf | None = None


def _compile(body: str) -> Guarded:
    """Compile a shipped pattern: verbose, version 0, linear (``tests/test_guard.py``)."""
    return rx(body, regex.VERBOSE | regex.V0, linear=True)


#: Gate tokens. Every symbol holds one of these characters ("US$" holds "$") or is "Fr."
#: or "kr" (words); codes and currency words are lower-case words.
_SYMBOL_TOKENS = frozenset(SYMBOL_CHARS) | {"ł", "č", "fr", "kr"}
_CODE_TOKENS = words_of(*CODES)
_WORD_TOKENS = words_of(*WORDS)
_NUMBER_WORDS = words_of(*UNIT_WORDS, *SCALE_WORDS)
#: What may follow a number (_AFTER): symbols but "$", "kr", "zł", "Kč", codes.
_AFTER_TOKENS = (_SYMBOL_TOKENS - {"$"}) | _CODE_TOKENS

_COUNT_NOUNS = (r"people|persons|guests|tickets|items|nights|days|hours|minutes|rooms|seats|"
                r"adults|children|kids|stars|degrees")

#: A turn that talks money: a currency symbol, code or word, or a word of paying.
_MONEY_TURN = AnyOf(
    rx(rf"[{SYMBOL_CHARS}]"), rx(rf"(?<![A-Za-z])(?:{CODE})(?![A-Za-z])"),
    rx(rf"(?i:\b(?:{CURWORD})\b)"),
    rx(r"(?i:\b(?:pa(?:y|id|ying|yment|yments)|refund\w*|charge[ds]?|fees?|balance|amounts?"
       r"|invoices?|total|costs?|deposit|rent|owe[ds]?|transfer\w*|price[ds]?|debit\w*"
       r"|credit\w*|statement|bank|iban|fx|rate)\b)"))
#: A bare number with two decimals: how money is written without its currency
#: ("1.560,00", "4,061.10", "-1.234,56", "99.95").
_CENTS = (r"(?P<num>\d{1,3}(?:,\d{3})+\.\d{2}|\d{1,3}(?:\.\d{3})+,\d{2}"
          r"|\d{1,9}[.,]\d{2})")
#: Things counted in technical and banking work ("368 batches", "three collections").
#: Party sizes, tickets, rooms and nights of a booking are not here: a booking's counts
#: are its details, not values anyone copies (the SGD convention).
_WORK_NOUN_WORDS = (
    "rows records batch batches jobs runs builds tests passed failed failures errors retries "
    "attempts disconnects drops crashes restarts requests calls payments instalments "
    "installments collections transactions charges invoices chars characters lines files "
    "commits users members devices licences licenses accounts nodes pods replicas workers "
    "threads messages emails migrations").split()
_WORK_NOUNS = "|".join(sorted(_WORK_NOUN_WORDS, key=lambda w: (-len(w), w)))
_SIZE_UNITS = r"[KMGTP]i?B|[KMGTP](?![\w.])|bytes"
_SIZE_TOKENS = "k m g t p kb mb gb tb pb kib mib gib tib pib bytes"
_COUNT_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred"

PATTERNS: tuple[AmountPattern, ...] = (
    AmountPattern("symbol_before", _compile(
        rf"{_NOT_AFTER_SYM}(?P<cur>{SYM})\ ?(?P<neg>[\-\u2212])?(?P<num>{NUM}){MULT}"), 0.95,
        gate=gate(DIGIT, _SYMBOL_TOKENS)),
    AmountPattern("code_before", _compile(
        rf"(?<![\w])(?P<cur>{CODE})\ ?(?P<neg>[\-\u2212])?(?P<num>{NUM}){MULT}"), 0.95,
        gate=gate(DIGIT, _CODE_TOKENS)),
    AmountPattern("symbol_or_code_after", _compile(
        rf"(?P<num>{NUM_SPACED}){MULT}\ ?(?P<cur>{_AFTER})"), 0.9,
        gate=gate(DIGIT, _AFTER_TOKENS)),
    AmountPattern("word_after", _compile(
        rf"(?P<num>{NUM}){MULT}\ ?(?P<cur>(?i:{CURWORD}))\b"), 0.85,
        gate=gate(DIGIT, _WORD_TOKENS)),
    AmountPattern("spelled_word_after", _compile(
        rf"(?P<words>(?i:{WORDNUM}))\ (?P<cur>(?i:{CURWORD}))\b"), 0.8,
        gate=gate(_NUMBER_WORDS, _WORD_TOKENS)),
    AmountPattern("symbol_range", _compile(
        rf"{_NOT_AFTER_SYM}(?P<cur>{SYM}|(?<![\w]){CODE})\ ?(?P<num>{NUM}){MULT}{_DASH}"
        rf"(?:(?P<cur2>{SYM}|{CODE})\ ?)?(?P<num2>{NUM}){_MULT2}"), 0.9, AmountSubtype.RANGE,
        gate=gate(DIGIT, _SYMBOL_TOKENS | _CODE_TOKENS)),
    AmountPattern("between_symbol_range", _compile(
        rf"(?<![\w])(?i:between)\s+(?P<cur>{SYM}|{CODE})\ ?(?P<num>{NUM}){MULT}\s+(?i:and)\s+"
        rf"(?:(?P<cur2>{SYM}|{CODE})\ ?)?(?P<num2>{NUM}){_MULT2}"), 0.9, AmountSubtype.RANGE,
        gate=gate(DIGIT, "between")),
    AmountPattern("range_marker_after", _compile(
        rf"(?:(?<![\w])(?i:between)\s+(?P<num>{NUM})\s+(?i:and)\s+"
        rf"|(?P<num>{NUM}){_DASH}|(?P<num>{NUM})\s+(?i:to)\s+)"
        rf"(?P<num2>{NUM}){_MULT2}\ ?(?P<cur>(?i:{CURWORD})\b|{_AFTER})"), 0.85,
        AmountSubtype.RANGE,
        gate=gate(DIGIT, _WORD_TOKENS | _AFTER_TOKENS)),
    AmountPattern("labelled_bare_number", _compile(
        rf"(?<![\w])(?i:price|cost|rent|fare|total|balance|fee|charge|refund|deposit)"
        rf"(?:\s+[A-Za-z]+){{0,3}}?\s+(?i:is|was|will\s+be|would\s+be|comes\s+to|of|:)"
        rf"\s+(?P<num>(?=\d{{2}}){NUM})(?!\s*(?i:%|percent|{_COUNT_NOUNS})\b)"
        rf"(?!\s?(?:{SYM}|{CODE}|(?i:{CURWORD})\b))"), 0.6, span_group="num",
        gate=gate(DIGIT, "price cost rent fare total balance fee charge refund deposit")),
    AmountPattern("cents_bare_number", _compile(
        rf"(?<![\w.,:/#-])(?<!(?i:at|by|until|till|from|before|after|around)\ )"
        rf"{_CENTS}(?![\w%]|[.,:/-]\d|\s?(?:{SYM}|{CODE}|(?i:{CURWORD})\b))"),
        0.55, span_group="num", gate=gate(DIGIT, ". ,"), needs=_MONEY_TURN),
    AmountPattern("paid_bare_number", _compile(
        rf"(?<![\w])(?i:pay|paid|paying|charged|refund(?:ed)?|owe[ds]?|transfer(?:red)?)"
        rf"\s+(?:(?i:the|another|back|me|you|them|him|her|only|just)\s+)?"
        rf"(?P<num>\d{{1,3}}(?:,\d{{3}})+|\d{{2,7}})(?![\w%.,]|\s*(?i:%|percent|"
        rf"{_COUNT_NOUNS}|{_WORK_NOUNS})\b|\s?(?:{SYM}|{CODE}|(?i:{CURWORD})\b))"),
        0.55, span_group="num",
        gate=gate(DIGIT, "pay paid paying charged refund refunded owe owed owes transfer "
                         "transferred"), needs=_MONEY_TURN),
    AmountPattern("size", _compile(
        rf"(?<![\w.,~-])~?(?P<num>\d{{1,15}}(?:\.\d{{1,3}})?)\ ?(?P<unit>{_SIZE_UNITS})"
        rf"(?![\w])"), 0.7, AmountSubtype.QUANTITY, gate=gate(DIGIT, _SIZE_TOKENS)),
    AmountPattern("counted", _compile(
        rf"(?<![\w.,-])~?(?:(?P<num>\d{{1,3}}(?:,\d{{3}})+|\d{{1,9}}(?:\.\d{{1,2}})?)"
        rf"(?P<mult>[KkM](?![\w]))?|(?P<words>(?i:{_COUNT_WORDS})))"
        rf"(?:\ |-)(?P<unit>(?i:{_WORK_NOUNS}))\b"), 0.65, AmountSubtype.QUANTITY,
        gate=gate({DIGIT, *_COUNT_WORDS.split("|")}, _WORK_NOUN_WORDS)),
    AmountPattern("percent", _compile(
        rf"(?P<num>{NUM})\ ?(?:%|(?i:per\ ?cent|pct|percentage\ points?)\b)"), 0.9,
        AmountSubtype.PERCENT, gate=gate(DIGIT, "% per percent pct percentage")),
    AmountPattern("spelled_percent", _compile(
        rf"(?P<words>(?i:{WORDNUM}))\ (?i:per\ ?cent)\b"), 0.8, AmountSubtype.PERCENT,
        gate=gate(_NUMBER_WORDS, "per percent")),
)
