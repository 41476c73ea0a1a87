"""The text toolkit every rule reads through: sentences and clauses, words and stems,
guarded regexes, non-overlapping spans, prefilter gates, the one spaCy pass, and the
terms that tie two texts together. It knows nothing of kinds or subtypes; nothing here
proposes a pin."""
