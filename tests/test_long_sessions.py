"""Long sessions: the block keeps what matters within its bound, however long the session
runs, and the compacted output never exceeds the window (counted independently here)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from scratchpad import Scratchpad
from scratchpad.compaction import BLOCK_SHARE, compact, is_block
from scratchpad.messages import parse_message
from scratchpad.salience import SHOW_FROM
from scratchpad.tokens import count, message_tokens, messages_tokens
from tests.long_session import CodingSession, SupportThread


def cost(messages: list[dict[str, Any]]) -> int:
    return messages_tokens(message_tokens(parse_message(m)) for m in messages)


def text_of(messages: list[dict[str, Any]]) -> str:
    return "\n".join(m["content"] if isinstance(m.get("content"), str)
                     else json.dumps(m.get("content")) for m in messages)


def grow(session: CodingSession | SupportThread, steps: int, window: int,
         rounds: int = 20) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Compact ``session`` ``rounds`` times as it grows to ``steps`` steps, each output
    fed back with the next steps; return each round's (log, output)."""
    per = steps // rounds
    messages = session.opening + session.steps(1, per)
    out_rounds = []
    with Scratchpad(":memory:") as pad:
        for r in range(rounds):
            out = compact(messages, pad=pad, thread="s", window=window, keep_recent=8)
            out_rounds.append((out.log, out.messages))
            messages = out.messages + session.steps(1 + per * (r + 1), per)
    return out_rounds


@pytest.mark.slow
def test_a_5000_step_session_keeps_every_planted_fact_through_20_rounds() -> None:
    session = CodingSession(seed=5000)
    rounds = grow(session, 5000, window=8000)
    assert all(log["compacted"] for log, _ in rounds[1:])
    for n, (log, messages) in enumerate(rounds):
        block = next(m["content"] for m in messages if is_block(m))
        for name, value in session.planted.items():
            assert value in block, (n, name)
        assert cost(messages) <= 8000, n
        assert log["block_tokens"] <= int(8000 * BLOCK_SHARE)
    # the routine is one counted line, not thousands
    last = next(m["content"] for m in rounds[-1][1] if is_block(m))
    assert re.search(rf"NOT CARRIED: \d{{3,}} files under src/{session.package}/", last)
    assert count(last.split("=== End of carried forward ===")[0]) < 500


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_support_threads_keep_the_deal_and_the_open_question(seed: int) -> None:
    session = SupportThread(seed)
    for n, (_, messages) in enumerate(grow(session, 400, window=1500, rounds=8)):
        text = text_of(messages)
        assert all(value in text for value in session.planted.values()), n
        assert cost(messages) <= 1500


@pytest.mark.parametrize("window", [*range(250, 700, 25), 1000, 1600, 2400])
def test_the_window_is_never_exceeded_on_the_edge(espresso_messages, window: int) -> None:
    with Scratchpad(":memory:") as pad:
        out = compact(espresso_messages, pad=pad, thread="e", window=window, keep_recent=6)
    spent = cost(out.messages)
    if out.changed:
        assert spent == out.log["tokens_after"]
    if not out.log.get("over_window"):
        assert spent <= window, out.log
    else:  # only when the system prompt and the latest user message alone do not fit
        head = [m for m in out.messages if m["role"] == "system" and not is_block(m)]
        user = [m for m in out.messages if m["role"] == "user"][-1:]
        assert cost(head + user) > window - 40


def test_tool_calls_count_in_full_when_fitting_the_window() -> None:
    session = CodingSession(seed=9)
    messages = session.opening + session.steps(1, 120)
    for window in (1200, 2000, 3000):
        with Scratchpad(":memory:") as pad:
            out = compact(messages, pad=pad, thread="c", window=window, keep_recent=8)
        assert out.changed and cost(out.messages) <= window


def test_routine_reads_collapse_into_one_line() -> None:
    session = CodingSession(seed=11)
    with Scratchpad(":memory:") as pad:
        pad.ingest("c", session.opening + session.steps(1, 300))
        block = pad.render("c")
    lines = block.splitlines()
    routine = [ln for ln in lines if f"src/{session.package}/" in ln
               and session.planted["path"] not in ln]
    assert len(routine) == 1 and routine[0].startswith("NOT CARRIED: ")
    assert re.search(rf"\d+ files under src/{session.package}/", routine[0])
    assert re.search(r"\(turns \d+-\d+\)$", routine[0])
    assert all(value in block for value in session.planted.values())
    assert len(lines) < 15


def test_a_user_stated_identifier_outranks_500_tool_read_paths() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "Please look into ticket QX-40917, the export is slow."}]
    for n in range(500):
        path = f"src/export/part_{n}.py"
        messages += [
            {"role": "assistant", "content": f"Let me look at {path}.", "tool_calls": [
                {"id": f"c{n}", "type": "function",
                 "function": {"name": "read_file", "arguments": json.dumps({"path": path})}}]},
            {"role": "tool", "tool_call_id": f"c{n}", "content": f"# {path}\nrows = load()\n"},
        ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        ticket = next(r for r in pad.records("t") if r.text == "QX-40917")
        paths = [r for r in pad.records("t", kind="identifier") if r.text.startswith("src/")]
        assert len({r.text for r in paths}) == 500
        assert ticket.salience >= SHOW_FROM > max(r.salience for r in paths)
        block = pad.render("t")
        tight = pad.render("t", max_tokens=60)
    assert [ln for ln in block.splitlines() if "QX-40917" in ln and "(user, turn 1)" in ln]
    assert "NOT CARRIED: 500 files under src/export/" in block
    assert "QX-40917" in tight and count(tight) <= 60


def test_a_value_the_agent_reads_out_from_a_tool_is_an_echo() -> None:
    messages = [
        {"role": "user", "content": "Where is my parcel?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "track_parcel", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"depot": "DX-4471"}'},
        {"role": "assistant", "content": "It was last scanned at depot DX-4471. "
                                         "Your case number is CS-99120."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        said = {r.text: r.salience for r in pad.records("t") if r.role == "assistant"}
        explained = pad.render("t", explain=True)
    assert said["DX-4471"] < SHOW_FROM <= said["CS-99120"]  # only the case number is new
    assert 'ID: case "CS-99120" (assistant, turn 4)' in explained
    assert "NOT CARRIED: 1 identifier (turns 3-4)" in explained
