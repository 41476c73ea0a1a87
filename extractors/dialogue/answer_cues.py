"""The cue patterns of answer linking (:mod:`extractors.dialogue.answers`): values of
each expected type, withdrawals, failed actions, yes/no replies, negations, picks,
hedges, numbers, replies that ask back or refer back, requests for other options, and
names. Patterns only; how they are applied lives in :mod:`extractors.dialogue.answers`.
"""

from __future__ import annotations

import regex

from extractors.dialogue.question_cues import WH, rule
from extractors.text.guard import Guarded

#: Values of each expected type in an answer (strong evidence).
VALUE_PATTERNS: dict[str, Guarded] = {
    "amount": rule(r"[$€£¥]\s?\d|\b\d[\d,.]{0,15}\s?(?:dollars|euros?|pounds|bucks|usd|eur|gbp|"
                 r"%|percent)\b|\b(?:dollars|bucks|euros|pounds|free\s+of\s+charge)\b|"
                 r"\bfree\b"),
    "datetime": rule(
        r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|"
        r"thur|thurs|fri|sat|sun|today|tomorrow|tonight|yesterday|weekend|noon|midnight|"
        r"morning|afternoon|evening|night|o'clock|january|february|march|april|may|june|july|"
        r"august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|"
        r"nov|dec)\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|"
        r"\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}\b|"
        r"\b(?:half|quarter)\s+(?:past|to)\b|\bnext\s+(?:week|month|year)\b"),
    "identifier": rule(r"\+?\d[\d\s().-]{6,20}\d|\b[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+|"
                     r"\b[A-Z]{1,6}-?\d{3,12}\b|\b\d{5,}\b", regex.VERSION0),
}

#: What a withdrawal may name: "the taxi question", "my earlier question about the wait",
#: "the mktime thing", "checking the passport".
_WHAT = r"(?:the\s+|my\s+|that\s+)?(?:[\p{L}\d'-]+\s+){0,5}?(?:question|thing|bit|part|one)\b"
WITHDRAWAL = rule(
    rf"\bnever\s*mind\b|\bforget\s+(?:it|that|about\s+(?:it|that)|i\s+asked|{_WHAT})|"
    rf"\bscratch\s+(?:that|{_WHAT})|\b(?:ignore|disregard)\s+(?:that|{_WHAT})|"
    r"\bdon't\s+(?:bother|worry\s+about\s+(?:it|that|the|checking)\b)|"
    r"\bdoesn't\s+matter\b|\bno\s+need\s+to\s+(?:check|answer|look)\b"
)
#: A reply that reports a failed action rather than answering ("Sorry, I couldn't book it").
FAILURE = rule(
    r"\b(?:couldn't|could\s+not|can't|cannot|unable\s+to|wasn't\s+able\s+to|was\s+not\s+able\s+"
    r"to|weren't\s+able\s+to|failed\s+to|fail\s+to)\s+(?:\w+\s+){0,2}?(?:book|reserve|schedule|"
    r"buy|purchase|rent|complete|process|place|make|finish|confirm|transfer|send|set|add|get)\b|"
    r"\bsomething\s+went\s+wrong\b|\b(?:booking|reservation|transaction|purchase|transfer)\s+"
    r"(?:failed|was\s+unsuccessful)\b|\bfailed\b|\bno\s+(?:tickets|seats|tables|rooms)\s+"
    r"(?:were\s+|are\s+)?(?:available|left)\b"
)
YES_NO = rule(
    r"^\W*(?:(?:oh|well|um|ah|thanks|thank\s+you|unfortunately|sadly|actually|i'm\s+afraid)"
    r"\W+)?(?:but\s+)?(?:yes|yeah|yep|yup|sure|no|"
    r"nope|nah|ok|okay|correct|right|awesome|excellent|lovely|"
    # taking what was put forward: "I like it", "Please check that for me", "That right."
    r"i\s+(?:like|love)\s+(?:it|that|this|them)|please\s+[\p{L}]+\s+(?:it|that|this|them)|"
    r"that\s+right|"
    r"absolutely|definitely|"
    r"certainly|of\s+course|please\s+do|go\s+ahead|that\s+works|sounds\s+good|fine|not\s+really|"
    r"exactly|indeed|affirmative|negative|i\s+do|i\s+don't|it\s+is|it's\s+not|perfect|great|"
    r"good|(?:that|this|it)(?:'s|\s+is|\s+(?:would|will)\s+be|\s+sounds)\s+(?:good|great|fine|perfect|"
    r"correct|right|ok|okay|nice|lovely|wonderful|awesome|excellent|cool)|sounds\s+(?:great|perfect|fine|ok|good)|cool|alright|all\s+right|"
    r"(?:i'm|i\s+am)\s+(?:good|fine|ok|okay|happy|in)|that\s+(?:works|will\s+do|suits)|"
    r"not\s+(?:(?:right|just)\s+)?now|not\s+(?:yet|today|at\s+(?:the|this)\s+(?:moment|time))|"
    r"works\s+for\s+(?:me|us)|(?:that|this)(?:'s|\s+is)\s+it|sounds\s+(?:\w+\s+)?(?:good|"
    r"great|fine|perfect|wonderful|nice|ok|okay|right)|"
    r"(?:they|it|he|she|we|i|there)"
    r"(?:'s|\s+(?:do|does|did|is|are|was|were|can|will|have|has))(?:n't|\s+not)?)\b"
)
NEGATION = rule(
    r"\b(?:no|not|never|none|neither|nor|can't|cannot|won't|don't|doesn't|isn't|wouldn't|"
    r"rather\s+not|busy|unavailable|impossible|bad|tricky|difficult|awkward|problem)\b|n't\b"
)
#: Words that make an option mention a pick ("Thursday is fine").
AFFIRM = rule(r"\b(?:fine|works?|good|great|ok|okay|perfect|prefer|choose|go\s+(?:with|for)|"
            r"take|book|let's|yes|sure|suits?|best|please|want|like|do|i'll)\b")
HEDGE = rule(r"\b(?:might|maybe|perhaps|possibly|probably|not\s+sure|could\s+work)\b")


#: Numbers, in digits or words: "4.", "Just one for me" answer a "how many".
NUMBER = rule(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
            r"dozen|couple|single|both|all|none|half)\b")
#: A user's question that refers back to what was just asked or proposed ("When did it
#: come out?", "Who directed this movie?"): it asks about that, not about something new.
REFERS_BACK = rule(r"\b(?:it|its|that|this|these|those|they|them|their|there|one|ones)\b")
#: A name inside a sentence (capitalized, not its first word, not "I").
NAMED = rule(r"(?<=[\s,(])(?!I\b)\p{Lu}[\p{L}'&-]*(?:\s+\p{Lu}[\p{L}'&-]*)*", regex.VERSION0)
#: A reply asking for other options turns a proposal down ("What else can I get?",
#: "Anything else you can find?").
ALTERNATIVES = rule(r"\b(?:what|anything|something)\s+else\b|\b(?:other|another|different|"
                    r"more)\s+(?:[\p{L}-]+\s+)?(?:options?|ones?|choices?|alternatives?|"
                    r"results?)\b|"
                    r"\bsomething\s+(?:different|other)\b")
#: A wh-question in a reply asks back; it does not answer ("What times are free?").
ASK_BACK = rule(rf"^\W*(?:(?:and|but|so|ok|okay|well|sorry)\W+)*(?:{WH})\b(?!\s+about\b)")
#: A reply that opens by saying no.
DECLINE = rule(r"^\W*(?:no|nope|nah|not\s+(?:now|yet|today|really))\b")
#: A confirmation tag after a question or read-back: "Is that okay to you?", "Does that
#: work?", "is this right?"
TAG = rule(r"^\W*(?:(?:and|so)\W+)?(?:is|does|would|will|was)\s+(?:that|this|it)\s+"
           r"(?:[\p{L}']+\s+){0,2}?(?:ok|okay|alright|all\s+right|correct|right|fine|good|"
           r"acceptable|work|suit)")


#: A reply that says yes to what was read back to it ("Yes, that's his address",
#: "Correct", "That's the one"), unless it goes on to differ ("Yes, but it's ...").
CONFIRMS = rule(
    r"^\W*(?:(?:oh|ah|well|ok|okay)\W+)?(?:yes|yeah|yep|yup|correct|exactly|indeed|right|"
    r"that(?:['’]s|\s+is)\s+(?:right|correct|it|the\s+one|(?:his|her|my|our|their|the)\s+"
    r"[\p{L}-]+))\b(?![\s,;:.!-]*(?:but|although|though|except|actually|no)\b)")
