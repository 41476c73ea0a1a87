"""Where a transcript may be cut: between whole turns, never between a tool call and its
result.

Providers reject a tool result whose call is not in the request (an *orphaned* result),
and an assistant message with tool calls whose results are missing. Compaction keeps a
suffix of the conversation verbatim, so the only question is where that suffix starts:
:func:`cut_point` picks the latest start that keeps at least ``keep_recent`` messages,
the latest user message, and every tool result together with its call.

Both message formats are read from the raw message: OpenAI (``tool_calls[].id`` on the
assistant message, ``tool_call_id`` on the ``tool`` message) and Anthropic (``tool_use``
blocks with ``id`` in the assistant's content, ``tool_result`` blocks with
``tool_use_id`` in the user's; one message may carry several).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Links:
    """The tool-call ids one message makes (``calls``) and answers (``answers``)."""

    calls: frozenset[str]
    answers: frozenset[str]


def links(message: Mapping[str, Any]) -> Links:
    """Return the tool calls ``message`` makes and the ones it carries results for."""
    calls: set[str] = set()
    answers: set[str] = set()
    for call in message.get("tool_calls") or []:
        if isinstance(call, Mapping) and isinstance(call.get("id"), str):
            calls.add(call["id"])
    if isinstance(message.get("tool_call_id"), str):
        answers.add(message["tool_call_id"])
    content = message.get("content")
    if isinstance(content, list):
        for part in content:
            if not isinstance(part, Mapping):
                continue
            if part.get("type") == "tool_use" and isinstance(part.get("id"), str):
                calls.add(part["id"])
            elif part.get("type") == "tool_result" and isinstance(part.get("tool_use_id"), str):
                answers.add(part["tool_use_id"])
    return Links(frozenset(calls), frozenset(answers))


def is_user_text(message: Mapping[str, Any]) -> bool:
    """True for a user message that says something (not only Anthropic tool results)."""
    if message.get("role") != "user":
        return False
    content = message.get("content")
    if not isinstance(content, list):
        return True
    return any(isinstance(p, Mapping) and p.get("type") != "tool_result" for p in content)


def clean(messages: Sequence[Mapping[str, Any]], start: int) -> bool:
    """True when keeping ``messages[start:]`` orphans no tool result: every result kept
    answers a call that is kept too."""
    kept_calls: set[str] = set()
    for message in messages[start:]:
        link = links(message)
        if not link.answers <= kept_calls | link.calls:
            return False
        kept_calls |= link.calls
    return True


def cut_point(messages: Sequence[Mapping[str, Any]], keep_recent: int, first: int = 0, *,
              keep_last_user: bool = True) -> int:
    """Return the index the kept suffix of ``messages`` starts at.

    The suffix holds at least the last ``keep_recent`` messages (all of ``messages[first:]``
    if there are fewer), the latest user message that says something, and no tool result
    without its call; among such starts, the latest. ``first`` is where the turns begin
    (after the system prompt), so the result is never before it. Without
    ``keep_last_user`` the latest user message is the caller's business (compaction keeps
    it apart when the recent turns after it are too many). Cost: one pass.
    """
    start = max(first, len(messages) - max(0, keep_recent))
    last_user = max((i for i in range(first, len(messages)) if is_user_text(messages[i])),
                    default=None)
    if last_user is not None and keep_last_user:
        start = min(start, last_user)
    # Walk back from the end once, tracking results whose calls are not yet seen: a start
    # is clean exactly when nothing is pending there.
    pending: set[str] = set()
    clean_starts: list[int] = [len(messages)]  # keeping nothing orphans nothing
    for i in range(len(messages) - 1, first - 1, -1):
        link = links(messages[i])
        pending -= link.calls
        pending |= link.answers - link.calls
        if not pending:
            clean_starts.append(i)
    for i in clean_starts:  # latest first
        if i <= start:
            return i
    return first
