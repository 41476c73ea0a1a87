"""The registry: shipped names, one owner per registry, duplicates refused, resolver order."""

from __future__ import annotations

from typing import ClassVar

import pytest

from extractors import Candidate, TurnView
from extractors.errors import DuplicateNameError, UnknownExtractorError
from extractors.records import Kind
from extractors.registry import Registry
from scratchpad import Scratchpad

SHIPPED_EXTRACTORS = {
    "amounts.regex.v1", "identifiers.regex.v1", "datetimes.regex.v1", "toolfields.json.v1",
    "entities.spacy.v1", "commitments.rules.v1", "constraints.rules.v1", "questions.rules.v1",
    "levels.regex.v1", "products.regex.v1", "people.regex.v1", "edits.regex.v1",
    "attempts.regex.v1", "causes.regex.v1", "requests.regex.v1", "followups.regex.v1",
    "plans.regex.v1", "acts.textcat.v1",
}


class Shouts:
    name: ClassVar[str] = "shouts.regex.v1"
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: object = None) -> list[Candidate]:
        at = turn.text.find("URGENT")
        if at < 0:
            return []
        return [Candidate.of(turn.text, at, at + 6, kind=Kind.IDENTIFIER, subtype="level",
                             score=0.9, extractor=self.name)]


def resolver(name: str, after: tuple[str, ...] = ()) -> type:
    return type(name, (), {"name": name, "after": after, "kinds": frozenset({Kind.QUESTION}),
                           "resolve": lambda self, *a: []})


def test_shipped_names_are_unchanged() -> None:
    registry = Registry.shipped()
    assert set(registry.available()) == SHIPPED_EXTRACTORS
    assert registry.resolver_order() == [
        "approaches.failed.v1", "commitments.lifecycle.v1", "constraints.lifecycle.v1",
        "identifiers.releases.v1", "questions.answers.v1"]


def test_an_extractor_added_to_one_registry_runs_only_in_its_pads() -> None:
    mine = Registry.default()
    mine.add(Shouts)
    message = [{"role": "user", "content": "URGENT: the site is down."}]
    with Scratchpad(":memory:", registry=mine) as pad:
        pad.ingest("t", message)
        assert "shouts.regex.v1" in pad.extractor_names
        assert [r.text for r in pad.records("t", kind="identifier")] == ["URGENT"]
    with Scratchpad(":memory:") as pad:
        assert "shouts.regex.v1" not in pad.extractor_names
    # the pad copied the registry: adding to it later changes no pad made before
    assert "shouts.regex.v1" not in Registry.default().available()


def test_duplicate_names_are_refused_for_extractors_and_resolvers() -> None:
    registry = Registry.shipped()
    clash = type("Clash", (Shouts,), {"name": "amounts.regex.v1"})
    with pytest.raises(DuplicateNameError, match="'amounts.regex.v1' is already registered"):
        registry.add(clash)
    with pytest.raises(DuplicateNameError, match="'questions.answers.v1'"):
        registry.add_resolver(resolver("questions.answers.v1"))
    registry.add(Shouts)
    registry.add(Shouts)  # the same class again is not a clash


def test_resolvers_run_in_declared_order_not_name_order() -> None:
    registry = Registry()
    registry.add_resolver(resolver("a.first.v1", after=("z.last.v1",)))
    registry.add_resolver(resolver("z.last.v1"))
    registry.add_resolver(resolver("m.middle.v1", after=("a.first.v1", "not.there.v1")))
    assert registry.resolver_order() == ["z.last.v1", "a.first.v1", "m.middle.v1"]
    assert [r.name for r in registry.resolvers()] == registry.resolver_order()
    # ``after=`` at registration overrides the class's own declaration
    registry.add_resolver(resolver("b.v1", after=()), after=("m.middle.v1",))
    assert registry.resolver_order() == ["z.last.v1", "a.first.v1", "m.middle.v1", "b.v1"]


def test_a_resolver_cycle_is_an_error_naming_them() -> None:
    registry = Registry()
    registry.add_resolver(resolver("a.v1", after=("b.v1",)))
    registry.add_resolver(resolver("b.v1", after=("a.v1",)))
    with pytest.raises(ValueError, match="a.v1, b.v1"):
        registry.resolver_order()


def test_unknown_extractor_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownExtractorError, match="Available: acts.textcat.v1, amounts.regex.v1"):
        Registry.shipped().create(["amount.regex.v1"])
