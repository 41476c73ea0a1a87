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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from extractors.base import Candidate, Change, Extractor, Needs, Resolver, TurnView

__all__ = ["Candidate", "Change", "Extractor", "Needs", "Resolver", "TurnView"]


def __getattr__(name: str) -> Any:
    """The protocols, imported at first use: importing the package for its errors (as the
    command line does) then builds no pydantic model."""
    if name in __all__:
        from extractors import base

        value = getattr(base, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'extractors' has no attribute {name!r}")
