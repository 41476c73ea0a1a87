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
* shape tokens for a few short shapes that many patterns need:
  a dot inside a word (``"<w.w>"``: hosts, files, versions), three
  digits in a row (``"<ddd>"``), a digit, then "/", "." or "-", then a digit
  (``"<d/d>"``), an upper-case letter next to a digit (``"<A0>"``), a lower-case hex
  letter next to a digit (``"<h0>"``), a dotted "a.m."/"p.m." (``"<a.m>"``).

A gate must be a *necessary* condition: if the pattern can match the text, the gate
admits it. A gate that is too strict loses matches silently, so
``tests/test_gates.py`` checks that gated and ungated extraction give identical output
on the bundled corpora and on arbitrary text. When in doubt, leave a clause out: a
looser gate only costs time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from extractors.text.guard import rx

#: The token present when a turn holds any decimal digit.
DIGIT = "<digit>"

#: Letters outside ASCII that a case-insensitive ``regex`` pattern matches as ASCII
#: letters ("ſ" for "s", the Kelvin sign for "k", "İ" for "i"), mapped so that the
#: word runs see what the patterns see. ``tests/test_gates.py`` checks the list is
#: complete over every code point.
_FOLD_TO_ASCII = str.maketrans({"ſ": "s", "\u212a": "k", "İ": "i"})
_FOLD_TO_ASCII_CHARS = frozenset("ſ\u212aİ")
_FOLD_TO_SPACE = str.maketrans(dict.fromkeys(_FOLD_TO_ASCII_CHARS, " "))
_WORD_RUN = rx(r"[a-z]+", linear=True)
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
#: For ASCII text: letters lower-cased, everything else a space, so ``split()`` gives the
#: letter runs (twice as fast as a ``findall``).
_RUNS_ONLY = [chr(i).lower() if chr(i) in _ASCII_LETTERS else " " for i in range(128)]

_DIGIT_RUN = rx(r"\d+", linear=True)
_WORD_DOT_WORD = rx(r"\.(?<=\w\.)\w", linear=True)  # starts at a literal "."
_DOTTED_AM_PM = rx(r"\.(?<=[aApP]\.)[mM]", linear=True)
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_HEX_LOWER = frozenset("abcdef")
_DATE_SEPARATORS = frozenset("/.-")


@lru_cache(maxsize=8)
def tokens(text: str) -> frozenset[str]:
    """Return the trigger tokens of ``text`` (cached: every pattern extractor asks)."""
    found = set(text)
    found -= _ASCII_LETTERS
    if text.isascii():
        found.update(text.translate(_RUNS_ONLY).split())
    else:
        found.update(_WORD_RUN.findall(text.translate(_FOLD_TO_ASCII).lower()))
        if not found.isdisjoint(_FOLD_TO_ASCII_CHARS):
            # A pattern bounded by [A-Za-z] sees "ſ" as a non-letter: "ſone am" holds
            # "one", and "0GBP\u212a" (a Kelvin sign, which lower() makes a "k") holds
            # "gbp". Both readings are tokens.
            found.update(_WORD_RUN.findall(text.translate(_FOLD_TO_SPACE).lower()))
    if "." in found:
        if _WORD_DOT_WORD.search(text):
            found.add("<w.w>")
        if _DOTTED_AM_PM.search(text):
            found.add("<a.m>")
    _digit_shapes(text, found)
    return frozenset(found)


def _digit_shapes(text: str, found: set[str]) -> None:
    """Add DIGIT and the digit shapes, from the characters around each run of digits."""
    end = len(text)
    for run in _DIGIT_RUN.finditer(text):
        found.add(DIGIT)
        start, stop = run.span()
        before = text[start - 1] if start else ""
        after = text[stop] if stop < end else ""
        if stop - start >= 3:
            found.add("<ddd>")
        if before in _UPPER or after in _UPPER:
            found.add("<A0>")
        if before in _HEX_LOWER or after in _HEX_LOWER:
            found.add("<h0>")
        if after in _DATE_SEPARATORS and stop + 1 < end and text[stop + 1].isdecimal():
            found.add("<d/d>")


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


class GateIndex:
    """Which of a fixed list of gates a turn admits, decided in one step.

    Each distinct clause gets a bit; a turn's tokens light the bits of the clauses they
    meet, and the admitted positions are looked up by that mask (most turns share a few
    masks). Same answer as calling :meth:`Gate.admits` on each gate, a fraction of the
    cost.
    """

    _CACHE_LIMIT = 4096

    def __init__(self, gates: list[Gate] | tuple[Gate, ...]) -> None:
        bit_of: dict[frozenset[str], int] = {}
        self._needs: list[int] = []
        for g in gates:
            need = 0
            for clause in g.clauses:
                need |= bit_of.setdefault(clause, 1 << len(bit_of))
            self._needs.append(need)
        self._bits: dict[str, int] = {}
        for clause, bit in bit_of.items():
            for token in clause:
                self._bits[token] = self._bits.get(token, 0) | bit
        self._tokens = frozenset(self._bits)
        self._admitted: dict[int, tuple[int, ...]] = {}

    def admitted(self, found: frozenset[str]) -> tuple[int, ...]:
        """Return the positions of the gates that ``found`` satisfies, in order."""
        mask = 0
        for token in self._tokens.intersection(found):
            mask |= self._bits[token]
        hit = self._admitted.get(mask)
        if hit is None:
            if len(self._admitted) >= self._CACHE_LIMIT:
                self._admitted.clear()
            hit = tuple(i for i, need in enumerate(self._needs) if need & mask == need)
            self._admitted[mask] = hit
        return hit


# --- start positions: where a word-led pattern may begin ---------------------------------

_LETTERS_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=8)
def _lowered(text: str) -> str | None:
    """The lower-cased text when its offsets are the text's and no character outside
    ASCII lower-cases or folds onto an ASCII letter; else None."""
    if text.isascii():
        return text.lower()
    lowered = text.lower()
    if len(lowered) != len(text) or not _FOLD_TO_ASCII_CHARS.isdisjoint(text):
        return None
    return lowered


@lru_cache(maxsize=8)
def _digit_run_starts(text: str) -> tuple[int, ...]:
    return tuple(m.start() for m in _DIGIT_RUN.finditer(text))


def start_positions(text: str, words: frozenset[str]) -> list[int] | None:
    """Return, in order, every position where a match of a pattern that can only begin
    with one of ``words`` (lower-case ASCII letter runs, matched case-insensitively as a
    whole run) or, if ``words`` holds :data:`DIGIT`, at the start of a run of digits,
    may begin. None when the text's offsets cannot be read that way (a character that
    lower-cases to several, or one that folds onto an ASCII letter): then scan.
    """
    lowered = _lowered(text)
    if lowered is None:
        return None
    found: list[int] = list(_digit_run_starts(text)) if DIGIT in words else []
    for word in words.intersection(tokens(text)):
        size = len(word)
        at = lowered.find(word)
        while at != -1:
            after = at + size
            if ((at == 0 or lowered[at - 1] not in _LETTERS_LOWER)
                    and (after == len(lowered) or lowered[after] not in _LETTERS_LOWER)):
                found.append(at)
            at = lowered.find(word, after)
    found.sort()
    return found


def matches_from(pattern: Any, text: str, positions: list[int]) -> list[Any]:
    """Return what ``pattern.finditer(text)`` returns, trying only ``positions`` (which
    must hold every position a match can start at): leftmost, non-overlapping."""
    out = []
    end = 0
    for at in positions:
        if at < end:
            continue
        m = pattern.match(text, at)
        if m is not None:
            out.append(m)
            end = max(m.end(), at + 1)
    return out
