"""Guarded regular expressions: every pattern the product runs is compiled here, and
every call on it follows one timeout policy.

The policy (:data:`TIMEOUT`, :data:`SECONDS_PER_MB`, :data:`LONG_TEXT`):

* a guarded call may spend :data:`TIMEOUT` seconds plus :data:`SECONDS_PER_MB` for each
  million characters of its text in the ``regex`` engine (the ``regex`` module's
  ``timeout``, which counts the engine's time over a whole ``finditer``, not the caller's):
  a long text may take longer, never super-linearly longer;
* a call on a text of :data:`LONG_TEXT` characters or more is always guarded;
* on shorter texts, a pattern compiled with ``linear=True`` runs without the timeout (it
  costs about 3 microseconds a call); ``tests/test_guard.py`` checks every such pattern on
  adversarial texts just under :data:`LONG_TEXT`, where nothing else would stop it;
* every other pattern (user patterns included) always runs under the timeout.

A call that passes its timeout raises :class:`TimeoutError`; :func:`find_all` instead
gives up that pattern's matches with a warning, so one slow pattern costs its own
matches, never the turn. ``tests/test_guard.py`` fails when any module compiles or
matches a pattern without going through this one.

Use :func:`rx` where ``regex.compile`` would be, and the module functions
(:func:`search`, :func:`findall`, ...) where ``regex.search`` would be::

    WORD = rx(r"[^\\W\\d_]+", linear=True)
    WORD.findall(text)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import regex

log = logging.getLogger(__name__)

#: Seconds one guarded call may run on a short text...
TIMEOUT = 1.0
#: ... plus this many for each million characters of the text.
SECONDS_PER_MB = 2.0
#: Texts at least this long are always scanned under the guard: there its fixed cost is
#: negligible, and nothing else bounds the scan.
LONG_TEXT = 20_000

Match = regex.Match
#: Every pattern compiled with ``linear=True``, for the test that holds them to it.
DECLARED_LINEAR: list[Guarded] = []


class Guarded:
    """A compiled ``regex`` pattern whose every call follows the module's policy. It has
    the methods of a compiled pattern (``search``, ``match``, ``fullmatch``,
    ``finditer``, ``findall``, ``sub``, ``subn``, ``split``), without ``timeout``."""

    __slots__ = ("_flags", "_regex", "_source", "linear")

    def __init__(self, source: str, flags: int, *, linear: bool) -> None:
        self._source = source
        self._flags = flags
        self._regex: regex.Pattern[str] | None = None
        self.linear = linear

    @property
    def _compiled(self) -> regex.Pattern[str]:
        """The compiled pattern, compiled at its first use: importing the extractors then
        costs no compilation, so a command that never extracts (``--help``, ``open``)
        starts fast."""
        if self._regex is None:
            self._regex = regex.compile(self._source, self._flags)
        return self._regex

    def compile(self) -> Guarded:
        """Compile now (raising ``regex.error`` for a bad pattern); returns itself."""
        _ = self._compiled
        return self

    def _timeout(self, string: str) -> float | None:
        size = len(string)
        if self.linear and size < LONG_TEXT:
            return None
        return TIMEOUT + size * SECONDS_PER_MB / 1_000_000

    @property
    def pattern(self) -> str:
        """The pattern's source."""
        return self._source

    @property
    def flags(self) -> int:
        """The flags it was compiled with."""
        return self._compiled.flags

    @property
    def groupindex(self) -> dict[str, int]:
        """Named groups, by name."""
        return dict(self._compiled.groupindex)

    def search(self, string: str, pos: int | None = None, endpos: int | None = None
               ) -> regex.Match[str] | None:
        return self._compiled.search(string, pos, endpos, timeout=self._timeout(string))

    def match(self, string: str, pos: int | None = None, endpos: int | None = None
              ) -> regex.Match[str] | None:
        return self._compiled.match(string, pos, endpos, timeout=self._timeout(string))

    def fullmatch(self, string: str, pos: int | None = None, endpos: int | None = None
                  ) -> regex.Match[str] | None:
        return self._compiled.fullmatch(string, pos, endpos, timeout=self._timeout(string))

    def finditer(self, string: str, pos: int | None = None, endpos: int | None = None
                 ) -> Iterator[regex.Match[str]]:
        return self._compiled.finditer(string, pos, endpos, timeout=self._timeout(string))

    def findall(self, string: str, pos: int | None = None, endpos: int | None = None
                ) -> list[Any]:
        return self._compiled.findall(string, pos, endpos, timeout=self._timeout(string))

    def sub(self, repl: str | Callable[[regex.Match[str]], str], string: str,
            count: int = 0) -> str:
        return self._compiled.sub(repl, string, count, timeout=self._timeout(string))

    def subn(self, repl: str | Callable[[regex.Match[str]], str], string: str,
             count: int = 0) -> tuple[str, int]:
        return self._compiled.subn(repl, string, count, timeout=self._timeout(string))

    def split(self, string: str, maxsplit: int = 0) -> list[Any]:
        return self._compiled.split(string, maxsplit, timeout=self._timeout(string))

    def __repr__(self) -> str:
        return f"rx({self.pattern!r}{', linear=True' if self.linear else ''})"


def rx(pattern: str, flags: int = 0, *, linear: bool = False, lazy: bool = True) -> Guarded:
    """Compile ``pattern`` (``regex`` module syntax) as a :class:`Guarded` pattern.

    The product's own patterns compile at their first use (``lazy``); pass
    ``lazy=False`` to compile, and so check, a pattern now (a user's pattern).

    ``linear=True`` declares that no text makes it scan for more than linear time, which
    lets it skip the timeout on texts shorter than :data:`LONG_TEXT`; the declaration is
    tested (``tests/test_guard.py``). Leave it out when in doubt: it only costs time.
    Raises ``regex.error`` for a pattern that does not compile (with ``lazy``, at its
    first use).
    """
    guarded = Guarded(pattern, flags, linear=linear)
    if not lazy:
        guarded.compile()
    if linear:
        DECLARED_LINEAR.append(guarded)
    return guarded


class AnyOf:
    """Alternatives searched one at a time: ``search`` finds whether any matches, as
    ``rx("A|B|C").search`` would, not which matches first. For "does the text hold any
    of these" over alternatives with nothing in common (a character class, a list of
    codes, a list of words), one pattern each is faster than their union: the engine
    tries every branch of a union at every position (three times the time here)."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Guarded) -> None:
        self.parts = parts

    def search(self, string: str) -> regex.Match[str] | None:
        """A match of the first alternative that matches anywhere, or None."""
        for part in self.parts:
            found = part.search(string)
            if found is not None:
                return found
        return None


@lru_cache(maxsize=512)
def _cached(pattern: str, flags: int) -> Guarded:
    return Guarded(pattern, flags, linear=False).compile()


def search(pattern: str, string: str, flags: int = 0) -> regex.Match[str] | None:
    """``regex.search`` under the guard (the pattern is compiled once and cached)."""
    return _cached(pattern, flags).search(string)


def match(pattern: str, string: str, flags: int = 0) -> regex.Match[str] | None:
    """``regex.match`` under the guard."""
    return _cached(pattern, flags).match(string)


def fullmatch(pattern: str, string: str, flags: int = 0) -> regex.Match[str] | None:
    """``regex.fullmatch`` under the guard."""
    return _cached(pattern, flags).fullmatch(string)


def findall(pattern: str, string: str, flags: int = 0) -> list[Any]:
    """``regex.findall`` under the guard."""
    return _cached(pattern, flags).findall(string)


def finditer(pattern: str, string: str, flags: int = 0) -> Iterator[regex.Match[str]]:
    """``regex.finditer`` under the guard."""
    return _cached(pattern, flags).finditer(string)


def sub(pattern: str, repl: str | Callable[[regex.Match[str]], str], string: str,
        flags: int = 0) -> str:
    """``regex.sub`` under the guard."""
    return _cached(pattern, flags).sub(repl, string)


def split(pattern: str, string: str, flags: int = 0) -> list[Any]:
    """``regex.split`` under the guard."""
    return _cached(pattern, flags).split(string)


def find_all(pattern: Guarded, text: str, *, name: str, where: str = "") -> list[regex.Match[str]]:
    """Return every match of ``pattern`` in ``text``, or none (with a warning) if the scan
    passes its timeout: one slow pattern costs its own matches, never the turn."""
    try:
        return list(pattern.finditer(text))
    except TimeoutError:
        log.warning("pattern %r timed out%s (%d characters)", name,
                    f" on {where}" if where else "", len(text))
        return []
