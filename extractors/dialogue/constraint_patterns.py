"""The shapes of a user constraint, as data: each a named, scored regex that marks a
clause as a requirement, a prohibition or a preference (read by
:mod:`extractors.dialogue.constraints`, first match wins)."""

from __future__ import annotations

from typing import NamedTuple

import regex

from extractors.records import ConstraintSubtype
from extractors.text.guard import Guarded, rx

_I = regex.IGNORECASE


class Pattern(NamedTuple):
    """A named, scored regex that marks a clause as a constraint of one subtype."""

    name: str
    subtype: str
    score: float
    pattern: Guarded


PATTERNS: tuple[Pattern, ...] = (
    Pattern("x_not_y", ConstraintSubtype.REQUIREMENT, 0.8, rx(
        r"(?P<x>\w[^,;]{0,60}?)(?:,\s+not(?!\s+(?:just|only|merely)\b)|\s+rather\s+than|"
        r"\s+instead\s+of)\s+(?P<y>(?:a|an|the)?\s*"
        r"\w[\w -]{0,40})$", _I)),
    Pattern("dont_imperative", ConstraintSubtype.PROHIBITION, 0.85, rx(
        # after a reason in the same clause: "orders is big, so don't go back to ..."
        r"^(?:[^.;!?]{0,80}?(?:[,;—–]|\bso\b|\band\b|\bbut\b)\s+)?"
        r"(?:(?:so|and|but|then|also|just|obviously|seriously|really)\s+)?"
        r"(?:whatever\s+(?:you|they|he|she)\s+do,?\s+)?"
        # a scope first: "until then", "while I'm in Portugal", "during business hours"
        r"(?:(?:until|till|while|during|before|after|when|whilst|outside|over|on|in)\b"
        r"[^,.;]{0,50}?,?\s+)?"
        # "never got any letter", "never updated it": a report of the past, no rule
        r"(?:(?:please|pls|plz)\s+)?(?:don['’]?t|do\s+not|never(?!\s+(?:\w+ed|got|saw|seen|gone|"
        r"heard|had|did|was|were|been|came|sent|knew|told|said|made|paid|used|ever)\b)|avoid|"
        r"stop)\s+"
        # "don't have a receipt", "don't know": the user's state, no rule
        r"(?!(?:worry|hesitate|mind|bother|have|know|think|remember|understand|see)\b)"
        r"(?P<verb>\w+)"
        r"(?P<rest>.*)$", _I)),
    # "email not phone", "text not call please": two short alternatives
    Pattern("x_not_y_short", ConstraintSubtype.PREFERENCE, 0.7, rx(
        r"^(?!(?:it|this|that|we|i|they|he|she|you|there|these|those)\b)"
        r"(?P<x>[\w'’-]+(?:\s+[\w'’-]+){0,2})"
        # "It has not been", "we had decided not to": a negated verb, not two alternatives
        r"(?<!\b(?:is|are|was|were|has|have|had|been|be|do|does|did|am|can|could|will|would|"
        r"should|decided|said|asked|told))\s+not\s+(?P<y>(?:a|an|the)?\s*[\w'’-]+"
        r"(?:\s+[\w'’-]+)?)(?:\s*,?\s*(?:please|pls|thanks))?$", _I)),
    # "X needs Y": what the setup requires ("the tests need TZ=UTC", "the reminders need
    # to go to me")
    Pattern("thing_needs", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        # not a question without its "?": "do I need to pay them anything", "what do i
        # need to do for thursday"
        r"^(?:(?:and|but|also|oh,?)\s+)?(?P<x>(?!(?:I|you|we|they|he|she|it|do|does|did|what|"
        r"how|why|when|where|which|who|can|could|would|should|will|shall)\b)(?:the\s+)?"
        r"[\w./`'=-]+(?:\s+[\w./`'=-]+){0,3})\s+needs?\s+(?!(?:you|me|us)\b)"
        r"(?P<rest>\S.{2,})$", _I)),
    # "Run everything with GOTOOLCHAIN=local from now on": a standing instruction
    Pattern("standing_imperative", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"^(?:(?:please|pls|plz)\s+)?(?:run|read|use|set|build|test|deploy|put|write|store|"
        r"keep|send|take)\b(?P<rest>.*\b(?:from\s+now\s+on|always|every\s+time|each\s+time|"
        r"going\s+forward)\b.*)$", _I)),
    Pattern("no_x", ConstraintSubtype.PROHIBITION, 0.75, rx(
        r"^(?:and\s+|but\s+|also\s+|(?:please|pls|plz)\s+)?no\s+[`'\"]?(?P<x>\w[\w-]*)"
        r"(?P<rest>.*)$", _I)),
    Pattern("manner_imperative", ConstraintSubtype.REQUIREMENT, 0.75, rx(
        r"^(?i:(?:please|pls|plz)\s+)?(?i:(?:always|only)\s+)?(?i:reply|respond|answer|write|"
        r"talk|speak|use|keep|stick|send|email|call|contact|deliver|ship)\b(?P<rest>.*?\b(?:in\s+(?P<lang>"
        r"[A-Z]\w+)|(?i:only|always|without|at\s+most|no\s+more\s+than|before|after|by|"
        r"unchanged|intact|as\s+(?:it|they)\s+(?:is|are)|the\s+same|backwards?[-\s]compatible))"
        r"\b.*)$")),
    Pattern("must_be", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"^(?P<x>(?:it|this|that|(?:the|my|our)\s+[`'\w-]+(?:\s+[`'\w-]+)?|[A-Za-z]\w+))\s+"
        r"(?:must|has\s+to|"
        r"have\s+to|needs\s+to|should)\s+(?:be\s+)?(?P<rest>\w.*)$", _I)),
    # "The public API of NotificationService has to stay exactly the same", "Output JSON
    # has to stay byte-identical": a thing of the work that must not change
    Pattern("must_stay", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"^(?:(?:and|but|also)\s+)?(?P<x>(?!(?:I|you|we|he|she|they)\b)[\w`'./()-]+"
        r"(?:\s+[\w`'./()-]+){0,5}?)\s+(?:must|has\s+to|have\s+to|needs?\s+to|should)\s+"
        r"(?:stay|remain|keep)\b(?P<rest>.*)$", _I)),
    # "nothing in the commit message may mention traversal", "no test may hit the network"
    Pattern("nothing_may", ConstraintSubtype.PROHIBITION, 0.7, rx(
        r"^(?:(?:and|but|also|please|pls|plz)\s+)?(?:nothing|none|no\s+[\w-]+)\b[^.;!?]{0,80}?\s+"
        r"(?:may|can|must|should|is\s+allowed\s+to|gets\s+to)\s+(?P<rest>\w.*)$", _I)),
    # "nothing under migrations/ gets touched", "nothing in config/ is changed"
    Pattern("nothing_touched", ConstraintSubtype.PROHIBITION, 0.7, rx(
        r"^(?:(?:and|but|also|so|just)\s+)?(?:nothing|none\s+of)\s+(?:in|under|inside|outside|"
        r"of)\s+(?P<rest>[^.;!?]{1,60}?\s+(?:gets?|is|are|should\s+be)\s+(?:touched|changed|"
        r"modified|edited|deleted|removed|moved|renamed))\b", _I)),
    # "nothing in cmd/ or httpapi", "nothing else under legacy/": a place of the work ruled
    # out by its path
    Pattern("nothing_in_path", ConstraintSubtype.PROHIBITION, 0.7, rx(
        r"^(?:(?:and|but|also|so|just)\s+)?(?:nothing|none)\s+(?:else\s+)?(?:in|under|inside|"
        r"outside)\s+(?P<rest>[^\s/]*(?:/|`)[^.;!?]{0,60})$", _I, linear=True)),
    # "hands off `migrations/`", "only touch internal/ratelimit/": where the work may go
    Pattern("hands_off", ConstraintSubtype.PROHIBITION, 0.7, rx(
        r"^(?:(?:and|but|also|so|oh,?)\s+)?hands\s+off\s+(?P<rest>\S.{0,80})$", _I,
        linear=True)),
    Pattern("only_touch", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"^(?:(?:and|but|also|so|just)\s+)?only\s+(?:touch|edit|change|modify)\s+"
        r"(?P<rest>\S.{0,80})$", _I, linear=True)),
    # "nothing before 11am", "nothing on a Sunday night": a time ruled out
    Pattern("nothing_when", ConstraintSubtype.PROHIBITION, 0.65, rx(
        r"^(?:(?:and|but|also|so|just|oh,?)\s+)?(?:nothing|nobody|no\s+one|no\s+visits?|"
        r"no\s+calls?)\s+(?P<rest>(?:before|after|until|till|"
        r"earlier\s+than|later\s+than|during|(?:on|at)\s+(?:a\s+)?(?:(?:mon|tues|wednes|thurs|"
        r"fri|satur|sun)days?|weekends?))\b[^.;!?]{0,40})$", _I)),
    # "mornings only", "cash only please": a short clause that allows one thing
    Pattern("x_only", ConstraintSubtype.REQUIREMENT, 0.6, rx(
        r"^(?:(?:and|but|also|so|just|oh,?)\s+)?(?!(?:it|this|that|me|you|one|once|twice|"
        r"that['’]s|it['’]s)\b)(?P<rest>[\w'’-]+(?:\s+[\w'’-]+){0,2})\s+only"
        r"(?:\s*,?\s*(?:please|pls|thanks))?\W*$", _I)),
    # "thursday afternoon is no good", "mornings are a no go": a time or a way ruled out
    Pattern("no_good", ConstraintSubtype.PROHIBITION, 0.65, rx(
        r"^(?:(?:and|but|also|so|oh,?)\s+)?(?!(?:it|this|that|which|what|there)\b)"
        r"(?P<rest>[\w'’/-]+(?:\s+[\w'’/-]+){0,3}?)\s+(?:is|are|['’]s|['’]re)\s+(?:no\s+good|"
        r"a\s+no[-\s]go|a\s+non[-\s]starter|out\s+for\s+(?:me|us)|"
        r"(?:impossible|not\s+possible)\s+for\s+(?:me|us))\b", _I, linear=True)),
    # "leave it", "just leave that": the user keeps a thing as it is
    Pattern("leave_it", ConstraintSubtype.PROHIBITION, 0.6, rx(
        r"^(?:(?:just|pls|please|ok(?:ay)?|no|nah|yeah|and)\W+)*leave\s+(?P<rest>it|that|them|"
        r"those)(?:\s+(?:be|alone|as\s+is|for\s+now))?(?:\W+(?:please|pls|thanks))?\W*$", _I,
        linear=True)),
    # A setting the work must run with, written as one ("run them with TZ=UTC",
    # "DATABASE_URL=postgres://...", "pytest has to run with `APP_ENV=test`"): 24 of the
    # 25 user clauses holding one on train and dev are labelled. Case-sensitive: the name
    # is upper case.
    Pattern("env_setting", ConstraintSubtype.REQUIREMENT, 0.6, rx(
        r"(?<![\w$/.-])(?P<rest>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*=[^\s,;`'\"]+)", linear=True)),
    # "Always run the suite with TZ=UTC", "run the tests with `pytest -q -p no:cacheprovider`",
    # "when you run tests use TZ=America/Denver": how the work is to be run, with its code
    Pattern("setup_with_code", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"^(?:(?:when|whenever|if)\s+you\s+[^,;]{1,40}?,?\s+)?(?:(?:please|pls|plz|and|also|"
        r"oh\s+and|always|only)\s+)*(?:run|use|set|export|pass|build|test|call)\b"
        r"(?P<rest>[^.;!?]{0,80}?(?:`[^`\n]{2,80}`|\b[A-Z][A-Z0-9_]{1,40}=\S+))", _I)),
    # "it doesn't go to a neighbour under any circumstances"
    Pattern("under_no_circumstances", ConstraintSubtype.PROHIBITION, 0.7, rx(
        r"(?P<rest>.*\bunder\s+(?:any|no)\s+circumstances\b.*)$", _I)),
    # "nothing that locks the table for more than a second": a kind of change ruled out
    Pattern("nothing_that", ConstraintSubtype.PROHIBITION, 0.7, rx(
        r"^(?:[^.;!?]{0,80}?(?:[,;—–]|\bso\b)\s+)?(?:(?:so|and|but|also)\s+)?nothing\s+"
        r"(?:that|which)\s+(?P<rest>\w.*)$", _I)),
    # "MSRV stays 1.70", "the schema stays as it is": a thing of the work that must not move
    Pattern("stays", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:(?:and|but|also|oh,?)\s+)?(?P<x>(?!(?:I|you|we|he|she|they|it|this|that|there|"
        r"everything|nothing)\b)[\w`'./()-]+(?:\s+[\w`'./()-]+){0,3}?)\s+(?:stays|remains)\s+"
        r"(?P<rest>(?:[\w.`'’-]+\s*){1,4})$", _I)),
    # "prod is off limits", "`crates/storage/migrations/` is absolutely off-limits"
    Pattern("off_limits", ConstraintSubtype.PROHIBITION, 0.75, rx(
        r"^(?:(?:and|but|also|oh,?)\s+)?(?P<rest>(?:[^.;!?\n]|\.(?=\S)){1,80}?\s+(?:is|are)\s+"
        r"(?:still\s+)?(?:absolutely\s+|"
        r"strictly\s+|completely\s+|totally\s+)?(?:off[-\s]limits|out\s+of\s+bounds))\b", _I,
        linear=True)),
    # "branch off main, call it fix/x", "stay on pytz", "rebase onto develop": where the
    # work starts from or what it keeps using
    Pattern("branch_base", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"^(?:(?:and|also|just|please|pls|[a-h]\.)\s+)*(?P<rest>(?:branch\s+(?:off|from)|stay\s+on|"
        r"base\s+(?:it|this|the\s+\w+)\s+on|rebase\s+(?:on|onto))\s+[\w./`-]+.*)$", _I)),
    # "it needs a regression test", "it needs to pass on 3.9 too": what the change requires
    Pattern("it_needs", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:(?:and|but|also)\s+)?(?:it|this|the\s+(?:fix|change|patch|PR))\s+needs\s+"
        r"(?P<rest>(?:an?\s+[\w-]+\s+(?:test|tests|entry|note|flag)|to\s+(?:pass|run|work|"
        r"build|support|stay|keep|include|have)\b).*)$", _I)),
    # "Not paying more.", "just not the 23rd": a bare refusal of one thing
    Pattern("bare_not", ConstraintSubtype.PROHIBITION, 0.6, rx(
        r"^(?:(?:but|and|just|only|oh,?|please|pls|still|definitely)\s+)*"
        r"not\s+(?!(?:really|yet|sure|now|quite|much|"
        r"exactly|at\s+all|bad|great|good|that\s+I\s+know|me|a\s+problem|a\s+big\s+deal|"
        r"to\s+worry)\b)(?P<rest>(?:the\s+|on\s+|before\s+|after\s+)?[\w'’-]+"
        r"(?:\s+(?:or|nor)\s+[\w'’-]+)?"
        # ... and its reason after a comma: "not Tuesday, that's my office day", "not on
        # the doorstep, it's a busy street"
        r"(?:\s+[\w'’-]+)?)(?:\W*$|\s*[,;—–]\s+(?:that['’]?s|it['’]?s|is|as|since|because|"
        r"cause|cos|I['’]?m|we['’]re|they['’]re|(?:he|she|they|we|I)\s+\w+)\b.*$)", _I)),
    Pattern("i_must_be", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"^I\s+(?:must|have\s+to|need\s+to|['’]ve\s+got\s+to)\s+(?:be|keep|stay|remain|arrive|"
        r"have)\b(?P<rest>.+)$", _I)),
    Pattern("make_sure", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"(?:^|\b(?:so|and|but)\s+)(?:(?:please|pls|plz)\s+)?(?:make\s+sure|ensure)\s+(?:that\s+)?"
        r"(?P<rest>.+)$", _I)),
    Pattern("keep_state", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"(?:^|\b(?:but|and|just|also|please|so)\s+)keep\s+(?!(?:me|us)\s+(?:posted|informed|updated|in\s+"
        r"the\s+loop))(?P<rest>(?:it|this|that|them|everything|"
        r"[\w'’`-]+(?:\s+[\w'’`-]+)?)(?:\s+[\w.()/`'’-]+){1,4}?)"
        # ... up to a comma, a semicolon or its explanation in brackets
        r"(?:\s*[,;]|\s+\(|$)",
        _I)),
    Pattern("leave_alone", ConstraintSubtype.PROHIBITION, 0.8, rx(
        r"^leave\s+(?P<rest>.{1,60}?)\s+(?:alone|untouched|intact|unchanged|as\s+(?:it\s+)?is)\b",
        _I)),
    Pattern("cap", ConstraintSubtype.REQUIREMENT, 0.7, rx(
        r"\b(?:max(?:imum)?|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to)\s+"
        r"(?P<rest>(?:[$€£]|(?:USD|EUR|GBP|CHF)\s?)?\d[\d,.]*.*)$", _I)),
    # "after 11, please", "Phone me instead", "Email is best", "not before 2pm please":
    # a short clause naming a channel or a time, with a word of preference
    Pattern("short_preference", ConstraintSubtype.PREFERENCE, 0.6, rx(
        r"^(?!(?:yes|yeah|ok(?:ay)?|sure|option|number|the\s+(?:first|second|third))\b)"
        r"(?!.*\byou\b)"  # "Before you change anything, though" is about the agent's act
        # a cover note ("Please find attached the letter") or taking a rule back ("scrap
        # what I said about email only") states no preference
        r"(?!(?:\S+\s+){0,3}?(?:find\s+attached|attached\s+is|what\s+I\s+said)\b)"
        r"(?=(?:\S+\s+){0,7}\S+$)"
        r"(?=.*\b(?:e-?mail|phone|call|ring|text|sms|whatsapp|post|letter|card|transfer|"
        r"paypal|cash|floor|morning|afternoon|evening|weekends?|weekdays?|before|after|"
        r"deposit|cheque|bank|writing|print(?:ed)?|paper|digital|online|in\s+person|"
        r"courier|pick-?up|collection|delivery|"
        r"between|\d{1,2}:\d\d|\d{1,2}\s*(?:am|pm))\b)"
        r"(?=.*\b(?:please|pls|best|instead|though|preferably|only)\b)"
        r"(?P<rest>.+)$", _I)),
    # "Email is best", "the 15th is much better for me", "In person would be preferable",
    # "SMS to 079 412 88 36 works much better", "Email is better given the deadline": a
    # choice rated for the user, its reason after it -- not a comparison ("€300 is better
    # than nothing"), a hedge ("I think monthly is better") or a verdict on a reply
    # ("that's better")
    Pattern("better_for_me", ConstraintSubtype.PREFERENCE, 0.6, rx(
        r"^(?:(?:and|but|also|oh,?|so|honestly|tbh)\s+)?"
        r"(?!(?:that|it|this|which|what|there|I|we|you)\b)(?P<rest>[\w'’ -]{1,30}?\s+"
        r"(?:is|are|would\s+be|works?)\s+(?:much\s+|far\s+|a\s+lot\s+|way\s+)?"
        r"(?:better|best|preferable|easier)(?:\s+for\s+(?:me|us))?(?:\s+now)?)"
        r"(?:\s+(?:given|because|as|since)\s[^,;.!?]*)?\s*(?:[,;.!]|$)", _I)),
    # "I am NOT driving back out to Pearson", "we're NOT moving", "NOT a monday": a
    # refusal the user shouts (the capitals are the cue; "I'm not sure" is no rule)
    Pattern("shouted_not", ConstraintSubtype.PROHIBITION, 0.7, rx(
        r"(?:\b(?i:I\s+am|I['’]m|im|we\s+are|we['’]re)\s+NOT\s+(?=(?i:\w+ing)\b)|^NOT\s+(?!(?i:\w+ing)\b))"
        r"(?P<rest>\w.*)$")),
    # "we can't do Saturdays", "the engineer cannot come before 14:00", "can't do 9-11
    # tue/thu": a time someone on the user's side is not available
    Pattern("unavailable", ConstraintSubtype.PROHIBITION, 0.65, rx(
        r"^(?:(?:and|but|also|oh,?)\s+)?(?:(?:I|we|(?:the|our|my)\s+\w+|[A-Z]\w+)(?:\s+|(?=['’])))?"
        r"(?:can['’]?t|cannot|can\s+not|won['’]?t\s+be\s+able\s+to|(?:(?:am|are)\s+|['’](?:m|re)\s+)"
        r"unable\s+to)\s+(?:do|come|make|attend|work|"
        r"meet|be\s+(?:there|here|home|in|around|available))\b(?P<rest>[^.;!?]{0,40}?"
        r"(?:\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:days?)?\b|"
        r"\b(?:mornings?|afternoons?|evenings?|weekends?|weekdays?|before|after|until)\b|"
        r"\d)[^.;!?]*)$", _I)),
    # "All four of us have to sit together", "Has to work for English and German text",
    # "salary needs to go to the new account from March": a necessity of the task
    Pattern("necessity", ConstraintSubtype.REQUIREMENT, 0.6, rx(
        r"^(?:(?:and|but|also|oh,?|just|so)\s+)?"
        r"(?!(?:I|we|you|it|what|how|why|when|where|who|which|do|does|did)\b)"
        # "need to freeze my membership" without a subject is the task itself
        r"(?:(?:[\w'’`./-]+\s+){0,4}?(?:must|has\s+to|have\s+to|got\s+to)|"
        r"(?:[\w'’`./-]+\s+){1,4}?needs?\s+to)\s+"
        r"(?!(?:say|admit|ask|know|check|think|wait|go|leave|pick|call|do\s+with)\b)"
        r"(?P<rest>\w.*)$", _I)),
    Pattern("need_by", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:I\s+)?(?:need|have)\s+to\s+be\b(?P<rest>.*\b(?:by|before|until)\b.*)$", _I)),
    Pattern("prefer", ConstraintSubtype.PREFERENCE, 0.65, rx(
        r"\b(?:(?:I|we)['’]?d\s+(?:prefer|rather)|(?:I|we)\s+would\s+(?:prefer|rather)|"
        r"(?:I|we)\s+prefer|ideally|"
        r"preferably|if\s+possible)\b,?\s*"
        # a pick of an offered option ("I'd prefer the first option") agrees to it
        r"(?!\s*(?:the\s+)?(?:first|second|third|last|other|former|latter|option|number|#?\d)\b)"
        r"(?P<rest>.*)$", _I)),
    # "I would ask that all correspondence is in writing", "We ask that the 42,00 € rate
    # be kept until ...": a formal request that a thing be done a way
    Pattern("ask_that", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"\b(?:I|we)\s+(?:would\s+|must\s+|do\s+)?(?:also\s+)?(?:ask|request|insist)\s+that\s+"
        r"(?P<rest>\S.{4,})$", _I)),
    # "If they find anything else, ring me before doing it", "check with me first before
    # you order parts": the user's say before a step
    Pattern("ask_me_first", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:(?:and|but|also|just|so|please|pls)\s+)*(?:call|ring|phone|text|e-?mail|message|"
        r"ask|check\s+with)\s+me\s+(?:first\s+)?before\s+(?P<rest>\w.*)$", _I)),
    # "one commit, conventional commit message", "separate commit, "importer: skip rows"",
    # "msg 'ratelimit: lock bucket map'", "commit on a new branch fix/x", "PR against
    # main", "keep it out of this PR": the form the finished work must take (how many
    # commits, on what branch, with what message). Not "separate PR yes please" or "three
    # commits pls": mostly the answer to the agent's question, not a rule of the user's.
    Pattern("work_form", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:(?:yes|yeah|yep|ok(?:ay)?|sure|and|then|also|just|go\s+ahead\s+and)\W+)*"
        r"(?P<rest>(?:(?:as\s+)?(?:one|a\s+single|single|a\s+separate|separate|(?:a\s+)?new|"
        r"its\s+own)\s+(?:commit|branch)\b|"
        r"(?:commit\s+)?(?:msg|message)\s*:?\s*[\"'‘“`]|"
        r"(?:a\s+)?PR\s+(?:against|into|onto)\s+\S|"
        r"(?:keep|put)\s+(?:it|this|that|them)\s+(?:out\s+of|in|into)\s+(?:this|the|its\s+own|"
        r"a\s+separate|a\s+new|another)\s+(?:PR|commit|branch)\b|"
        r"conventional[- ]commits?\b|"
        # a branch named ("commit on a branch" alone is the step, not its form)
        r"(?:commit\s+)?(?:on|onto|to)\s+(?:a\s+)?(?:new\s+)?branch\s+(?:called\s+|named\s+)?"
        r"[`'\"]?[\w.-]+/)"
        r".*)$", _I)),
    # "Text the code to my private mobile 0176 48813520", "He can call on the mobile",
    # "send to my home", "everything go to my email instead of hers": where the user is
    # to be reached or a thing sent -- said as an instruction (not "I sent it to my
    # email", nor a past "texted"), to a place of the user's own or "the mobile"
    Pattern("send_to_mine", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:(?:and|but|also|oh,?|so|just|please|pls|then)\s+)*"
        r"(?:(?:you|he|she|they|it|everything|all|[A-Z][a-z]+|(?:the|any|all)\s+[\w-]+"
        r"(?:\s+[\w-]+)?)\s+(?:(?:can|could|should|must|may)\s+)?)?(?:please\s+)?"
        r"(?:send|text|sms|e-?mail|mail|post|ship|deliver|call|ring|phone|forward|divert|"
        r"go|goes)\b"
        r"(?P<rest>(?:\s+(?!(?:to|on|at|via)\b)[\w'’-]+){0,3}?\s+(?:to|on|at|via)\s+"
        r"(?:(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:mobile|cell|phone|e-?mail|address|home|"
        r"number|landline|inbox)|the\s+(?:mobile|cell|landline))\b.*)$", _I)),
    # Who the other side deals with: "everything goes through me", "The final folio goes
    # to me", "Any contact should be with me" -- said of a thing or of everything (not "I
    # went to my bank", nor "send it to me": the task itself)
    Pattern("routed_to_me", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:(?:and|but|also|so|just|then)\s+)*(?:everything|all|anything|"
        r"(?:the|any|all)\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:(?:should|must|has\s+to|needs\s+to|"
        r"can|will)\s+)?(?:goes|go|comes?|be)\s+(?:to|through|via|with)\s+(?:me|us)\b"
        r"(?P<rest>.*)$", _I, linear=True)),
    # A time the thing must not come before or after, said of the thing, not of the user
    # ("not before my last day here, 29 april", "nothing to the hotel from 18 November",
    # "nothing is to be collected before the 28th", "the first payment can't come out
    # before the 20th of june"; not "I'm not home before 6pm" nor "I did not ...")
    Pattern("not_before", ConstraintSubtype.PROHIBITION, 0.65, rx(
        r"^(?:(?:and|but|so|also|just|please|pls)\s+)*(?:"
        r"(?:not|nothing|never)(?:\s+[\w'’-]+){0,5}?"
        r"|(?!(?:I|we)\b)(?:the\s+|any\s+|my\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+(?:can['’]?t|"
        r"cannot|can\s+not|mustn['’]?t|must\s+not|shouldn['’]?t|should\s+not|is\s+not\s+to|"
        r"are\s+not\s+to)(?:\s+[\w'’-]+){1,4}?)"
        r"\s+(?:before|after|until|till|from|earlier\s+than|later\s+than)\s+"
        r"(?P<rest>(?:(?:the|my|this|next|any)\s+\S|\d|(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|"
        r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec|noon|midday|lunch|tomorrow|today|tonight)).*)$",
        _I, linear=True)),
    # Which checks the work runs, narrowed: "just run spec/models and spec/services",
    # "only run tests/dags + tests/unit" (a question asking to is read as a question first)
    Pattern("run_only", ConstraintSubtype.REQUIREMENT, 0.65, rx(
        r"^(?:(?:and|so|also|then|ok(?:ay)?|pls|please)\W+)*(?:just|only)\s+(?:run|test|build|"
        r"lint)\s+(?P<rest>(?!(?:it|them|that|this)\b)\S.*)$", _I, linear=True)),
    # A step the work must take at a point of it: "before you commit, run the full
    # suite", "if a plan says replace, stop and tell me", "if the next plan is clean just
    # apply it" (the point first; a question is read as a question before this)
    Pattern("scoped_step", ConstraintSubtype.REQUIREMENT, 0.6, rx(
        r"^(?:(?:and|so|also|then|but)\s+)*(?:before|after|once|when|whenever|while|if)\s+"
        r"[^,.;?!\n]{3,60}?(?:,\s*|\s+(?=(?:just|then|always)\s))(?:(?:please|pls|just|"
        r"always|then)\s+)*(?P<rest>(?:run|use|check|ask|call|tell|send|make|wait|keep|add|set|"
        r"commit|push|ping|email|text|stop|apply|leave|put|merge|open)\b.*)$", _I, linear=True)),
    # The condition the user puts on what the agent may do: "go ahead and block it, as
    # long as I can still pay for dinner tonight", "regen is fine as long as it doesnt
    # bump the sdk version", "forbearance, but only if the interest is not capitalized".
    # Not the condition of the user's own act ("I send the receipt only if there is a
    # problem").
    Pattern("on_condition", ConstraintSubtype.REQUIREMENT, 0.6, rx(
        r"^(?!(?:I|we)\s+(?!would\b|should\b)\w+[^,]{0,80}\bonly\s+if\b)[^\"“”]{0,160}?"
        r"\b(?:(?:as|so)\s+long\s+as|provided(?:\s+that)?|only\s+if|on\s+(?:the\s+)?"
        r"condition\s+that)\s+(?P<rest>\S+(?:\s+\S+)+)", _I, linear=True)),
    # "keep the fake store in a _test.go file", "split it per channel pls", "make the TODO
    # 14 days", "Use dan@achterberg.nl", "put it in the description": an instruction
    # with a verb of manner -- where, how or with what the work is done -- not a verb of
    # the task itself ("fix", "add", "check"); not "make sure" (a rule of its own), nor
    # "make it work" or "use it" (no thing said), nor making something new ("make a
    # branch") or putting a person on the work ("put @rsingh on it": who, not how)
    Pattern("manner_verb", ConstraintSubtype.REQUIREMENT, 0.6, rx(
        r"^(?:just\s+)?(?:keep|use|put|split|make|pin|name|hardcode|tag|encrypt|stick\s+to)\b"
        r"(?!\s+(?:sure|a\s+note|it\s+work|that\s+work|them\s+work|an?)\b)(?!\s+@)"
        r"(?!\s+(?:[\w@.-]+\s+){1,3}on\s+(?:it|this|that|(?:the\s+)?review)\b)"
        r"(?P<rest>\s+(?!(?:it|this|that|them)\s*[.!]?$)\S.{2,})$", _I)),
)

#: A request asked as a question that rules out the other way: "can he send sms not
#: ring?", "can everything be done by email, not letters?", "could you text me rather
#: than ring" -- a preference, where a plain question ("can you make it next month,
#: it's not blocked again?") is not one. ``rest`` is what is asked for.
ASKED_INSTEAD = rx(
    r"^(?:(?:and|also|oh|so|but)\s+)?(?:can|could)\s+(?:you|they|he|she|it|everything|we|"
    r"someone|somebody)\s+(?!not\b)(?P<rest>\w[^?]{0,80}?(?:,\s+not\s+(?!sure\b)|"
    r"\s+not\s+(?=[\w'’-]+\W*$)|\s+rather\s+than\s+|\s+instead\s+of\s+)\w[^?]{0,40})", _I,
    linear=True)

#: A user giving a constraint up ("never mind the French", "phone is fine after all"):
#: no new constraint, and the end of an earlier one.
WITHDRAW = rx(
    r"\b(?:never\s*mind|forget\s+(?:about\s+)?|scratch\s+that|"
    r"(?:ignore|scrap|scratch|disregard|forget)\s+what\s+I\s+said|"
    r"no\s+longer\s+(?:need|matters?)|doesn['’]?t\s+matter\s+any\s?more|"
    r"(?:is|are)\s+(?:fine|ok(?:ay)?)\s+after\s+all|you\s+can\s+(?:touch|use|change|edit)|"
    r"drop\s+the)\b", _I)

#: A remark on how things went, said with "not" or "no" ("Not impressed.", "honestly not
#: great", "no offence but ...", "not my fault", "no too expensive"): none of the 11 such
#: clauses on train and dev is labelled a rule.
REMARK = rx(
    r"^\W*(?:(?:honestly|tbh|really|so|and|but|well|ok|okay|also|tho|though)\W+)*"
    r"(?:not|no|that['’]?s\s+not|its\s+not|it['’]s\s+not)\s+(?:very\s+|really\s+|that\s+|so\s+)?"
    r"(?:impressed|thrilled|great|happy|amused|fair|cool|nice|funny|helpful|surprised|"
    r"offen[cs]e|(?:my|your|our|his|her|their)\s+fault|too\s+(?:expensive|much|dear))\b",
    _I, linear=True)
