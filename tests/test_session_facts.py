"""The extractors behind the ticket and coding schemas: severity levels, products,
reviewers, edited files, attempts that failed, stated causes and the opening request."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.base import TurnView
from extractors.session.attempts import Attempts
from extractors.session.causes import Causes
from extractors.session.edits import Edits
from extractors.session.levels import Levels
from extractors.session.people import People
from extractors.session.products import Products
from extractors.session.requests import Requests


def texts(extractor, text: str, role: str = "user", **view) -> list[str]:
    turn = TurnView(thread="t", number=1, role=role, text=text, **view)
    return [c.text for c in extractor.extract(turn)]


@pytest.mark.parametrize(("text", "found"), [
    ("It's urgent, severity 2.", ["severity 2"]),
    ("Your case is marked P2 now.", ["P2"]),
    ("This is a high priority ticket.", ["high priority"]),
    ("Priority: High", ["Priority: High"]),
    ("We had a Sev-1 incident overnight.", ["Sev-1"]),
    ("critical severity outage", ["critical severity"]),
    ("I ordered 2 P2 boxes.", []),  # a bare code with nothing about tickets
    ("I've raised CS-009174 to P2.", ["P2"]),  # changing a grade says what it is
    ("It's urgent, please.", []),  # tone, not a level
    ("The high incident rate worries me.", []),
])
def test_levels(text, found) -> None:
    assert texts(Levels(), text) == found


@pytest.mark.parametrize(("text", "found"), [
    ("Hi, my Orbi RBK752 router keeps dropping.", ["Orbi RBK752 router"]),
    ("I'm on the Pro plan.", ["Pro plan"]),
    ("The LinkSync desktop app crashes on start.", ["LinkSync desktop app"]),
    ("It's on an iPad Pro tablet.", ["iPad Pro tablet"]),
    ("I bought 2 routers and a 5 GB plan.", []),
    ("Hi Sam, the app is broken.", []),
    # a plural product noun; a capitalized edition word ends a name
    ("One of your Halo S2 locks is offline.", ["Halo S2 locks"]),
    ("Nobody can log into Acme Enterprise this morning.", ["Acme Enterprise"]),
    # no product noun: a made name (camel case, a model code, a version) where a
    # product is named
    ("Sending through DocuMint fails.", ["DocuMint"]),
    ("The Tallis K40 on the counter says E42.", ["Tallis K40"]),
    ("Bookings in RotaDesk 7.2 time out.", ["RotaDesk 7.2"]),
    ("We moved the London office in Q3 and on the M25.", []),
    ("It happened in 2024 with the Leeds team.", []),
])
def test_products(text, found) -> None:
    assert texts(Products(), text) == found


@pytest.mark.parametrize(("text", "found"), [
    ("Great, ask @mkowalski to review. Priya will review it too.", ["@mkowalski", "Priya"]),
    ("Reviewer: Dana Lee", ["Dana Lee"]),
    ("Please assign the PR to Tomás for review.", ["Tomás"]),
    ("I asked Bob about the logs.", []),
    ("Ask Bob for the logs, then I'll review it.", []),
    ("Ravi from the DBA team needs to review anything that touches customers.", ["Ravi"]),
    ("Mia in accounts will check the invoice.", []),
])
def test_reviewers(text, found) -> None:
    assert texts(People(), text) == found


def test_edited_paths_come_from_edits_not_reads() -> None:
    prose = ("I edited src/uploader/retry.py and added tests/test_retry.py. "
             "Next I'll read docs/x.md.")
    assert texts(Edits(), prose, "assistant") == ["src/uploader/retry.py", "tests/test_retry.py"]
    assert texts(Edits(), "Please fix the test in tests/test_upload.py", "user") == []
    assert texts(Edits(), "Wrote 42 lines to src/app/main.ts", "tool",
                 tool_name="write_file") == ["src/app/main.ts"]
    assert texts(Edits(), "1: import os  # see lib/util.py", "tool", tool_name="read_file") == []
    status = "On branch fix/x\nChanges not staged:\n\tmodified:   src/db/pool.go\n"
    assert texts(Edits(), status, "tool", tool_name="bash") == ["src/db/pool.go"]
    # A branch name is not a file, even in an editing sentence.
    assert texts(Edits(), "I updated config/app.yml on branch fix/retry-timeout.",
                 "assistant") == ["config/app.yml"]


@pytest.mark.parametrize(("text", "found"), [
    ("I've already restarted the router and reset it, but it still drops every hour.",
     ["I've already restarted the router and reset it"]),
    ("Bumping the timeout to 30s didn't help.", ["Bumping the timeout to 30s didn't help"]),
    ("I tried pinning requests to 2.31 but the import error persists.",
     ["I tried pinning requests to 2.31"]),
    ("I reinstalled the app and it still crashes on launch.", ["I reinstalled the app"]),
    ("We cleared the cache, no luck.", ["We cleared the cache"]),
    ("Have you tried restarting it?", []),  # a suggestion, not an attempt
    ("I called yesterday and nobody answered.", []),
    ("I booked a table for two.", []),
    # a list of attempts, the first of them no attempt word of its own
    ("I've resent both envelopes, tried Firefox as well as Chrome, and logged out and back in.",
     ["I've resent both envelopes, tried Firefox as well as Chrome, and logged out and back in"]),
    # someone else's attempt; a new subject's attempt is an attempt of its own
    ("Dealer already did a software update at the service in April.",
     ["Dealer already did a software update at the service in April"]),
    ("I changed the batteries in it, and I turned the box off and on again.",
     ["I changed the batteries in it", "I turned the box off and on again"]),
    ("I tried Chrome and Edge, and one of the devs tried from his phone on 4G.",
     ["I tried Chrome and Edge", "one of the devs tried from his phone on 4G"]),
    ("I tried Chrome, and then it worked.", ["I tried Chrome, and then it worked"]),
    # an approach named in apposition and said to fail: the approach itself
    ("Tom's approach, switching the global timezone around the calculation, doesn't work.",
     ["switching the global timezone around the calculation"]),
    ("This approach, which is simple, works well.", []),
])
def test_attempts(text, found) -> None:
    assert texts(Attempts(), text) == found


@pytest.mark.parametrize(("text", "found"), [
    # the finding, without the words that announce it or the explanation after it
    ("The root cause is that the retry loop reuses a closed session.",
     ["the retry loop reuses a closed session"]),
    ("Turns out the cron job runs in UTC.", ["the cron job runs in UTC"]),
    ("The root cause is that the totals are rounded as binary floats: 2.675 is 2.67499.",
     ["the totals are rounded as binary floats"]),
    ("The actual root cause of #1207: `scheduleNext()` ignores the user's timezone.",
     ["`scheduleNext()` ignores the user's timezone"]),
    ("It was caused by a stale DNS entry.", ["It was caused by a stale DNS entry"]),
    ("No sleeps please, find the actual bug.", []),  # the request to find one
    ("It might be caused by DNS.", []),
    ("You'll have a written root-cause analysis by Friday.", []),
    ("Is the root cause the cache?", []),
])
def test_causes(text, found) -> None:
    assert texts(Causes(), text, "assistant") == found


def test_the_request_is_the_first_user_turns_first_ask() -> None:
    first = "Hey! Please fix the flaky upload test. It's for PAY-1432."
    assert texts(Requests(), first) == ["Please fix the flaky upload test"]
    assert texts(Requests(), "Refactor the billing module to use the new client.") == [
        "Refactor the billing module to use the new client"]
    assert texts(Requests(), "I want to book a table.") == []
    later = TurnView(thread="t", number=3, role="user", text="Please also add a test.",
                     previous_by_role={"user": 1})
    assert Requests().extract(later) == []  # only the opening request frames the task


CUES = st.sampled_from([
    "I tried ", "already ", " didn't help", " still ", "root cause is ", "turns out ",
    "Please fix ", "Can you add ", "severity 2 ", " P1 ", " priority: high ", " router ",
    " Pro plan ", "ask @dev to review ", " will review ", "edited src/a.py ", "modified:   ",
    "\n", ". ", ", but ", "?", "I ", "we ", "ing ", "ed ", "€", "😀", "é",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(CUES | st.text(max_size=12), max_size=30), st.sampled_from(
    ["user", "assistant", "tool"]))
def test_property_spans_are_verbatim(parts, role) -> None:
    text = "".join(parts)
    view = TurnView(thread="t", number=1, role=role, text=text, tool_name="edit_file")
    for extractor in (Levels(), Products(), People(), Edits(), Attempts(), Causes(),
                      Requests()):
        for c in extractor.extract(view):
            assert c.text == text[c.start:c.end] and c.start < c.end


@pytest.mark.parametrize(("text", "found"), [
    ("Plan: make `PaymentValidator` a static utility class so no wiring changes are needed.",
     ["make `PaymentValidator` a static utility class so no wiring changes are needed"]),
    ("The quick mitigation would be widening the sleep to 600ms — let me try that.",
     ["widening the sleep to 600ms"]),
    ("First I'll try the low-touch route: relax the constraint to `~> 2.9`, to see what "
     "bundler says.", ["relax the constraint to `~> 2.9`"]),
    ("Let me look at the logs.", []),
    ("Shall I try the other route?", []),
    ("My first try is the cheap one: format to two decimals instead of calling `round()`.",
     ["format to two decimals instead of calling `round()`"]),
    ("The fix is simple: we bump the pool size.", ["we bump the pool size"]),
    ("The fix was simple.", []),
])
def test_plans(text, found) -> None:
    from extractors.session.plans import Plans

    assert texts(Plans(), text, "assistant") == found


def test_a_plan_that_a_later_turn_reports_failing_becomes_a_failed_approach() -> None:
    from scratchpad import Scratchpad

    messages = [
        {"role": "user", "content": "The orders endpoint takes 5s. Can you speed it up?"},
        {"role": "assistant", "content": "No index on customer_id. I'll add an index on "
                                         "`orders.customer_id` with a migration."},
        {"role": "user", "content": "ok"},
        {"role": "assistant", "content": "The index made no difference, p95 is still 5.4s. "
                                         "Let me profile the queries."},
        {"role": "assistant", "content": "I'll send you the profile when it's done."},
        {"role": "user", "content": "The profile still hasn't arrived."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        state = pad.state("t", "coding")
        block = pad.render("t")
        (event,) = [e for e in pad.events("t") if e.new == "tried"]
    assert [a.text for a in state.failed_approaches] == [
        "I'll add an index on `orders.customer_id` with a migration"]
    assert event.turn == 4 and event.evidence_text == (
        "The index made no difference, p95 is still 5.4s")
    assert ('TRIED: "I\'ll add an index on `orders.customer_id` with a migration" '
            '(assistant, turn 2; failed turn 4: "The index made no difference, p95 is still '
            '5.4s"') in block
    assert "fulfilled turn 6" not in block  # "still hasn't arrived" fulfils nothing
    # A promise to send something that is late is not a failed approach.
    assert state.task.text == "Can you speed it up"
