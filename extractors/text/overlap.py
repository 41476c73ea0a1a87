"""What ties a later turn to an earlier commitment or constraint: the distinctive terms
they share.

A term is a content word's stem (four letters or more, not a common word), a number
("3.9", "9519", "14:00") or a code ("8XK4PD", "billing/totals.py"). Numbers and codes
are specific enough to tie two texts on their own; plain words need company.

A tool call is evidence through its argument *values* only: the keys name the tool's
schema ("seat_preference"), the values say what was asked for ("quiet").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import regex

from extractors.text.clauses import stem

#: Words too common to tie two texts together.
COMMON = frozenset(stem(w) for w in """
the a an and or but not no to of for on in at by with from into onto about my your our
their his her its it this that these those i you we they he she me us them is are was
were be been have has had do does did will would can could should must may might shall
please just also then so if as any some all one more less than very really only get got
make made want need like prefer rather instead keep stay sure ensure don dont can't cannot
won't there here what when where which who how thing things something anything nothing
""".split())
#: Tool-name words of calls that only read: a lookup fulfils no promise.
READ_WORDS = frozenset(stem(w) for w in """
get search list find lookup look check fetch read query show view describe status retrieve
inspect verify validate preview estimate quote
""".split())

#: What a tool result says when the call did not do its job.
TOOL_FAILURE = regex.compile(r"\b(?:error|fail(?:ed|ure)?|denied|invalid|not\s+found)\b|"
                             r"\"ok\"\s*:\s*false|\"success\"\s*:\s*false",
                             regex.IGNORECASE)

_WORD = regex.compile(r"[^\W\d_]{4,}")
_NUMBER = regex.compile(r"\d+(?:[.:,]\d+)*")
_CODE = regex.compile(r"(?<![\w./-])(?=[\w./-]*[A-Za-z])(?=[\w./-]*(?:\d|[./_]\w))"
                      r"[\w][\w./-]*[\w]")


def terms(text: str) -> set[str]:
    """Return the distinctive terms of ``text`` (see the module docstring)."""
    out = {stem(w) for w in _WORD.findall(text)} - COMMON
    out |= {n for n in _NUMBER.findall(text) if len(n) >= 2}
    out |= {c.lower() for c in _CODE.findall(text)}
    return out


def specific(term: str) -> bool:
    """True for a number or a code: enough on its own to tie two texts."""
    return any(ch.isdigit() for ch in term) or any(ch in "./_" for ch in term)


def ties(a: set[str], b: set[str], extra: int = 0) -> bool:
    """True when term sets ``a`` and ``b`` share a number or code, or two words
    (``extra`` counts further evidence, e.g. a shared verb)."""
    shared = a & b
    return any(specific(t) for t in shared) or len(shared) + extra >= 2


def _values(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _values(value)
    elif isinstance(node, list):
        for value in node:
            yield from _values(value)
    elif isinstance(node, str | int | float) and not isinstance(node, bool):
        yield str(node)


def argument_values(arguments: str | None) -> str:
    """Return the string and number values of a tool call's JSON arguments, one per line
    (the raw text when it is not JSON)."""
    if not arguments:
        return ""
    try:
        return "\n".join(_values(json.loads(arguments)))
    except ValueError:
        return arguments


def word_stems(text: str | None) -> set[str]:
    """The stems of every word of a label or a tool name ("return shipping",
    ``change_booking``), short and common ones included."""
    return {stem(w) for w in regex.split(r"[_\W]+", text or "") if w}


def reads_only(tool_name: str | None) -> bool:
    """True when the tool's name says it only reads (``get_order``, ``search_trains``)."""
    return bool(word_stems(tool_name) & READ_WORDS)


def tool_failed(result: str) -> bool:
    """True when a tool result reports that the call failed."""
    try:
        return bool(TOOL_FAILURE.search(result, timeout=1.0))
    except TimeoutError:
        return True  # an unreadable result proves nothing done
