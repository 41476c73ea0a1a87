"""The instructor summarizer against a real chat-completions server on 127.0.0.1: a
good reply, an invalid one, a server error and a server that hangs."""

from __future__ import annotations

import json
import time

import pytest

from scratchpad import Scratchpad
from scratchpad.compaction import compact
from scratchpad.instructor_summarizer import InstructorSummarizer
from scratchpad.summary import Summary, SummaryRequest, SummaryTurn
from tests.chat_server import chat_server

REPLY = {"request": "Return the espresso machine for a refund", "decisions": [
    {"decision": "Goodwill return although past 30 days", "why": "customer was away",
     "turn": 12}], "established": [], "tried_and_failed": [], "open": [],
    "next_step": "Book the collection", "turns_covered": [1, 35]}
REQUEST = SummaryRequest(turns=[SummaryTurn(turn=1, role="user", text="I want to return it.")],
                         pinned="=== Carried forward verbatim (do not paraphrase) ===\nX")


def test_a_grounded_reply_becomes_the_summary() -> None:
    with chat_server("reply", json.dumps(REPLY)) as (url, received):
        summary = InstructorSummarizer(base_url=url, model="local").summarize(REQUEST)
    assert summary == Summary.model_validate(REPLY)
    (body,) = received
    assert body["model"] == "local" and body["temperature"] == 0.1
    system = body["messages"][0]["content"]
    assert "Do NOT restate" in system and REQUEST.pinned in system  # told what is pinned
    assert "[turn 1] user: I want to return it." in body["messages"][1]["content"]
    assert "max_tokens" not in body  # no cap unless one is asked for


def test_max_tokens_caps_the_reply() -> None:
    with chat_server("reply", json.dumps(REPLY)) as (url, received):
        InstructorSummarizer(base_url=url, max_tokens=300).summarize(REQUEST)
    assert received[0]["max_tokens"] == 300


def test_an_invalid_reply_is_retried_a_bounded_number_of_times_then_raises() -> None:
    with chat_server("reply", "this is not JSON") as (url, received):
        with pytest.raises(Exception):  # noqa: B017 (instructor's retry error)
            InstructorSummarizer(base_url=url, max_retries=2).summarize(REQUEST)
    assert 1 <= len(received) <= 3


@pytest.mark.parametrize("behaviour", ["error", "hang"])
def test_compaction_keeps_the_history_when_the_model_fails(behaviour, espresso_messages
                                                            ) -> None:
    with chat_server(behaviour, hang=5.0) as (url, _):
        summarizer = InstructorSummarizer(base_url=url, timeout=1.0, max_retries=1)
        started = time.perf_counter()
        with Scratchpad(":memory:") as pad:
            out = compact(espresso_messages, pad=pad, thread="e", window=2000,
                          summarizer=summarizer, timeout=3.0)
    assert time.perf_counter() - started < 10
    assert out.messages == espresso_messages and not out.changed
    assert out.log["reason"].startswith("summarizer failed")


def test_compaction_puts_the_models_summary_below_the_block(espresso_messages) -> None:
    with chat_server("reply", json.dumps(REPLY)) as (url, _):
        with Scratchpad(":memory:") as pad:
            out = compact(espresso_messages, pad=pad, thread="e", window=2000,
                          summarizer=InstructorSummarizer(base_url=url))
    text = out.messages[1]["content"]
    assert '"The refund would be €930" (assistant, turn 12; accepted turn 13' in text  # pins
    assert text.index("=== End of carried forward ===") < text.index(
        "Decided: Goodwill return although past 30 days (why: customer was away)")
    assert out.log["summarizer"] == "instructor"


def test_cli_compacts_with_a_model_and_survives_a_broken_one(espresso_path) -> None:
    from click.testing import CliRunner

    from scratchpad.cli import cli

    runner = CliRunner()
    args = ["compact", str(espresso_path), "--window", "2000", "--summarizer", "instructor"]
    with chat_server("reply", json.dumps(REPLY)) as (url, _):
        result = runner.invoke(cli, args + ["--llm-base-url", url])
    assert result.exit_code == 0, result.output
    assert "Decided: Goodwill return" in json.loads(result.stdout.splitlines()[1])["content"]
    with chat_server("error") as (url, _):
        result = runner.invoke(cli, args + ["--llm-base-url", url])
    assert result.exit_code == 0
    assert json.loads(result.stderr)["reason"].startswith("summarizer failed")
    assert len(result.stdout.splitlines()) == 42  # the input, unchanged
    missing = runner.invoke(cli, args, env={"SCRATCHPAD_LLM_BASE_URL": ""})
    assert missing.exit_code == 2 and "--llm-base-url" in missing.output
