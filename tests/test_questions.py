"""Question detection: one candidate per question clause, with subtype and attrs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.base import TurnView
from extractors.dialogue.questions import RuleQuestions
from tests.conftest import QUESTION_TEXT

EXTRACTOR = RuleQuestions()


def _turn(text: str, role: str = "assistant", number: int = 1) -> TurnView:
    return TurnView(thread="t", number=number, role=role, text=text)


def _found(text: str, role: str = "assistant", doc=None) -> list[str]:
    return [c.text for c in EXTRACTOR.extract(_turn(text, role), doc)]


@pytest.mark.parametrize("text, expected", [
    ("What time would you like to leave?", ["What time would you like to leave?"]),
    ("Is it premium economy?", ["Is it premium economy?"]),
    ("Sure. It arrives at which station?", ["It arrives at which station?"]),
    ("Yes that's great, what is their phone number?", ["what is their phone number?"]),
    ("Sounds good, and can I have their address.", ["can I have their address."]),
    ("Where are you going to and from", ["Where are you going to and from"]),
    ("how many ticket do you need and what time are you leaving",
     ["how many ticket do you need", "what time are you leaving"]),
    ("When do you want to travel? And from what city are you coming?",
     ["When do you want to travel?", "from what city are you coming?"]),
    ("Could you confirm the address", ["Could you confirm the address"]),
    ("please send me the order number.", ["please send me the order number."]),
    ("Let me know which slot works.", ["Let me know which slot works."]),
    ("Can you tell me why you're returning it, and whether it has been opened?",
     ["Can you tell me why you're returning it, and whether it has been opened?"]),
    ("I'd like the address and is it a cheap place pricewise?",
     ["I'd like the address", "is it a cheap place pricewise?"]),
    ("Sounds great.Tell me the phone number.", ["Tell me the phone number."]),
    ("Which date, please.", ["Which date, please."]),
    ("What do you think about Dr. Smith?", ["What do you think about Dr. Smith?"]),
    ("which city to look in", ["which city to look in"]),
    ("Ok, which is cheaper?", ["which is cheaper?"]),
    # information stays a question: a check with "whether", an info noun, a curly apostrophe
    ("Could you check whether it shipped?", ["Could you check whether it shipped?"]),
    ("Can you check the balance?", ["Can you check the balance?"]),
    ("What’s the fee?", ["What’s the fee?"]),
    # two requests in one sentence are two questions
    ("Could you confirm the delivery address, and please send me the order number.",
     ["Could you confirm the delivery address", "please send me the order number."]),
    ("Can you tell me the price and let me know if it ships today?",
     ["Can you tell me the price", "let me know if it ships today?"]),
    ('He asked "why?" and I said "what should I do?"', []),
    # an alternative question is one question, its first half included
    ("And is 7.2.4 actually out yet, or do we have to wait for it?",
     ["is 7.2.4 actually out yet, or do we have to wait for it?"]),
    ("I paid by card, or so I think. Do you have it?", ["Do you have it?"]),
])
def test_detects_questions(text: str, expected: list[str]) -> None:
    assert _found(text) == expected


@pytest.mark.parametrize("text", [
    "Anything else I can help with?",
    "Is there anything else?",
    "Please confirm: 1 ticket to Boston on March 3rd.",
    "Can you confirm the following details?",
    "Have a great day!",
    "Can you book it for me?",
    "Could you find me a hotel in Paris?",
    "Let me check what I actually paid for delivery, one sec.",
    "I need to check with my partner.",
    "When you arrive, call reception.",
    "Oh, yeah?",
    "The refund is €930.",
    "```\nwhat is this?\n```",
    "> Is the box needed?\nIt is not.",
    "`is_open?`",
    # requests for action and statements of intent, even with a "?"
    "Hi there, could you help me get a rental car please?",
    "Perfect, can you search round trip flights for me?",
    "Can you assist me with finding a bus?",
    "I'm looking for a movie?",
    "I would like to find an event?",
    "let's make a visit?",
    # greetings, a quoted question, and requests for actions of support and coding work
    "Hi, how are you?",
    "Thanks! How's it going?",
    'The seller emailed me: "Can you send the item back by Friday?"',
    "The seller wrote “Could you return it?” yesterday.",
    "Can you open a PR?",
    "Could you unlock my account?",
    "can someone take a look?",
    "Can you refactor the order model?",
    "Could you check the Dockerfile?",
    # relative clauses
    "There is 1 hotel, which is near the station.",
    "which is a place of worship.",
    # a statement that dropped its subject, a wish, thanks, an answer with a stray "?"
    "Is located at 12 Harbour Road.",
    "Is booked for the 14th.",
    "Will be later.",
    "It is an estate car, and is a hybrid.",
    "May your trip be a smooth one.",
    "Have the best weekend.",
    "Thank you for your help?",
    "No, I don't want the insurance right now?",
    "Great, do that.",
    "OK, just let me know!",
    "Do you need more help?",
    "I appreciate it?",
    # a condition put by inversion asks nothing
    "I shall send you a copy by Friday, should you need it for your records.",
    "Should anything change, our team will call you.",
])
def test_not_questions(text: str) -> None:
    assert _found(text) == []


def test_tool_turns_are_never_asked() -> None:
    assert EXTRACTOR.extract(_turn("What is the status?", role="tool")) == []


@pytest.mark.parametrize("text, subtype, expects, choices", [
    ("What time works for you?", "wh", "datetime", []),
    ("How much is the delivery charge?", "wh", "amount", []),
    ("What's their phone number?", "wh", "identifier", []),
    ("Is it furnished?", "yesno", "yesno", []),
    ("How about the 10:40 am bus with 0 transfers?", "suggestion", "yesno", []),
    ("What's your opinion on the Harbour View room?", "suggestion", "yesno", []),
    ("How do you feel about a window seat?", "suggestion", "yesno", []),
    ("How would you like to pay?", "wh", "amount", []),
    ("Can you confirm me the seats before I book?", "yesno", "yesno", []),
    ("Can you check if the 9:15 is still running?", "request", "yesno", []),
    ("What about a hotel named Canopy with 3 stars?", "suggestion", "yesno", []),
    ("What do you think of the bus leaving at 8 am?", "suggestion", "yesno", []),
    ("How does the 2 star Acme Hotel sound?", "suggestion", "yesno", []),
    ("Would you like to reserve the car?", "suggestion", "yesno", []),
    ("May I suggest Dr. Garcia?", "suggestion", "yesno", []),
    ("How about Tuesday or Thursday?", "suggestion", "choice", ["Tuesday", "Thursday"]),
    ("What about the price?", "wh", "amount", []),
    ("How about you?", "wh", "text", []),
    ("Could you confirm the address", "request", "text", []),
    ("Do you want to know your checking or savings account?", "choice", "choice",
     ["checking", "savings account"]),
    ("Should the €18 charge be refunded too, or would you rather I leave it?", "choice",
     "choice", ["Should the €18 charge be refunded too", "would you rather I leave it"]),
    ("We can do Tuesday 10:00-14:00, Wednesday 14:00-18:00 or Thursday 14:00-18:00. "
     "Which works best for you?", "choice", "choice",
     ["Tuesday 10:00-14:00", "Wednesday 14:00-18:00", "Thursday 14:00-18:00"]),
])
def test_subtype_and_attrs(text: str, subtype: str, expects: str, choices: list[str]) -> None:
    (candidate,) = EXTRACTOR.extract(_turn(text, role="user"))
    assert candidate.subtype == subtype
    assert candidate.attrs == {"asker": "user", "expects": expects, "choices": choices}
    assert all(choice in text for choice in candidate.attrs["choices"])


def test_label_from_parse(nlp) -> None:
    text = "Should the original €18 delivery charge be refunded too?"
    (candidate,) = EXTRACTOR.extract(_turn(text), nlp(text))
    assert candidate.label == "delivery charge"
    (without,) = EXTRACTOR.extract(_turn(text), None)
    assert without.text == candidate.text and without.label is None


def test_blank_pipeline_degrades() -> None:
    import spacy

    blank = spacy.blank("en")
    blank.add_pipe("sentencizer")
    text = "Thanks. What's the address?"
    assert [c.text for c in EXTRACTOR.extract(_turn(text), blank(text))] == ["What's the address?"]


# -- property ---------------------------------------------------------------------------



@settings(max_examples=200, deadline=None)
@given(text=QUESTION_TEXT, role=st.sampled_from(["user", "assistant"]))
def test_verbatim_and_in_bounds(text: str, role: str) -> None:
    for c in EXTRACTOR.extract(_turn(text, role, 2)):
        assert 0 <= c.start <= c.end <= len(text)
        assert text[c.start:c.end] == c.text
        assert c.subtype in ("wh", "yesno", "choice", "request", "suggestion")
