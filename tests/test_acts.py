"""The sentence act model: it ships with the package, loads without a download, is rebuilt
identically from the same data and seed, and only adds where the rules are silent."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from extractors.base import Candidate, TurnView
from extractors.dialogue.act_clauses import SCORE, VETO_CONSTRAINT, ActClauses
from extractors.dialogue.constraints import ConstraintRules
from extractors.merge import merge
from extractors.records import Kind
from extractors.trained import acts
from extractors.trained.acts import ActScorer, normalize
from extractors.trained.train import train
from extractors.values.amounts import RegexAmounts
from scratchpad.extraction import TurnProcessor


def test_the_model_reads_shapes_not_figures() -> None:
    assert normalize("Refund of €1,240 by 3 May") == "refund of €9,999 by 9 may"
    # and who says it: a token no sentence contains
    assert normalize("I'll send it", "user") == "zzuser i'll send it"
    assert normalize("I'll send it", "assistant") == "zzagent i'll send it"


def test_the_shipped_model_loads_from_the_package() -> None:
    scorer = ActScorer.shipped()
    assert scorer is not None
    ask, grant = scorer.scores(["Can I have your account number?",
                                "I've waived the late fee for this month."], "assistant")
    assert ask["ASK"] > 0.5 > ask["GRANT"]
    assert grant["GRANT"] > 0.5 > grant["ASK"]


class Counting:
    """A pipeline that records what it is asked to read, then reads it with ``nlp``."""

    def __init__(self, nlp) -> None:
        self.nlp, self.read = nlp, []

    def pipe(self, texts):
        self.read.extend(texts)
        return self.nlp.pipe(texts)


def test_a_sentence_is_scored_once_and_scores_the_same_again() -> None:
    loaded = acts.load()
    assert loaded is not None
    counting = Counting(loaded)
    scorer = ActScorer(counting)  # type: ignore[arg-type]
    first = scorer.scores(["Don't call me before 9.", "Thanks!"], "user")
    again = scorer.scores(["Thanks!", "Don't call me before 8."], "user")
    assert counting.read == ["zzuser don't call me before 9.", "zzuser thanks!"]
    assert again == [first[1], first[0]]  # digits read as 9: the same sentence to the model


def test_without_a_model_the_rules_run_alone(tmp_path: Path) -> None:
    assert acts.load.__wrapped__(tmp_path) is None


@pytest.mark.slow
def test_training_is_reproducible(tmp_path: Path) -> None:
    examples = [("i'll send the label today.", {"PROMISE": 1.0, "ASK": 0.0}),
                ("can you send me the order number?", {"PROMISE": 0.0, "ASK": 1.0}),
                ("you will get the refund in 9 days.", {"PROMISE": 1.0}),
                ("what is your postcode?", {"ASK": 1.0})] * 5
    model = Path("textcat_multilabel") / "model"
    for arch in ("bow", "ensemble"):
        train(examples, tmp_path / arch / "a", epochs=2, length=2 ** 10, arch=arch)
        train(examples, tmp_path / arch / "b", epochs=2, length=2 ** 10, arch=arch)
        assert filecmp.cmp(tmp_path / arch / "a" / model, tmp_path / arch / "b" / model,
                           shallow=False), arch


class Fixed:
    """A scorer that gives every sentence the same scores."""

    def __init__(self, **scores: float) -> None:
        self.given = {label: scores.get(label, 0.0) for label in acts.LABELS}

    def scores(self, sentences: list[str], role: str | None = None) -> list[dict[str, float]]:
        return [dict(self.given) for _ in sentences]


def view(text: str, role: str = "assistant", calls_tools: bool = False) -> TurnView:
    return TurnView(thread="t", number=2, role=role, text=text, calls_tools=calls_tools)


def test_confident_sentences_become_candidates_below_the_rules() -> None:
    clauses = ActClauses(scorer=Fixed(PROMISE=0.9))  # type: ignore[arg-type]
    found = clauses.extract(view("Dana from billing will call you tomorrow. Anything else?"))
    assert [(c.kind, c.subtype, c.text) for c in found] == [
        (Kind.COMMITMENT, "promised", "Dana from billing will call you tomorrow.")]
    rule = Candidate(kind=Kind.COMMITMENT, subtype="offered", start=0, end=9, text="Dana from",
                     score=0.7, extractor="commitments.rules.v1")
    (kept,) = merge([*found, rule])  # on the same span the rule wins
    assert (kept.subtype, kept.text, kept.extractor) == ("offered", "Dana from", rule.extractor)
    assert found[0].score == SCORE < rule.score


@pytest.mark.parametrize(("text", "actor"), [
    ("The courier will ask for you at reception.", "The courier"),
    ("Our authentication team will inspect the headphones when they arrive.",
     "Our authentication team"),
    ("She'll check with the hospital after the operation.", "She"),
    ("We'll review it after three months of readings.", "assistant"),
    ("You'll only hear from us about the repair.", "assistant"),
    ("While I'm in there I'll add a case for 31 January.", "assistant"),
])
def test_a_promise_for_someone_else_records_who(text: str, actor: str) -> None:
    (found,) = ActClauses(scorer=Fixed(PROMISE=0.9)).extract(view(text))  # type: ignore[arg-type]
    assert (found.subtype, found.attrs["actor"]) == ("promised", actor)


def test_no_candidates_from_questions_quotes_narration_or_tool_output() -> None:
    clauses = ActClauses(scorer=Fixed(OFFER=0.95, CONSTRAINT=0.95))  # type: ignore[arg-type]
    assert clauses.extract(view("Shall I book it for you?")) == []
    assert clauses.extract(view('"I will refund €5,000."')) == []
    assert clauses.extract(view("I'm opening an incident now.", calls_tools=True)) == []
    assert clauses.extract(view("I can refund it.", role="tool")) == []
    user = clauses.extract(view("Not by phone, please.", role="user"))
    assert [(c.kind, c.subtype) for c in user] == [(Kind.CONSTRAINT, "preference")]
    rule = clauses.extract(view("Don't restart it during business hours.", role="user"))
    assert [(c.kind, c.subtype) for c in rule] == [(Kind.CONSTRAINT, "prohibition")]


def test_a_message_that_calls_tools_still_promises_what_waits_for_later() -> None:
    clauses = ActClauses(scorer=Fixed(PROMISE=0.95))  # type: ignore[arg-type]
    for narration in ("I'll pull up your account and run the new address through.",
                      "Let me run the tests.", "Starting the loop and the workspace check:"):
        assert clauses.extract(view(narration, calls_tools=True)) == [], narration
    for promise in ("If you paste the failing step's output, I'll go through it.",
                    "Her temporary password will be texted to you at 08:00 on Monday."):
        (found,) = clauses.extract(view(promise, calls_tools=True))
        assert (found.subtype, found.text) == ("promised", promise)
    grants = ActClauses(scorer=Fixed(GRANT=0.95))  # type: ignore[arg-type]
    assert grants.extract(view("The hold is released.", calls_tools=True)) == []
    offers = ActClauses(scorer=Fixed(OFFER=0.95))  # type: ignore[arg-type]
    assert offers.extract(view("The courier can do Thursday 14:00-18:00 or Monday.",
                               calls_tools=True)) == []


def test_the_model_vetoes_only_rule_constraints_it_scores_as_none() -> None:
    text = "We need a search box on the settings page. Also, a coffee."
    rule = Candidate.of(text, 0, 42, kind=Kind.CONSTRAINT, subtype="requirement", score=0.8,
                        extractor="constraints.rules.v1")
    value = Candidate.of(text, 51, 57, kind=Kind.IDENTIFIER, subtype="word", score=0.9,
                         extractor="ids.regex.v1")
    promise = Candidate.of(text, 0, 42, kind=Kind.COMMITMENT, subtype="promised", score=0.8,
                           extractor="commitments.rules.v1")
    together = [rule, value, promise]
    sure_not = ActClauses(scorer=Fixed(CONSTRAINT=VETO_CONSTRAINT / 2))  # type: ignore[arg-type]
    assert sure_not.review(view(text, role="user"), together) == [value, promise]
    # not sure enough, an agent's turn, or no model at all: every candidate stands
    unsure = ActClauses(scorer=Fixed(CONSTRAINT=VETO_CONSTRAINT))  # type: ignore[arg-type]
    assert unsure.review(view(text, role="user"), together) == together
    assert sure_not.review(view(text), together) == together
    assert ActClauses(scorer=None).review(view(text, role="user"), together) == together


def test_the_pipeline_runs_the_review_after_every_extractor() -> None:
    """The rule finds the constraint, the model (here, sure it is none) vetoes it; a
    value in the same sentence stays."""
    processor = TurnProcessor([ConstraintRules(), RegexAmounts(),
                               ActClauses(scorer=Fixed(CONSTRAINT=0.0))], [])  # type: ignore[arg-type]
    turn = view("Don't charge more than €40 for it.", role="user")
    (doc,) = processor.annotate([turn])
    assert [c.kind for c in processor.extract(turn, doc)] == [Kind.AMOUNT]
    kept = TurnProcessor([ConstraintRules(), RegexAmounts(),
                          ActClauses(scorer=Fixed(CONSTRAINT=0.9))], [])  # type: ignore[arg-type]
    assert sorted(c.kind.value for c in kept.extract(turn, doc)) == ["amount", "constraint"]


def test_the_model_ships_in_the_wheel() -> None:
    """The model is package data: a wheel without it would run the rules alone."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["extractors"]
    assert "trained/acts_model/**/*" in patterns
    assert (acts.MODEL_DIR / "config.cfg").is_file()
    assert acts.MODEL_DIR.is_relative_to(root / "extractors")


def test_a_rule_stated_as_one_is_not_vetoed() -> None:
    """An item the user headed as rules, or a setting written as one, stands whatever the
    model scores its sentence."""
    text = "Ground rules:\n- AWS_PROFILE=acme-staging-admin, region eu-west-1"
    stated = Candidate.of(text, 16, len(text), kind=Kind.CONSTRAINT, subtype="requirement",
                          score=0.6, extractor="constraints.rules.v1",
                          attrs={"rule": "listed"})
    other = stated.model_copy(update={"attrs": {"rule": "i_need"}})
    sure_not = ActClauses(scorer=Fixed(CONSTRAINT=VETO_CONSTRAINT / 2))  # type: ignore[arg-type]
    assert sure_not.review(view(text, role="user"), [stated, other]) == [stated]
