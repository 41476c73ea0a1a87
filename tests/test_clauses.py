"""Clauses: the segmenter and the features every rule family reads."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.text.clause_features import read
from extractors.text.clauses import clauses
from extractors.text.nlp import load


@pytest.mark.parametrize("text, expected", [
    ("Understood — I've waived the fee, and we'll cover shipping as well.",
     ["Understood", "I've waived the fee", "we'll cover shipping as well"]),
    ("OK. I can refund it; the courier collects on Monday.",
     ["OK", "I can refund it", "the courier collects on Monday"]),
    ("Would you like me to hold the slot?", ["Would you like me to hold the slot"]),
    # the stop of a dotted abbreviation is part of the words
    ("Please do not call before 6 p.m.", ["Please do not call before 6 p.m."]),
    ("The engineer arrives at 9 a.m.", ["The engineer arrives at 9 a.m."]),
    # no clause ends inside a quotation, and the quotation keeps its closing mark
    ('yes, one commit, message "importer: accept ISO datetimes". dont push',
     ['one commit, message "importer: accept ISO datetimes"', "dont push"]),
    ("new branch fix/x, msg 'ratelimit: lock the map - evict idle buckets'",
     ["new branch fix/x, msg 'ratelimit: lock the map - evict idle buckets'"]),
])
def test_segmenter(text: str, expected: list[str], nlp) -> None:
    for doc in (nlp(text), None):
        assert [text[c.start:c.end] for c in clauses(text, doc)] == expected


@pytest.mark.parametrize("text, person, modal, negated, verb, label, tense", [
    ("I've waived the €75 restocking fee.", 1, "", False, "waiv", "restocking fee", "perfect"),
    ("We'll cover return shipping.", 1, "will", False, "cover", "return shipping", ""),
    ("I can't refund the delivery charge.", 1, "can", True, "refund", "delivery charge", ""),
    ("I'm releasing the Wednesday hold.", 1, "", False, "releas", "hold", "progressive"),
    ("Would you like me to hold the slot?", 1, "offer", False, "hold", "slot", ""),
    ("You'll get a text.", 2, "will", False, "get", "text", ""),
    # a verb redone with "re-" is one word, read as the verb itself
    ("I've re-issued the voucher.", 1, "", False, "issu", "voucher", "perfect"),
])
def test_features(text: str, person: int, modal: str, negated: bool, verb: str, label: str,
                  tense: str, nlp) -> None:
    for doc in (nlp(text), None):
        ((_, f),) = read(text, doc)
        assert (f.person, f.modal, f.negated, f.verb, f.label) == (person, modal, negated,
                                                                    verb, label)
        assert (f.perfect, f.progressive) == (tense == "perfect", tense == "progressive")


def test_parse_cuts_before_a_coordinated_verb(nlp) -> None:
    text = "Sure, I can refund it and send a label."
    assert [text[c.start:c.end] for c in clauses(text, nlp(text))] == [
        "Sure", "I can refund it", "send a label"]
    assert [text[c.start:c.end] for c in clauses(text)] == [
        "Sure", "I can refund it and send a label"]  # no parse: no cut before "send"


def test_bare_conjunct_inherits_subject_and_auxiliary(nlp) -> None:
    text = "I've updated the address and cancelled the old booking."
    (_, first), (_, second) = read(text, nlp(text))
    assert (second.person, second.perfect, second.verb) == (1, True, "cancel")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789,.;:—-€ Iweandbut'v?!\n") + ["日"]),
               max_size=300) | st.text(max_size=300))
def test_property_clauses_are_verbatim_trimmed_spans(text: str) -> None:
    for doc in (None, load("blank:en")(text)):
        for clause, _ in read(text, doc):
            assert 0 <= clause.start < clause.end <= len(text)
            assert not text[clause.start].isspace() and not text[clause.end - 1].isspace()
