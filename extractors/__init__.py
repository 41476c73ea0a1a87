"""Extractors: deterministic (regex) and NER-based candidate finders behind one
protocol (:class:`extractors.base.Extractor`) and one registry.

Importing this package registers every shipped extractor and resolver.
"""

from __future__ import annotations

import importlib

from extractors.base import (
    Candidate,
    Change,
    Extractor,
    Resolver,
    TurnView,
    available,
    create,
    register,
    register_resolver,
    resolvers,
)

#: Modules whose import registers the shipped extractors and resolvers.
_SHIPPED = (
    "extractors.amounts",
    "extractors.identifiers",
    "extractors.datetimes",
    "extractors.tool_fields",
    "extractors.entities",
    "extractors.commitments",
    "extractors.commitment_lifecycle",
    "extractors.constraints",
    "extractors.questions",
    "extractors.answers",
    "extractors.releases",
    "extractors.levels",
    "extractors.products",
    "extractors.people",
    "extractors.edits",
    "extractors.attempts",
    "extractors.causes",
    "extractors.requests",
    "extractors.followups",
    "extractors.plans",
    "extractors.approaches",
)
for _module in _SHIPPED:
    importlib.import_module(_module)

__all__ = [
    "Candidate",
    "Change",
    "Extractor",
    "Resolver",
    "TurnView",
    "available",
    "create",
    "register",
    "register_resolver",
    "resolvers",
]
