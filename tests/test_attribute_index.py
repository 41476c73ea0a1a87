"""The attribute ruler's matches found by lookup (:mod:`extractors.text.attribute_index`)
are the ruler's own: on the shipped model over real turns, and on a ruler holding every
pattern shape the index takes; a ruler it cannot index runs as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from spacy.lang.en import English
from spacy.pipeline import AttributeRuler

from extractors.text import nlp as nlp_module
from extractors.text.attribute_index import AttributeIndex
from scratchpad.messages import read_corpus

#: Turns that reach the shipped ruler's rarer patterns: two-token lemmas ("gonna",
#: "y'all", "let's"), regex ones ("nothin'"), spaces, contractions.
DEV = Path(__file__).parent / "data" / "sgd_dev.jsonl"
RARE = ["I'm gonna do it, ain't I? Let's go, c'mon, we gotta try.",
        "Y'all said nothin' about it.  \n\t  Ok?", "", "   ", "Ain't nobody gonna stop us"]


def _parsed(nlp, texts: list[str]):
    """Docs with the tags and parse the ruler reads, before the ruler."""
    return list(nlp.pipe(texts, disable=["attribute_ruler", "lemmatizer", "ner"]))


def test_the_shipped_rulers_matches_are_found_by_lookup(nlp) -> None:
    ruler = nlp.get_pipe("attribute_ruler")
    index = AttributeIndex.of(ruler)
    assert index is not None
    rows = read_corpus(DEV)[:150]
    texts = [m["content"] or "" for row in rows for m in row["messages"]] + RARE
    docs = _parsed(nlp, texts)
    assert sum(len(ruler.match(d)) for d in docs) > 5_000
    for doc in docs:
        assert index.matches(doc) == ruler.match(doc), doc.text


def test_annotate_runs_the_index_and_writes_what_the_ruler_writes(nlp, monkeypatch) -> None:
    assert isinstance(nlp_module.component(nlp, "attribute_ruler"), AttributeIndex)
    text = RARE[0] + " " + RARE[1]
    [ours] = nlp_module.annotate(nlp, [(text, nlp_module.Needs.whole(text))])
    monkeypatch.setattr(nlp_module, "component", lambda nlp, name: nlp.get_pipe(name))
    [theirs] = nlp_module.annotate(nlp, [(text, nlp_module.Needs.whole(text))])
    assert [(t.pos_, t.lemma_, str(t.morph)) for t in ours] == \
        [(t.pos_, t.lemma_, str(t.morph)) for t in theirs]


def _ruler(patterns: list[dict]) -> tuple[English, AttributeRuler]:
    nlp = English()
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add_patterns(patterns)
    return nlp, ruler  # pyright: ignore[reportReturnType]


EVERY_SHAPE = [
    {"patterns": [[{"LOWER": "refund"}]], "attrs": {"LEMMA": "refund!"}},
    {"patterns": [[{"ORTH": "Refund"}], [{"TEXT": "REFUND"}]], "attrs": {"NORM": "rf"}},
    {"patterns": [[{"LOWER": {"IN": ["fee", "fees"]}}]], "attrs": {"LEMMA": "fee"}},
    {"patterns": [[{"LOWER": {"NOT_IN": ["the", "a"]}, "IS_SPACE": False},
                   {"LOWER": "fee"}]], "attrs": {"LEMMA": "before-fee"}, "index": 0},
    {"patterns": [[{"LOWER": {"REGEX": r"^\d+$"}}]], "attrs": {"LEMMA": "NUM"}},
    {"patterns": [[{"LOWER": "waive"}, {"LOWER": "the"}, {"LOWER": "fee"}]],
     "attrs": {"LEMMA": "waived-it"}, "index": -1},
    {"patterns": [[{"IS_SPACE": True}]], "attrs": {"LEMMA": "_space_"}},
    {"patterns": [[{"LOWER": "refund"}]], "attrs": {"LEMMA": "later-wins"}},
]
TEXTS = ["Refund the fee, or waive the fee: 40 fees.", "REFUND  refund 7 a fee", "",
         "waive the the fee"]


def test_every_pattern_shape_matches_as_the_ruler_does() -> None:
    nlp, ruler = _ruler(EVERY_SHAPE)
    index = AttributeIndex.of(ruler)
    assert index is not None
    for text in TEXTS:
        doc = nlp.make_doc(text)
        assert index.matches(doc) == ruler.match(doc), text
        ours, theirs = index(nlp.make_doc(text)), ruler(nlp.make_doc(text))
        assert [(t.lemma_, t.norm_) for t in ours] == [(t.lemma_, t.norm_) for t in theirs]
    doc = index(nlp.make_doc("refund a big fee and waive the fee"))
    assert [t.lemma_ for t in doc] == ["later-wins", "", "before-fee", "fee", "", "", "",
                                       "waived-it"]


@pytest.mark.parametrize("pattern", [
    [{"LOWER": "fee", "OP": "+"}],  # an operator
    [{"LENGTH": {">=": 3}}],  # another predicate and attribute
    [{"_": {"flag": True}}],  # an extension attribute
    [{"LOWER": {"IN": ["fee", 3]}}],  # a value that is not a string
])
def test_a_ruler_beyond_the_index_runs_as_it_is(pattern) -> None:
    nlp, ruler = _ruler([{"patterns": [pattern], "attrs": {"LEMMA": "x"}}])
    assert AttributeIndex.of(ruler) is None
    assert nlp_module.component(nlp, "attribute_ruler") is ruler
