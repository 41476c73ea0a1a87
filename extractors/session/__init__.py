"""Session rules for support tickets and coding sessions: the opening request, plans,
attempts that failed, stated causes, edited files, third-party follow-ups, severity
levels, products and reviewers -- the facts the shipped domain schemas are filled from."""
