"""Value salience from what the conversation did with a value: a slot an action tool
booked (its day, when the agent's words name no half of the day), a value echoed from an
action tool's data, and a value the assistant read back and the user confirmed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scratchpad import Scratchpad
from scratchpad.salience import PROTECTED, SHOW_FROM
from scratchpad.tokens import count

Messages = list[dict[str, Any]]


def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": name, "arguments": json.dumps(args)}}]}


def salience(messages: Messages, text: str, turn: int, *, one_by_one: bool = False) -> float:
    with Scratchpad(":memory:") as pad:
        if one_by_one:
            for n in range(1, len(messages) + 1):
                pad.ingest("t", messages[:n])
        else:
            pad.ingest("t", messages)
        record = next(r for r in pad.records("t") if r.text == text and r.turn == turn)
    assert record.salience is not None
    return record.salience


def booking(tool: str) -> Messages:
    return [
        {"role": "user", "content": "My car needs the bodywork repair."},
        call(tool, {"start": "2024-06-12T08:30"}),
        {"role": "tool", "tool_call_id": "c1",
         "content": '{"start": "2024-06-12T08:30", "status": "confirmed"}'},
        {"role": "assistant",
         "content": "You're booked in at Hartley Bodyworks on Wednesday 12 June at 8:30."},
    ]


def test_a_day_an_action_tool_booked_earns_a_line_in_the_agents_words() -> None:
    """"at 8:30" names no half of the day, so the agent's words resolve to the day only;
    the booking tool acted on a time of that day, so the day was acted on too."""
    booked = salience(booking("book_repair"), "Wednesday 12 June at 8:30", 4)
    looked_up = salience(booking("get_slots"), "Wednesday 12 June at 8:30", 4)
    assert looked_up < SHOW_FROM <= booked
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", booking("book_repair"))
        block = pad.render("t")
    assert '"Wednesday 12 June at 8:30" (assistant, turn 4)' in block


def release(tool: str, output: str) -> Messages:
    return [
        {"role": "user", "content": "Please cut the release."},
        call(tool, {"message": "release"}),
        {"role": "tool", "tool_call_id": "c1", "content": output},
        {"role": "assistant", "content": "The release commit c7a19e3 is created."},
    ]


@pytest.mark.parametrize("one_by_one", [False, True], ids=["one-ingest", "turn-by-turn"])
def test_an_echo_of_an_action_tools_data_was_acted_on(one_by_one: bool) -> None:
    """The tool's JSON held the hash under a key that says nothing of what it is, so only
    the agent's words pin it: repeating what an action tool returned as data is repeating
    what was done; repeating a lookup's data, or an action's console text, is an echo."""
    data = '{"ok": true, "sha": "c7a19e3"}'
    acted = salience(release("git_commit", data), "c7a19e3", 4, one_by_one=one_by_one)
    looked_up = salience(release("get_log", data), "c7a19e3", 4, one_by_one=one_by_one)
    printed = salience(release("git_commit", "commit c7a19e3 created\n1 file changed"),
                       "c7a19e3", 4, one_by_one=one_by_one)
    assert looked_up == printed < SHOW_FROM <= acted


def mailbox(answer: str) -> Messages:
    return [
        {"role": "user", "content": "My manager can't get into his mailbox."},
        {"role": "assistant", "content": "To make sure I'm looking at the right mailbox: "
                                         "is it j.hallberg@northwind-group.com?"},
        {"role": "user", "content": answer},
    ]


def test_a_value_the_user_confirmed_when_read_back_counts_as_the_users() -> None:
    address = "j.hallberg@northwind-group.com"
    confirmed = salience(mailbox("Yes, that's his address."), address, 2)
    unanswered = salience(mailbox("")[:2], address, 2)
    assert unanswered < PROTECTED <= confirmed  # 1.5 as the agent's; 3.0 as the user's
    later = [*mailbox("Yes, that's his address."),
             {"role": "assistant", "content": "Thanks. Your incident number is INC-20418."}]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", later)
        lines = pad.render("t", explain=True).splitlines()
        tight = pad.render("t", max_tokens=count(pad.render("t")) - 1)
    why = lines[next(n for n, line in enumerate(lines) if address in line) + 1]
    assert "the user confirmed it when the assistant read it back" in why
    assert address in tight and "INC-20418" not in tight  # the agent's own number goes first


@pytest.mark.parametrize("answer", [
    "Yes, but it's spelled jhallberg@northwind-group.com.",
    "No, it's jhallberg@northwind-group.com.",
])
def test_a_read_back_the_user_corrects_is_not_confirmed(answer: str) -> None:
    read_back = salience(mailbox(answer), "j.hallberg@northwind-group.com", 2)
    stated = salience(mailbox(answer), "jhallberg@northwind-group.com", 3)
    assert read_back < PROTECTED and stated > read_back


def test_an_offer_answered_yes_is_not_a_read_back() -> None:
    """"Would you like me to hold ...?" asks whether to act, not whether a value is right:
    its yes agrees to the offer (the commitments' business) and confirms no value."""
    messages: Messages = [
        {"role": "user", "content": "I need a delivery slot."},
        {"role": "assistant",
         "content": "Would you like me to hold the 14:00 slot on Thursday 3 December?"},
        {"role": "user", "content": "Yes please."},
    ]
    assert salience(messages, "Thursday 3 December", 2) < SHOW_FROM


def test_a_file_from_before_confirmed_values_is_migrated(tmp_path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    with Scratchpad(path) as pad:
        pad.ingest("t", mailbox("")[:2])
    con = sqlite3.connect(path)
    con.executescript("""
        alter table value_groups drop column confirmed;
        delete from _migrations where name = 'm010_confirmed_values';
    """)
    con.commit()
    con.close()
    with Scratchpad(path) as pad:
        pad.ingest("t", mailbox("Yes, that's his address."))
        record = next(r for r in pad.records("t") if r.text.startswith("j.hallberg"))
    assert record.salience == PROTECTED
