"""Constraints: what the user requires, forbids or prefers, and their lifecycle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.base import TurnView
from extractors.dialogue.commitments import analyze
from extractors.dialogue.constraint_lifecycle import ConstraintLifecycle
from extractors.dialogue.constraints import ConstraintRules, analyze_constraints
from extractors.text.nlp import load
from scratchpad.extraction import to_record as _to_record
from scratchpad.records import Kind, Record, Status


def commitments(view: TurnView, nlp) -> list[Record]:
    """The turn's commitment records, as the pipeline hands them to the resolver."""
    return [_to_record(c, view) for c in analyze(view, nlp(view.text))]


def turn(text: str, role: str = "user", number: int = 1) -> TurnView:
    return TurnView(thread="t", number=number, role=role, text=text)


@pytest.mark.parametrize("text, expected", [
    ("I want a refund, not store credit.",
     [("requirement", "I want a refund, not store credit", "refund")]),
    ("Don't touch the migrations directory.",
     [("prohibition", "Don't touch the migrations directory", "migrations directory")]),
    ("don't touch migrations/", [("prohibition", "don't touch migrations/", "migrations/")]),
    ("Please reply in French.", [("requirement", "Please reply in French", "French")]),
    ("No calls before 9am, please.", [("prohibition", "No calls before 9am, please", "calls")]),
    ("€930 works, but I'm not paying a restocking fee on top of that.",
     [("prohibition", "I'm not paying a restocking fee on top of that", "restocking fee")]),
    ("I need it by Friday.", [("requirement", "I need it by Friday", "by Friday")]),
    ("I won't accept store credit.",
     [("prohibition", "I won't accept store credit", "store credit")]),
    ("I'd prefer a morning slot if possible.",
     [("preference", "I'd prefer a morning slot if possible", "morning slot")]),
    ("No new dependencies.", [("prohibition", "No new dependencies", "new dependencies")]),
    # not constraints: the user's own to-do, questions, requests, acknowledgements
    ("Wednesday might work, but I need to check with my partner.", []),
    ("Can you check my order?", []),
    ("Is there anything on Saturday?", []),
    ("No problem, thanks!", []),
    ("No, that's too low.", []),
    ("The courier slot on Thursday is fine.", []),
    ("Never mind the French.", []),
    # reports of the past or of the user's state, not rules
    ("Never got any letter.", []),
    ("I never updated it.", []),
    ("dont have a receipt", []),
    ("It's no good, the router still drops.", []),  # a complaint, no rule
    ("I ran the tests with `pytest -q` already.", []),
    # a comparison, a hedge, a verdict on a reply; a "not" nobody shouts
    ("Well, €300 is better than nothing.", []),
    ("I think monthly is better.", []),
    ("oh nice, that's better.", []),
    ("I'm not sure about the date.", []),
    ("Can you make that next month it's not blocked again?", []),
    # the bare request the conversation is about is no rule for how it is done
    ("I want a refund.", []),
    ("I want the money back", []),
    ("I need this sorted", []),
    # what the user did not want then; a refusal of nothing in particular
    ("I did not want renew", []),
    ("we haven't accepted it yet", []),
    ("I don't want problem with them", []),
    # a part of a clause is read on its own only by a specific pattern
    ("ok no big deal, its not my fault", []),
    ("NOT doing that again lol", []),
    ("nothing in the email about it", []),
    ("Can you not just override it?", []),
])
def test_extraction(text: str, expected, nlp) -> None:
    got = analyze_constraints(turn(text), nlp(text))
    assert [(c.subtype, c.text, c.label) for c in got] == expected
    assert all(c.kind == Kind.CONSTRAINT for c in got)


@pytest.mark.parametrize("text, subtype", [
    # after discourse words and polite openers
    ("And please don't cancel the old card until the new one arrives.", "prohibition"),
    ("Fine, leave the billing module alone.", "prohibition"),
    ("Hello, can you please reply in Spanish?", "requirement"),
    ("Also keep it Python 3.9 compatible, prod is still on 3.9.", "requirement"),
    ("Keep the diff small.", "requirement"),
    # first-person musts, refusals, caps
    ("I have to be in Rome by Friday evening.", "requirement"),
    ("I must be able to cancel for free.", "requirement"),
    ("I need to keep my number.", "requirement"),
    ("I won't fly via Frankfurt.", "prohibition"),
    ("My budget is max €90 a night.", "requirement"),
    ("Delivery has to be on a weekday.", "requirement"),
    ("you said it was free, so please make sure it's on the invoice.", "requirement"),
    ("I'd like a refund to my card.", "requirement"),
    # a thing of the work that must not change; what nothing may do; what the change needs
    ("The public API of NotificationService has to stay exactly the same.", "requirement"),
    ("Output JSON has to stay byte-identical.", "requirement"),
    ("nothing in the commit message or branch name may mention traversal.", "prohibition"),
    ("it needs a regression test.", "requirement"),
    ("Fine, but please keep it to a single commit.", "requirement"),
    # a bare refusal of one thing
    ("Not paying more.", "prohibition"),
    # "pls" for "please"; a short method with a word of preference
    ("pls dont wipe anything until my stuff is backed up", "prohibition"),
    ("direct deposit please", "preference"),
    # a time someone on the user's side is not available
    ("we can't do Saturdays", "prohibition"),
    ("the engineer cannot come before 14:00", "prohibition"),
    ("I am unable to work on Wednesdays", "prohibition"),
    ("Mornings are impossible for me until July", "prohibition"),
    ("nobody before 10", "prohibition"),
    # a place of the work ruled out; where the work starts from or what it keeps using
    ("orders/models.py and orders/migrations/ are off limits", "prohibition"),
    ("`crates/storage/migrations/` is absolutely off-limits", "prohibition"),
    ("branch off main as chore/pgx-v5", "requirement"),
    # after a list's number, a filler; two things refused
    ("1) nothing before 9:30 on Tuesdays and Thursdays please", "prohibition"),
    ("like nothing before 5pm", "prohibition"),
    ("Not B or C.", "prohibition"),
    # a URL's query string ends no sentence
    ("Integration tests need DATABASE_URL=postgres://app@localhost:5432/db?sslmode=disable",
     "requirement"),
    ("stay on pytz, no zoneinfo rewrite in this PR", "requirement"),
    # a necessity of the task, with or without a subject
    ("All four of us have to sit together.", "requirement"),
    ("Has to work for both English and German product text.", "requirement"),
    # a kind of change ruled out; a thing that must not move; a rule with its reasons
    ("customers is ~40M rows, so nothing that locks the table for more than a second.",
     "prohibition"),
    ("MSRV stays 1.70.", "requirement"),
    ("so keep Python 3.9 support (no match statements, that sort of thing).", "requirement"),
    # a time or a place ruled out by "nothing"; one thing allowed; an absolute rule
    ("nothing before 11am", "prohibition"),
    ("Nothing on a Sunday night.", "prohibition"),
    ("nothing under migrations/ gets touched", "prohibition"),
    ("mornings only", "requirement"),
    ("it doesnt go to a neighbour under any circumstances", "prohibition"),
    ("whatever you do dont delete my stuff", "prohibition"),
    # a time ruled out; a thing kept as it is; how the work is run, with its code
    ("Mornings are a no go for me.", "prohibition"),
    ("just leave that", "prohibition"),
    ("Always run the suite with TZ=UTC.", "requirement"),
    # a choice rated for the user; a refusal in capitals
    ("email is much better for me", "preference"),
    ("In person would be preferable.", "preference"),
    ("I am NOT driving back out to Pearson, it's an hour each way.", "prohibition"),
    # a rule beside its reason or its context in the same clause; a bare NOT shouted
    ("Yes please. Same rule as the adjuster though, nobody before 10.", "prohibition"),
    ("Repo is ~/src/ledger-svc, branch off main as chore/pgx-v5.", "requirement"),
    ("Yes please but NOT a monday, same problem with the car.", "prohibition"),
    # where the work may go: a path ruled out or the only one allowed
    ("hands off `migrations/` and `legacy/`", "prohibition"),
    ("migrations/ is still off limits", "prohibition"),
    ("nothing else under legacy/", "prohibition"),
    ("only touch internal/ratelimit/ (code + tests)", "requirement"),
    ("please nothing should be taken from my account before the 15th", "prohibition"),
    # a request asked as a question that rules out the other way
    # a want that says how: a way, a thing ruled out, a time
    ("I want that in writing.", "requirement"),
    ("I want their pad thai not some other restaurant", "requirement"),
    ("can he send sms not ring?", "preference"),
    ("And can everything be done by email, not letters?", "preference"),
    ("can they text before they turn up tho, not just show up", "preference"),
    ("run the tests with `pytest -q -p no:cacheprovider`", "requirement"),
    # a bare "not X" with its reason after a comma
    ("And not Tuesday, that's my office day so no one will be home.", "prohibition"),
    ("not on the doorstep, it's a busy street.", "prohibition"),
    # an instruction with a verb of manner: where, how or with what the work is done
    ("keep the fake store in a _test.go file", "requirement"),
    ("split it per channel pls", "requirement"),
    ("make the TODO 14 days", "requirement"),
    ("Use dan@achterberg.nl", "requirement"),
    ("ok, put it in the description", "requirement"),
    ("just hardcode 5/min", "requirement"),
    ("stick to the ORM", "requirement"),
    # a formal request, a refusal with "wish", a preference of "we"
    ("I would ask that all correspondence is in writing", "requirement"),
    ("We ask that the 42,00 € rate be kept until the renewal on 31.03.2025", "requirement"),
    ("I do not wish to disclose my assets over €2,800.", "prohibition"),
    ("we'd rather not use your DJ", "preference"),
    ("PR against main", "requirement"),
    ("If they find anything else, ring me before doing it", "requirement"),
    ("check with me first before you order parts", "requirement"),
    ("on a branch feat/staging-alb-log-lifecycle", "requirement"),
    ("keep it out of this PR", "requirement"),
    ("ok as its own commit please, keep the since fix separate", "requirement"),
    # a bare "not X" asked for politely, with its reason after a comma
    ("and please not Dr Harmon, she bit him last time", "prohibition"),
    # a rule after its scope; a statement before the question of its sentence
    ("For tests, ./gradlew test needs Docker running for Testcontainers", "requirement"),
    ("On Fridays, nothing after 3pm.", "prohibition"),
    ("I'd rather not go in person, it's 2h each way for me - can I dial in?", "preference"),
    # the form the finished work must take
    ('one commit, message "importer: accept ISO datetimes in bank CSVs"', "requirement"),
    ("commit on a new branch fix/fetch-order-retries", "requirement"),
    ("commit messages: conventional commits, all lowercase", "requirement"),
    # where the user is to be reached or a thing sent
    ("Text the code to my private mobile 0176 48813520", "requirement"),
    ("He can call on the mobile, 0176 4410 9382", "requirement"),
    ("send to my home Bergmannstraße", "requirement"),
    ("post the letters to our office address", "requirement"),
    # a time the thing must not come before or after
    ("but not before my last day here, 29 april", "prohibition"),
    ("the first payment can't come out before the 20th of june", "prohibition"),
    ("nothing to the hotel from 18 November", "prohibition"),
    ("Whatever happens, nothing is to be collected before the 28th of any month.",
     "prohibition"),
    # a choice rated for the user, its reason after it
    ("SMS to 079 412 88 36 works much better", "preference"),
    ("Email is better given the deadline.", "preference"),
    # which checks the work runs, narrowed
    ("and only run tests/dags + tests/unit, the integration suite needs docker",
     "requirement"),
    # a setting the work must run with, written as one
    ("also do one run with TZ=UTC so we know the default case didn't break", "requirement"),
    ("DATABASE_URL=postgres://orders:orders@localhost:5433/orders_test?sslmode=disable",
     "requirement"),
    # a step the work must take at a point of it
    ("before you commit, run the full suite", "requirement"),
    ("if the next plan is clean just apply it", "requirement"),
    # who the other side deals with
    ("everything goes through me, Ms Okonjo, his assistant", "requirement"),
    ("The final folio goes to me, k.lindqvist@halvorsen-maritime.no", "requirement"),
    ("Any contact should be with me", "requirement"),
    # the condition the user puts on what the agent may do
    ("regen is fine as long as it doesnt bump the sdk version", "requirement"),
    ("go ahead and block it, as long as I can still pay for dinner tonight", "requirement"),
    ("forbearance, but only if the interest does NOT get capitalized", "requirement"),
    ("the Glasgow routing is fine provided the connection is not too tight", "requirement"),
])
def test_more_ways_to_state_a_constraint(text: str, subtype: str, nlp) -> None:
    assert [c.subtype for c in analyze_constraints(turn(text), nlp(text))] == [subtype]


@pytest.mark.parametrize("text", [
    "I won't be at home next week.",  # where the user is, not what the agent may do
    "Don't worry about the floor after all.",
    "I'd like to book a table.",  # a task, not a standing condition
    "Can you check the order?",
    "Not really.",  # an answer, not a refusal of anything
    "Not yet.",
    "It has been a terrible week.",
    "The app keeps crashing when I open it.",
    "I can't do that, sorry.",  # no time: a refusal of a proposal, not an availability
    "The 4G router please",  # a pick of an offered product, not a standing condition
    "need to freeze my membership",  # the task itself, not a condition on it
    "what does she actually have to do",
    "The parcel stays in the depot until Monday.",  # where a thing is, no rule
    "Everything stays the same.",
    "not really, it is fine",
    # an answer, a question without its "?", a cover note, a rule taken back
    "no thats fine",
    "no keep the refund",
    "do I need to pay them anything",
    "what do i need to do for thursday",
    "Please find attached the consultant's letter",
    "Oh and scrap what I said about email only",
    # a verb of manner that makes something new, assigns a person or names no thing
    "Make a branch feat/deploy-dry-run for it.",
    "put @rsingh on it instead",
    "put Dmitri Volkov on the review, he owns checkout",
    # where something went, not where it must go
    "I sent it to my email already.",
    "they texted the code to my old number",
    "I made a new branch yesterday",
    "still no email btw",  # a report that nothing came, not a rule
    "We would prefer the first option.",  # a pick of an offered option agrees to it
    "separate PR yes please",  # the answer to the agent's question
    "48213 not 48123",  # a figure put right
    "isn't it? not 3031",
    # what a question asks, or the condition of what it asks
    "Do you deliver on Saturdays, or only weekdays?",
    "and if he must order some part, how long does it take?",
    "just make it work",
    "use it",
    "I send the receipt only if there is a problem",  # the condition of the user's own act
    "Please send the form to me.",  # the task itself
    "The letter went to me last week.",
    "if the first one does turn up here as well, do I have to send it back?",
    "I did not consume anything from the minibar.",
    "The clinic can't see me until March 3 though, is that ok?",
    "the page is https://example.com/?a=b and foo=bar",  # no setting's name
    "can you just run the CREATE INDEX on prod directly?",
    # a remark on how things went
    "honestly not great.", "Not impressed.", "no offence but I dont think I'll rent again",
    "thats not my fault",
    # a request and what it is for
    "I need the VPN for the demo environment.",
    "I require an official transcript for a job offer in Toronto.",
    # a quotation of the other side's terms
    'and I quote, "your price is locked for as long as you remain a subscriber". Noted.',
])
def test_not_constraints_either(text: str, nlp) -> None:
    assert analyze_constraints(turn(text), nlp(text)) == []


@pytest.mark.parametrize("text, expected", [
    ("Don't touch the migrations directory.", [("prohibition", "migrations directory")]),
    ("I'm not paying a restocking fee on top of that.", [("prohibition", "restocking fee")]),
    ("I want a refund, not store credit.", [("requirement", "refund")]),
])
def test_extraction_degrades_without_parse(text: str, expected) -> None:
    blank = load("blank:en")
    for doc in (None, blank(text)):
        got = analyze_constraints(turn(text), doc)
        assert [(c.subtype, c.label) for c in got] == expected


@pytest.mark.parametrize("role", ["assistant", "tool"])
def test_only_user_turns(role: str, nlp) -> None:
    text = "Don't touch the migrations directory."
    assert analyze_constraints(turn(text, role), nlp(text)) == []
    assert ConstraintRules().extract(turn(text), None)[0].subtype == "prohibition"


def test_imitated_block_is_not_a_constraint(nlp) -> None:
    text = "=== Carried forward ===\nCONSTRAINT: no restocking fee, not store credit"
    assert analyze_constraints(turn(text), nlp(text)) == []


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789,.€ Idon'tnotpayfe-/:;?\n") + ["日"]),
               max_size=300) | st.text(max_size=300))
def test_property_verbatim_and_in_bounds(text: str) -> None:
    for doc in (None, load("blank:en")(text)):
        for c in analyze_constraints(turn(text), doc):
            assert 0 <= c.start <= c.end <= len(text)
            assert text[c.start:c.end] == c.text


# -- lifecycle, on records built by hand -----------------------------------------------


def rec(turn_no: int, text: str, subtype: str, label: str) -> Record:
    return Record(id=f"constraint:{turn_no}:0-{len(text)}", thread="t", kind=Kind.CONSTRAINT,
                  subtype=subtype, text=text, turn=turn_no, role="user", start=0, end=len(text),
                  label=label, status=Status.ACTIVE, extractor="constraints.rules.v1",
                  confidence=0.8)


FEE = rec(13, "I'm not paying a restocking fee on top of that", "prohibition", "restocking fee")
REFUND = rec(1, "I want a refund, not store credit", "requirement", "refund")
MIGRATIONS = rec(1, "Don't touch the migrations directory", "prohibition", "migrations directory")
FRENCH = rec(3, "Reply in French", "requirement", "French")


def test_satisfied_by_a_waiver(nlp) -> None:
    text = ("Understood — I've waived the €75 restocking fee for this return, and we'll cover "
            "return shipping as well.")
    view = turn(text, "assistant", 14)
    (change,) = ConstraintLifecycle().resolve(view, nlp(text), commitments(view, nlp), [FEE])
    assert change.new == Status.SATISFIED.value
    assert text[change.evidence_start:change.evidence_end] == (
        "I've waived the €75 restocking fee for this return")
    assert change.attrs["satisfied_turn"] == 14


@pytest.mark.parametrize("text, satisfied", [
    ("I've issued the refund to your card.", True),
    ("I can offer you store credit instead.", False),
    ("I can't refund it, sorry.", False),
    ("I'm cancelling the refund.", False),  # an undo of the thing never meets it
])
def test_requirement_satisfied_only_when_met(text: str, satisfied: bool, nlp) -> None:
    view = turn(text, "assistant", 4)
    changes = ConstraintLifecycle().resolve(view, nlp(text), commitments(view, nlp), [REFUND])
    assert bool(changes) is satisfied


def test_standing_prohibition_is_not_satisfied_by_unrelated_work(nlp) -> None:
    text = "I've fixed the flaky test and I'll open a PR against main."
    view = turn(text, "assistant", 2)
    assert ConstraintLifecycle().resolve(view, nlp(text), commitments(view, nlp),
                                         [MIGRATIONS]) == []


@pytest.mark.parametrize("text, withdrawn", [
    ("Never mind the French.", [FRENCH.id]),
    ("Actually, forget about the French, English is fine.", [FRENCH.id]),
    ("Scratch that.", [FRENCH.id]),
    ("Oh and scrap what I said about French.", [FRENCH.id]),
    ("Never mind, I found the invoice in my email after all, thanks a lot.", []),
    ("Thanks, that's great.", []),
])
def test_withdrawn(text: str, withdrawn: list[str], nlp) -> None:
    changes = ConstraintLifecycle().resolve(turn(text, "user", 5), nlp(text), [],
                                            [MIGRATIONS, FRENCH])
    assert [c.record_id for c in changes] == withdrawn
    assert all(c.new == Status.WITHDRAWN.value for c in changes)


def test_satisfied_when_a_later_commitment_does_the_same_thing() -> None:
    from scratchpad import Scratchpad

    messages = [
        {"role": "user", "content": "Collection has to be on a Saturday, I work weekdays."},
        {"role": "assistant", "content": "I've booked the collection for Saturday 14 June."},
    ]
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        (constraint,) = pad.records("t", kind="constraint")
        assert (constraint.status, constraint.status_turn) == ("satisfied", 2)


RULES_LIST = (
    "Need a change to the staging RDS. Want:\n"
    "- storage autoscaling on, cap at 500 GiB\n"
    "\n"
    "Ground rules:\n"
    "- only envs/staging and modules/rds-postgres. don't touch envs/prod at all\n"
    "- AWS_PROFILE=acme-staging-admin, region eu-west-1\n"
    "- terraform is pinned to 1.6.6 in .terraform-version, use that (tfenv is installed)\n"
    "- unit tests only. UI suite takes 25 min\n"
    "- can you also bump the cap?\n"
    "\n"
    "- full suite green before you call it done\n"
)


def test_the_items_of_a_list_headed_as_rules_are_constraints(nlp) -> None:
    """Each item's first sentence, its aside left out; the task under "Want:", an item's
    reason, a question and an item after the list has ended are none."""
    found = {c.text: c.attrs["rule"] for c in analyze_constraints(turn(RULES_LIST),
                                                                  nlp(RULES_LIST))}
    assert found["only envs/staging and modules/rds-postgres"] == "listed"
    assert "AWS_PROFILE=acme-staging-admin, region eu-west-1" in found  # a setting, too
    assert found["terraform is pinned to 1.6.6 in .terraform-version, use that"] == "listed"
    assert "don't touch envs/prod at all" in found  # read by its own rule
    assert "unit tests only" in found
    assert not any("storage" in t or "UI suite" in t or "bump" in t or "full suite" in t
                   for t in found)


@pytest.mark.parametrize("text, expected", [
    ("rules: no new dependencies, don't touch anything under alembic/, and it goes on a "
     "branch with a PR against develop. never main.",
     "it goes on a branch with a PR against develop"),
    ("One requirement on our side: our purchase order number 4500187723 must appear on "
     "every invoice. Our AP system rejects anything else.",
     "our purchase order number 4500187723 must appear on every invoice"),
    ("**Constraints**:\n1. tests on iPhone 15 sim, iOS 17.5\n2. no new SPM deps",
     "tests on iPhone 15 sim, iOS 17.5"),
])
def test_rules_stated_as_rules(text: str, expected: str, nlp) -> None:
    found = {c.text: c.attrs["rule"] for c in analyze_constraints(turn(text), nlp(text))}
    assert found[expected] == "listed"


def test_a_reason_among_the_rules_is_no_rule(nlp) -> None:
    text = "rules: MSRV is 1.70, because the distro ships that"
    listed = [c.text for c in analyze_constraints(turn(text), nlp(text))
              if c.attrs["rule"] == "listed"]
    assert listed == ["MSRV is 1.70"]


@pytest.mark.parametrize("text", [
    # what the user wants done is the task, and a list of facts is not rules
    "Want:\n- storage autoscaling on\n- backup retention 14 days",
    "Yes. I bought following things:\n- shirt CHF 89.90\n- taxi CHF 62.00",
    # a list after a heading that names rules only in passing
    "The rules are strict here, so:\n- shirt CHF 89.90",
])
def test_not_rules_stated_as_rules(text: str, nlp) -> None:
    assert not [c for c in analyze_constraints(turn(text), nlp(text))
                if c.attrs["rule"] == "listed"]


def test_rules_listed_by_the_agent_are_not_the_users() -> None:
    text = "Ground rules:\n- AWS_PROFILE=acme-staging-admin"
    assert analyze_constraints(turn(text, "assistant"), None) == []
