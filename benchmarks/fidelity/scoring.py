"""How a compacted context is scored against a case's must-carry facts.

* **verbatim**: the fact's ``text`` occurs, character for character, in the context
  (every message's text and tool-call arguments).
* **changed**: the fact is not there verbatim, but what replaced the compacted turns
  (the summary, or the block and summary) holds a *near-miss* of it that the
  conversation itself never said: a number within 20% of the fact's number ("€930" ->
  "about €900"), or a token within two edits of an identifier ("ORD-55120" ->
  "ORD-5512"). A value the conversation never stated, this close to a fact, is the
  fact corrupted. A status changed in words ("waived" -> "offered") is caught by the
  QA probe instead: a status question answered with another status word counts as a
  changed fact there.
* **QA**: the model's answer to the fact's question contains the gold answer (or one of
  its accepted forms) as whole words after normalizing case, Unicode forms, dashes, spaces and
  thousands separators.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

from benchmarks.fidelity.cases import Fact

_DASHES = re.compile("[\u2010-\u2015\u2212]")
_THOUSANDS = re.compile(r"(?<=\d)[,\u202f\u00a0'](?=\d{3}(?!\d))")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
#: The block's provenance ("(user, turn 7; fulfilled turn 12)", "turns 4-38") holds
#: numbers no one said; they are not values.
_PROVENANCE = re.compile(r"\bturns?\s+\d+(?:\s*[-\u2013]\s*\d+)?")
_TOKEN = re.compile(r"[A-Za-z0-9@#][A-Za-z0-9_\-/.#@:]*[A-Za-z0-9]")
#: Status words a status question can be answered with; another one than the gold's is
#: a flipped status.
STATUS_WORDS = frozenset({"waived", "offered", "declined", "refused", "granted", "agreed",
                          "approved", "denied", "pending", "open", "yes", "no", "accepted",
                          "rejected", "cancelled", "charged", "promised", "reversed",
                          "removed", "revoked", "withdrawn", "remove"})


def normalize(text: str) -> str:
    """Case-, form-, dash-, space- and thousands-separator-insensitive text."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _DASHES.sub("-", text)
    text = _THOUSANDS.sub("", text)
    return " ".join(text.split())


def answer_correct(answer: str, fact: Fact) -> bool:
    """Whether ``answer`` holds the fact's gold answer (or an accepted form)."""
    said = normalize(answer)
    return any(re.search(rf"(?<!\w){re.escape(normalize(gold))}(?!\w)", said)
               for gold in (fact.answer or "", *fact.accept) if gold)


def status_flipped(answer: str, fact: Fact) -> bool:
    """A status question answered with a different status word than the gold one."""
    gold = normalize(fact.answer or "")
    if gold not in STATUS_WORDS or answer_correct(answer, fact):
        return False
    return bool(set(re.findall(r"[a-z]+", normalize(answer))) & (STATUS_WORDS - {gold}))


def _number(text: str) -> Decimal | None:
    match = _NUMBER.search(_THOUSANDS.sub("", text))
    if not match:
        return None
    try:
        return Decimal(match.group().replace(",", "."))
    except InvalidOperation:
        return None


def _edits(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of ``a`` and ``b``, or ``limit + 1`` once it passes ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _numbers(text: str) -> set[Decimal]:
    return {n for m in _NUMBER.finditer(_THOUSANDS.sub("", text))
            if (n := _number(m.group())) is not None}


def near_miss(fact: Fact, replacement: str, conversation: str) -> str | None:
    """A near-miss of ``fact`` in ``replacement`` that ``conversation`` never said."""
    replacement = _PROVENANCE.sub(" ", replacement)
    value = _number(fact.text)
    has_letters = any(c.isalpha() for c in fact.text)
    if value is not None and value > 0 and not (has_letters and fact.kind == "identifier"):
        said = _numbers(conversation)
        for match in _NUMBER.finditer(_THOUSANDS.sub("", replacement)):
            other = _number(match.group())
            if (other is not None and other != value and abs(other - value) <= value / 5
                    and other not in said):
                return match.group()
        return None
    if fact.kind == "identifier" or (has_letters and any(c.isdigit() for c in fact.text)):
        target = fact.text.casefold()
        said_tokens = {t.casefold() for t in _TOKEN.findall(conversation)}
        for match in _TOKEN.finditer(replacement):
            token = match.group()
            if (len(token) >= 4 and token.casefold() != target
                    and token.casefold() not in said_tokens
                    and _edits(token.casefold(), target, 2) <= 2):
                return token
    return None
