"""Compaction: under the trigger nothing changes; over it, system prompt + block with the
summary below + recent turns, cut between whole turns, fed back again and again, and the
input back unchanged whenever the summarizer fails."""

from __future__ import annotations

import json
import time

import pytest

from scratchpad import Scratchpad
from scratchpad.compaction import compact, is_block
from scratchpad.cut import clean
from scratchpad.messages import parse_message
from scratchpad.summary import DeterministicSummarizer, Summary, SummaryRequest
from scratchpad.tokens import message_tokens, messages_tokens


def cost(messages: list[dict]) -> int:
    return messages_tokens(message_tokens(parse_message(m)) for m in messages)


@pytest.fixture
def pad():
    with Scratchpad(":memory:") as p:
        yield p


def test_under_the_trigger_the_messages_come_back_unchanged(pad, espresso_messages) -> None:
    out = compact(espresso_messages, pad=pad, thread="e", window=100_000)
    assert out.messages == espresso_messages and not out.changed
    assert out.log["reason"] == "under the trigger"
    assert out.log["tokens_before"] == cost(espresso_messages)


def test_espresso_keeps_what_the_expected_file_lists(pad, espresso_messages) -> None:
    out = compact(espresso_messages, pad=pad, thread="e", window=2000, keep_recent=6)
    assert out.changed and out.log["tokens_after"] <= 2000
    system, block, *recent = out.messages
    assert system == espresso_messages[0]
    assert is_block(block) and block["role"] == "system"
    text = block["content"]
    assert '"The refund would be €930" (assistant, turn 12; accepted turn 13' in text
    assert 'GRANTED: "I\'ve waived the €75 restocking fee for this return" and ' \
        '"we\'ll cover return shipping as well" (assistant, turn 14)' in text
    assert 'OPEN: "Should the original €18 delivery charge be refunded too' in text
    assert out.log["block_budget"] == 500 and out.log["block_tokens"] <= 500
    assert "=== End of summary (turns 1-" in text
    assert text.index("=== End of carried forward ===") < text.index("=== Summary")
    assert recent == espresso_messages[-len(recent):]  # the recent turns, verbatim
    assert clean(recent, 0) and any(m["role"] == "user" for m in recent)
    assert out.log["kept_turns"] == list(range(42 - len(recent), 42))
    assert out.log["dropped_turns"] == list(range(1, 42 - len(recent)))


def test_fed_back_output_continues_the_numbering_and_the_summary(pad, espresso_messages
                                                                  ) -> None:
    first = compact(espresso_messages, pad=pad, thread="e", window=2000, keep_recent=6)
    grown = first.messages + [
        {"role": "user", "content": "I checked: I paid €18 for delivery."},
        {"role": "assistant", "content": "Thanks, I'll refund the €18 as well."},
    ] * 1
    second = compact(grown, pad=pad, thread="e", window=1000, keep_recent=2)
    assert second.changed
    records = pad.records("e")
    assert max(r.turn for r in records) == 43  # the new turns are 42 and 43
    assert [r for r in records if r.text == "€18" and r.turn == 42]
    assert pad.store.turn_hashes("e")[:41] == pad.store.turn_hashes("e")[:41]
    assert len(pad.store.turn_hashes("e")) == 43
    assert second.log["kept_turns"][-1] == 43
    summary = Summary.model_validate_json(pad.store.summary("e"))
    assert summary.turns_covered[0] == 1 and summary.turns_covered[1] >= 36
    text = second.messages[1]["content"]
    assert text.count("=== Carried forward verbatim") == 1  # the old block is not kept
    # feeding the same output back again adds nothing
    third = compact(second.messages, pad=pad, thread="e", window=1000, keep_recent=2)
    assert len(pad.store.turn_hashes("e")) == 43 and third.log["summarizer_calls"] == 0


class Raising:
    name = "raising"

    def summarize(self, request: SummaryRequest) -> Summary:
        raise RuntimeError("model endpoint unreachable")


class Hanging:
    name = "hanging"

    def summarize(self, request: SummaryRequest) -> Summary:
        time.sleep(5)
        return Summary(request="too late")


@pytest.mark.parametrize("summarizer", [Raising(), Hanging()])
def test_a_failing_summarizer_leaves_the_history_alone(pad, espresso_messages, summarizer
                                                       ) -> None:
    started = time.perf_counter()
    out = compact(espresso_messages, pad=pad, thread="e", window=2000,
                  summarizer=summarizer, timeout=0.3)
    assert time.perf_counter() - started < 4
    assert out.messages == espresso_messages and not out.changed
    assert out.log["reason"].startswith("summarizer failed")
    assert pad.store.summary("e") is None


def test_a_tiny_window_shrinks_in_order_and_says_so(pad, espresso_messages) -> None:
    out = compact(espresso_messages, pad=pad, thread="e", window=450, keep_recent=6)
    assert out.changed and out.log["tokens_after"] <= 450
    assert out.log["shrunk"][0] == "fewer recent turns"
    recent = out.messages[2:]
    assert clean(recent, 0)
    assert recent[-1] == espresso_messages[-1] or any(m["role"] == "user" for m in recent)
    block = out.messages[1]["content"]
    assert "OPEN:" in block  # open items are the last lines to go


def test_anthropic_input_gets_anthropic_output(pad) -> None:
    messages = [{"role": "user", "content": "Please refund order A-77215, €930 agreed."}]
    for n in range(12):
        messages += [
            {"role": "assistant", "content": [
                {"type": "text", "text": f"Checking step {n}."},
                {"type": "tool_use", "id": f"tu{n}", "name": "lookup", "input": {"n": n}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"tu{n}", "content": f"result {n} ok"}]},
        ]
    messages.append({"role": "user", "content": "Any news?"})
    out = compact(messages, pad=pad, thread="a", window=400, keep_recent=3)
    assert out.changed
    block = out.messages[0]
    assert block["role"] == "user" and block["content"][0]["type"] == "text"
    assert is_block(block) and "A-77215" in block["content"][1]["text"]
    assert clean(out.messages[1:], 0)
    assert out.messages[-1] == messages[-1]


def test_the_deterministic_summary_copies_sentences_with_their_turns() -> None:
    from scratchpad.summary import SummaryTurn

    request = SummaryRequest(turns=[
        SummaryTurn(turn=1, role="user", text="Fix the flaky date test. Keep it small."),
        SummaryTurn(turn=2, role="assistant", text="We decided to freeze time because the "
                                                   "clock drifts."),
        SummaryTurn(turn=3, role="tool", tool_name="run_tests",
                    text='{"exit_code": 1, "stdout": "1 failed"}'),
        SummaryTurn(turn=4, role="assistant", text="Next I'll patch conftest.py."),
    ])
    summary = DeterministicSummarizer().summarize(request)
    assert summary.request == "Fix the flaky date test. Keep it small. [turn 1]"
    assert summary.decisions[0].why == "because the clock drifts."
    assert summary.tried_and_failed[0].startswith("run_tests: ")
    assert summary.next_step == "Next I'll patch conftest.py. [turn 4]"
    assert summary.turns_covered == (1, 4)
    assert summary.render() == DeterministicSummarizer().summarize(request).render()
    assert json.loads(summary.model_dump_json())["turns_covered"] == [1, 4]


def test_a_growing_coding_session_keeps_every_planted_value_through_ten_compactions(pad
                                                                                  ) -> None:
    """The issue's session: 200+ tool steps, ten planted values, an unanswered question and
    a user constraint, compacted ten times as it grows, each output fed back with the
    next steps appended."""
    from tests.synthetic_session import CONSTRAINT, PLANTED, QUESTION, session, steps

    window = 3000
    messages = session(22)
    next_step = 23
    for round_ in range(10):
        out = compact(messages, pad=pad, thread="coding", window=window, keep_recent=8)
        assert out.changed, (round_, out.log)
        text = "\n".join(json.dumps(m, ensure_ascii=False) for m in out.messages)
        block = out.messages[1]["content"]
        for name, value in PLANTED.items():
            assert value in block, (round_, name)
        assert f'OPEN: "{QUESTION}"' in block
        # the constraint is carried on a CONSTRAINT line (with others the user stated in
        # the same turn, if any)
        assert any(line.startswith("CONSTRAINT: ") and f'"{CONSTRAINT}"' in line
                   for line in block.splitlines()), round_
        assert clean(out.messages[2:], 0), round_
        assert out.log["tokens_after"] <= window
        assert cost(out.messages) == out.log["tokens_after"]
        assert text.count("=== Carried forward verbatim") == 1
        messages = out.messages + steps(next_step, 20)
        next_step += 20
    ingested = next_step - 21  # the last 20 steps were appended after the last round
    assert ingested >= 200
    assert len(pad.store.turn_hashes("coding")) == len(session(ingested)) - 1  # no system


def test_consecutive_compactions_share_their_prefix(pad) -> None:
    """The block sits below the system prompt and changes only at its end, so a provider's
    prefix cache stays warm: consecutive compactions of a growing session that brings no
    new pins share the system prompt and the whole block, and at least 90% of the block
    message (the summary below it grows)."""
    from tests.synthetic_session import session, steps

    messages, next_step, previous = session(30), 31, None
    ratios = []
    for _ in range(4):
        out = compact(messages, pad=pad, thread="s", window=3000, keep_recent=8)
        head = json.dumps(out.messages[:2], ensure_ascii=False)
        if previous is not None:
            shared = 0
            for a, b in zip(previous, head, strict=False):
                if a != b:
                    break
                shared += 1
            block_end = previous.index("=== End of carried forward ===")
            assert shared > block_end
            ratios.append(shared / len(previous))
        previous = head
        messages = out.messages + steps(next_step, 20)
        next_step += 20
    assert min(ratios) >= 0.9, ratios


def test_the_running_summary_is_folded_under_its_cap() -> None:
    from scratchpad.summary import Decision

    big = Summary(request="Fix the VAT rounding [turn 1]", next_step="Open the PR",
                  decisions=[Decision(decision=f"decision {n} about the rounding helper",
                                      turn=n) for n in range(40)])
    folded = big.folded(lambda s: len(s.render()) <= 600)
    assert len(folded.render()) <= 600
    assert folded.request == big.request and folded.next_step == big.next_step
    assert folded.decisions == big.decisions[-len(folded.decisions):]  # the newest stay
    assert 0 < len(folded.decisions) < 40


def test_without_a_pad_an_in_memory_store_is_used(espresso_messages) -> None:
    out = compact(espresso_messages, thread="e", window=2000)
    assert out.changed and '"The refund would be €930"' in out.messages[1]["content"]


def test_nothing_to_compact_comes_back_unchanged() -> None:
    assert compact([], thread="x", window=100).messages == []
    system_only = [{"role": "system", "content": "rules " * 300}]
    out = compact(system_only, thread="x", window=100)
    assert out.messages == system_only and out.log["reason"] == "no turns to compact"
    one_turn = [{"role": "user", "content": "Refund order A-77215 for €930 please. " * 30}]
    out = compact(one_turn, thread="y", window=200, keep_recent=0)
    assert out.messages[-1] == one_turn[0]  # the latest user message always stays
    assert out.log["over_window"] is True  # ... even when it alone passes the window


def test_compaction_never_makes_the_context_bigger() -> None:
    """A short thread dense with facts, compacted at a low trigger: block and summary
    would cost more than the turns they replace, so the messages come back unchanged."""
    dense = [
        {"role": "user", "content": "Order A-77215: refund €930 to card ending 4471, by 12 May."},
        {"role": "assistant", "content": "I'll refund €930 to the card ending 4471 by 12 May."},
        {"role": "user", "content": "Not by phone please. Ticket T-4410 too."},
        {"role": "assistant", "content": "Noted. I've waived the €25 fee on T-4410."},
        {"role": "user", "content": "Thanks."},
    ]
    out = compact(dense, thread="d", window=2048, trigger=0.01, keep_recent=1)
    assert not out.changed and out.messages == dense
    assert out.log["compacted"] is False and out.log["reason"].startswith("not smaller")
    assert out.log["tokens_after"] == out.log["tokens_before"]
    assert out.log["summarizer_calls"] == 0  # known before a summary is asked for
