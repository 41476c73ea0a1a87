"""Message formats: what agent frameworks hand over, as the chat-message dicts
:mod:`scratchpad.messages` reads.

:func:`as_chat` takes, one message or item at a time:

* OpenAI chat messages, the ``developer`` role read as ``system`` (the message is
  otherwise as given);
* OpenAI Responses API input and output items: ``message`` items (``input_text`` /
  ``output_text`` parts or a string), ``function_call`` (an assistant turn calling the
  tool) and ``function_call_output`` (the tool's turn); other item types (``reasoning``,
  hosted tool calls) carry nothing to pin and become empty assistant turns, so that every
  item is one turn and indices line up;
* Anthropic messages (``tool_use`` / ``tool_result`` content blocks) as they are: the
  message reader knows them; the top-level ``system`` of a request is the caller's to
  pass as a system message;
* LangChain message objects (``HumanMessage``, ``AIMessage`` with ``tool_calls``,
  ``SystemMessage``, ``ToolMessage``), read by their attributes, without importing
  LangChain;
* LlamaIndex ``ChatMessage`` objects (text blocks, ``ToolCallBlock`` or OpenAI-style
  ``tool_calls`` in ``additional_kwargs``, a tool message's ``tool_call_id``), read by
  their attributes too;
* any other pydantic model of a message (the OpenAI SDK's), through ``model_dump``.

The result is a plain dict; for a dict given, what is not rewritten is kept, so the
stored ``message`` is the message as given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: LangChain message types, as chat roles.
_LANGCHAIN_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool",
                    "developer": "system"}
#: Responses API item types that hold nothing to pin (they become empty assistant turns).
_OPAQUE_ITEMS = frozenset({"reasoning", "web_search_call", "file_search_call",
                           "computer_call", "computer_call_output", "image_generation_call",
                           "code_interpreter_call", "local_shell_call",
                           "local_shell_call_output", "mcp_call", "mcp_list_tools",
                           "mcp_approval_request", "mcp_approval_response",
                           "item_reference"})


def as_chat(obj: Any) -> Any:
    """``obj`` as a chat-message dict when it is a message of a known format; anything
    else comes back as it is, for the message reader to refuse with its own error."""
    if isinstance(obj, Mapping):
        return _from_dict(obj)
    if _is_langchain(obj):
        return _from_langchain(obj)
    if _is_llama_index(obj):
        return _from_llama_index(obj)
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        data = dump(exclude_none=True)
        if isinstance(data, Mapping):
            return _from_dict(data)
    return obj


def _from_dict(obj: Mapping[str, Any]) -> Any:
    kind = obj.get("type")
    if kind == "function_call" and "role" not in obj:
        return {"role": "assistant", "content": None, "tool_calls": [{
            "id": obj.get("call_id"), "type": "function",
            "function": {"name": obj.get("name"), "arguments": obj.get("arguments")}}]}
    if kind == "function_call_output" and "role" not in obj:
        output = obj.get("output")
        return {"role": "tool", "tool_call_id": obj.get("call_id"),
                "content": output if isinstance(output, str | list) else json.dumps(output)}
    if kind in _OPAQUE_ITEMS and "role" not in obj:
        return {"role": "assistant", "content": ""}
    if kind == "message" or obj.get("role") == "developer":
        out = {k: v for k, v in obj.items() if k not in ("type", "id", "status")}
        if out.get("role") == "developer":
            out["role"] = "system"
        return out
    return obj


def _is_langchain(obj: Any) -> bool:
    return isinstance(getattr(obj, "type", None), str) and hasattr(obj, "content") \
        and hasattr(obj, "additional_kwargs") and obj.type in _LANGCHAIN_ROLES


def _from_langchain(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"role": _LANGCHAIN_ROLES[obj.type], "content": obj.content}
    calls = getattr(obj, "tool_calls", None) or []
    if calls:
        out["tool_calls"] = [{"id": c.get("id"), "type": "function",
                              "function": {"name": c.get("name"),
                                           "arguments": json.dumps(c.get("args", {}),
                                                                   sort_keys=True)}}
                             for c in calls]
        if not out["content"]:
            out["content"] = None
        elif isinstance(out["content"], list):  # Anthropic-style blocks repeat the calls
            out["content"] = [p for p in out["content"]
                              if not (isinstance(p, Mapping) and p.get("type") == "tool_use")]
    if obj.type == "tool":
        out["tool_call_id"] = getattr(obj, "tool_call_id", None)
    if getattr(obj, "name", None):
        out["name"] = obj.name
    extra = obj.additional_kwargs
    if isinstance(extra, Mapping) and extra.get("lc_source"):
        out["additional_kwargs"] = {"lc_source": extra["lc_source"]}
    return out


#: LlamaIndex roles, as chat roles (``chatbot`` and ``model`` are other providers' names).
_LLAMA_INDEX_ROLES = {"user": "user", "assistant": "assistant", "system": "system",
                      "developer": "system", "tool": "tool", "function": "tool",
                      "chatbot": "assistant", "model": "assistant"}


def _is_llama_index(obj: Any) -> bool:
    role = getattr(obj, "role", None)
    return isinstance(getattr(obj, "blocks", None), list) and \
        str(getattr(role, "value", role)) in _LLAMA_INDEX_ROLES


def _from_llama_index(obj: Any) -> dict[str, Any]:
    role = _LLAMA_INDEX_ROLES[str(getattr(obj.role, "value", obj.role))]
    texts = [b.text for b in obj.blocks if getattr(b, "block_type", None) == "text"]
    extra = obj.additional_kwargs if isinstance(obj.additional_kwargs, Mapping) else {}
    calls = [{"id": b.tool_call_id, "type": "function",
              "function": {"name": b.tool_name,
                           "arguments": b.tool_kwargs if isinstance(b.tool_kwargs, str)
                           else json.dumps(b.tool_kwargs, sort_keys=True)}}
             for b in obj.blocks if getattr(b, "block_type", None) == "tool_call"]
    for call in extra.get("tool_calls") or []:  # OpenAI-style, as objects or dicts
        data = call.model_dump() if hasattr(call, "model_dump") else call
        if isinstance(data, Mapping) and isinstance(data.get("function"), Mapping):
            calls.append({"id": data.get("id"), "type": "function",
                          "function": {"name": data["function"].get("name"),
                                       "arguments": data["function"].get("arguments")}})
    out: dict[str, Any] = {"role": role, "content": "\n".join(texts) if texts else None}
    if calls:
        out["tool_calls"] = calls
    elif out["content"] is None:
        out["content"] = ""
    if role == "tool":
        out["tool_call_id"] = extra.get("tool_call_id")
    return out
