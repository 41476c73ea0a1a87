"""Properties of every value extractor on arbitrary text: no exception, verbatim spans."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractors.base import TurnView
from extractors.values.amounts import RegexAmounts
from extractors.values.datetimes import RegexDatetimes
from extractors.values.identifiers import RegexIdentifiers

EXTRACTORS = [RegexAmounts(), RegexIdentifiers(), RegexDatetimes()]

#: Fragments that exercise the patterns: digits, separators, currency, units, words.
PIECES = st.sampled_from([
    "0", "1", "12", "1,240", "1.240,00", "€", "$", "£", "EUR", "USD", "%", " percent", ":",
    "-", "–", "/", ".", ",", " ", "\n", "#", "+", "(", ")", "@", "~", "\\", "A-", "HLD-",
    "pm", " am", "March ", "the ", "11th", " of ", "Thursday", "tomorrow", " at ", "half past ",
    "quarter to ", " in the afternoon", " dollars", " bucks", "one hundred and ", "order ",
    "phone ", "+353 ", "87 412 9930", "http://", "www.", "src/", ".py", "\u00a0", "\u202f",
    "\u200b", "é", "٣", "𝟙", "\ufeff", '{"hold_id": "', '"}', "within ", " working days",
])
TEXTS = st.one_of(
    st.text(max_size=300),
    st.lists(PIECES, max_size=80).map("".join),
    st.builds(lambda n, sep: sep.join(["9"] * n), st.integers(1, 400),
              st.sampled_from(["", ",", ".", " ", "-", ":", "/"])),
)


def check(text: str) -> None:
    turn = TurnView(thread="t", number=1, role="user", text=text)
    for extractor in EXTRACTORS:
        for cand in extractor.extract(turn):
            assert 0 <= cand.start <= cand.end <= len(text)
            assert text[cand.start:cand.end] == cand.text
            assert cand.extractor == extractor.name


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_arbitrary_text_is_safe_and_verbatim(text: str) -> None:
    check(text)


@pytest.mark.parametrize("text", [
    "9" * 20_000, "1," * 10_000, "1." * 10_000, "a-" * 10_000, "/a" * 10_000,
    "+1 " * 5_000, "March " * 5_000, "@" * 5_000 + "a.b", "x" * 50_000,
    "one hundred and " * 2_000 + "dollars",
])
def test_long_runs_return(text: str) -> None:
    check(text)


def test_deterministic() -> None:
    text = "Order A-77215: €930 refund on Thursday 3 December, 14:00-18:00; call +353 87 412 9930."
    turn = TurnView(thread="t", number=1, role="user", text=text)
    for extractor in EXTRACTORS:
        assert extractor.extract(turn) == extractor.extract(turn)


def test_registered() -> None:
    from extractors.registry import Registry

    names = set(Registry.shipped().available())
    assert {"amounts.regex.v1", "identifiers.regex.v1", "datetimes.regex.v1"} <= names


def test_entities_degrade_without_a_parse() -> None:
    import spacy

    from extractors.values.entities import SpacyEntities

    turn = TurnView(thread="t", number=1, role="user", text="Pay $20 on Friday at 5pm.")
    assert SpacyEntities().extract(turn, None) == []
    assert SpacyEntities().extract(turn, spacy.blank("en")(turn.text)) == []


def test_entities_are_verbatim_and_filtered(nlp) -> None:
    from extractors.values.entities import SpacyEntities

    text = "It costs about twenty dollars, rises 5 percent on Friday at 5pm; 1150 Main Street."
    turn = TurnView(thread="t", number=1, role="user", text=text)
    got = SpacyEntities().extract(turn, nlp(text))
    assert got, "the model should tag at least one entity here"
    for cand in got:
        assert text[cand.start:cand.end] == cand.text
        assert cand.score < 0.5
        assert "1150" not in cand.text


def _entities(nlp, text: str) -> list[tuple[str, str, str]]:
    from extractors.values.entities import SpacyEntities

    turn = TurnView(thread="t", number=1, role="user", text=text)
    return [(c.kind.value, c.subtype, c.text) for c in SpacyEntities().extract(turn, nlp(text))]


def test_entities_catch_number_words_the_model_calls_cardinal(nlp) -> None:
    # en_core_web_sm labels this CARDINAL, not MONEY; the currency word makes it money
    assert ("amount", "money", "two hundred and fifty dollars") in _entities(
        nlp, "We can refund two hundred and fifty dollars within a couple of weeks.")


def test_entities_keep_calendar_periods_not_bare_parts_of_day(nlp) -> None:
    got = _entities(nlp, "It costs three hundred euros and I need it by the end of the month.")
    assert ("datetime", "date", "the end of the month") in got
    got = _entities(nlp, "I work in the evening, so I'll look at it then.")
    assert not [g for g in got if g[0] == "datetime"]


def test_name_entities_are_identifiers_only_when_code_like(nlp) -> None:
    got = _entities(nlp, "The new Sage Barista Express from Breville arrives, Maria Lopez said.")
    assert not [g for g in got if g[0] == "identifier"]
    from extractors.values.entities import _CODE

    assert _CODE.search("KX-2231B") and _CODE.search("EU261")
    assert not _CODE.search("Breville") and not _CODE.search("Maria Lopez")
    assert not _CODE.search("2231")  # a number alone is not a code
