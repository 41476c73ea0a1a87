"""Dialogue-act rules: commitments, constraints and questions found in a turn's clauses,
and the resolvers that move them through their lifecycle when later turns accept,
supersede, revoke, answer, defer, withdraw or release them."""
