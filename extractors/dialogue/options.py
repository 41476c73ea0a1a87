"""Options: a list of alternatives the agent offers, and the user's pick among them.

Each numbered, lettered or bulleted line of a list the agent introduces as options ("Two
options:", "you can either", "I can offer") is an ``offered`` commitment of its own
(:func:`option_items`, called by the commitment rules). A reply that picks one -- by its
place ("option 2", "the second one", "b)"), by a word only it has, "both" or "neither" --
agrees to it and supersedes the others (:func:`listed_pick`, called by the lifecycle).
Each list needs its own lead sentence: a numbered list of problems is no list of options,
the "two ways:" list after it is. A pick is read clause by clause ("I can't do ebooks, so
print please"): a clause that turns something down never picks what it names.
"""

from __future__ import annotations

import regex

from extractors.base import Candidate, Change, TurnView
from extractors.records import CommitmentSubtype, Kind, Record, Status
from extractors.text import guard
from extractors.text.clause_features import label_tokens
from extractors.text.guard import rx
from extractors.text.lexicon import function_words, stems, terms
from extractors.text.sentences import sentences
from extractors.values.amounts import money_value

#: An item of a list of options: a numbered, lettered or bulleted line.
#: Its ``label`` is the number or letter that leads it, after a bullet too ("- **A. Refund
#: to your card**").
LIST_ITEM = rx(r"^[ \t]*(?:(?:\*\*)?\(?(?P<label>\d{1,2}|[a-h])[.)]|[-•*–])[ \t]+(?:\*\*)?"
               r"(?:(?:option|choice)\s*\w{0,3}\s*[:.)–-]\s*(?:\*\*)?|"
               r"\(?(?P<label>\d{1,2}|[a-h])[.)](?:\*\*)?[ \t]+(?:\*\*)?)?(?P<item>\S[^\n]*)$",
               regex.MULTILINE | regex.IGNORECASE, linear=True)
#: A row of a table whose first cell is a letter: "| A | Lenovo X1 Carbon | 32 GB | ready
#: Thu |" -- lettered rows are alternatives (numbered rows are often measurements).
TABLE_ROW = rx(r"^\|[ \t]*(?:\*\*)?(?P<label>[A-Ha-h])(?:\*\*)?[ \t]*\|[ \t]*"
               r"(?P<item>[^\n]*[^\s|])[ \t]*\|?[ \t]*$", regex.MULTILINE, linear=True)
#: What introduces options rather than steps or facts ("two options", "you can either",
#: "I can offer").
OPTIONS_LEAD = rx(r"\b(?:options?|choices?|alternatives?|either|ways?\s+(?:forward|to)|"
                  # bookable alternatives: "these are the earliest slots I've got"
                  r"slots?|time\s+slots?|windows?|openings?|availability|available|"
                  r"open\s+to\s+you|"
                  # "These weekdays are still free for a full team:"
                  r"(?:still|are|is)\s+free|"
                  # "There are two levels:", "three fares:" -- not problems, steps or causes
                  r"(?:two|three|four|five|a\s+few|several|couple\s+of)\s+(?!(?:\w+\s+)?"
                  r"(?:problems?|issues?|errors?|failures?|bugs?|steps?|reasons?|questions?|"
                  r"things?|items?|causes?|notes?|points?|changes?|files?|tests?|fixes|commits?|"
                  r"updates?|results?|lines?|parts?|findings?|messages?)\b)"
                  r"(?:[\w-]+\s+)?[\w-]+(?=\s*:)|"
                  r"(?:I|we)\s+(?:can|could)|offer|possibilit(?:y|ies)|you\s+(?:can|could)|"
                  r"pick|choose|prefer|possible|what\s+(?:I|we)\s+can\s+do|(?:two|three|four|a\s+few|several|couple\s+of)\s+"
                  r"(?:ways|routes|approaches|paths|fixes))\b", regex.IGNORECASE, linear=True)
#: A pick of a listed option by its place: "option 2", "the second one", "B please", "2".
ORDINAL = rx(r"\b(?:option|choice|number|no\.?|#)\s*(?P<n>\d|[a-h])\b"
             r"|\b(?:the\s+)?(?P<word>first|second|third|fourth|fifth|last)\b(?!\s+time)"
             r"|^\W*(?P<bare>\d|[a-h])\W*(?:please|pls|thanks|is\s+(?:fine|good|great|right)|works|"
             r"sounds\s+(?:good|great|fine|right)|looks\s+(?:good|right)|for\s+(?:me|now)|"
             r"then|$)",
             regex.IGNORECASE, linear=True)
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
#: "Both" takes every listed option; "neither" / "none of them" takes none.
BOTH = rx(r"^\W*(?:(?:ok(?:ay)?|yes|great)\W+)?(?:both|all\s+(?:of\s+)?(?:them|three|two))\b|"
          r"\b(?:do|take|want|like|go\s+(?:with|for)|book)\s+(?:them\s+)?(?:both|all\s+of\s+them)\b",
          regex.IGNORECASE, linear=True)
NEITHER = rx(r"\b(?:neither|none\s+of\s+(?:them|those|these))\b", regex.IGNORECASE,
             linear=True)


def _option_number(text: str, count: int) -> tuple[int, tuple[int, int]] | None:
    """The listed option the reply's first sentence picks by its place, with the span."""
    m = guard.search(r"[^.!?\n]+", text)
    if m is None:
        return None
    found = ORDINAL.search(m.group())
    if found is None:
        return None
    token = (found.group("n") or found.group("bare") or "").lower()
    word = (found.group("word") or "").lower()
    if token.isdigit():
        n = int(token)
    elif token:
        n = ord(token) - ord("a") + 1
    else:
        n = count if word == "last" else _ORDINAL_WORDS.get(word, 0)
    return (n, m.span()) if 1 <= n <= count else None



def first_clause(text: str) -> tuple[int, int]:
    m = guard.search(r"[^,;.!?\n]+", text)
    if not m:
        return 0, 0
    a, b = m.span()
    while a < b and text[a].isspace():
        a += 1
    return a, b


#: Two alternatives in one sentence: "you can either mail us new photos, or you can bring
#: them in person", "From there you can either have it paid out or leave it as credit".
#: "He can come out either Wednesday ... or Friday ...", "they've offered either ...", "you
#: can choose: either ...": after what can be done, an offer or a colon -- not "it went
#: either to staging or to the local container".
EITHER_OR = rx(r"(?:\b(?:you|we|I|they|he|she)\s+(?:can|could)(?:\s+(?!either\b)[\w'’]+){0,2}|"
               r"\boffer(?:ed|s)?|\bchoose|:)\s+"
               r"either\s+(?P<a>[^.;?!\n]{3,300}?),?\s+or\s+"
               r"(?:(?:you|we|I)\s+(?:can|could)\s+)?(?P<b>[^.;?!\n]{3,300})(?P<end>[.;!\n]|$)",
               regex.IGNORECASE)


def option_items(turn: TurnView, extractor: str) -> list[Candidate]:
    """Each option of a list the agent offers ("Two options: 1. a refund of €40 2. a
    replacement"): one ``offered`` candidate per item (its first sentence, without a final
    full stop), when the text before the list says it holds options; and each side of
    "you can either X or Y" in a sentence that asks nothing."""
    text = turn.text
    if turn.role != "assistant" or turn.calls_tools:
        return []
    out: list[Candidate] = []
    for items in _lists(text) + _table_rows(text):
        out.extend(_items(text, items, extractor, turn.role, len(out)))
    for m in EITHER_OR.finditer(text):
        if any(c.start <= m.start("a") < c.end for c in out):
            continue
        for n, side in enumerate(("a", "b"), len(out) + 1):
            a, b = m.span(side)
            while b > a and text[b - 1] in " ,":
                b -= 1
            out.append(Candidate.of(
                text, a, b, kind=Kind.COMMITMENT, subtype=CommitmentSubtype.OFFERED,
                score=0.75, extractor=extractor, why="rule 'either_or'",
                label=_item_label(text[a:b]), value=money_value(text[a:b]),
                attrs={"actor": turn.role, "polarity": "positive", "rule": "either_or",
                       "option": n}))
    return out


def _lists(text: str) -> list[list[regex.Match[str]]]:
    """The lists of ``text`` that hold options: runs of two or more list lines with
    nothing but blank lines, or a continuation without one, between them, each led by
    a sentence of its own that says it holds options ("Two problems: 1. ... 2. ...
    For msrv there are two ways: - ... - ..." holds one list of options, not two)."""
    runs: list[list[regex.Match[str]]] = []
    for m in LIST_ITEM.finditer(text):
        gap = text[runs[-1][-1].end():m.start()] if runs else ""
        if runs and (not gap.strip() or "\n\n" not in gap.replace(" ", "").replace("\t", "")
                     or _next_label(runs[-1], m)):
            runs[-1].append(m)
        else:
            runs.append([m])
    out = []
    previous = 0
    for run in runs:
        intro = sentences(text, previous, run[0].start())
        if len(run) >= 2 and ((intro and OPTIONS_LEAD.search(text, *intro[-1]))
                              or all(_lettered(m) or _slot(m.group("item")) for m in run)):
            out.append(run)
        previous = run[-1].end()
    return out


def _table_rows(text: str) -> list[list[regex.Match[str]]]:
    """The runs of two or more lettered table rows of ``text``, each a list of options."""
    runs: list[list[regex.Match[str]]] = []
    for m in TABLE_ROW.finditer(text):
        if runs and not text[runs[-1][-1].end():m.start()].strip():
            runs[-1].append(m)
        else:
            runs.append([m])
    return [run for run in runs if len(run) >= 2]


#: A bookable slot as a list item: a day or a date first, then a time or a price ("Thu 30
#: Jan, 8am-12pm", "Tue, July 2 at 4:00 PM", "Sunday 14 Sept 2025 – minimum spend £9,500").
_SLOT_DAY = rx(r"^\W*(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\d{1,2}(?:st|nd|rd|th)?\s+"
               r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|(?:jan|feb|mar|apr|may|"
               r"jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d)", regex.IGNORECASE, linear=True)
_SLOT_TIME = rx(r"\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\b\d{1,2}:\d\d\b", regex.IGNORECASE,
                linear=True)
#: A price on a day's line: "**Friday 12 Sept 2025** – minimum spend £11,000".
_SLOT_PRICE = rx(r"[$€£]\s?\d|(?<![\d,.])\d[\d,.]*\s?(?:€|EUR|GBP|USD|CHF)\b", linear=True)
SLOT_LENGTH = 90


def _slot(item: str) -> bool:
    """True for an item that is a slot -- a day or a date with its time or its price: a
    list of them offers each, whatever leads it."""
    return len(item) < SLOT_LENGTH and bool(_SLOT_DAY.search(item)) \
        and bool(_SLOT_TIME.search(item) or _SLOT_PRICE.search(item))


def _lettered(m: regex.Match[str]) -> bool:
    """True for an item labelled with a letter ("(a)", "**B.**"): lettered items are
    alternatives, whatever leads them (steps and findings are numbered or bulleted)."""
    label = m.group("label")
    return bool(label) and label.isalpha()


def _next_label(run: list[regex.Match[str]], m: regex.Match[str]) -> bool:
    """True when ``m`` is labelled with the number or letter after the last label of
    ``run``: "C." after "B." continues a list of options even past a paragraph that
    explains "B"."""
    label = m.group("label")
    last = next((x.group("label") for x in reversed(run) if x.group("label")), None)
    if not label or not last:
        return False
    if label.isdigit() and last.isdigit():
        return int(label) == int(last) + 1
    return label.isalpha() and last.isalpha() and ord(label.lower()) == ord(last.lower()) + 1


#: An option that is a thing offered, not an act: "a refund of CHF 89.00 to the card".
_THING = rx(r"^(?:an?|the|one|full|partial)\s+[^\W\d_]", regex.IGNORECASE, linear=True)


def _item_label(item: str) -> str | None:
    """What an option offers, when it names a thing ("a refund of CHF 89.00" is a
    refund, "a travel voucher of CHF 130.00" a travel voucher): the words a schema field's
    label matches. An option that is an act ("add a ChannelSender interface") has none."""
    if not _THING.match(item):
        return None
    return label_tokens(guard.findall(r"[\w'’-]+|[^\w\s]", item.split(",", 1)[0]))


def _items(text: str, items: list[regex.Match[str]], extractor: str, role: str,
           before: int) -> list[Candidate]:
    out: list[Candidate] = []
    for m in items:
        start = m.start("item")
        first = sentences(text, start, m.end("item"))
        if not first:
            continue
        end = first[0][1]
        while end > start and text[end - 1] in ".;:*":
            end -= 1
        if text[start:end].endswith("?") or end - start < 8:
            continue
        out.append(Candidate.of(text, start, end, kind=Kind.COMMITMENT,
                                subtype=CommitmentSubtype.OFFERED, score=0.82, extractor=extractor,
                                why="rule 'option_item'", label=_item_label(text[start:end]),
                                value=money_value(text[start:end]),
                                attrs={"actor": role, "polarity": "positive",
                                       "rule": "option_item", "option": before + len(out) + 1}))
    return out


def listed_pick(turn: TurnView, listed: list[Record]) -> list[Change]:
    """A reply to a list of options: the one it picks by place or by a word only
    that option has is agreed, the others superseded; "both" agrees to all,
    "neither" supersedes all."""
    a, b = first_clause(turn.text)
    if NEITHER.search(turn.text, a, b):
        return others_superseded(turn, listed, [], (a, b))
    if BOTH.search(turn.text):
        return [Change(record_id=r.id, field="subtype", new=CommitmentSubtype.AGREED,
                       evidence_start=a, evidence_end=b, note="accepted",
                       attrs={"accepted_turn": turn.number,
                              "accepted_text": turn.text[a:b]}) for r in listed]
    by_place = _option_number(turn.text, len(listed))
    if by_place is None:
        return []
    n, (a, b) = by_place
    while a < b and turn.text[a].isspace():
        a += 1
    chosen = listed[n - 1]
    return [Change(record_id=chosen.id, field="subtype", new=CommitmentSubtype.AGREED,
                   evidence_start=a, evidence_end=b, note="accepted",
                   attrs={"accepted_turn": turn.number, "accepted_text": turn.text[a:b]}),
            *others_superseded(turn, listed, [chosen], (a, b))]

def others_superseded(turn: TurnView, listed: list[Record], chosen: list[Record],
                       span: tuple[int, int]) -> list[Change]:
    """The listed options not chosen: superseded by the pick."""
    ids = {r.id for r in chosen}
    if listed and not any(r.id in ids for r in listed) and chosen:
        return []  # the pick was of another offer, not of this list
    return [Change.status(r, Status.SUPERSEDED, turn, *span, note="another option picked")
            for r in listed if r.id not in ids]


#: A reply that turns an offer down ("no", "too low", "I'd rather not").
REJECT = rx(
    r"^\W*(?:no|nope|nah|not|that['’]s\s+not|i\s+can['’]?t\s+accept|i\s+don['’]?t\s+accept|"
    r"i['’]d\s+rather\s+not)\b|\btoo\s+(?:low|high|little|much)\b|\bnot\s+enough\b",
    regex.IGNORECASE,
)
#: A clause that picks or accepts the thing it names: "the refund, please", "store credit
#: is fine", "the Geneva one works", "I'll just use the reserve one".
PICK = rx(r"\b(?:please|is\s+fine|is\s+ok(?:ay)?|works(?:\s+for\s+me)?|sounds\s+good|"
          # "Thursday is good for me", "Thursday at 14:00 suits me well"
          r"(?:is|['’]s)\s+(?:good|great|perfect|best)\s+for\s+(?:me|us)|suits\s+(?:me|us)|"
          r"I['’]ll\s+(?:just\s+)?(?:take|use|have|go\s+(?:with|for))|I['’]d\s+like|"
          r"go\s+with|let['’]?s\s+do)\b", regex.IGNORECASE)
#: A tentative clause ("Wednesday might work, but I need to check"): no pick yet.
HEDGE = rx(r"\b(?:might|maybe|perhaps|possibly|probably|not\s+sure|need\s+to\s+check)\b",
           regex.IGNORECASE, linear=True)
#: A clause that turns something down: it names what is not picked.
NOT = rx(r"\b(?:not|no|never|don['’]?t|can['’]?t|won['’]?t|rather\s+not)\b", regex.IGNORECASE,
         linear=True)
#: Words that name no option: they cannot tell two offers apart.
_PLAIN = stems(" ".join(function_words("""
the a an one you your i me my it its we our us can could also or and of to for on in at
with by from that this those these is are be will would please fine ok okay works
good go like let do just then so instead either neither
""")) + " offer work sound take option")
PICK_CLAUSES = 3
#: A bare pick ("cap.", "The excess one.", "Ok PayPal then"): a first sentence this short
#: names an offer without any picking word.
BARE_PICK_WORDS = 4
_BARE_FILLER = frozenset({"ok", "okay", "yes", "yeah", "fine", "then", "the", "one", "that",
                          "go", "with", "please", "sure", "alright"})


def _bare(sentence: str) -> bool:
    """True for a first sentence that is only a name ("cap", "Ok PayPal then")."""
    words = [w for w in guard.findall(r"\w+", sentence.lower()) if w not in _BARE_FILLER]
    return 0 < len(words) <= BARE_PICK_WORDS


#: A number as a pick names it: "The 350 please" (of "the newer VX-350"), "Thursday the
#: 13th" (of "Thursday 13 June"); two digits at least, an ordinal's suffix dropped.
_PICK_NUMBER = rx(r"(?<![\d.,:])(\d{2,})(?:st|nd|rd|th)?(?![\d.,:]\d)", linear=True)


#: A clock time names the slot it is in: "Tuesday 8:30" of "Tuesday July 9 at 8:30".
_PICK_TIME = rx(r"(?<![\d:])(\d{1,2}):(\d\d)(?![\d:])", linear=True)


def _pick_terms(text: str, numbers: bool = True) -> set[str]:
    """The words a pick can name an offer by: its uncommon words, its clock times
    ("08:30" as "8:30") and, with ``numbers``, its numbers."""
    words = terms(text, common=_PLAIN, shortest=3, specific=False)
    words |= {f"{int(h)}:{m}" for h, m in _PICK_TIME.findall(text)}
    return words | set(_PICK_NUMBER.findall(text)) if numbers else words


def _listed(offers: list[Record]) -> bool:
    """Whether ``offers`` are options of a list: only there does a number pick one. Of
    offers made together in prose, "€930 works" takes the terms, all of them ("I can
    process it as a goodwill return" and "the refund would be €930")."""
    return all(isinstance(r.attrs.get("option"), int) for r in offers)


def only_named(sentence: str, offers: list[Record]) -> Record | None:
    """Return the one offer ``sentence`` names by a word of its own text that no other
    offer has; None if it names none or several."""
    numbers = _listed(offers)
    words = _pick_terms(sentence, numbers)
    own = {r.id: _pick_terms(r.text, numbers) for r in offers}
    hits = [r for r in offers
            if own[r.id] & words - set().union(*(own[o.id] for o in offers if o is not r))]
    return hits[0] if len(hits) == 1 else None


def picked_offer(text: str, offers: list[Record]) -> tuple[Record, tuple[int, int]] | None:
    """Return the offer a picking sentence of the user's reply (one of its first three)
    names, with the sentence's span ("The refund, please.", "store credit is fine")."""
    if not offers:
        return None
    for n, m in enumerate(guard.finditer(r"[^;.!?\n]+", text)):
        if n >= PICK_CLAUSES:
            break
        sentence = m.group()
        parts = list(guard.finditer(r"[^,]+", sentence))
        # the clause that picks ("ebooks won't do, so print please"), then the sentence
        spans = [(m.start() + p.start(), m.start() + p.end()) for p in parts
                 if PICK.search(p.group()) or (n == 0 and p.start() == 0 and _bare(p.group()))]
        if (PICK.search(sentence) or (n == 0 and _bare(sentence))) and (
                len(parts) == 1 or not any(NOT.search(p.group()) for p in parts)):
            spans.append(m.span())
        for a, b in spans:
            if REJECT.search(text[a:b]) or NOT.search(text[a:b]) or HEDGE.search(text[a:b]):
                continue
            offer = only_named(text[a:b], offers)
            if offer is not None:
                while a < b and text[a].isspace():
                    a += 1
                return offer, (a, b)
    return _named_alone(text, offers)


def _named_alone(text: str, offers: list[Record]) -> tuple[Record, tuple[int, int]] | None:
    """A sentence anywhere in the reply that is only an option's name: "Ugh. ... Fine,
    I'll move my calls. Thursday the 13th." -- every word of it is one offer's own (so
    "Thursday is bad" names Thursday but says more, and picks nothing)."""
    numbers = _listed(offers)
    for m in guard.finditer(r"[^;.!?\n]+", text):
        said = _pick_terms(m.group(), numbers)
        offer = only_named(m.group(), offers) if said else None
        if offer is not None and said <= _pick_terms(offer.text, numbers) \
                and _bare(m.group()):
            a, b = m.span()
            while a < b and text[a].isspace():
                a += 1
            return offer, (a, b)
    return None


def named_offer(text: str, offers: list[Record]) -> Record | None:
    """Return the one offer the reply's first sentence names ("Yes, set up the alert")."""
    m = guard.search(r"[^;.!?\n]+", text)
    return only_named(m.group(), offers) if m else None
