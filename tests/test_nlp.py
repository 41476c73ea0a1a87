"""Selective annotation: spaCy runs only where extractors ask, and what it writes back
is what a full run would have written there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.base import Needs, TurnView
from extractors.text import nlp as nlp_module
from extractors.text.sentences import sentences, span_at
from scratchpad import Scratchpad

TEXT = ("Thanks for waiting. I've waived the €75 restocking fee for you. "
        "The courier comes on Tuesday at 3pm. Anything else?")


def _sentence(text: str, n: int) -> tuple[int, int]:
    """The n-th sentence."""
    return sentences(text)[n]


def test_only_the_asked_ranges_are_annotated(nlp) -> None:
    parse, ents = _sentence(TEXT, 1), _sentence(TEXT, 2)
    [doc] = nlp_module.annotate(nlp, [(TEXT, Needs(entities=(ents,), parse=(parse,)))])
    assert doc.text == TEXT
    for tok in doc:
        inside = parse[0] <= tok.idx < parse[1]
        assert bool(tok.dep_) == inside, tok.text
        assert bool(tok.tag_) == inside, tok.text
    assert nlp_module.parsed_span(doc, *parse) is not None
    assert nlp_module.parsed_span(doc, *_sentence(TEXT, 0)) is None
    assert [(e.text, e.label_) for e in doc.ents] == [("Tuesday", "DATE"), ("3pm", "TIME")]
    assert all(ents[0] <= e.start_char and e.end_char <= ents[1] for e in doc.ents)


def test_asked_ranges_get_what_a_sentence_parse_gives(nlp) -> None:
    parse = _sentence(TEXT, 1)
    [doc] = nlp_module.annotate(nlp, [(TEXT, Needs(parse=(parse,)))])
    alone = nlp(TEXT[parse[0]:parse[1]])
    span = doc.char_span(*parse, alignment_mode="expand")
    assert [(t.text, t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i - span.start) for t in span] \
        == [(t.text, t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i) for t in alone]


def test_nothing_asked_is_a_bare_tokenization(nlp) -> None:
    [doc] = nlp_module.annotate(nlp, [(TEXT, Needs())])
    assert doc.text == TEXT
    assert not doc.ents and not any(t.dep_ or t.tag_ for t in doc)


def test_many_turns_in_one_batch_keep_their_own_offsets(nlp) -> None:
    texts = [TEXT, "Book it for Friday.", "", TEXT.upper()]
    requests = [(t, Needs.whole(t)) for t in texts]
    docs = nlp_module.annotate(nlp, requests)
    assert [d.text for d in docs] == texts
    whole = nlp(TEXT)
    assert [(e.start_char, e.label_) for e in docs[0].ents] == \
        [(e.start_char, e.label_) for e in whole.ents]


def test_overlapping_and_out_of_range_requests_are_merged_and_clipped(nlp) -> None:
    end = len(TEXT)
    needs = Needs(parse=((0, 30), (10, 60), (end - 5, end + 50), (40, 40)))
    [doc] = nlp_module.annotate(nlp, [(TEXT, needs)])
    assert doc.text == TEXT
    assert all(t.dep_ for t in doc if t.idx < 60 or t.idx >= end - 5)


def test_stages_split_the_entity_recognizer_from_the_parser(nlp) -> None:
    entity, parse = nlp_module.stages(nlp)
    assert entity == ["ner"]
    assert "parser" in parse and "ner" not in parse
    blank = nlp_module.load(nlp_module.BLANK)
    assert nlp_module.stages(blank) == ([], ["sentencizer"])


@pytest.mark.parametrize("text, role, parsed", [
    # a rule could fire: a person, an entitlement subject, a verb of claiming
    ("I've waived the fee.", "assistant", True),
    ("The refund will be €90.", "assistant", True),
    ("The bank agreed to drop it.", "user", True),
    ("Don't touch src/admin and keep the tests green.", "user", True),  # a coordinator
    ("Which day suits?", "user", True),  # a question: its subject label
    # none could: nothing to parse
    ("The museum opens at nine.", "assistant", False),
    ("Rainy in Paris today.", "user", False),
])
def test_pipeline_asks_to_parse_only_where_a_rule_could_fire(text, role, parsed) -> None:
    with Scratchpad(":memory:") as pad:
        needs = pad.processor.needs(TurnView(thread="t", number=1, role=role, text=text))
    assert bool(needs.parse) == parsed


def test_entities_are_asked_only_where_one_could_be_kept() -> None:
    """Not where no entity would pass its label's test (no currency, calendar or code
    word), nor where a pattern found the value already (its candidate would win)."""
    text = ("The museum opens at nine. It costs three hundred euros. See you next month. "
            "It was sometime in the spring months. Ask for the Q7 model.")
    with Scratchpad(":memory:") as pad:
        needs = pad.processor.needs(TurnView(thread="t", number=1, role="user", text=text))
        found = pad.processor.extract(TurnView(thread="t", number=1, role="user", text=text),
                                      None)
    asked = [text[a:b].strip() for a, b in needs.entities]
    assert asked == ["It was sometime in the spring months.", "Ask for the Q7 model."]
    assert {"three hundred euros", "next month"} <= {c.text for c in found}


def _records(messages: list[dict], whole: bool) -> list[dict]:
    with Scratchpad(":memory:") as pad:
        if whole:  # what an extractor without ``needs`` gets: every turn annotated
            pad.needs = lambda view: Needs.whole(view.text)  # type: ignore[method-assign]
        pad.ingest("t", messages)
        return [r.model_dump(mode="json") for r in pad.records("t")]


def test_selective_annotation_keeps_the_records(espresso_messages) -> None:
    """The parse gates skip only sentences where no clause rule could fire, so every
    commitment and constraint is the same as with every turn fully annotated. A sentence
    annotated on its own may still be read a little differently than with its
    neighbours (a question's label, a rare NER-only value): at most 1 record in 200."""
    data = Path(__file__).with_name("data")
    conversations = [espresso_messages] + [
        json.loads(line)["messages"]
        for name in ("commitments_labelled.jsonl", "values_heldout.jsonl")
        for line in (data / name).read_text().splitlines() if line]
    records = differ = 0
    for messages in conversations:
        selective = {json.dumps(r, sort_keys=True) for r in _records(messages, False)}
        whole = {json.dumps(r, sort_keys=True) for r in _records(messages, True)}
        changed = [json.loads(r) for r in selective ^ whole]
        assert not [r for r in changed if r["kind"] in ("commitment", "constraint")]
        records += len(whole)
        differ += len(changed)
    assert records > 1000
    assert differ <= records // 200, (differ, records)


def test_doc_of_tells_a_turns_doc_from_another(nlp) -> None:
    [doc] = nlp_module.annotate(nlp, [(TEXT, Needs())])
    assert nlp_module.doc_of(doc, TEXT) is doc
    assert nlp_module.doc_of(doc, TEXT + " And more.") is doc  # the parsed prefix of a turn
    assert nlp_module.doc_of(doc, "Something else entirely, of about the same length.") is None
    assert nlp_module.doc_of(doc, TEXT[:20]) is None
    assert nlp_module.doc_of(None, TEXT) is None
    empty = nlp.make_doc("")
    assert nlp_module.doc_of(empty, "") is empty


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["hello", "(" * 70, "A-" * 40, "é" * 66, "x", " ", "  ",
                                 "\n", "\t", " \n ", "9" * 130]), max_size=12).map("".join))
def test_long_runs_become_pieces_and_the_doc_keeps_the_text(nlp, text) -> None:
    doc = nlp_module.make_doc(nlp, text)
    assert doc.text == text
    assert all(len(tok.text) <= nlp_module.LONGEST_WORD for tok in doc if not tok.is_space)


def test_span_at_finds_the_sentence_holding_an_offset() -> None:
    spans = ((0, 10), (12, 20), (25, 30))
    assert span_at(spans, 0) == (0, 10)
    assert span_at(spans, 15) == (12, 20)
    assert span_at(spans, 11) == (11, 11)  # between sentences
    assert span_at(spans, 40) == (40, 40)
    assert span_at((), 3) == (3, 3)


def test_a_query_string_ends_no_sentence_but_a_question_mark_before_a_word_does() -> None:
    text = "Use postgres://app@db:5432/x?sslmode=disable and -tags it. Really?Yes."
    assert [text[a:b] for a, b in sentences(text)] == [
        "Use postgres://app@db:5432/x?sslmode=disable and -tags it.", "Really?", "Yes."]


def test_a_verb_redone_with_re_is_one_word(nlp) -> None:
    """spaCy alone splits "re-credited" and parses "re" as the verb."""
    doc = nlp("I've re-credited the $35 and re-run the tests.")
    assert [t.text for t in doc if t.pos_ == "VERB"] == ["re-credited", "re-run"]
    assert [t.text for t in nlp("a well-known, state-of-the-art fix")][:3] == ["a", "well", "-"]
