"""Reading a history as agent frameworks hold it: what in it is no turn of the
conversation (compaction's own block message, the summary messages frameworks put in
place of the turns they dropped), and which stored turn each of the rest is
(:func:`align`).

A harness hands Scratchpad the messages it is about to send, and frameworks rewrite
their older part: Scratchpad's :func:`~scratchpad.compaction.compact` replaces it with a
block message, LangChain's ``SummarizationMiddleware`` with a human message starting
"Here is a summary of the conversation to date:". Neither is something anyone said, so
neither is extracted: :meth:`scratchpad.Scratchpad.sync` leaves them out.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scratchpad.messages import Message
from scratchpad.render import HEADER

#: How the summary messages of known frameworks begin (LangChain's
#: ``SummarizationMiddleware``, whose default ``summary_prefix`` this is).
SUMMARY_PREFIXES = ("Here is a summary of the conversation to date:",)

SummaryTest = Callable[[Message], bool]


def is_block(message: Mapping[str, Any], *, first_turn: bool = True) -> bool:
    """True for a block message compaction wrote, by what no user can type:

    * a ``system`` message whose text starts with the block's header (users do not choose
      the role of their messages);
    * in Anthropic's format (no system role among the messages), the first message after
      the system prompt (``first_turn``) whose content is the header as a text block of its
      own, followed by the rest of the block: typed text arrives as one string or one
      block, so a user message that merely begins with the header is never taken for it.
    """
    content = message.get("content")
    if message.get("role") in ("system", "developer"):
        if isinstance(content, list):
            content = next((p.get("text") for p in content
                            if isinstance(p, Mapping) and p.get("type") == "text"), None)
        return isinstance(content, str) and content.startswith(HEADER)
    if message.get("role") != "user" or not first_turn or not isinstance(content, list):
        return False
    return (len(content) >= 2 and isinstance(content[0], Mapping)
            and content[0].get("type") == "text" and content[0].get("text") == HEADER)


def block_flags(given: Sequence[Mapping[str, Any]]) -> list[bool]:
    """Which of ``given`` are block messages (a user-role one only right after the
    system prompt)."""
    first = next((i for i, m in enumerate(given) if m.get("role") not in ("system", "developer")),
                 len(given))
    return [is_block(m, first_turn=i == first) for i, m in enumerate(given)]


def is_framework_summary(message: Message) -> bool:
    """True for a summary message a known framework wrote: one that begins with a
    :data:`SUMMARY_PREFIXES`, or that LangChain marks ``lc_source: "summarization"``."""
    extra = message.raw.get("additional_kwargs")
    if isinstance(extra, Mapping) and extra.get("lc_source") == "summarization":
        return True
    return message.role != "tool" and message.text.lstrip().startswith(SUMMARY_PREFIXES)


def align(hashes: Sequence[str], tail: Sequence[str], stored: int,
          where: Mapping[str, Sequence[int]]) -> list[int | None]:
    """The stored turn number of each of ``hashes`` (a history's turns, in order), or
    None for a new turn or a rewritten one.

    ``stored``: how many turns the thread has; ``tail``: the hashes of its last
    ``len(tail)`` turns; ``where``: the stored turn numbers of each hash. A history ends
    where the conversation is, so it is aligned on the stored thread's end where it can
    be: of the messages that equal the last stored turn, the one after which the history
    agrees longest, backwards, with the stored turns (the earliest of equals) is that
    turn, and the messages after it are new. The messages before that run are matched,
    in order, to stored turns before it. A history that does not hold the last stored
    turn (compacted away, or never sent) is matched in order from its start, and the
    messages after its last match are new. Time linear in the history.
    """
    out: list[int | None] = [None] * len(hashes)
    runs = _runs_ending_on(hashes, tail)
    best = max(range(len(hashes)), key=lambda j: (runs[j], -j), default=None)
    if best is None or runs[best] == 0:
        _in_order(hashes, where, out, len(hashes), below=stored + 1)
        return out
    first = best - runs[best] + 1
    for k in range(runs[best]):
        out[first + k] = stored - runs[best] + 1 + k
    _in_order(hashes, where, out, first, below=stored - runs[best] + 1)
    return out  # (after the run: None, new turns)


def _in_order(hashes: Sequence[str], where: Mapping[str, Sequence[int]],
              out: list[int | None], end: int, *, below: int) -> None:
    """Match ``hashes[:end]`` to stored turns in increasing order, each the first after
    the previous match and all below ``below``."""
    last = 0
    for j in range(end):
        numbers = where.get(hashes[j], ())
        k = bisect_right(numbers, last)  # (each hash's numbers are in turn order)
        if k < len(numbers) and numbers[k] < below:
            out[j] = last = numbers[k]


def _runs_ending_on(hashes: Sequence[str], tail: Sequence[str]) -> list[int]:
    """For each position j of ``hashes``: the longest r such that ``hashes[j-r+1:j+1]``
    equals the last r of ``tail`` (the Z-function of the two reversed)."""
    pattern = list(reversed(tail))
    text = list(reversed(hashes))
    joined: list[str | None] = [*pattern, None, *text]
    z = [0] * len(joined)
    left = right = 0
    for i in range(1, len(joined)):
        if i < right:
            z[i] = min(right - i, z[i - left])
        while i + z[i] < len(joined) and joined[z[i]] == joined[i + z[i]] \
                and joined[i + z[i]] is not None:
            z[i] += 1
        if i + z[i] > right:
            left, right = i, i + z[i]
    offset = len(pattern) + 1
    return [z[offset + len(hashes) - 1 - j] for j in range(len(hashes))]
