"""The vocabulary of questions: cue patterns and word lists, as data.

What :mod:`extractors.dialogue.questions` reads a sentence with, and what
:mod:`extractors.dialogue.answers` reads a reply with: interrogative openers
(:data:`OPENERS`), the frames that make a sentence something other than a question
(:data:`COURTESY`, :data:`CONFIRMATION`, :data:`ACTION_REQUEST`, :data:`INTENT`,
:data:`DEFERRAL`, ...), proposal frames (:data:`PROPOSAL`), the expected answer types
(:data:`EXPECTS`), the mask of quoted and code text and the :data:`STOPWORDS` that say
nothing of what a question is about. Patterns only; how they are applied lives in
:mod:`extractors.dialogue.questions`.
"""

from __future__ import annotations

import regex

from extractors.records import QuestionSubtype
from extractors.text.guard import Guarded, rx
from extractors.text.lexicon import function_words

#: The flags of every cue pattern: case-insensitive, version 0.
FLAGS = regex.IGNORECASE | regex.VERSION0


def rule(pattern: str, flags: int = FLAGS) -> Guarded:
    """Compile ``pattern`` with the module flags (case-insensitive, version 0)."""
    return rx(pattern, flags)


WH = r"what|what's|whats|which|who|who's|whom|whose|where|where's|when|when's|why|how|how's"
#: Auxiliaries that open a yes/no question ("is it", "can you", "didn't they").
AUX = (
    r"is|are|was|were|am|do|does|did|can|could|will|would|should|shall|may|might|must|"
    r"have|has|had|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|can't|couldn't|"
    r"won't|wouldn't|shouldn't|haven't|hasn't"
)
_SUBJ = (
    r"you|i|it|they|we|he|she|there|this|that|these|those|the|a|an|my|your|their|its|"
    r"our|his|her|any|anything|anyone|someone|something|[\p{L}]+'s"
)
_INFO_NOUN = (
    r"address|phone(?:\s+number)?|(?:contact|reference|order|account|booking|tracking|"
    r"confirmation)\s+number|number|e-?mail|price|cost|fare|fee|total|balance|rent|time|"
    r"date|location|name|details?|info(?:rmation)?|rating|schedule|website|hours"
)
#: Verbs that make "Can you <verb> ..." a request for action rather than information.
_ACTION_VERBS = (
    r"find|search|look\s+for|book|reserve|buy|purchase|play|schedule|make|add|cancel|"
    r"transfer|rent|arrange|set|help|order|call|hold|process|start|stop|remove|put|"
    r"get\s+(?:me|us)\s+(?:a|an|some|tickets?|one)|do\s+(?:that|it|this|so)|go\s+ahead|assist|"
    r"provide\s+(?:me\s+|us\s+)?(?:with\s+)?(?:some\s+)?(?:help|assistance)|"
    # the verbs of support and coding work: asking for them asks for an action
    r"open|close|unlock|lock|reset|restart|reboot|switch|change|update|upgrade|fix|refactor|"
    r"rename|upload|download|install|uninstall|merge|deploy|push|revert|run|rerun|review|"
    r"approve|delete|move|escalate|refund|waive|replace|ship|apply|enable|disable|re-?send|"
    r"take\s+a\s+look|have\s+a\s+look|look\s+(?:at|into)|check(?=\s+(?:the|my|our|your|this|that|it)\b)"
)

_ASK = r"(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+|also\s+|just\s+)*)?"
_OBJ = r"(?:the|your|their|its|his|her|my|our|a|an)\s+(?:[\p{L}'-]+\s+){0,2}"

#: Interrogative clause openers, named and scored: (name, pattern, subtype, score).
#: Openers in ANYWHERE may start mid-sentence; the others need a clause start.
OPENERS: tuple[tuple[str, Guarded, str, float], ...] = (
    ("wh_main", rule(rf"(?:(?:at|from|to|for|in|on|by|with)\s+)?(?:{WH})\b(?!\s+(?:i|we)\b)"
                   r"(?:\s+(?:about|else|many|much|long|often|far|soon|early|late|big|old|[\p{L}\d-]+)){0,3}"
                   r"\s+(?:" + AUX + r"|'s|'re)\b"), QuestionSubtype.WH, 0.9),
    ("wh_contracted", rule(r"(?:what|where|when|who|how|which)(?:'s|'re|'d|s)\b"),
     QuestionSubtype.WH, 0.9),
    ("how_many", rule(r"(?:(?:for|in|at)\s+)?how\s+(?:many|much|long|far|soon|early|late|"
                    r"about)\b"), QuestionSubtype.WH, 0.85),
    ("aux_subject", rule(rf"(?!(?:have|had)\s+(?:a|an|the|fun)\b)(?:{AUX})\s+(?:not\s+)?"
                         rf"(?:{_SUBJ})\b"),
     QuestionSubtype.YESNO, 0.85),
    ("tell_me", rule(_ASK + r"(?:tell|show|give|send|text|email)\s+(?:me|us)\b(?!\s+a\b)"),
     QuestionSubtype.REQUEST, 0.9),
    ("let_me_know", rule(r"(?:please\s+)?let\s+(?:let\s+)?(?:me|us)\s+(?:you\s+)?know\b"),
     QuestionSubtype.REQUEST, 0.85),
    ("find_out", rule(r"(?<!\b(?:me|to|i'll|will|i'd|i)\s)" + _ASK + r"(?:find\s+out|check|"
                    r"see|ask|confirm|verify|learn)\s+(?:if|whether|what|which|when|where|who|"
                    r"how|why)\b"), QuestionSubtype.REQUEST, 0.88),
    ("say_info", rule(r"(?:please\s+)(?:say|state|provide|specify|share|indicate|mention|"
                    r"enter)\b"), QuestionSubtype.REQUEST, 0.75),
    ("get_info", rule(_ASK + r"(?:get|give|send|provide|share|confirm|check|verify|find|look\s+"
                    rf"up)\s+(?:me\s+|us\s+)?{_OBJ}(?:{_INFO_NOUN})\b"),
     QuestionSubtype.REQUEST, 0.87),
    ("want_info", rule(r"(?:i|we)(?:'d|'ll|\s+would|\s+will)?\s+(?:also\s+)?(?:like|want|need)"
                     r"\s+(?:to\s+(?:know|get|have|hear)\s+)?(?:the|your|their|its|his|her)"
                     rf"\s+(?:[\p{{L}}'-]+\s+){{0,2}}(?:{_INFO_NOUN})\b"),
     QuestionSubtype.REQUEST, 0.75),
    ("want_to_know", rule(r"(?:i|we)(?:'d|'ll|\s+would|\s+will)?\s+(?:also\s+)?(?:like|want|"
                        r"need|have|wish)\s+to\s+(?:know|find\s+out)\b|"
                        r"i\s+(?:was\s+)?wonder(?:ing)?\b|i'm\s+wondering\b|any\s+idea\b"),
     QuestionSubtype.REQUEST, 0.8),
    # without a subject it is a statement that dropped one: "Is located in 1016 Main St."
    ("aux_initial", rule(r"^(?:is|are|was|were|does|did|can|could|will|would|should|shall|"
                       r"isn't|aren't|doesn't|didn't|can't|won't)\s+(?!(?:\p{L}{2,}ed|available|"
                       r"open|near|in|at|on|from|also|now|currently|still|just|be)\b)"
                       r"\p{L}+\s+\p{L}"),
     QuestionSubtype.YESNO, 0.7),
    ("wh_fragment", rule(r"^(?:(?:at|from|to|for|in|on|by|with)\s+)?(?:what|which|when|where|"
                       r"who|whom)\b(?!\s+(?:i|we)\b)(?=[^,\n]{0,60}(?:,\s*please\W*)?$)"),
     QuestionSubtype.WH, 0.6),
    ("info_please", rule(r"^(?:your\s+|the\s+)?(?:[\p{L}'-]+\s+){0,3}(?:" + _INFO_NOUN +
                       r"|destination|origin|city|area)\b[^,\n]{0,20}\bplease"
                       r"(?:\W+(?:sir|madam|thanks))?\W*$"),
     QuestionSubtype.REQUEST, 0.6),
)
#: Openers that may start anywhere in a sentence (strong lexical cues).
ANYWHERE = frozenset({"tell_me", "let_me_know", "want_to_know", "want_info", "find_out"})
#: Courtesy closings and offers of further help: never questions.
COURTESY = rule(
    r"^\W*what'?s\s+up\W*$|"  # a greeting, not a request for information
    # the agent offering more help: "Do you need more help?", "let me know what else I can
    # do", "Let me know!"
    r"\b(?:need|want|like)\s+(?:any\s+)?(?:more|further|other)\s+help\b|"
    r"\bwhat\s+else\s+(?:i|we)\s+can\b|\blet\s+(?:me|us)\s+know\s*[!.]*\s*$|"
    r"(?<!\bor\s)(?<!\bor\sjust\s)\b(?:anything|something|anyone|anybody)\s+else\b|"
    r"\belse\s+(?:can|could|may|shall)\s+(?:i|we)\b|\b(?:any|some)\s+(?:other|more|further)"
    r"\s+(?:help|service|assistance|questions?)\b|"
    # greetings: "how are you?", "how's it going?", "how have you been?"
    r"^\W*(?:(?:hi|hello|hey|morning|thanks|thank\s+you)\b[^?.!]{0,30}?\W+)?(?:how\s+are\s+"
    r"(?:you|things)|how(?:'s|\s+is)\s+(?:it\s+going|your\s+day)|how\s+have\s+you\s+been)\b|"
    r"\bhow\s+(?:can|may|could|else\s+can)\s+"
    r"(?:i|we)\s+(?:help|assist)|\bwhat\s+can\s+(?:i|we)\s+do\s+for\s+you|\b(?:help|assist)"
    r"\s+(?:you\s+)?with\s+anything|\b(?:help|assist)\s+you\s+(?:out\s+)?(?:any|some)\s*more\b|\bhave\s+(?:a|an)\s+(?:[\p{L}-]+\s+){0,2}(?:day|one|"
    r"evening|night|time|weekend|trip|flight|stay|meal)\b|\banything\s+(?:more|further)\b|\bis\s+that\s+(?:all|"
    r"everything)\b|\blet\s+(?:me|us)\s+know\s+if\s+(?:you\s+(?:need|have|want)|there(?:'s|"
    r"\s+is)|i\s+can)|\bfeel\s+free\s+to\b"
)
#: Subtype of a proposal the asker makes rather than a request for information.
SUGGESTION = QuestionSubtype.SUGGESTION
#: Proposal frames, at the start of a question clause or after a comma: "How about the
#: 10:40 bus?", "What do you think of X?", "How does that sound?", "What if you left at
#: 9?", "Is X what you're looking for?", "Would Tuesday work for you?" and offers ("Would
#: you like to book it?", "May I suggest X?"). "What about the price?" and "Do you want to
#: know your balance?" ask for information and are not.
PROPOSAL = rule(
    r"(?:^|(?<=[,;:]\s{0,2}))(?:(?:so|and|then|well|or|ok|okay|sure|alright|also)\W+)?(?:"
    r"(?:how|what)\s+about\s+(?!(?:you|yourself|them|him|her|us|me)\b)"
    r"(?!(?:the|your|their|its|his|her|a|an)?\s*(?:[\p{L}'-]+\s+){0,2}(?:" + _INFO_NOUN +
    r")\s*(?:[?.!,]|$|(?:of|for|at|on|there|please)\b))|"
    r"what\s+do\s+you\s+think\s+(?:of|about)\b|"
    # asking for an opinion of a thing put forward: "What's your opinion on Adorn by
    # Miguel?", "How do you feel about X?" ("How would you like to pay?" asks for a fact)
    r"what(?:'s|\s+is|\s+are)\s+your\s+(?:opinion|thoughts?|take|view)\s+(?:on|of|about)\b|"
    r"how\s+(?:do|would|did)\s+you\s+(?:feel\s+about|like)\b"
    r"(?!\s+(?:to|your|it|them|me|us|that|this|my|our|the\s+(?:payment|room|car|seat))\b)|"
    r"how\s+(?:does|do|would|did)\s+(?:[^\s?.!]+\s+){1,15}?sound\b|"
    r"what\s+if\s+(?:you|we|i)\b|"
    r"(?:would|do|did)\s+you\s+(?:like|want|care|prefer)\s+(?:(?:me|us)\s+)?"
    r"(?:to\s+(?!(?:know|tell|say|let\s+me\s+know)\b)|(?!to\b))|"
    r"(?:would|are)\s+you\s+(?:be\s+)?interested\s+in\b|(?:want|wanna)\s+to\b|"
    r"(?:may|can|could|might)\s+(?:i|we)\s+(?:suggest|recommend|offer)\b|"
    r"(?:is|are|would|will|does|do)\s+(?:[^\s?.!]+\s+){1,12}?(?:what\s+you(?:'re|\s+are)\s+"
    r"(?:looking\s+for|after)|(?:work|suit|interest)\s+(?:for\s+)?you|meet\s+your\s+"
    r"(?:needs?|requirements?))\b)"
)
#: A question about a detail of something just put forward: "What's the address?", "How
#: much is it?"
DETAIL = rule(r"\bthe\s+(?:" + _INFO_NOUN + r")\b|\bhow\s+much\b")
#: "Please confirm: ..." style read-backs.
CONFIRMATION = rule(r"(?:^\W*|\b(?:please|kindly)\s+)(?:confirm|verify)\b(?!\s+(?:if|whether))|"
                  r"\bconfirm\s+(?:the\s+following|these|those|(?:all\s+)?(?:the\s+)?details)\b")
#: "Can you book it?": a request for action, not for information.
ACTION_REQUEST = rule(
    rf"^(?:please\s+)?(?:can|could|would|will)\s+(?:you|u|someone|somebody|anyone)\s+"
    rf"(?:please\s+|also\s+|just\s+)*"
    rf"(?:{_ACTION_VERBS})\b(?!\s+(?:me\s+|us\s+|out\b)?{_OBJ}(?:{_INFO_NOUN})\b)"
)
#: A statement of intent or a suggestion to act, even with a "?" ("I'm looking for a
#: movie?", "I would like to find an event?", "let's make a visit?"): not a question.
INTENT = rule(
    r"^(?:(?:hi|hello|hey|there|so|and|ok|okay|now|then|great|perfect|thanks)\W+)*(?:"
    r"(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:also\s+)?(?:looking|searching|trying|planning|"
    r"hoping)\b|(?:i|we)(?:'d|\s+would)\s+(?:also\s+)?(?:like|love)\s+to\s+(?!know\b|ask\b)|"
    r"(?:i|we)\s+(?:also\s+)?(?:want|need|wish)\s+to\s+(?!know\b|ask\b)|let's\b|let\s+us\b)"
)
#: A relative clause read as a question ("..., which is a place of worship."): a
#: relative pronoun and its verb after a comma or starting a lower-case sentence,
#: without a "?" ("which city to look in" is still asked).
RELATIVE = rule(r"(?:which|who)\s+(?:also\s+)?(?:is|are|was|were|has|have|had|will|would|can|"
              r"could|may|might|offers?|features?|includes?)\b", regex.VERSION0)
#: One-word echoes that are not questions ("Oh, yeah?", "Really?").
INTERJECTION = rule(r"^\W*(?:oh\W+)?(?:yeah|yes|really|right|ok|okay|huh|sorry|pardon|what|"
                  r"hm+|eh|no|(?:thanks|thank\s+you)(?:\s+(?:so|very)\s+much)?"
                  r"(?:\s+for\s+[^?.!]{1,60})?|i\s+appreciate\s+(?:it|that|this))\W*$")
#: Without a question mark, not a question from here on: a wish ("May your day be a good
#: one."), an order ("Great, do that.") or a condition put by inversion ("..., should you
#: need it for your records.", "Should anything change, call us.").
WISH_OR_ORDER = rule(r"(?:may\s+(?:you|your)\b|do\s+(?:that|it|this|so)\W*$|"
                     r"should\s+(?:you|there|it|we|they|anyone|anybody|anything|this|that|"
                     r"the|your)\s+\p{L})")
#: A statement going on after "and" ("It is a Standard car, and is an Altima.").
GOES_ON_STATING = rule(r"(?:is|are|was|were)\s+(?:a|an|the|not|also|very|so)\b")
QUESTION_MARK = rule(r"\?[\s\"')\]]*[.!]?\s*$", regex.VERSION0)
#: Where an opener may start: the text before it ends with one of these (or is empty).
CLAUSE_LEAD = rule(
    r"(?:[,;:(\-\u2013\u2014]|\b(?:and|but|also|so|then|now|or|ok|okay|well|great|sure|yes|"
    r"yeah|no|alright|please|first|next|thanks|perfect|cool|fine|good|hi|hello|hey|"
    r"actually|btw|oh|and\s+also))\s*$"
)

#: The expected answer type, by keyword (first match wins, after choices).
EXPECTS: tuple[tuple[str, Guarded], ...] = (
    # "Please confirm the details", "see if I got everything right": a request to say yes
    # or no, whatever the details hold ("confirm the address" asks for the address)
    ("yesno", rule(r"\bconfirm\b(?!\s+(?:(?:the|your|their|my|his|her|its)\s+)?"
                   r"(?:[\p{L}'-]+\s+)?(?:address|number|e-?mail|name|phone|location|spelling|"
                   r"time|date|day|amount|price|total)\b)|"
                   r"\b(?:tell\s+(?:me|us)|let\s+(?:me|us)\s+know|see|check)\s+(?:if|whether)\b")),
    ("amount", rule(r"\bhow\s+much\b|\b(?:price|prices|cost|costs|fare|fee|fees|total|balance|"
                  r"rent|amount|charge|charges|pay|refund|budget|rate)\b")),
    ("datetime", rule(r"\bwhen\b|\b(?:what|which)\s+(?:time|date|day|days|hour|month)\b|"
                    r"\bhow\s+(?:early|late|soon)\b|\b(?:date|dates|time|times|day|slot|"
                    r"deadline|schedule)\b")),
    ("identifier", rule(r"\b(?:phone|mobile|e-?mail|reference|ref|tracking|postcode|zip|"
                      r"iban|code|id)\b|\b(?:contact|order|account|booking|confirmation|"
                      r"reference|ticket|case)\s+(?:number|no|#)")),
)

DEFERRAL = rule(
    r"\blet\s+me\s+(?:just\s+)?(?:check\b(?!\s+(?:in|out)\b)|see|look|find\s+out|double[-\s]check|confirm|ask|think|"
    r"get\s+back)\b|\bone\s+sec(?:ond)?\b|\b(?:just\s+)?a\s+(?:sec|second|moment|minute|min)\b|"
    r"\bgive\s+me\s+(?:a|one)\s+(?:sec|second|moment|minute|min|bit)\b|\bhold\s+on\b|"
    r"\bbear\s+with\s+me\b|\b(?:i'll|i\s+will|we'll|we\s+will)\s+(?:have\s+to\s+|need\s+to\s+)?"
    r"(?:get\s+back\s+to\s+you|check\b(?!\s+(?:in|out)\b)|find\s+out|let\s+you\s+know|"
    r"ask|confirm|think\s+about)|"
    r"\b(?:i|we)\s+(?:need|have)\s+to\s+(?:check|ask|think|confirm|find\s+out|talk|"
    r"speak|look)\b(?!\s+(?:in|out|into)\b)|\bneed\s+to\s+check\s+with\b|\bnot\s+sure\s+yet\b|\bdon't\s+know\s+yet\b|"
    r"\bget\s+back\s+to\s+you\b|"
    # the replier will find out or provide it later: "I'll have to ask my husband",
    # "let me look into it", "I'll dig out the receipt", "not sure offhand"
    r"\b(?:i'll|i\s+will|we'll|we\s+will)\s+(?:have\s+to\s+|need\s+to\s+|just\s+)?(?:ask|"
    r"look\s+(?:into|it\s+up)|dig\s+(?:out|up)|decide|talk\s+(?:it\s+over|to)|come\s+back\s+to|"
    r"double[-\s]check|send\s+(?:it|them|that|those)\s+(?:later|tonight|tomorrow|when|once))\b|"
    r"\blet\s+me\s+(?:look\s+into|think\s+about|dig\s+out|ask)\b|"
    r"\bnot\s+sure\s+(?:offhand|off\s+the\s+top\s+of\s+my\s+head)\b|\bnot\s+decided\s+yet\b|"
    r"\bdon't\s+have\s+(?:it|them|that)\s+(?:on|with|to)\s+(?:me|hand)\b"
)
WORD = rule(r"[\p{L}\p{N}][\p{L}\p{N}'’:]*", regex.VERSION0)
MASK = rule(r"(?ms)^[ \t]*(```|~~~).*?(?:^[ \t]*\1[ \t]*$|\Z)|`[^`\n]{0,500}`|^[ \t]*>[^\n]*|"
           # a quoted question is someone else's words: "...: \"Can you send it back?\""
           r"\"[^\"\n]{1,300}\?\"|“[^”\n]{1,300}\?”",
           regex.VERSION0)
ALT_SPLIT = rule(r",?\s+or\s+(?!not\b|else\b|so\b)")
#: The first half of an alternative question, before the "or" that leads to the question
#: found: "And is 7.2.4 actually out yet, or | do we have to wait for it?" is one question.
ALT_FIRST = rule(rf"(?:^|(?<=^(?:and|but|so|also|ok(?:ay)?),?\s))(?:{AUX})\s"
                 r"(?:[^?.!;]|(?<=\d)\.(?=\d)){3,160}?,?\s+or\s+$")
LIST_SPLIT = rule(r",\s+(?:or\s+)?|\s+or\s+")

#: Words that say nothing of what a question is about.
STOPWORDS = function_words(
    """a an the and or but if so to of in on at for by with from into onto about as is are was
    were be been being am do does did can could will would should shall may might must have has
    had i me my we us our you your yours he him his she her it its they them their this that
    these those there here what whats which who whom whose where when why how any some anything
    something not no yes please tell let know like want need get give send check see find out
    just also too very really then now ok okay thanks thank sure well one more much many
    it's that's what's i'm i'd i'll you're you'd you'll we're they're there's don't doesn't
    can't won't isn't go going would've kind sort rather instead again still all up oh hi um
    ah eh ya great good fine perfect cool nice awesome alright right correct hello hey bye
    sounds works wonderful excellent lovely""")


#: A question that reads a value back to check it, not one that offers something: "is it
#: j.hallberg@northwind-group.com?", "is your postcode D02 X285?", "was that order
#: A-77215?", "just to confirm, the card ending 4417?", "… 4417, is that right?". "Would
#: you like me to hold the 14:00 slot?" is an offer: a yes takes the offer, it does not
#: make the slot the user's.
READ_BACK = rule(
    r"^\W*(?:(?:and|so|also|ok|okay)\W+)?(?:(?:just\s+)?to\s+(?:confirm|check|be\s+sure|"
    r"make\s+sure)\b|(?:can|could)\s+you\s+confirm\b|(?:is|was|are)\s+(?:it|that|this|these|"
    r"your|the|his|her|their|its)\b|did\s+you\s+mean\b)|\b(?:is|was)\s+(?:that|this)\s+"
    r"(?:right|correct)\W*$")
