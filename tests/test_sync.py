"""``Scratchpad.sync``: a history as agent frameworks hold it -- older turns dropped or
replaced by a summary, compaction's output fed back -- keeps the thread right: new turns
are stored once, summaries and rewritten turns are never extracted."""

from __future__ import annotations

from scratchpad import Scratchpad
from scratchpad.compaction import compact

SYSTEM = {"role": "system", "content": "You are a refunds agent."}
TURNS = [
    {"role": "user", "content": "Order A-77215 arrived broken. I want a refund."},
    {"role": "assistant", "content": "Sorry! I can refund €930 to your card."},
    {"role": "user", "content": "Yes, the €930 refund please."},
    {"role": "assistant", "content": "Done: €930 is on its way, within 5 days."},
]
SUMMARY = {"role": "user", "content": "Here is a summary of the conversation to date:\n\n"
                                      "The user was refunded about €900 for order A-77216.",
           "additional_kwargs": {"lc_source": "summarization"}}


def _texts(pad: Scratchpad, thread: str) -> list[str]:
    return [t.content for t in pad.store.turns(thread)]


def test_the_whole_history_again_adds_nothing() -> None:
    with Scratchpad(":memory:") as pad:
        first = pad.sync("t", [SYSTEM, *TURNS])
        again = pad.sync("t", [SYSTEM, *TURNS])
    assert first.new_turns == [1, 2, 3, 4] and first.numbers == [None, 1, 2, 3, 4]
    assert again.skipped and again.numbers == [None, 1, 2, 3, 4] and again.rewritten == 0


def test_a_framework_summary_is_left_out_and_new_turns_follow_the_stored_ones() -> None:
    new = {"role": "user", "content": "When exactly will the €930 arrive?"}
    with Scratchpad(":memory:") as pad:
        pad.sync("t", [SYSTEM, *TURNS])
        result = pad.sync("t", [SYSTEM, SUMMARY, TURNS[3], new])
        texts = _texts(pad, "t")
        values = {r.text for r in pad.store.records("t")}
    assert result.new_turns == [5] and result.numbers == [None, None, 4, 5]
    assert result.rewritten == 0  # recognised as a summary, not as a rewritten turn
    assert texts == [m["content"] for m in TURNS] + [new["content"]]
    assert "A-77216" not in values and "€900" not in values  # the summary's drift
    assert "A-77215" in values and "€930" in values


def test_a_summary_of_an_unknown_form_counts_as_rewritten_when_stored_turns_follow() -> None:
    foreign = {"role": "user", "content": "(Earlier: order A-77216, about €900.)"}
    with Scratchpad(":memory:") as pad:
        pad.sync("t", TURNS)
        result = pad.sync("t", [foreign, TURNS[2], TURNS[3]])
        count = len(pad.store.turns("t"))
    assert result.rewritten == 1 and result.numbers == [None, 3, 4] and result.skipped
    assert count == 4


def test_compactions_output_fed_back_with_a_new_message() -> None:
    long_turns = [dict(m, content=m["content"] + " " + "filler words " * 40) for m in TURNS]
    with Scratchpad(":memory:") as pad:
        out = compact([SYSTEM, *long_turns], pad=pad, thread="t", window=400, keep_recent=1)
        assert out.changed
        new = {"role": "user", "content": "Thanks. And my order A-77215 label?"}
        result = pad.sync("t", [*out.messages, new])
        texts = _texts(pad, "t")
    assert result.new_turns == [5]
    assert [n for n in result.numbers if n is not None][-1] == 5
    assert len(texts) == 5 and not any("carried forward" in t.lower() for t in texts)


def test_a_history_sharing_no_stored_turn_continues_the_thread() -> None:
    later = [{"role": "user", "content": "Another question: can I change my address?"}]
    with Scratchpad(":memory:") as pad:
        pad.sync("t", TURNS)
        result = pad.sync("t", later)
    assert result.new_turns == [5] and result.numbers == [5]


def test_repeated_messages_match_in_order_and_a_new_repeat_is_new() -> None:
    ok = {"role": "user", "content": "ok"}
    reply = {"role": "assistant", "content": "Anything else?"}
    with Scratchpad(":memory:") as pad:
        pad.sync("t", [ok, reply, ok, reply])
        result = pad.sync("t", [ok, reply, ok])  # the tail of a trimmed history, then "ok"
        texts = _texts(pad, "t")
    assert result.numbers == [3, 4, 5] and result.new_turns == [5]
    assert texts == ["ok", "Anything else?", "ok", "Anything else?", "ok"]


def test_align_anchors_the_history_on_the_stored_end() -> None:
    from scratchpad.history import align

    def where(stored: list[str]) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for n, h in enumerate(stored, 1):
            out.setdefault(h, []).append(n)
        return out

    stored = list("abab")
    # a trimmed history: its "a" before the last "b" is turn 3, the final "a" is new
    assert align(list("aba"), stored, 4, where(stored)) == [3, 4, None]
    # the whole history with two new turns that repeat it: the earliest full run wins
    assert align(list("ababab"), stored, 4, where(stored)) == [1, 2, 3, 4, None, None]
    # a new turn equal to the last stored one: the longer run says which is stored
    stored = list("xyq")
    assert align(list("xyqzq"), stored, 3, where(stored)) == [1, 2, 3, None, None]
    # the last stored turn not in the history (compacted away): matched from the start
    stored = list("pqrs")
    assert align(list("qrt"), stored[-3:], 4, where(stored)) == [2, 3, None]
    # a rewritten turn before the stored run is None, and so are new ones after it
    assert align(list("Zrst"), stored[-4:], 4, where(stored)) == [None, 3, 4, None]


def test_align_costs_time_in_proportion_to_the_history() -> None:
    import time

    from scratchpad.history import align

    def timed(n: int) -> float:
        stored = ["ok"] * n
        started = time.perf_counter()
        align(["ok"] * n, stored, n, {"ok": list(range(1, n + 1))})
        return time.perf_counter() - started

    small, large = min(timed(2_000) for _ in range(3)), min(timed(20_000) for _ in range(3))
    assert large < small * 30  # ten times the history: about ten times the time, not 100
