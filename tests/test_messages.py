"""Reading conversations: formats, normalization and one-line errors."""

from __future__ import annotations

import json

import pytest

from scratchpad.errors import InputError
from scratchpad.messages import parse_message, parse_messages_text, read_messages


def test_openai_string_content():
    m = parse_message({"role": "user", "content": "Order A-77215"})
    assert (m.role, m.text) == ("user", "Order A-77215")


def test_content_parts_join_with_newline():
    m = parse_message({"role": "user", "content": [
        {"type": "text", "text": "first"}, {"type": "image_url", "image_url": {"url": "x"}},
        {"type": "text", "text": "second"}]})
    assert m.text == "first\nsecond"


def test_null_content_with_tool_calls():
    m = parse_message({"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]})
    assert m.text == "" and m.tool_calls[0]["id"] == "c1"


def test_anthropic_tool_use_and_result():
    call = parse_message({"role": "assistant", "content": [
        {"type": "text", "text": "Looking it up."},
        {"type": "tool_use", "id": "tu1", "name": "lookup", "input": {"id": "A-1"}}]})
    assert call.text == "Looking it up." and call.tool_calls[0]["function"]["name"] == "lookup"
    result = parse_message({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "tu1",
         "content": [{"type": "text", "text": "ok"}]}]})
    assert (result.role, result.text, result.tool_call_id) == ("tool", "ok", "tu1")


@pytest.mark.parametrize("obj, fragment", [
    ({"role": "robot", "content": "hi"}, "unknown role 'robot'"),
    ({"role": "user"}, "has no 'content'"),
    ({"role": "assistant", "content": None}, "null content and no tool_calls"),
    ({"role": "user", "content": 42}, "'content' must be a string"),
    ({"role": "user", "content": [{"text": "no type"}]}, "content part 0"),
    ("just a string", "expected a message object"),
    ({"role": "user", "content": "x", "timestamp": "yesterday"}, "not an ISO 8601"),
])
def test_bad_messages_name_the_problem(obj, fragment):
    with pytest.raises(InputError, match=fragment):
        parse_message(obj, source="f.jsonl", line=3)


def test_jsonl_error_names_file_and_line():
    text = '{"role": "user", "content": "ok"}\n{"role": "user", "content": \n'
    with pytest.raises(InputError, match=r"^conv.jsonl:2: invalid JSON"):
        parse_messages_text(text, source="conv.jsonl")


def test_json_list_is_accepted():
    text = json.dumps([{"role": "system", "content": "s"}, {"role": "user", "content": "u"}])
    assert [m.role for m in parse_messages_text(text)] == ["system", "user"]


@pytest.mark.parametrize("content", ["", "\n\n", "[]"])
def test_empty_input_is_an_error(content):
    with pytest.raises(InputError, match="no messages"):
        parse_messages_text(content, source="empty.jsonl")


def test_invalid_utf8_and_missing_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"role": "user", "content": "caf\xe9"}\n')
    with pytest.raises(InputError, match="invalid UTF-8"):
        read_messages(bad)
    with pytest.raises(InputError, match="no such file"):
        read_messages(tmp_path / "missing.jsonl")
