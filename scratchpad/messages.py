"""Read conversations: OpenAI chat messages (and Anthropic content blocks) from
JSONL, a JSON list, or Python dicts, into validated :class:`Message` objects. Other
formats -- OpenAI Responses items, the ``developer`` role, LangChain message objects --
are first turned into chat messages by :func:`scratchpad.formats.as_chat`.

Everything is checked before anything is stored, so a bad file never leaves a
half-ingested thread behind: roles and content shapes, tool calls (objects with a string
id and a ``function`` object naming the tool), text that cannot be stored as UTF-8 (lone
surrogates such as ``"\\ud800"``, in values or keys), nesting deeper than
:data:`MAX_DEPTH`, integers beyond 64 bits, turns longer than :data:`MAX_TURN_CHARS`.
Timestamps are read as ISO 8601 and kept as given (relative dates resolve against the
writer's own calendar day); they are stored in UTC (:func:`as_utc`: a timestamp without a
zone is taken to be UTC).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from scratchpad.errors import InputError
from scratchpad.formats import as_chat

MessageRole = Literal["system", "user", "assistant", "tool"]
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")
#: Largest accepted input file; larger ones are refused rather than read into memory.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: Deepest nesting of lists and objects accepted in a message.
MAX_DEPTH = 64
#: Largest integer magnitude accepted anywhere in a message (SQLite's and JSON's common range).
MAX_INT = 2**63 - 1
#: Longest turn text accepted (characters); a longer message is refused with a clear error.
MAX_TURN_CHARS = 2_000_000


class Message(BaseModel):
    """One chat message, normalized. ``text`` is what extractors read and what offsets
    index into: string content as given, or text parts joined with a newline."""

    model_config = ConfigDict(frozen=True)

    role: MessageRole
    text: str
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    name: str | None = None
    timestamp: datetime | None = None
    #: The message exactly as given, for compaction to hand back unchanged.
    raw: dict[str, Any]

    def canonical(self) -> str:
        """Return a stable serialization of what makes this message this message."""
        return json.dumps(
            {"role": self.role, "text": self.text, "tool_calls": self.tool_calls,
             "tool_call_id": self.tool_call_id},
            sort_keys=True, ensure_ascii=False, separators=(",", ":"),
        )


def parse_message(obj: Any, *, source: str | None = None, line: int | None = None) -> Message:
    """Validate one message object and normalize it (OpenAI chat or Anthropic shape, or
    a format :func:`~scratchpad.formats.as_chat` reads). ``raw`` is the message as given
    when it is a dict, else its chat-message dict."""

    def fail(msg: str) -> InputError:
        return InputError(msg, source=source, line=line)

    given = obj
    obj = as_chat(obj)
    if not isinstance(obj, Mapping):
        raise fail(f"expected a message object, got {type(obj).__name__}")
    problem = _unstorable(given if isinstance(given, Mapping) else obj)
    if problem:
        raise fail(problem)
    role = obj.get("role")
    if role not in ROLES:
        raise fail(f"unknown role {role!r}; expected one of {', '.join(ROLES)}")
    if "content" not in obj:
        raise fail(f"{role} message has no 'content' (use null for tool-call-only messages)")
    content = obj["content"]
    tool_calls = obj.get("tool_calls")
    if tool_calls is not None:
        _check_tool_calls(tool_calls, fail)
    tool_call_id = obj.get("tool_call_id")
    text, block_calls, block_result_id = _content_text(content, fail)
    if block_calls:
        tool_calls = (tool_calls or []) + block_calls
    if content is None and not tool_calls:
        raise fail(f"{role} message has null content and no tool_calls")
    if len(text) > MAX_TURN_CHARS:
        raise fail(f"{role} message has {len(text):,} characters; the most a turn may hold "
                   f"is {MAX_TURN_CHARS:,} (split it, or send the large payload elsewhere)")
    only_results = isinstance(content, list) and bool(content) and all(
        isinstance(p, Mapping) and p.get("type") == "tool_result" for p in content)
    if block_result_id and role == "user" and only_results and tool_call_id is None:
        # Anthropic puts tool results in user messages; they are tool turns here.
        role, tool_call_id = "tool", block_result_id
    return Message(
        role=role,
        text=text,
        tool_calls=tool_calls,
        tool_call_id=tool_call_id if isinstance(tool_call_id, str) else None,
        name=obj.get("name") if isinstance(obj.get("name"), str) else None,
        timestamp=_timestamp(obj.get("timestamp"), fail),
        raw=dict(given if isinstance(given, Mapping) else obj),
    )


def _content_text(content: Any, fail: Any) -> tuple[str, list[dict[str, Any]], str | None]:
    """Return (text, tool calls found in content blocks, tool_result id)."""
    if content is None:
        return "", [], None
    if isinstance(content, str):
        return content, [], None
    if not isinstance(content, list):
        raise fail(f"'content' must be a string, null or a list of parts, got "
                   f"{type(content).__name__}")
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    result_id: str | None = None
    for i, part in enumerate(content):
        if not isinstance(part, Mapping) or "type" not in part:
            raise fail(f"content part {i} is not an object with a 'type'")
        kind = part["type"]
        if kind in ("text", "input_text", "output_text"):
            if not isinstance(part.get("text"), str):
                raise fail(f"content part {i} of type {kind!r} has no string 'text'")
            texts.append(part["text"])
        elif kind == "tool_use":  # Anthropic
            calls.append({"id": part.get("id"), "type": "function",
                          "function": {"name": part.get("name"),
                                       "arguments": json.dumps(part.get("input", {}),
                                                               sort_keys=True)}})
        elif kind == "tool_result":  # Anthropic
            result_id = part.get("tool_use_id")
            inner, _, _ = _content_text(part.get("content"), fail)
            texts.append(inner)
        # images, audio and other parts carry no text to pin
    return "\n".join(texts), calls, result_id


def _timestamp(value: Any, fail: Any) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise fail(f"'timestamp' {value!r} is not an ISO 8601 date-time") from None


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; one without a zone is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _check_tool_calls(calls: Any, fail: Any) -> None:
    """A list of ``{"id": str, "type": "function", "function": {"name": str, "arguments":
    str}}`` (``arguments`` may also be an object or absent)."""
    if not isinstance(calls, list):
        raise fail("'tool_calls' must be a list")
    for i, call in enumerate(calls):
        if not isinstance(call, Mapping):
            raise fail(f"tool call {i} must be an object, got {type(call).__name__}")
        function = call.get("function")
        if not isinstance(function, Mapping):
            raise fail(f"tool call {i}: 'function' must be an object with a 'name'")
        if not isinstance(function.get("name"), str):
            raise fail(f"tool call {i}: 'function.name' must be a string")
        arguments = function.get("arguments")
        if arguments is not None and not isinstance(arguments, str | Mapping):
            raise fail(f"tool call {i}: 'function.arguments' must be a JSON string")
        if call.get("id") is not None and not isinstance(call.get("id"), str):
            raise fail(f"tool call {i}: 'id' must be a string")


def _unstorable(obj: Any) -> str | None:
    """Why ``obj`` cannot be stored as it is (nesting, numbers, text), or None. Walks it
    without recursion, so a hostile depth costs time in proportion to its size."""
    stack: list[tuple[Any, int, str]] = [(obj, 1, "message")]
    while stack:
        node, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return f"{where} is nested more than {MAX_DEPTH} levels deep"
        if isinstance(node, str):
            if not _utf8(node):
                return f"{where} holds a lone surrogate (not valid Unicode text)"
        elif isinstance(node, bool) or node is None or isinstance(node, float):
            continue
        elif isinstance(node, int):
            if abs(node) > MAX_INT:
                return f"{where} holds an integer beyond 64 bits"
        elif isinstance(node, Mapping):
            for key, value in node.items():
                if not isinstance(key, str) or not _utf8(key):
                    return f"{where} has a key that is not valid Unicode text"
                stack.append((value, depth + 1, f"{where}.{key}" if depth < 4 else where))
        elif isinstance(node, list | tuple):
            stack.extend((value, depth + 1, where) for value in node)
        else:
            return f"{where} holds a {type(node).__name__}, which is not JSON"
    return None


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json(text: str) -> Any:
    """``json.loads``, with what Python refuses to parse (a 5,000-digit integer, nesting
    deep enough to exhaust the recursion limit) reported as a ValueError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep") from None


def parse_messages(objs: Iterable[Any], *, source: str | None = None) -> list[Message]:
    """Validate a sequence of message objects (line numbers count from 1)."""
    return [parse_message(obj, source=source, line=i) for i, obj in enumerate(objs, 1)]


def read_messages(path: str | Path) -> list[Message]:
    """Read a ``.jsonl`` file (one message per line) or a JSON list of messages."""
    return parse_messages_text(_read_text(path), source=str(path))


def parse_messages_text(text: str, *, source: str = "<input>") -> list[Message]:
    """Parse JSONL or a JSON list; errors name the source and line."""
    stripped = text.lstrip()
    if not stripped:
        raise InputError("no messages (the input is empty)", source=source)
    if stripped.startswith("["):
        try:
            data = _json(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", source=source, line=exc.lineno) from None
        except ValueError as exc:
            raise InputError(f"cannot read the JSON: {exc}", source=source) from None
        if not data:
            raise InputError("no messages (the list is empty)", source=source)
        return parse_messages(data, source=source)
    messages: list[Message] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = _json(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg} (column {exc.colno})",
                             source=source, line=lineno) from None
        except ValueError as exc:
            raise InputError(f"cannot read the JSON: {exc}", source=source, line=lineno) from None
        messages.append(parse_message(obj, source=source, line=lineno))
    return messages


def _read_text(path: str | Path) -> str:
    p = Path(path)
    if str(path) == "-":
        import sys

        data = sys.stdin.buffer.read()
    else:
        if not p.exists():
            raise InputError("no such file", source=str(path))
        if p.is_dir():
            raise InputError("is a directory, not a messages file", source=str(path))
        if p.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"file is larger than {MAX_FILE_BYTES // 2**20} MiB",
                             source=str(path))
        data = p.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"invalid UTF-8 at byte {exc.start}", source=str(path),
                         line=line) from None


def read_corpus(path: str | Path) -> list[dict[str, Any]]:
    """Read a corpus: one JSON conversation per line, each with ``id`` and ``messages``."""
    text = _read_text(path)
    rows: list[dict[str, Any]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = _json(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", source=str(path), line=lineno) from None
        except ValueError as exc:
            raise InputError(f"cannot read the JSON: {exc}", source=str(path),
                             line=lineno) from None
        if not isinstance(row, dict) or "messages" not in row or "id" not in row:
            raise InputError("a corpus line needs 'id' and 'messages'", source=str(path),
                             line=lineno)
        row["_line"] = lineno
        rows.append(row)
    if not rows:
        raise InputError("no conversations (the corpus is empty)", source=str(path))
    return rows
