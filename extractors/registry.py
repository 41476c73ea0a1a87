"""The registry: which extractors, resolvers and user identifier patterns one
:class:`scratchpad.Scratchpad` runs.

A registry belongs to whoever made it: each ``Scratchpad`` works on its own copy, so
adding an extractor or a pattern for one database never changes another. Nothing
registers itself on import; the shipped extractors and resolvers are listed here, and
other distributions add theirs through the ``scratchpad.extractors`` entry-point group::

    registry = Registry.default()          # shipped + entry points
    registry.add(TicketIds)                # a class with ``name``, ``needs_doc``, ``extract``
    registry.load_patterns("patterns.toml")
    pad = Scratchpad("s.db", registry=registry)

Resolvers run in the order their ``after`` declarations give (a resolver runs after
every one it names), ties broken by name, so the order never depends on how they were
added. A name is registered once: a second extractor or resolver of the same name is an
error, not a silent replacement.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from extractors.base import Extractor, Resolver
from extractors.dialogue.act_clauses import ActClauses
from extractors.dialogue.answers import AnswerLinker
from extractors.dialogue.commitment_lifecycle import CommitmentLifecycle
from extractors.dialogue.commitments import CommitmentRules
from extractors.dialogue.constraint_lifecycle import ConstraintLifecycle
from extractors.dialogue.constraints import ConstraintRules
from extractors.dialogue.questions import RuleQuestions
from extractors.dialogue.releases import IdentifierReleases
from extractors.errors import DuplicateNameError, PatternError, UnknownExtractorError
from extractors.session.approaches import FailedApproaches
from extractors.session.attempts import Attempts
from extractors.session.causes import Causes
from extractors.session.edits import Edits
from extractors.session.followups import FollowUps
from extractors.session.levels import Levels
from extractors.session.people import People
from extractors.session.plans import Plans
from extractors.session.products import Products
from extractors.session.requests import Requests
from extractors.values.amounts import RegexAmounts
from extractors.values.datetimes import RegexDatetimes
from extractors.values.entities import SpacyEntities
from extractors.values.id_patterns import PATTERNS, IdPattern, build_pattern, read_patterns
from extractors.values.identifiers import RegexIdentifiers
from extractors.values.tool_fields import ToolFields
from extractors.values.validators import Validator

#: Entry-point group through which other distributions add extractors.
ENTRY_POINT_GROUP = "scratchpad.extractors"

ExtractorFactory = Callable[..., Extractor]
ResolverFactory = Callable[[], Resolver]

#: Every shipped extractor, by role: values, dialogue acts, session facts.
SHIPPED_EXTRACTORS: tuple[ExtractorFactory, ...] = (
    RegexAmounts, RegexIdentifiers, RegexDatetimes, ToolFields, SpacyEntities,
    CommitmentRules, ConstraintRules, ActClauses, RuleQuestions,
    Levels, Products, People, Edits, Attempts, Causes, Requests, FollowUps, Plans,
)
#: Every shipped lifecycle resolver (their order comes from their ``after``).
SHIPPED_RESOLVERS: tuple[ResolverFactory, ...] = (
    FailedApproaches, CommitmentLifecycle, ConstraintLifecycle, IdentifierReleases,
    AnswerLinker,
)


class Registry:
    """Extractor and resolver factories by name, plus user identifier patterns."""

    def __init__(self) -> None:
        self._extractors: dict[str, ExtractorFactory] = {}
        self._resolvers: dict[str, ResolverFactory] = {}
        self._after: dict[str, tuple[str, ...]] = {}
        self._patterns: dict[str, IdPattern] = {}

    # -- construction -------------------------------------------------------------------

    @classmethod
    def shipped(cls) -> Registry:
        """A registry of the shipped extractors and resolvers only."""
        registry = cls()
        for factory in SHIPPED_EXTRACTORS:
            registry.add(factory)
        for resolver in SHIPPED_RESOLVERS:
            registry.add_resolver(resolver)
        return registry

    @classmethod
    def default(cls) -> Registry:
        """The shipped extractors and resolvers plus those of installed distributions
        (entry-point group ``scratchpad.extractors``)."""
        registry = cls.shipped()
        for name, factory in _entry_point_factories():
            if name not in registry._extractors:
                registry.add(factory, name=name)
        return registry

    def copy(self) -> Registry:
        """An independent copy: what is added to it stays out of this one."""
        other = Registry()
        other._extractors = dict(self._extractors)
        other._resolvers = dict(self._resolvers)
        other._after = dict(self._after)
        other._patterns = dict(self._patterns)
        return other

    # -- extractors ---------------------------------------------------------------------

    def add(self, factory: ExtractorFactory, *, name: str | None = None) -> None:
        """Add an extractor class (or zero-argument factory) under ``name`` (default: its
        ``name`` attribute). Raises :class:`DuplicateNameError` if the name is taken."""
        key = name or _name_of(factory)
        if key in self._extractors and self._extractors[key] is not factory:
            raise DuplicateNameError("extractor", key)
        self._extractors[key] = factory

    def register(self, name: str | None = None) -> Callable[[type], type]:
        """Decorator form of :meth:`add`."""

        def decorator(factory: type) -> type:
            self.add(factory, name=name)
            return factory

        return decorator

    def available(self) -> list[str]:
        """The names of every extractor, sorted."""
        return sorted(self._extractors)

    def create(self, names: Iterable[str] | None = None) -> list[Extractor]:
        """Instantiate the named extractors (default: all, by name), in the given order.
        Extractors that take user patterns (``uses_patterns``) get this registry's."""
        out = []
        for name in self.available() if names is None else names:
            factory = self._extractors.get(name)
            if factory is None:
                raise UnknownExtractorError(name, self.available())
            if getattr(factory, "uses_patterns", False):
                out.append(factory(user_patterns=self.patterns))
            else:
                out.append(factory())
        return out

    # -- resolvers ----------------------------------------------------------------------

    def add_resolver(self, factory: ResolverFactory, *, name: str | None = None,
                     after: Sequence[str] | None = None) -> None:
        """Add a lifecycle resolver. ``after``: names of resolvers it must run after
        (default: its ``after`` attribute). Raises :class:`DuplicateNameError` if the
        name is taken."""
        key = name or _name_of(factory)
        if key in self._resolvers and self._resolvers[key] is not factory:
            raise DuplicateNameError("resolver", key)
        self._resolvers[key] = factory
        self._after[key] = tuple(after if after is not None
                                 else getattr(factory, "after", ()))

    def resolver_order(self) -> list[str]:
        """Resolver names in run order: each after those it names (when present), ties
        by name. A cycle is an error naming its resolvers."""
        pending = {name: {a for a in self._after[name] if a in self._resolvers}
                   for name in self._resolvers}
        order: list[str] = []
        while pending:
            ready = sorted(name for name, needs in pending.items() if not needs)
            if not ready:
                raise ValueError(f"resolvers wait for each other: {', '.join(sorted(pending))}")
            first = ready[0]
            order.append(first)
            del pending[first]
            for needs in pending.values():
                needs.discard(first)
        return order

    def resolvers(self) -> list[Resolver]:
        """Instantiate every resolver, in :meth:`resolver_order`."""
        return [self._resolvers[name]() for name in self.resolver_order()]

    # -- user identifier patterns ---------------------------------------------------------

    @property
    def patterns(self) -> tuple[IdPattern, ...]:
        """The user identifier patterns, in the order they were added."""
        return tuple(self._patterns.values())

    def add_pattern(self, name: str, pattern: str, *, subtype: str = "reference",
                    score: float = 0.8, context: Sequence[str] = (),
                    validator: Validator | str | None = None, ignore_case: bool = False,
                    replace: bool = False) -> IdPattern:
        """Add a user identifier pattern (see ``docs/patterns.md``) and return it.

        ``pattern`` is a ``regex``-module regular expression; a named group ``id`` makes
        that group the span. ``context``: words, one of which must appear in the few words
        before the match (same sentence). ``validator``: a predicate on the matched text,
        or the name of a shipped one (``iban``, ``luhn``, ... see ``docs/patterns.md``).
        ``replace``: overwrite a user pattern of the same name instead of raising.
        """
        built = build_pattern(name, pattern, subtype=subtype, score=score, context=context,
                              validator=validator, ignore_case=ignore_case)
        self._check_pattern_name(name, replace=replace, source=None)
        self._patterns[name] = built
        return built

    def load_patterns(self, path: str | os.PathLike[str]) -> list[IdPattern]:
        """Add every ``[[pattern]]`` of a TOML file; return them in file order. Loading a
        file again replaces its patterns (same names). Nothing is added when any pattern
        of the file is rejected (:class:`PatternError` names the file, pattern, problem)."""
        loaded = read_patterns(path)
        for pat in loaded:
            self._check_pattern_name(pat.name, replace=True, source=os.fspath(path))
        for pat in loaded:
            self._patterns[pat.name] = pat
        return loaded

    def remove_pattern(self, name: str) -> None:
        """Remove a user pattern (no error if there is none of that name)."""
        self._patterns.pop(name, None)

    def _check_pattern_name(self, name: str, *, replace: bool, source: str | None) -> None:
        if any(p.name == name for p in PATTERNS):
            raise PatternError("name clashes with a shipped pattern; choose another",
                               name=name, source=source)
        if name in self._patterns and not replace:
            raise PatternError("already registered (pass replace=True to overwrite)",
                               name=name, source=source)


def _name_of(factory: Any) -> str:
    name = getattr(factory, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"{factory!r} has no 'name'; pass name=")
    return name


@lru_cache(maxsize=1)
def _entry_point_factories() -> tuple[tuple[str, ExtractorFactory], ...]:
    """The extractors installed distributions declare, loaded once per process."""
    return tuple((ep.name, ep.load()) for ep in entry_points(group=ENTRY_POINT_GROUP))
