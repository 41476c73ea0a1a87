"""Value extractors: amounts, identifiers, dates/times, tool-output fields and named
entities -- spans a person would copy rather than retype. Mostly data (named, gated,
scored patterns) plus a small class each; they never read another turn."""
