"""The words the commitment rules read: verbs that commit to nothing, verbs that concede
or take back, nouns of what the customer pays. Data for
:mod:`extractors.dialogue.commitments`."""

from __future__ import annotations

from extractors.text.lexicon import stem

#: Verbs whose first-person use is talk about the conversation, not a commitment.
NON_COMMITTING = frozenset("""
be have see look check find note notice understand know think believe guess hope suppose
read hear say tell ask mention explain apologize apologise help assist try want need like
love appreciate thank seem feel wonder recommend suggest afraid sorry let show go verify
review investigate confirm do get_it pull reach mean realize realise agree work reproduce
test run debug trace identify locate inspect diagnose analyse analyze search spot discover
quote misquote miscount misread misreport mistype misspell transpose confuse listen
undercount overcount underestimate overestimate miscalculate misjudge type speak
""".split())
#: Verbs that concede something of value to the other party.
CONCESSION = frozenset("""
waive refund cover credit reimburse compensate discount reduce lower drop remove cancel
exempt upgrade extend approve authorise authorize honour honor comp pay absorb match
grant give offer include replace reverse void forgive accept
""".split())
#: Verbs that take back what was given or set up ("release the hold", "drop the discount").
UNDO = frozenset("""
release cancel undo revoke withdraw drop remove reverse void rescind retract scrap delete
lift unbook
""".split())
#: Nouns for what the customer pays: removing one is a concession, not an undo.
CHARGE = frozenset("""
fee charge cost surcharge deduction penalty fine price premium tax interest excess
""".split())
#: Verbs a user reports the agent used when they claim an earlier agreement.
CLAIM_VERBS = frozenset("agree promise say offer confirm tell guarantee assure approve "
                        "accept waive grant".split())
#: Verbs of receiving, for "you'll get/receive X".
RECEIPT = frozenset("get receive see have".split())
#: What a user's "I'll ..." does not commit to ("I'll be in", "I'll take it", "I'll wait").
USER_NOT_COMMITTING = frozenset(stem(w) for w in """
be have take need want like let guess wait see go keep stay look try hope think mind
leave arrive travel fly come visit depart drive
""".split())
