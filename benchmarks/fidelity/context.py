"""What a compacted context holds, as text: for the verbatim checks and the QA probe."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

Message = dict[str, Any]


def message_text(message: Message) -> str:
    """A message's text and tool calls, as one string (what the model would read)."""
    content = message.get("content")
    if isinstance(content, list):
        content = "\n".join(str(part.get("text", "")) for part in content
                            if isinstance(part, dict))
    parts = [content] if isinstance(content, str) and content else []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(f"{function.get('name')}({function.get('arguments', '')})")
    return "\n".join(parts)


def transcript(messages: Sequence[Message]) -> str:
    """The messages as a plain transcript, one ``role: text`` paragraph each."""
    lines = []
    for m in messages:
        role = str(m.get("role"))
        if role == "tool":
            role = f"tool result ({m.get('name') or m.get('tool_call_id') or 'tool'})"
        lines.append(f"{role}: {message_text(m)}")
    return "\n\n".join(lines)


def dumps(messages: Sequence[Message]) -> str:
    """Stable JSON of the messages (for the results file's per-case sizes, not shown)."""
    return json.dumps(list(messages), ensure_ascii=False, sort_keys=True)
