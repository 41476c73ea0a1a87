"""Extractors: deterministic (regex) and NER-based candidate finders behind one
protocol (:class:`extractors.base.Extractor`) and one registry
(:class:`extractors.registry.Registry`).

The package is laid out by role, and imports run one way, bottom to top:

* :mod:`extractors.records`, :mod:`extractors.errors` -- the pin vocabulary and the errors
  every layer shares;
* :mod:`extractors.text` -- the text toolkit: sentences, words, guarded regexes, spans,
  prefilters, the spaCy pass, clauses;
* :mod:`extractors.base` -- the extractor and resolver protocols, :mod:`extractors.merge`;
* :mod:`extractors.values` -- amounts, identifiers, dates/times, tool fields, entities;
* :mod:`extractors.dialogue` and :mod:`extractors.session` -- dialogue acts
  (commitments, constraints, questions and their lifecycles) and the facts of support and
  coding sessions (requests, attempts, causes, edits, ...);
* :mod:`extractors.registry` -- which of them a pad runs.

Importing this package loads none of the rules; :class:`Registry` does.
"""

from __future__ import annotations

from extractors.base import Candidate, Change, Extractor, Needs, Resolver, TurnView

__all__ = ["Candidate", "Change", "Extractor", "Needs", "Resolver", "TurnView"]
