"""Anthropic's Messages API: the block as a second system text block, the user's own
system blocks (and their ``cache_control`` markers) first and unchanged.

``system_blocks, messages = compact_for_anthropic(system, messages, pad=pad,
thread="t", window=200_000)`` before ``client.messages.create(system=system_blocks,
messages=messages, ...)``. ``system`` is the request's top-level system prompt (a string,
a list of text blocks, or None); ``messages`` its messages, ``tool_use`` and
``tool_result`` blocks kept together, the first a user message (the API wants one): when
the recent turns compaction keeps begin inside a tool loop, they start at the first user
message that says something. Under ``trigger × window`` tokens both come back as given
(the system as blocks). Needs no extra: it works on the request's plain dicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scratchpad.cut import clean, is_user_text
from scratchpad.integrations.compacting import Compactor
from scratchpad.pipeline import Scratchpad


def compact_for_anthropic(system: str | Sequence[Mapping[str, Any]] | None,
                          messages: Sequence[Mapping[str, Any]], *, pad: Scratchpad,
                          thread: str, window: int, **options: Any
                          ) -> tuple[list[dict[str, Any]], list[Mapping[str, Any]]]:
    """Return the ``(system blocks, messages)`` to send (see the module docstring);
    ``options``: the compaction settings (``keep_recent``,
    ``summarizer``, ``trigger``, ``block_tokens``)."""
    blocks = _blocks(system)
    head = [{"role": "system", "content": blocks}] if blocks else []
    found = Compactor(pad, window, **options)([*head, *messages], thread, head=len(head))
    if found is None:
        return blocks, list(messages)
    block, before, after = found
    sent = [*before, *after]
    # The API wants a user message first: the kept part may begin inside a tool loop, so
    # it starts at its first user message that says something (and orphans no tool
    # result); what comes before it is older than that message, and in the block.
    start = next((k for k, m in enumerate(sent) if is_user_text(m) and clean(sent, k)), 0)
    return [*blocks, {"type": "text", "text": block}], sent[start:]


def _blocks(system: str | Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    if system is None or system == "":
        return []
    if isinstance(system, str):
        return [{"type": "text", "text": system}]
    return [dict(block) for block in system]
