"""Figures as terms: a corrected figure is the commitment now (of the kind of the one it
replaces), and a user who repeats an offer's figure, turns later, agrees to it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from extractors.dialogue.commitment_shapes import corrected_figure, standing_figure
from extractors.dialogue.figure_picks import figure_value
from schemas import SHIPPED
from scratchpad import Scratchpad

BIKE_OFFER = ("Our standard deduction for a bike ridden under 100 km is 10% of the price. On "
              "the 12.995,00 kr. you paid, that's 1.299,50 kr., so the refund would be "
              "11.695,50 kr.\n\nAlternatively, I can swap it for the L in the same colour.")


def commitments(messages: list[dict]) -> dict[str, tuple[str, str]]:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", messages)
        return {r.text: (r.subtype, r.status) for r in pad.records("t", kind="commitment")}


def bike(reply: str) -> list[dict]:
    return [
        {"role": "user", "content": "I'd like to return the e-bike."},
        {"role": "assistant", "content": BIKE_OFFER},
        {"role": "user", "content": "Is the L in stock in sage?"},
        {"role": "assistant", "content": "Unfortunately not, only in black."},
        {"role": "user", "content": "Could you do 5% instead?"},
        {"role": "assistant", "content": "I'm sorry, but 10% is the fixed rate for ridden "
                                         "bikes and I can't lower it."},
        {"role": "user", "content": reply},
    ]


@pytest.mark.parametrize("reply", ["Okay, fair enough. 11.695,50 then.",
                                   "fine, 11695.50 works", "11.695,50 kr. please"])
def test_repeating_an_offers_figure_turns_later_agrees_to_it(reply: str) -> None:
    got = commitments(bike(reply))
    assert got["the refund would be 11.695,50 kr"] == ("agreed", "active")


@pytest.mark.parametrize("reply", ["11.695,50?", "Not 11.695,50, that's too little.",
                                   "11.695,50 is too low", "Maybe 11.695,50, I need to think",
                                   "I rode it 60 km and washed it twice since then."])
def test_a_figure_asked_about_turned_down_or_hedged_agrees_to_nothing(reply: str) -> None:
    got = commitments(bike(reply))
    assert got["the refund would be 11.695,50 kr"] == ("offered", "active")


def test_the_agreed_refund_fills_the_refund_schema() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", bike("Okay, fair enough. 11.695,50 then."))
        state = pad.state("t", SHIPPED["refund"])
    assert state.refund_amount is not None
    assert "11.695,50 kr" in state.refund_amount.text and 7 in state.refund_amount.turns


@pytest.mark.parametrize(("words", "value"), [
    ("11.695,50", "11695.50"), ("1,049", "1049"), ("112.05", "112.05"), ("930", "930"),
    ("1 947", "1947"), ("1,049.00", "1049.00"),
])
def test_figure_values_read_thousands_and_decimals_as_people_type_them(words, value) -> None:
    assert figure_value(words) == Decimal(value)


@pytest.mark.parametrize(("text", "subtype", "standing"), [
    ("the refund is £153.45, not £135.45", "granted", "is £153.45"),
    ("That makes your refund $112.05, not $120.00", "granted", "$112.05"),
    ("the remaining balance will be €44.70, not €63.10", "promised", "will be €44.70"),
    ("the right price is £82 per person, not £78", "offered", "is £82 per person"),
    ("the refund would be €930, not €900", "offered", "would be €930"),
    # the figure of what was just said, other nouns, decimals after a comma
    ("Sorry, it's £19.00, not £9.50", "granted", "£19.00"),
    ("The corrected invoice is $421.08, not $412.80", "granted", "is $421.08"),
    ("your April total is € 52,30, not € 47,50", "granted", "is € 52,30"),
    ("The total is 3 items, not 2", None, None),
    ("it was €15, not €12", None, None),
    ("the fee on 28 February was €15, not €12", None, None),
])
def test_a_figure_put_in_place_of_another_says_what_it_is(text, subtype, standing) -> None:
    assert corrected_figure(text) == subtype
    if subtype is not None:
        assert standing_figure(text) == standing


def test_a_corrected_offer_stays_an_offer_and_the_users_figure_agrees_to_it() -> None:
    got = commitments([
        {"role": "user", "content": "I want to return the jeans and the shirt."},
        {"role": "assistant", "content": "Both are within the window, so your refund for the "
                                         "two would be $120.00 back to your card."},
        {"role": "user", "content": "ok"},
        {"role": "assistant", "content": "Sorry, I need to correct what I just said: the $7.95 "
                                         "label fee comes off the refund. That makes your "
                                         "refund $112.05, not $120.00."},
        {"role": "user", "content": "ugh. fine 112.05"},
    ])
    old = next(v for k, v in got.items() if "$120.00 back" in k)
    assert old[1] == "superseded"
    assert got["That makes your refund $112.05, not $120.00"] == ("agreed", "active")


def test_an_option_that_names_a_thing_carries_its_label() -> None:
    with Scratchpad(":memory:") as pad:
        pad.ingest("t", [
            {"role": "user", "content": "My seat was changed, can I get the fee back?"},
            {"role": "assistant", "content": "You can have it in one of two ways:\n\n"
             "1. a refund of CHF 89.00 to the card you paid with, or\n"
             "2. a travel voucher of CHF 130.00, valid for 12 months."},
            {"role": "user", "content": "The card, please."},
        ])
        labels = {r.text: (r.label, r.subtype) for r in pad.records("t", kind="commitment")}
        state = pad.state("t", SHIPPED["refund"])
    assert labels["a refund of CHF 89.00 to the card you paid with, or"] == ("refund", "agreed")
    assert labels["a travel voucher of CHF 130.00, valid for 12 months"][0] == "travel voucher"
    assert state.refund_amount is not None and "CHF 89.00" in state.refund_amount.text


def test_a_figure_the_user_corrects_is_no_commitment_of_theirs() -> None:
    """The corrected-figure rules read the agent's turns: a user putting one figure in
    place of another states a value, it grants or promises nothing."""
    got = commitments([{"role": "user", "content": "The refund is €45, not €40."}])
    assert got == {}
