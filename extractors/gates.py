"""Prefilters: let a pattern extractor skip the patterns a turn cannot possibly match.

Most turns hold no amount, no reference and no date, and most patterns cannot match a
given turn at all: a pattern that needs "@" cannot match a turn without one. Running
every pattern over every turn costs about 90 scans per turn; a :class:`Gate` lets each
pattern declare what must be in the turn for it to match, so one cheap pass over the turn
(:func:`tokens`) decides which patterns run.

A gate is a conjunction of clauses; a clause is a set of trigger tokens of which at least
one must be among the turn's tokens. The turn's tokens are:

* every maximal run of ASCII letters of the lower-cased text (``"booking"``, ``"pm"`` in
  ``"3pm"``, ``"order"`` and ``"id"`` in ``"order_id"``, ``"h"`` in ``"14h30"``);
* every character of the text that is not an ASCII letter (``"@"``, ``"#"``, ``"€"``,
  ``"/"``, ``" "``, ``"ł"``);
* :data:`DIGIT` when the text holds any decimal digit (``\\d``, any script);
* shape tokens for a few two- and three-character shapes that many patterns need
  (:data:`SHAPES`): a dot inside a word (``"<w.w>"``: hosts, files, versions), three
  digits in a row (``"<ddd>"``), an upper-case letter next to a digit (``"<A0>"``), a
  lower-case hex letter next to a digit (``"<h0>"``), a dotted "a.m."/"p.m." (``"<a.m>"``).

A gate must be a *necessary* condition: if the pattern can match the text, the gate
admits it. A gate that is too strict loses matches silently, so
``tests/test_gates.py`` checks that gated and ungated extraction give identical output
on the bundled corpora and on arbitrary text. When in doubt, leave a clause out: a
looser gate only costs time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

#: The token present when a turn holds any decimal digit.
DIGIT = "<digit>"

#: Letters outside ASCII that a case-insensitive ``regex`` pattern matches as ASCII
#: letters ("ſ" for "s", the Kelvin sign for "k", "İ" for "i"), mapped so that the
#: word runs see what the patterns see. ``tests/test_gates.py`` checks the list is
#: complete over every code point.
_FOLD_TO_ASCII = str.maketrans({"ſ": "s", "\u212a": "k", "İ": "i"})
_WORD_RUN = re.compile(r"[a-z]+")
_ANY_DIGIT = re.compile(r"\d")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

#: Shape tokens: (token, the character that must be in the text for the shape to be
#: looked for, the shape).
SHAPES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("<w.w>", ".", re.compile(r"\w\.\w")),
    ("<a.m>", ".", re.compile(r"[aApP]\.[mM]")),
    ("<ddd>", DIGIT, re.compile(r"\d\d\d")),
    ("<A0>", DIGIT, re.compile(r"[A-Z]\d|\d[A-Z]")),
    ("<h0>", DIGIT, re.compile(r"[a-f]\d|\d[a-f]")),
)


@lru_cache(maxsize=8)
def tokens(text: str) -> frozenset[str]:
    """Return the trigger tokens of ``text`` (cached: every pattern extractor asks)."""
    lowered = text.lower() if text.isascii() else text.translate(_FOLD_TO_ASCII).lower()
    found = set(text)
    found -= _ASCII_LETTERS
    found.update(_WORD_RUN.findall(lowered))
    if _ANY_DIGIT.search(text):
        found.add(DIGIT)
    for token, needs, shape in SHAPES:
        if needs in found and shape.search(text):
            found.add(token)
    return frozenset(found)


@dataclass(frozen=True)
class Gate:
    """Clauses that must all meet the turn's tokens for a pattern to run."""

    clauses: tuple[frozenset[str], ...] = ()

    def admits(self, found: frozenset[str]) -> bool:
        """Return True if every clause shares a token with ``found``."""
        for clause in self.clauses:
            if clause.isdisjoint(found):
                return False
        return True


#: The gate of a pattern with no declared condition: it always runs.
ALWAYS = Gate()


def gate(*clauses: str | Iterable[str]) -> Gate:
    """Build a gate; a clause is a whitespace-separated string or an iterable of tokens.

    ``gate(DIGIT, "ending ends last")`` runs a pattern only on turns with a digit and
    one of the three words.
    """
    built = []
    for clause in clauses:
        items = clause.split() if isinstance(clause, str) and clause != DIGIT else (
            [clause] if isinstance(clause, str) else list(clause))
        if not items:
            raise ValueError("a gate clause needs at least one token")
        built.append(frozenset(items))
    return Gate(tuple(built))


def words_of(*literals: str) -> frozenset[str]:
    """Return one token each literal must bring to a turn that contains it.

    That is the first run of ASCII letters of the lower-cased literal ("pound" for
    "pound sterling", "us" for "US$"), or its first character when it has none ("€").
    """
    out = set()
    for literal in literals:
        run = _WORD_RUN.search(literal.lower())
        out.add(run.group(0) if run else literal[0])
    return frozenset(out)
