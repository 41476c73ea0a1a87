"""A user taking an offer by repeating its figure.

"So the refund would be 11.695,50 kr." ... (other talk) ... "Okay, fair enough. 11.695,50
then." The user names the offer by its number, bare (no currency, often without the
decimals' formatting of the offer), however many turns back the offer was made: that
agrees to it, as a pick of a listed option does (:mod:`extractors.dialogue.options`).

A figure accepts only in a clause that takes it: one that says so ("11.695,50 works",
"fine, 930 please") or is the figure and little else ("fine 112.05", "€930 then"); not a
question ("930?"), not a clause that turns it down or hedges ("not 930", "930 is too
low", "maybe 930"). Numbers under 10 are option places and quantities, not figures.
"""

from __future__ import annotations

from bisect import bisect_left
from decimal import Decimal, InvalidOperation

import regex

from extractors.base import Change, TurnView
from extractors.dialogue.options import HEDGE, NOT, PICK, REJECT, others_superseded
from extractors.records import CommitmentSubtype, Record, Status
from extractors.text import guard
from extractors.text.guard import rx

#: A figure as a person types it: "11.695,50", "1,049", "112.05", "€930", "1 947".
FIGURE = rx(r"(?<![\w.,])(?:[€$£]\s?)?(?P<n>\d{1,3}(?:[.,' \u00a0]\d{3})+(?:[.,]\d{1,2})?"
            r"|\d+(?:[.,]\d{1,2})?)(?![\w%]|[.,]\d)", linear=True)
#: Where a clause ends: a comma, a semicolon, a line, a question or exclamation mark, or
#: a full stop that is no decimal point.
_CLAUSE_END = rx(r"[,;!?\n]|\.(?!\d)", linear=True)
#: Words that say a clause takes what it names.
TAKES = rx(r"\b(?:ok(?:ay)?|fine|deal|agreed|yes|yeah|sure|great|perfect|then|"
           r"accept(?:ed)?|good)\b", regex.IGNORECASE, linear=True)
#: How far back an offer can still be taken by its figure (turns).
FIGURE_WINDOW = 12
#: A clause of at most this many words besides the figure takes it without a taking word.
BARE_WORDS = 2
#: The smallest figure that names an offer.
SMALLEST = Decimal(10)


def figure_value(words: str) -> Decimal | None:
    """The number ``words`` (a :data:`FIGURE` match's number) stand for: a separator
    followed by one or two final digits is the decimal point, others group thousands."""
    digits = words.replace(" ", "").replace("\u00a0", "").replace("'", "")
    m = guard.fullmatch(r"(?P<whole>[\d.,]*?)[.,](?P<cents>\d{1,2})", digits)
    whole, cents = (m.group("whole"), m.group("cents")) if m else (digits, "0")
    try:
        return Decimal(f"{whole.replace('.', '').replace(',', '')}.{cents}")
    except InvalidOperation:
        return None


def _clause(text: str, marks: list[int], start: int, end: int) -> tuple[int, int, str]:
    """The clause around ``text[start:end]`` (``marks``: where clauses end, ascending),
    and the mark that ends it ("" at the end of the text)."""
    i = bisect_left(marks, start)
    a = marks[i - 1] + 1 if i else 0
    j = bisect_left(marks, end)
    b = marks[j] if j < len(marks) else len(text)
    while a < b and text[a].isspace():
        a += 1
    return a, b, text[b] if b < len(text) else ""


def _offer_amount(record: Record) -> Decimal | None:
    amount = (record.value or {}).get("amount")
    try:
        return Decimal(str(amount)) if amount is not None else None
    except InvalidOperation:
        return None


def figure_taken(turn: TurnView, older: list[Record]) -> list[Change]:
    """The changes a user turn makes by taking an open offer by its figure: that offer
    agreed, the other options listed with it superseded. [] when it takes none."""
    offers = [r for r in older if r.subtype == CommitmentSubtype.OFFERED
              and r.role == "assistant" and r.status == Status.ACTIVE
              and turn.number - r.turn <= FIGURE_WINDOW and _offer_amount(r) is not None]
    if turn.role != "user" or not offers:
        return []
    marks = [m.start() for m in _CLAUSE_END.finditer(turn.text)]
    for m in FIGURE.finditer(turn.text):
        value = figure_value(m.group("n"))
        if value is None or value < SMALLEST:
            continue
        a, b, mark = _clause(turn.text, marks, *m.span())
        clause = turn.text[a:b]
        rest = (clause[:m.start() - a] + clause[m.end() - a:]).split()
        if mark == "?" or any(p.search(clause) for p in (REJECT, NOT, HEDGE)):
            continue
        if not (TAKES.search(clause) or PICK.search(clause) or len(rest) <= BARE_WORDS):
            continue
        named = [r for r in offers if _offer_amount(r) == value]
        if not named:
            continue
        offer = max(named, key=lambda r: (r.turn, r.start))
        listed = [r for r in offers if r.turn == offer.turn and isinstance(
            r.attrs.get("option"), int)]
        return [Change(record_id=offer.id, field="subtype", new=CommitmentSubtype.AGREED,
                       evidence_start=a, evidence_end=b, note="accepted by its figure",
                       attrs={"accepted_turn": turn.number, "accepted_text": clause}),
                *others_superseded(turn, listed, [offer], (a, b))]
    return []
