"""The LLM schema extractor against a real chat-completions server on 127.0.0.1: grounded
quotes are kept verbatim, an invented value is rejected and logged, a malformed reply, a
server error and a hang give an error (never an exception), and merge fills only gaps."""

from __future__ import annotations

import json
import logging
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import Refund
from schemas.base import Pinned
from schemas.llm import LLMResult, LLMSchemaExtractor, Quote, Quotes, Rejection, ground, merge
from tests.chat_server import chat_server

GROUNDED = {"quotes": [
    {"field": "refund_amount", "turn": 12, "text": "The refund would be €930"},
    {"field": "order_id", "turn": 1, "text": '  "A-77215" '},  # quoted and padded
    {"field": "purchase_price", "turn": 4, "text": "€1,240"},
    {"field": "outstanding_questions", "turn": 17, "text": "Is there anything on Saturday?"},
    {"field": "outstanding_questions", "turn": 14,
     "text": "Should the original €18 delivery charge be refunded too"},
    {"field": "outstanding_questions", "turn": 17,
     "text": "Is there anything on Saturday?"},  # the same span again: kept once
]}
INVENTED = {"quotes": [{"field": "refund_amount", "turn": 12,
                        "text": "The refund would be €900"}]}


@pytest.fixture(scope="module")
def turns(espresso_messages) -> list[tuple[int, str, str]]:
    """(turn number, role, text) of the non-system messages; tool-call turns have no text."""
    rest = [m for m in espresso_messages if m["role"] != "system"]
    return [(n, m["role"], m.get("content") or "") for n, m in enumerate(rest, start=1)]


def span(pinned: Pinned) -> tuple[int, int, int]:
    """(turn, start, end) of an LLM value's record id ``llm:{turn}:{start}-{end}``."""
    prefix, turn, offsets = pinned.records[0].split(":")
    assert prefix == "llm"
    start, end = offsets.split("-")
    return int(turn), int(start), int(end)


def test_grounded_quotes_are_kept_verbatim_at_their_turns(turns) -> None:
    with chat_server("reply", json.dumps(GROUNDED)) as (url, received):
        extractor = LLMSchemaExtractor(base_url=url, model="local", temperature=0.25)
        result = extractor.extract(Refund, turns)
    assert result.error is None and result.rejected == []
    texts = dict((n, t) for n, _, t in turns)
    refund = result.found["refund_amount"][0]
    assert refund.text == "The refund would be €930" and refund.turns == [12]
    assert refund.kind == "commitment" and refund.subtype == "agreed"
    assert refund.status == "active" and refund.label == "refund amount"
    assert refund.value == {"amount": "930", "currency": "EUR"}
    assert result.found["order_id"][0].text == "A-77215"
    assert result.found["purchase_price"][0].value == {"amount": "1240", "currency": "EUR"}
    questions = result.found["outstanding_questions"]
    assert [q.turns for q in questions] == [[14], [17]]  # by turn, duplicate dropped
    assert all(q.status == "open" and q.kind == "question" for q in questions)
    for values in result.found.values():
        for pinned in values:
            turn, start, end = span(pinned)
            assert texts[turn][start:end] == pinned.text and pinned.turns == [turn]
    (body,) = received
    assert body["model"] == "local" and body["temperature"] == 0.25
    prompt = "\n".join(m["content"] for m in body["messages"])
    assert "[turn 12] assistant: I can process this as a goodwill return" in prompt
    assert "[turn 1] user: Hi, I bought an espresso machine" in prompt
    for name in Refund.bindings():
        assert f"- {name} (" in prompt
    assert "- outstanding_questions (a list" in prompt
    assert "- refund_amount (one value, required)" in prompt


def test_messages_list_fields_and_turns(turns) -> None:
    extractor = LLMSchemaExtractor(base_url="http://127.0.0.1:9/v1")
    system, user = extractor.messages(Refund, turns[:2])
    assert "EXACT words" in system["content"] and "Leave out" in system["content"]
    assert "- fees_waived (a list, one quote per item): a commitment (granted) about " \
           "fee or charge or excess" in system["content"]
    assert user["content"].splitlines()[1:] == [
        f"[turn 1] user: {turns[0][2]}", "[turn 2] assistant: "]


def test_an_invented_value_is_rejected_logged_and_not_merged(turns, espresso_pad,
                                                             caplog) -> None:
    with chat_server("reply", json.dumps(INVENTED)) as (url, _):
        with caplog.at_level(logging.WARNING, logger="schemas.llm"):
            result = LLMSchemaExtractor(base_url=url).extract(Refund, turns)
    assert result.error is None and result.found == {}
    assert result.rejected == [Rejection("refund_amount", 12, "The refund would be €900",
                                         "not found verbatim in turn 12")]
    assert "not found verbatim in turn 12" in caplog.text and "€900" in caplog.text
    rules = espresso_pad.state("espresso", Refund)
    assert merge(rules, result) == rules
    empty = merge(Refund.fill([]), result)
    assert empty.refund_amount is None and "refund amount: not yet agreed" in empty.missing


def test_other_bad_quotes_are_rejected_with_their_reason(turns, caplog) -> None:
    quotes = [Quote(field="colour", turn=1, text="A-77215"),
              Quote(field="order_id", turn=99, text="A-77215"),
              Quote(field="order_id", turn=1, text=' "" '),
              Quote(field="order_id", turn=2, text="A-77215"),  # a tool call: no text
              Quote(field="order_id", turn=99, text="A-77215")]  # the same rejection again
    with caplog.at_level(logging.WARNING, logger="schemas.llm"):
        result = ground(Refund, turns, quotes)
    assert result.found == {}
    assert [r.reason for r in result.rejected] == [
        "unknown field", "no such turn", "empty text", "not found verbatim in turn 2"]
    assert len(caplog.records) == 4


def test_the_same_reply_gives_the_same_result(turns) -> None:
    quotes = Quotes.model_validate(GROUNDED).quotes
    first = ground(Refund, turns, quotes)
    assert first == ground(Refund, turns, quotes)
    assert first.found == ground(Refund, turns, list(reversed(quotes))).found  # sorted


@pytest.mark.parametrize("content", [
    "this is not JSON",
    json.dumps({"quotes": [{"field": "order_id", "text": "A-77215"}]}),  # no turn
    json.dumps({"answer": "A-77215"}),
])
@pytest.mark.parametrize("max_retries", [0, 2])
def test_a_malformed_reply_sets_error_after_bounded_retries(turns, content, max_retries,
                                                             caplog) -> None:
    with chat_server("reply", content) as (url, received):
        with caplog.at_level(logging.WARNING, logger="schemas.llm"):
            result = LLMSchemaExtractor(base_url=url, max_retries=max_retries).extract(
                Refund, turns)
    assert result.error and result.found == {} and result.rejected == []
    assert 1 <= len(received) <= max_retries + 1
    assert "llm extraction failed" in caplog.text


@pytest.mark.parametrize("behaviour", ["hang", "error"])
def test_a_hanging_or_failing_server_sets_error_quickly(turns, behaviour) -> None:
    with chat_server(behaviour, hang=5.0) as (url, received):
        extractor = LLMSchemaExtractor(base_url=url, timeout=1.0, max_retries=1)
        started = time.perf_counter()
        result = extractor.extract(Refund, turns)
        elapsed = time.perf_counter() - started
    assert result.error and result.found == {}
    assert ("timed out" if behaviour == "hang" else "500") in result.error
    assert elapsed < 4.5 and 1 <= len(received) <= 2


def test_merge_fills_an_empty_required_field_and_clears_missing(turns) -> None:
    state = Refund.fill([])
    assert state.missing == ["order id: not given", "refund amount: not yet agreed"]
    result = ground(Refund, turns, [
        Quote(field="refund_amount", turn=12, text="The refund would be €930"),
        Quote(field="refund_amount", turn=13, text="€930 works"),
        Quote(field="outstanding_questions", turn=17, text="Is there anything on Saturday?")])
    merged = merge(state, result)
    assert merged.refund_amount == result.found["refund_amount"][0]  # the first one
    assert merged.refund_amount.turns == [12]
    assert merged.missing == ["order id: not given"]
    assert [q.text for q in merged.outstanding_questions] == ["Is there anything on Saturday?"]
    assert state.refund_amount is None  # the input is not changed


def test_merge_keeps_rule_values_and_adds_only_new_list_items(turns, espresso_pad) -> None:
    rules = espresso_pad.state("espresso", Refund)
    result = ground(Refund, turns, [
        Quote(field="refund_amount", turn=13, text="€930 works"),
        Quote(field="outstanding_questions", turn=14,
              text="Should the original €18 delivery charge be refunded too"),  # has it
        Quote(field="outstanding_questions", turn=25,
              text="Does the machine need to go back in the original box?"),
        Quote(field="fees_waived", turn=14, text="Understood — I've waived the €75 "
              "restocking fee for this return, and we'll cover return shipping as well."),
    ])
    merged = merge(rules, result)
    assert merged.refund_amount == rules.refund_amount  # the rules' value stays
    assert merged.fees_waived == rules.fees_waived  # the quote contains the rule item
    assert merged.outstanding_questions == [
        *rules.outstanding_questions, result.found["outstanding_questions"][1]]
    assert merged.outstanding_questions[-1].turns == [25]
    assert merged.missing == []


def test_merge_of_a_failed_call_changes_nothing(espresso_pad) -> None:
    rules = espresso_pad.state("espresso", Refund)
    assert merge(rules, LLMResult(error="APITimeoutError: Request timed out.")) == rules


@st.composite
def turn_and_quote(draw: st.DrawFn) -> tuple[str, str]:
    text = draw(st.text(max_size=200))
    if text and draw(st.booleans()):  # a piece of the turn, perhaps padded and quoted
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start, len(text)))
        pad = draw(st.sampled_from(["", " ", '"', " '", "\n“"]))
        return text, pad + text[start:end] + pad[::-1]
    return text, draw(st.text(max_size=40))


@settings(max_examples=300, deadline=None)
@given(turn_and_quote(), st.sampled_from(["order_id", "outstanding_questions", "deductions"]))
def test_accepted_values_are_the_cited_turns_own_words(case, name) -> None:
    text, quote = case
    result = ground(Refund, [(1, "user", "unrelated"), (2, "user", text)],
                    [Quote(field=name, turn=2, text=quote)])
    accepted = [p for values in result.found.values() for p in values]
    assert len(accepted) + len(result.rejected) == 1
    for pinned in accepted:
        turn, start, end = span(pinned)
        assert turn == 2 and pinned.turns == [2]
        assert pinned.text and text[start:end] == pinned.text
    for rejection in result.rejected:
        assert rejection.reason in ("empty text", "not found verbatim in turn 2")


PARCEL_TICKET = [
    {"role": "user", "content": "Hi, the Zephyr kettle I bought stopped heating. Ticket "
                                "TCK-55120."},
    {"role": "assistant", "content": "Sorry about that! It's covered, and a courier will "
                                     "swap it within five working days."},
]


def test_the_pad_and_the_cli_add_grounded_model_values_to_the_pinned_state(tmp_path) -> None:
    from click.testing import CliRunner

    from scratchpad import Scratchpad
    from scratchpad.cli import cli

    reply = {"quotes": [{"field": "product", "turn": 1, "text": "Zephyr kettle"},
                        {"field": "ticket_id", "turn": 1, "text": "TCK-99999"},  # invented
                        {"field": "sla_deadline", "turn": 2, "text": "within five working days"}]}
    db = tmp_path / "s.db"
    with Scratchpad(db) as pad:
        pad.ingest("k", PARCEL_TICKET)
        rules = pad.state("k", "ticket")
        with chat_server("reply", json.dumps(reply)) as (url, _):
            state = pad.state("k", "ticket", llm=LLMSchemaExtractor(base_url=url))
    assert rules.product is None and rules.ticket_id.text == "TCK-55120"
    assert state.product.text == "Zephyr kettle" and state.product.records == ["llm:1:8-21"]
    assert state.sla_deadline.text == "within five working days" and state.sla_deadline.turn == 2
    assert state.ticket_id == rules.ticket_id  # the pin stands; the invention is dropped
    with chat_server("reply", json.dumps(reply)) as (url, _):
        out = CliRunner().invoke(cli, ["state", "--schema", "ticket", "--thread", "k", "--db",
                                       str(db), "--llm-base-url", url, "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["product"]["text"] == "Zephyr kettle"
    with chat_server("error") as (url, _):  # a failing model leaves the pinned state
        out = CliRunner().invoke(cli, ["state", "--schema", "ticket", "--thread", "k", "--db",
                                       str(db), "--llm-base-url", url, "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["product"] is None
