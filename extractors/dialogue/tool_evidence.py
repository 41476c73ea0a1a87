"""Tool evidence: what a tool call did, read from its name, its arguments and its result.

A tool call is evidence through its argument *values* (and, for a commitment, its
result's values): the keys name the tool's schema ("seat_preference"), the values say what
was asked for ("quiet") or done ("16:00"); the values are then tied to an earlier
commitment or constraint by the terms they share (:func:`extractors.text.lexicon.terms`).
A call whose name says it only reads fulfils nothing; a result that reports a failure, or
that the act waits for someone, proves nothing done.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import regex

from extractors.text.guard import rx
from extractors.text.lexicon import stem, word_stems

#: Tool-name words of calls that only read: a lookup fulfils no promise.
READ_WORDS = frozenset(stem(w) for w in """
get search list find lookup look check fetch read query show view describe status retrieve
inspect verify validate preview estimate quote track grep diff poll monitor watch count compare
calculate lint
""".split())

#: What a tool result says when the call did not do its job.
TOOL_FAILURE = rx(r"\b(?:error|fail(?:ed|ure)?|denied|invalid|not\s+found)\b|"
                             r"\"ok\"\s*:\s*false|\"success\"\s*:\s*false",
                             regex.IGNORECASE)

#: What a tool result says when the act is only requested: it waits for someone else.
TOOL_PENDING = rx(r"\"status\"\s*:\s*\"(?:pending|queued|awaiting|in[_ ]progress)\w*\"",
                  regex.IGNORECASE)


def _walk(node: Any, keys: bool = False) -> Iterator[str]:
    """The string and number values of a JSON value, depth first; with ``keys``, the
    keys of its objects instead."""
    if isinstance(node, dict):
        for key, value in node.items():
            if keys:
                yield str(key)
            yield from _walk(value, keys)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value, keys)
    elif not keys and isinstance(node, str | int | float) and not isinstance(node, bool):
        yield str(node)


_NOT_JSON = object()


@lru_cache(maxsize=32)
def _parsed(payload: str) -> Any:
    """``payload`` parsed as JSON, or :data:`_NOT_JSON`: a tool turn's arguments and result
    are read for their values and for their keys, parsed once (read only: shared)."""
    try:
        return json.loads(payload)
    except ValueError:
        return _NOT_JSON


def schema_words(name: str | None, *payloads: str | None) -> frozenset[str]:
    """The stems of what a call's schema names: the tool's name and the keys of its JSON
    arguments and result (``set_spend_cap``, ``{"fine_waived": ...}``, ``{"recall": ...}``).
    Where a value says what was asked for, these say what kind of act it was."""
    out = set(word_stems(name))
    for payload in payloads:
        node = _parsed(payload) if payload else _NOT_JSON
        if node is not _NOT_JSON:
            out |= {s for key in _walk(node, keys=True) for s in word_stems(key)}
    return frozenset(out)


def argument_values(arguments: str | None) -> str:
    """Return the string and number values of a tool call's JSON arguments, one per line
    (the raw text when it is not JSON)."""
    if not arguments:
        return ""
    node = _parsed(arguments)
    return arguments if node is _NOT_JSON else "\n".join(_walk(node))


#: Code the agent quoted in backticks: ```toFixed(2)```, ```RWMutex```.
CODE_SPAN = rx(r"`([^`\n]{4,80})`", linear=True)


def quotes_code_of(promise: str, arguments: str | None) -> bool:
    """True when the call's raw arguments hold code the promise quoted in backticks: a
    patch with ``toFixed(2)`` does "I'll switch it to `toFixed(2)`"."""
    if not arguments:
        return False
    return any(m.group(1) in arguments for m in CODE_SPAN.finditer(promise))


def reads_only(tool_name: str | None) -> bool:
    """True when the tool's name says it only reads (``get_order``, ``search_trains``)."""
    return bool(word_stems(tool_name) & READ_WORDS)


def tool_failed(result: str) -> bool:
    """True when a tool result reports that the call failed."""
    try:
        return bool(TOOL_FAILURE.search(result))
    except TimeoutError:
        return True  # an unreadable result proves nothing done


def tool_pending(result: str) -> bool:
    """True when a tool result says the act waits for someone ("status": "pending_approval")."""
    try:
        return bool(TOOL_PENDING.search(result))
    except TimeoutError:
        return True
