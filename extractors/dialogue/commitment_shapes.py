"""Shapes of commitments that name no "I": a third party's promise, an expectation with
a time, a refusal stated as an impossibility, a state announced as done, and a figure
corrected. Data for the rules of :mod:`extractors.dialogue.commitments` and the
corrections of :mod:`extractors.dialogue.commitment_lifecycle`; and what is no commitment
though it reads like one: a lead-in to offers, a confession of an error."""

from __future__ import annotations

import regex

from extractors.text.guard import rx
from extractors.text.lexicon import stem

#: Someone the agent speaks for, as the subject of a clause: a named person or team, a
#: role, "they" ("Dana from billing will call you", "the claims team will review it",
#: "Their engineer will come out").
THIRD_PARTY = rx(
    r"^(?:(?:and|but|so|then|also|plus)\s+)?(?P<who>"
    r"(?:(?:our|the|their|your|his|her|a|an)\s+)?(?:[\w&-]+\s+){0,3}"
    r"(?:team|department|desk|manager|supervisor|engineer|technician|specialist|adjuster|"
    r"courier|colleague|agent|partner|lead|officer|assessor|inspector|admin|staff)s?"
    r"|they|he|she"
    # "The dispensary will ring you", "the Faro branch will give it to you": a place or a
    # service of ours doing something for the user
    r"|(?:[Oo]ur|[Tt]he|[Tt]heir)\s+(?:[\w-]+\s+){0,2}[\w-]+(?=\s+will\s+(?:\w+\s+)?(?:call|ring|text|"
    r"email|phone|contact|message|visit|send|give|get\s+back|reach\s+out|deliver|bring|"
    r"collect|inspect|review|handle|process|confirm|arrange|book|issue|refund|repair|fix|"
    r"replace|install)\b)"
    r"|(?!(?:It|This|That|There|These|Those|What|Which|Everything|Nothing|Something|"
    r"Anything|Here|Your|Yours|My|Our|The|Each|Every|All|Some|Any)\b)"
    r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}(?:\s+(?:from|in|at|on)\s+(?:the\s+|our\s+)?"
    r"[\w-]+(?:\s+[\w-]+){0,2})?"
    # "Dana Okafor, your customer success manager, will phone you": who, then what they are
    r")(?:,\s+(?:your|our|the|a|an|my|his|her|their)\s+[^,;.!?]{2,50},)?"
    r"(?:['’]ll|\s+will|\s+should|\s+is\s+going\s+to)\b(?!\s+(?:be\s+)?(?:able|happy)\b)",
    linear=True)
#: A time the act is expected by or within: what turns an expectation into a promise
#: ("you should see it within 5 days", "the backfill should take about 2 minutes").
EXPECTED_TIME = rx(
    r"\b(?:within|by|before|in\s+(?:about\s+|around\s+)?(?:\d|a\s+few|an?\s+(?:minute|hour|day|"
    r"week))|tomorrow|tonight|today|this\s+(?:morning|afternoon|evening|week)|next\s+\w+|"
    r"(?:about|around|roughly|approximately)\s+\d|same\s+day|straight\s+away|right\s+away|"
    r"\d+\s*(?:minutes?|mins?|hours?|days?|weeks?|working|business))\b",
    regex.IGNORECASE, linear=True)
#: Someone of the agent's side who cannot act, as the subject of a clause: a team, a
#: department, a role or a name ("Finance can't accept that", "the claims team isn't able
#: to reopen it", "HR cannot backdate a change").
THIRD_PARTY_CANNOT = rx(
    r"^(?:(?:and|but|so|unfortunately|sadly|however),?\s+)?(?:"
    r"(?:(?:our|the|their)\s+)?(?:[\w&-]+\s+){0,3}(?:team|department|desk|manager|"
    r"supervisor|engineer|technician|specialist|adjuster|courier|colleague|lead|officer|"
    r"assessor|inspector|admin|staff)s?"
    r"|(?!(?:It|This|That|There|These|Those|What|Which|Everything|Nothing|Something|"
    r"Anything|Here|Your|Yours|My|Our|The|Each|Every|All|Some|Any|I|We|You)\b)"
    r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})"
    r"\s+(?:can(?:['’]?t|not|\s+not)|(?:won['’]t|will\s+not)\s+be\s+able\s+to|"
    r"(?:is|are)(?:n['’]t|\s+not)\s+able\s+to)\s+(?!(?:wait|believe|thank|say|tell)\b)",
    linear=True)
#: A refusal or an impossibility stated without "I" ("that isn't possible", "there is no
#: such fare", "the fare is non-refundable", "the system won't let me raise it", "the late
#: fee has to stay").
IMPOSSIBLE = rx(
    r"\b(?:(?:won['’]t|will\s+not|does\s*n['’]t|does\s+not|can['’]?t|cannot)\s+(?:let|allow)\s+"
    r"(?:me|us)\b|(?:has|have)\s+to\s+stay\b|"
    r"(?:(?:is|are|was)\s*n['’]?o?t|['’]s\s+not)\s+(?:possible|allowed|permitted|an\s+option|"
    # "isn't something I'm able to book", "aren't something we pay compensation for"
    r"something\s+(?:we|I)(?:\s+(?:can|could|(?:am|are)\s+able\s+to|do|offer|pay|cover|"
    r"refund|allow|support|grant)|['’](?:m|re)\s+able\s+to)|"
    # "aren't something Student Financial Services can approve", "isn't one we're able to
    # refund"
    r"something\s+(?:[\w'’-]+\s+){1,4}?(?:can|could|(?:is|are)\s+able\s+to)\s+\w+|"
    r"one\s+(?:we|I)(?:['’](?:re|m)|\s+(?:are|am))\s+able\s+to\s+\w+)|"
    # "Releasing that isn't in my hands", "the scheme does not permit that"
    r"(?:is|are)(?:n['’]t|\s+not)\s+in\s+(?:my|our)\s+hands|"
    r"(?:does|do)(?:\s*n['’]t|\s+not)\s+(?:permit|allow)\s+(?:that|this|it|them)\b|"
    # "Unfortunately, in this case the fee stays", "I'm afraid the extra day stays"
    r"(?:unfortunately|sadly|I['’]m\s+afraid)\b[^.;!?\n]{0,60}?\b(?:stays|stands)\b|"
    r"\b(?:the|that|this)\s+(?:[\w-]+\s+){0,2}?(?:fee|charge|price|rate|fine|penalty|excess|"
    r"day|amount|decision)\s+(?:stays|stands)(?:\s+as\s+it\s+is)?\W*$|"
    # "there is no 6-month version for a second permit"
    r"there(?:\s+is|['’]s)\s+no\s+(?:[\w-]+\s+){0,2}(?:version|option|provision|exception)s?\b|"
    # "Merging is out of my hands", "that's not up to me", "I'd rather not contact her"
    # "the service desk has no rights to change that policy", "it is not within what I'm
    # able to do", "isn't within what I'm allowed to do", "outside what my role allows",
    # "we no longer post them", "support has no way to open them early"
    r"(?:has|have)\s+no\s+(?:power|rights?|authority|discretion|way)\s+to\b|"
    # "I have no way into the CI logs from here", "we have no access to that system"
    r"(?:I|we)\s+(?:have|['’]ve\s+got)\s+no\s+(?:way|access|means)\s+(?:in)?to\b|"
    r"(?:(?:not|(?:is|are|was)n['’]t)\s+within|outside(?:\s+of)?|beyond)\s+"
    r"(?:what\s+(?:I|we|my\s+role|our\s+\w+)|"
    r"my\s+(?:remit|authority|powers?))\b|\bwe\s+no\s+longer\s+(?!need\b)\w+|"
    r"out\s+of\s+my\s+hands|(?:is|['’]s)\s+not\s+up\s+to\s+me|I['’]d\s+rather\s+not\s+\w|"
    r"not\s+possible|impossible|there(?:\s+(?:is|are)|['’]s)\s+no\s+(?:such|way)|"
    r"there(?:\s+is|['’]s)\s+nothing\s+(?:to|we\s+can|I\s+can)|"
    # said of the thing ("the fare is non-refundable on Light"), not a noun's adjective
    # ("proof of the non-refundable costs")
    r"non-refundable(?!\s+(?!(?:on|in|inside|within|under|after|before|once|and|or|but|so|if|"
    r"unless|for|as|at|by|from|per|because|since|though|which|anyway|either)\b)\p{Ll})|"
    r"(?:is|are)(?:n['’]t|\s+not)\s+(?:refundable|transferable|eligible))\b",
    regex.IGNORECASE, linear=True)
#: Words no subject of a done state holds: subordinators, modals and feelings.
_NOT_DONE_SUBJECT = (r"(?:whether|until|once|when|while|if|unless|because|since|that|(?-i:may)|"
                     r"might|can|could|would|should|will|must|glad|happy|hope|hopefully|sure|"
                     r"sorry)\b")
#: Something done, announced without "I": "PR #412 is up", "the correction is done",
#: "Committed as 3e1a9f4 on fix/x".
DONE_STATE = rx(
    r"^(?:(?:and|so|ok(?:ay)?|great|good\s+news|done|all\s+set)\s*[,:—–-]?\s+)?(?:"
    # the subject: a few words, none of them a subordinator, a modal or a feeling -- "until
    # v2.3 is fixed", "Payroll may only pay once it has been approved", "Really glad the
    # leak is fixed" state no act done -- and not "no request" (nothing was done)
    r"(?!no\s)(?:the\s+|your\s+)?(?:(?!" + _NOT_DONE_SUBJECT + r")[\w#.€$£-]+\s+){1,7}?"
    r"(?:is|are|has\s+been|have\s+been)\s+"
    r"(?:now\s+)?(?:done(?!\s+in\s+\d)|up(?!\s+to\b)|live|merged|in\s+place|sorted|fixed|"
    r"applied|approved|issued|"
    r"processed|reset|restored|unlocked|reactivated|held|booked|reserved|"
    r"confirmed|arranged|activated|cancell?ed|sent|set\s+up|switched|changed|extended|"
    r"moved|credited|refunded|waived)\b"
    # a standing arrangement, not an act: "Interviews are held online", "the hold is
    # applied automatically", "Staging is done in 23 minutes", "is up to you"
    r"(?!\s+(?:online|automatically|usually|normally|typically|generally|always|by\s+default)\b)"
    r"|(?:committed|pushed|merged|deployed|published|reverted|tagged|released)\s+(?:as|to|on|in)\b"
    # "Sent to t.wrobel@outlook.ie.", "Emailed to accounts@...": a bare participle report
    r"|(?:sent|emailed|forwarded|posted|mailed)\s+(?:it\s+|them\s+)?to\b"
    # "My supervisor Rafael has approved a goodwill credit": approved on our side
    r"|[^,;]{0,60}?\b(?:has|have|['’]s)\s+(?:now\s+)?approved\b)",
    regex.IGNORECASE, linear=True)
#: A cost we take on, named: "Return shipping is on us", "the padlock is on us" -- not
#: an apology ("this one is on us", "that's on us").
ON_US = rx(r"(?:^|,\s+)(?:(?:and|so|also|plus),?\s+)?(?!(?:this|that|it|which)\b)"
           r"(?:(?:the|your)\s+)?(?!(?:mistake|error|fault|blame)\b)[^\W\d_][\w-]*"
           r"(?:\s+(?!(?:mistake|error|fault|blame)\b)[\w-]+){0,3}?\s+(?:is|are|will\s+be)\s+"
           r"(?:also\s+)?on\s+us\b(?<!\bone\s+(?:is|are)\s+on\s+us)", regex.IGNORECASE,
           linear=True)
#: "<a figure>, not <another>": the second is a number, an amount or a date.
VALUE_NOT = rx(r"(?:[€$£]\s?\d|\d)[^,;]{0,30},?\s+not\s+(?:the\s+)?(?:[€$£~]\s?\d|\d|"
               r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)", regex.IGNORECASE, linear=True)
#: A figure stated in place of another: "the refund is £153.45, not £135.45", "That makes
#: your refund $112.05, not $120.00", "the right price is £82 per person, not £78". The
#: noun says what kind of commitment the figure is (:func:`corrected_figure`).
FIGURE_NOT = rx(r"\b(?P<what>refund|reimbursement|credit|compensation|payout|balance|total|"
                r"deposit|amount|price|fee|rate|cost|charge|fare|invoice|bill|excess|premium|"
                r"quote|upgrade|instal+ment|payment|discount|surcharge|deductible|"
                # "it's £19.00, not £9.50": the figure of what was just said
                r"it|that|this)s?\b(?:\s+(?:for|on|of)\s+[^,;]{1,40}?)?(?:['’]s|\s+(?:"
                r"(?P<will>will\s+be|['’]ll\s+be)|is|are|comes\s+to|(?P<would>would\s+be)))?"
                # the figure, its decimals after a comma too ("€ 52,30, not € 47,50")
                r"\s*(?:[€$£]\s?|(?:USD|EUR|GBP|CHF)\s)?\d(?:[^,;]|,\d){0,30}?,?\s+"
                r"(?P<not>not)\s+(?:the\s+)?(?:[€$£~]\s?|(?:USD|EUR|GBP|CHF)\s)?\d",
                regex.IGNORECASE, linear=True)
#: A currency named by sign or code.
MONEY = rx(r"[€$£]|\b(?:USD|EUR|GBP|CHF|kr|SEK|NOK|DKK|PLN|CAD|AUD)\b", linear=True)
_PAST = rx(r"\b(?:was|were|had|used\s+to)\b", regex.IGNORECASE, linear=True)
#: What the agent charges: a corrected figure of these is the terms offered.
_QUOTED_PRICE = frozenset({"price", "fee", "rate", "cost", "charge", "fare"})


def corrected_figure(text: str) -> str | None:
    """The subtype of a clause that puts one figure in place of another
    (:data:`FIGURE_NOT`): a price or fee is offered (the terms), one that "would be" too;
    a refund or balance that "will be" is promised; one that "is", granted."""
    m = FIGURE_NOT.search(text)
    if m is None or not MONEY.search(m.group()) or _PAST.search(m.group()):
        return None  # "the total is 3 items, not 2"; "the fee in May was €15, not €12"
    if m.group("would") or m.group("what").lower() in _QUOTED_PRICE:
        return "offered"
    return "promised" if m.group("will") else "granted"


def standing_figure(text: str) -> str | None:
    """The words of the figure that stands in a :data:`FIGURE_NOT` clause: "£153.45" of
    "the refund is £153.45, not £135.45"."""
    m = FIGURE_NOT.search(text)
    if m is None:
        return None
    return text[m.end("what"):m.start("not")].strip(" ,").removeprefix("'s").removeprefix(
        "’s").strip()


#: A turn that owns up to a wrong figure.
CORRECTING = rx(r"\b(?:sorry|apolog\w+|correction|correct(?:ed|ing)?|mistake|my\s+bad|"
                r"i\s+was\s+wrong|wrongly|typo|misread|mixed\s+up|should\s+have\s+said|"
                r"actually)\b", regex.IGNORECASE, linear=True)
#: An estimate of a size, not an act: "the trip will be around 23 minutes", "it will be
#: $40" -- a time cue alone does not make it a promise.
MEASURE = rx(r"\b(?:will|should|['’]ll)\s+be\s+(?:just\s+)?(?:around|about|roughly|"
             r"approximately|under|over|less|more|\d|[$€£])", regex.IGNORECASE, linear=True)
#: A cleft that states what the agent can do, has done or cannot do: "What I can do is
#: make it valid for 90 days", "What I have done is put a code on your account", "What I
#: can't do is promise approval by a date".
CLEFT = rx(r"^(?:(?:so|but|and|however|instead),?\s+)?what\s+(?:I|we)(?P<act>\s+can(?:['’]t|not|"
           r"\s+not)?\s+(?:do|offer)|['’]ve\s+done|\s+have\s+done|\s+did)\s+(?:for\s+you\s+)?"
           r"is\b",
           regex.IGNORECASE, linear=True)
#: A lead-in to offers that follow ("I am able to offer the following", "What I can do
#: is one of these", "For your 2 weeks I can propose you two options"): no offer itself.
LEAD_IN = rx(r"(?:\b(?:offer|propose|suggest)(?:\s+(?:you|to\s+you))?|\bthe\s+following|"
             r"\bone\s+of\s+(?:these|those|the\s+following)|\b(?:two|three|four|a\s+few|some|"
             r"several|\d)\s+(?:options?|choices?|alternatives?|ways?)|"
             # "What I can offer instead is this:", "... are as follows"
             r"\b(?:is|are)\s+(?:this|these|as\s+follows))\W*$|"
             # "Here's what I can arrange:", "Here's what I can rebook you on at no extra cost"
             r"^\W*(?:here(?:['’]s|\s+is)|this\s+is)\s+what\s+(?:I|we)\s+(?:can|could)\b"
             r"[^.!?\n]{0,60}$",
             regex.IGNORECASE, linear=True)
#: The agent looking a record up, which grants nothing: "I've got the booking", "I've got
#: Mrs Kowalczyk's record open", "I've pulled up your account".
LOOKUP = rx(r"^(?:(?:ok(?:ay)?|right|great|thanks)\W+)?(?:I|we)(?:['’]ve|\s+have)?\s+(?:now\s+)?"
            r"(?:got|pulled\s+up|brought\s+up|opened|found|located|looked\s+up)\s+"
            r"(?:the|your|(?:Mr|Mrs|Ms|Dr)\.?\s+)?(?:[\w'’-]+['’]s\s+)?(?:[\w-]+\s+){0,2}?"
            r"(?:booking|order|account|record|claim|file|ticket|case|details|reservation|"
            r"policy|profile|history|notes|it)(?:\s+(?:open|up|here|in\s+front\s+of\s+me))?"
            r"(?:\s*[,;:—–-].*)?\W*$", regex.IGNORECASE, linear=True)
#: A sentence owning up to an error: its past acts are the error, not something granted.
CONFESSION = rx(r"\b(?:sorry\s+about\s+that|my\s+(?:bad|mistake|error)|by\s+mistake|"
             r"(?:error|mistake)\s+on\s+my\s+part|"
             r"in\s+error|I\s+was\s+wrong|the\s+wrong\s+\w+|the\s+old\s+(?:price|rate|"
             r"figure|amount|date)|I\s+was\s+thinking\s+of)\b", regex.IGNORECASE, linear=True)
#: A clause that opens with a temporal subordinator sets the time of the main clause
#: ("Before I set it up, I must correct ...", "Once I've processed it, please check the
#: app"): an act done in it is no grant.
FRONTED_TEMPORAL = rx(r"^(?:(?:and|but|so),?\s+)?(?:before|until|till|once|after|when|"
                      r"whenever|while|as\s+soon\s+as)\s+\S", regex.IGNORECASE, linear=True)
#: The user's elliptical promise: "Will do", "ok will do, thanks".
WILL_DO = rx(r"^\W*(?:(?:ok(?:ay)?|sure|yes|yep|thanks)\W+)?will\s+do\b", regex.IGNORECASE,
             linear=True)
#: The user's promise as chat types it: "ill send the photo tonight", "ok, will fill it
#: in tonight", "and will get back to you by Thursday" -- an "I'll" without its
#: apostrophe, or a "will" without its subject, at the head of a clause or after its
#: comma ("im cancelling then, ill move the shoe rack"). ``verb`` is the
#: word after it; a question ("will I need ...?", "will it arrive?") never matches, as a
#: pronoun or an article after "will" is a subject, not an act.
INFORMAL_WILL = rx(r"(?:^|[,;]\s)\W*(?:(?:ok(?:ay)?|sure|yes|yeah|yep|fine|ugh|right|alright|"
                   r"and|so|then)\W+)*(?:ill|will)\s+(?:just\s+|also\s+|then\s+)?"
                   r"(?!(?:i|you|he|she|it|we|they|this|that|these|those|there|the|a|an|my|"
                   r"your|his|her|our|their|someone|somebody|anyone|anybody|not|only|never)\b)"
                   # a bare "will do" is a rule of its own; "ill do the iban thing tonight"
                   # names what
                   r"(?!do\s*(?:[.!,;:]|$))(?P<verb>[a-z]+)\b", regex.IGNORECASE, linear=True)
#: What a user commits to deliver ("I'll send the photo tonight"): verbs of handing over.
#: When an act in the present tense is set for: "I message you here before 8:00", "I
#: send photos tomorrow evening", "I call you Friday".
#: A point in time or a deadline, not a rate or a length ("44,99 a month", "3 days
#: minimum") nor a means ("by post").
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
SET_FOR = rx(r"\b(?:tomorrow|tonight|today|later\s+today|this\s+(?:morning|afternoon|evening|"
             r"week)|next\s+(?:week|month|" + _DAY + r")|first\s+thing|(?:on\s+)?" + _DAY + r"|"
             r"(?:by|before|until)\s+(?:\d|noon|midday|midnight|end\s+of|close|tomorrow|tonight|"
             + _DAY + r"|the\s+\d)|within\s+(?:\d|an?\s|the\s+(?:hour|day))|in\s+(?:\d+|a\s+few|"
             r"an?)\s+(?:minutes?|mins?|hours?|days?)|at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?)\b",
             regex.IGNORECASE, linear=True)
#: Money on its way back to the user, said in the present: "the CHF 12 reservation fee
#: goes back to you", "that €25.20 goes back there", "£135.45 is coming back to you".
BACK_TO_YOU = rx(r"\b(?:goes|go|comes|come|is\s+coming|['’]s\s+coming|are\s+coming|"
                 r"is\s+going|gets?\s+paid|is\s+paid)\s+back\s+(?:to\s+(?:you|your)\b|"
                 r"there\b|in(?:to)?\s+your\b|onto\s+your\b)", regex.IGNORECASE, linear=True)
#: Acts whose future negation reassures: "you won't be charged the exit fee", "your 5
#: April payment won't be taken", "you won't lose your place in line".
SPARED = frozenset(stem(w) for w in """
charge bill take debit change touch cancel affect collect deduct lose pay suspend
disconnect close delete remove penalise penalize
""".split())
USER_DELIVERY = frozenset(stem(w) for w in """
send email mail submit upload forward bring return post ship drop provide share sign fill
pay transfer attach scan call text
""".split())
#: Who a user may be quoting when they claim the agent's side agreed to something: a
#: person or a part of the business ("your colleague", "the guy on the phone", "the tech
#: last time", "they"). A hospital, a seller or a tracking page is not the agent's side.
AGENT_SIDE = frozenset(stem(w) for w in """
colleague agent rep representative advisor adviser assistant guy man woman lady person
someone somebody staff tech technician engineer operator consultant specialist supervisor
manager team support department desk branch office store shop company they
""".split())
#: The reported content has the agent's side act: "... said you'd refund everything".
_YOU_ACT = rx(r"\b(?:you|your)\b", regex.IGNORECASE, linear=True)
_WORD = rx(r"[\w'’-]+", linear=True)


def agent_side(subject: str, text: str, verb_text: str) -> bool:
    """True when a third-person claim ("X said/promised ...") reports the agent's side:
    what was said has "you" act ("the guy last time said you keep a backup code"), or the
    speaker is one of :data:`AGENT_SIDE` or a name, and not the user's own ("my manager
    told me HR would ..."). "The seller said", "the hospital said": not the agent's side."""
    said = text.find(verb_text) if verb_text else -1
    if said < 0:
        return False
    if _YOU_ACT.search(text[said + len(verb_text):]):
        return True
    words = [m.group() for m in _WORD.finditer(text[:said])]
    at = next((i for i in range(len(words) - 1, -1, -1)
               if stem(words[i].lower()) == subject), None)
    if at is None or "my" in (w.lower() for w in words[max(0, at - 2):at]):
        return False
    named = words[at][:1].isupper() and subject not in {"he", "she", "it", "i"}
    return subject in AGENT_SIDE or named
