"""Options the agent lists and the user's pick among them: each list is led by its own
sentence, a pick may sit in one clause of a longer reply, and a negated clause never
picks what it names."""

from __future__ import annotations

from scratchpad import Scratchpad


def commitments(messages: list[dict]) -> dict[str, tuple[str, str]]:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        return {r.text: (r.subtype, r.status) for r in pad.records("t", kind="commitment")}


def find(got: dict[str, tuple[str, str]], words: str) -> tuple[str, str]:
    return next(v for k, v in got.items() if words in k)


PROBLEMS_THEN_WAYS = (
    "Two unrelated problems:\n\n"
    "1. **clippy**: the new stable release added lints that fire in `lexer.rs`.\n"
    "2. **msrv**: `Cargo.lock` is ignored, so the job resolves dependencies fresh.\n\n"
    "For clippy, I'll fix the four sites in code.\n\n"
    "For msrv there are two ways:\n"
    "- I could tighten `clap` in `crates/cli/Cargo.toml` to `>=4.4, <4.5`.\n"
    "- Or the msrv job can downgrade just for itself with `cargo update -p clap`.\n")


def test_a_list_of_problems_is_no_list_of_options_but_the_ways_after_it_are() -> None:
    got = commitments([
        {"role": "user", "content": "CI is red on clippy and msrv, why?"},
        {"role": "assistant", "content": PROBLEMS_THEN_WAYS},
        {"role": "user", "content": "second one, don't want to change what users get."},
    ])
    assert not any("Cargo.lock" in k or "lints that fire" in k for k in got)
    assert find(got, "msrv job can downgrade") == ("agreed", "active")
    assert find(got, "tighten") == ("offered", "superseded")


def test_steps_the_agent_will_take_after_a_sentence_with_can_are_promises() -> None:
    text = ("Found it. I'll add a golden test first, so we can prove the output is the "
            "same afterwards. Then the fixes:\n"
            "- I'll hoist the regex into a package-level `var`;\n"
            "- I'll switch the cache to an `RWMutex` for hits.\n")
    got = commitments([{"role": "user", "content": "p99 doubled since v2.14, why?"},
                       {"role": "assistant", "content": text}])
    assert find(got, "hoist the regex")[0] == "promised"


LIBRARY = [
    {"role": "user", "content": "I need the Hartmann book for my paper."},
    {"role": "assistant", "content": "Two ways:\n1. Reserve copy, 2-hour loan, in the "
                                     "library only.\n2. Ebook on ProQuest, 1 user at a time.\n"},
]


def test_the_clause_that_picks_wins_over_an_option_named_to_be_turned_down() -> None:
    got = commitments(LIBRARY + [{"role": "user", "content": (
        "ugh I can't do ebooks for long, screens give me migraines, so print please. "
        "I'll just use the reserve one.")}])
    assert find(got, "Reserve copy") == ("agreed", "active")
    assert find(got, "Ebook") == ("offered", "superseded")


def test_a_bare_place_with_a_short_tail_picks_by_place() -> None:
    for reply in ("a) sounds right.", "2 for now. The other one can wait."):
        got = commitments(LIBRARY + [{"role": "user", "content": reply}])
        picked, other = ("Reserve copy", "Ebook") if reply.startswith("a") else \
            ("Ebook", "Reserve copy")
        assert find(got, picked) == ("agreed", "active"), reply
        assert find(got, other)[1] == "superseded", reply


def test_a_negated_clause_does_not_pick_what_it_names() -> None:
    got = commitments(LIBRARY + [{"role": "user", "content": "can't use ebooks at all"}])
    assert find(got, "Ebook") != ("agreed", "active")


def test_a_tentative_clause_picks_nothing_yet() -> None:
    got = commitments(LIBRARY + [{"role": "user", "content": (
        "Reserve copy might work, but I need to check my timetable.")}])
    assert find(got, "Reserve copy") == ("offered", "active")


MACHINES = ("So here's what's possible:\n\n"
            "1. We collect your machine, our service partner repairs it and sends it back.\n"
            "2. We send you the newer VX-350 as a like-for-like replacement.\n"
            "3. We give you a €349.00 voucher for the full purchase price.\n")
SLOTS = ("Here's what I can offer:\n\n- Thursday 13 June, 1pm to 6pm\n"
         "- Friday 14 June, 1pm to 6pm\n- Friday 21 June, 8am to 1pm\n")


def test_a_pick_names_an_option_by_its_number() -> None:
    got = commitments([
        {"role": "user", "content": "My coffee machine broke."},
        {"role": "assistant", "content": MACHINES},
        {"role": "user", "content": "The 350 please!! Two weeks without coffee is not happening."},
    ])
    assert find(got, "VX-350")[0] == "agreed"
    assert find(got, "repairs it")[1] == find(got, "voucher")[1] == "superseded"


def test_a_sentence_that_is_only_an_options_name_picks_it_anywhere_in_the_reply() -> None:
    def reply(text: str) -> dict[str, tuple[str, str]]:
        return commitments([{"role": "user", "content": "When can the engineer come?"},
                            {"role": "assistant", "content": SLOTS},
                            {"role": "user", "content": text}])

    got = reply("Ugh. Another two weeks of this. Fine, I'll move my calls. Thursday the 13th.")
    assert find(got, "Thursday 13 June") == ("agreed", "active")
    assert find(got, "Friday 14 June")[1] == "superseded"
    unpicked = reply("Ugh. Another two weeks of this. Fine, I'll think. Thursday is bad.")
    assert find(unpicked, "Thursday 13 June") == ("offered", "active")


AFTERNOONS = [
    {"role": "user", "content": "The line keeps dropping, can someone come out?"},
    {"role": "assistant", "content": "These are the afternoon slots I can offer:\n\n"
                                     "- Tue 14.05., 13:00–17:00\n"
                                     "- Wed 15.05., 12:00–16:00\n"
                                     "- Fri 17.05., 14:00–18:00\n"},
]


def test_slots_are_options_and_a_weekday_picks_its_abbreviation() -> None:
    got = commitments(AFTERNOONS + [{"role": "user", "content": "tuesday is fine. 14th"}])
    assert find(got, "Tue 14.05.") == ("agreed", "active")
    assert find(got, "Wed 15.05.") == find(got, "Fri 17.05.") == ("offered", "superseded")


def test_a_bare_yes_to_a_list_of_alternatives_agrees_to_none_of_them() -> None:
    got = commitments(AFTERNOONS + [{"role": "user", "content": "ok that's fine"}])
    assert {got[k] for k in got if "15.05." in k or "14.05." in k or "17.05." in k} == {
        ("offered", "active")}


def test_each_side_of_you_can_either_is_an_option_and_a_pick_takes_one() -> None:
    got = commitments([
        {"role": "user", "content": "My petition was approved, what happens to the tuition?"},
        {"role": "assistant", "content": "It's credited back within 10 business days. From "
                                         "there you can either have it paid out to you or "
                                         "leave it on the account as credit toward next term."},
        {"role": "user", "content": "Paid out please."},
    ])
    assert find(got, "have it paid out to you") == ("agreed", "active")
    assert find(got, "leave it on the account") == ("offered", "superseded")
    asked = commitments([{"role": "assistant", "content": "Do you want to go ahead, or "
                                                          "could you either wait or call?"}])
    assert not any(k.startswith(("wait", "call")) for k in asked)  # a question offers none


def test_bold_lettered_options_make_a_list() -> None:
    got = commitments([
        {"role": "user", "content": "The parser rejects Z timestamps."},
        {"role": "assistant", "content": "Two ways to fix the parser:\n\n"
                                         "**A. Widen the regex** so it accepts `Z` too.\n"
                                         "**B. Replace the regex** with `fromisoformat`.\n"},
        {"role": "user", "content": "B."},
    ])
    assert find(got, "Widen the regex") == ("offered", "superseded")
    assert find(got, "Replace the regex") == ("agreed", "active")


def test_a_counted_lead_with_a_colon_makes_a_list() -> None:
    got = commitments([
        {"role": "user", "content": "Can I get rid of the excess on the rental?"},
        {"role": "assistant", "content": "There are two levels:\n\n"
                                         "1) Premium Cover, excess 0 €, 14,90 €/day\n"
                                         "2) Premium Cover Plus, with tyres and glass, "
                                         "19,40 €/day\n"},
        {"role": "user", "content": "The first is enough."},
    ])
    assert find(got, "Premium Cover, excess") == ("agreed", "active")
    assert find(got, "Premium Cover Plus") == ("offered", "superseded")


def test_a_bullet_before_a_letter_label_and_an_explained_option_keep_the_list() -> None:
    got = commitments([
        {"role": "user", "content": "The dashboard query takes five seconds."},
        {"role": "assistant", "content": "Options:\n\n"
                                         "- **A. Rewrite only.** Swap `COUNT(*)` for `EXISTS`.\n"
                                         "- **B. Rewrite + an index** on `orders (status)`.\n\n"
                                         "  That one needs a migration.\n\n"
                                         "**C. B plus a covering index** for the panels.\n"},
        {"role": "user", "content": "C please."},
    ])
    assert find(got, "Rewrite only") == find(got, "Rewrite + an index") == (
        "offered", "superseded")
    assert find(got, "B plus a covering index") == ("agreed", "active")


def test_a_lead_saying_what_is_still_free_makes_a_list_of_slots() -> None:
    got = commitments([
        {"role": "user", "content": "Can we move the removal to another weekday?"},
        {"role": "assistant", "content": "These weekdays are still free for a full team:\n\n"
                                         "- Tue 1 July, start 7:30: CHF 2'480.–\n"
                                         "- Wed 2 July, start 7:30: CHF 2'480.–\n"},
    ])
    assert find(got, "Tue 1 July") == find(got, "Wed 2 July") == ("offered", "active")


def test_either_after_what_someone_can_do_or_a_colon_offers_each_side() -> None:
    got = commitments([
        {"role": "user", "content": "When can the assessor come?"},
        {"role": "assistant", "content": "He can come out either Wednesday 20/08 between "
                                         "12:00 and 15:00, or Friday 22/08 at 1:00pm."},
    ])
    assert find(got, "Wednesday 20/08") == find(got, "Friday 22/08") == ("offered", "active")
    told = commitments([{"role": "assistant", "content": "Prod was never touched: every "
                                                         "command went either to staging or "
                                                         "to the local container."}])
    assert told == {}


OPENINGS = [
    {"role": "user", "content": "I need a new pickup appointment for my passport."},
    {"role": "assistant", "content": "Gatineau has three morning openings next week:\n\n"
                                     "1. Tuesday July 9 at 8:30\n"
                                     "2. Tuesday July 9 at 11:15\n"
                                     "3. Thursday July 11 at 9:45\n"},
]


def test_a_clock_time_picks_the_one_slot_that_has_it() -> None:
    got = commitments(OPENINGS + [{"role": "user", "content": "135?? ok fine. Tuesday 8:30. "
                                                              "And can that fee be waived?"}])
    assert find(got, "Tuesday July 9 at 8:30") == ("agreed", "active")
    assert find(got, "at 11:15") == find(got, "Thursday July 11") == ("offered", "superseded")


def test_good_for_me_and_suits_me_pick_after_another_option_is_ruled_out() -> None:
    for reply in ("Monday is not possible, my husband has the car. Thursday is good for me.",
                  "Dear Helen,\n\nThursday at 9:45 suits me well."):
        got = commitments(OPENINGS[:1] + [{"role": "assistant", "content": (
            "Two slots are free:\n- Monday 8 July at 8:30\n- Thursday July 11 at 9:45\n")},
            {"role": "user", "content": reply}])
        assert find(got, "Thursday July 11") == ("agreed", "active"), reply
        assert find(got, "Monday 8 July") == ("offered", "superseded"), reply


def test_lettered_items_and_slots_are_options_whatever_leads_them() -> None:
    lettered = commitments([
        {"role": "user", "content": "The scheduler crashed on the clock change."},
        {"role": "assistant", "content": "How should the gap be handled?\n\n"
                                         "- **A.** Run at the first valid moment.\n"
                                         "- **B.** Skip the run that day and log a warning.\n"},
    ])
    assert find(lettered, "Run at the first valid moment") == ("offered", "active")
    assert find(lettered, "Skip the run that day") == ("offered", "active")
    slots = commitments([
        {"role": "user", "content": "When can Dr Alvarez see me?"},
        {"role": "assistant", "content": "For Dr. Alvarez, all at Main Campus:\n\n"
                                         "1. Tue, July 2 at 4:00 PM\n"
                                         "2. Wed, July 3 at 1:20 PM\n"},
        {"role": "user", "content": "The Wednesday one please."},
    ])
    assert find(slots, "Wed, July 3") == ("agreed", "active")
    assert find(slots, "Tue, July 2") == ("offered", "superseded")
    # numbered findings with no word of choice before them offer nothing
    findings = commitments([{"role": "assistant", "content": "Here is what I found:\n\n"
                                                             "1. The cron job ran at 02:30.\n"
                                                             "2. The worker exited on Tuesday.\n"}])
    assert findings == {}


def test_lettered_table_rows_are_options_and_a_pick_by_detail_takes_one() -> None:
    got = commitments([
        {"role": "user", "content": "Which laptop can the new developer get?"},
        {"role": "assistant", "content": "These are the standard engineering laptops:\n\n"
                                         "| | Model | Availability |\n|---|---|---|\n"
                                         "| A | Lenovo ThinkPad X1 Carbon | ready Thu 30 Jan |\n"
                                         "| B | Dell Precision 5680 | ready Fri 31 Jan |\n"},
        {"role": "user", "content": "The Dell please."},
    ])
    assert find(got, "Dell Precision 5680") == ("agreed", "active")
    assert find(got, "Lenovo ThinkPad X1 Carbon") == ("offered", "superseded")
    measured = commitments([{"role": "assistant", "content": "| workers | main | branch |\n"
                                                             "|---|---|---|\n"
                                                             "| 1 | 414 ns | 439 ns |\n"
                                                             "| 8 | 613 ns | 627 ns |\n"}])
    assert measured == {}


def test_days_each_with_their_price_are_options_whatever_leads_them() -> None:
    dates = commitments([
        {"role": "user", "content": "Is Saturday 13 September free for the wedding?"},
        {"role": "assistant", "content": "It has a hold. The closest dates I do have:\n\n"
                                         "- **Friday 12 Sept 2025** – minimum spend £11,000\n"
                                         "- **Sunday 14 Sept 2025** – minimum spend £9,500\n"},
        {"role": "user", "content": "The Sunday then."},
    ])
    assert find(dates, "Sunday 14 Sept") == ("agreed", "active")
    assert find(dates, "Friday 12 Sept") == ("offered", "superseded")
