"""Words: the one stop-word lexicon, the one stemmer, and the terms that tie two texts.

English function words are listed here once, by class (articles, pronouns,
prepositions, auxiliaries, ...). :data:`STOP_WORDS` is all of them. A rule that needs
"the words that cannot be a label" or "the words that end a command" builds that set from
these classes (plus the few words of its own it names there), so a function word is
never missing from one rule's list and present in another's by accident.

:func:`stem` maps the inflections of one verb or noun to one key ("waived", "waives",
"waiving" -> "waiv"); :func:`terms` gives the distinctive terms of a text -- content-word
stems, numbers, codes -- that tie a later turn to an earlier commitment or constraint.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from extractors.text.guard import rx


def words(text: str) -> frozenset[str]:
    """The white-space separated words of ``text``, as a set."""
    return frozenset(text.split())


# -- word classes ----------------------------------------------------------------------

#: English function words, a class a line: "class: its words".
_CLASSES = """
articles: a an the
demonstratives: this that these those
quantifiers: all any both each every some
possessives: my your yours our their his her its
subject pronouns: i you we they he she it
object pronouns: me you us them him her it
indefinites: something anything nothing one
prepositions: about after against as at before by for from in into of on onto over since
  to under until with within near per around up out
conjunctions: and but or so if because unless once when while than though
wh words: what which who whom whose where when why how
be: am are is was were be been being
have: have has had
do: do does did
modals: can could will would shall should may might must
clitics: 'd 'll 'm 're 's 't 've
contractions: it's that's what's i'm i'd i'll you're you'd you'll we're they're there's
  don't doesn't can't won't isn't would've whats dont
negative stems: aren ca couldn didn doesn don hasn haven isn shouldn wasn won wouldn
negations: not never no cannot neither either
weekdays: monday tuesday wednesday thursday friday saturday sunday
day words: today tomorrow tonight
adverbs: already away even here there instead just now then still straight usually really
  also too well again very only first next more less much many rather certainly
  definitely approximately roughly
courtesy: please thanks thank yes ok okay sure hello hi hey bye oh ah eh um ya great good
  fine perfect cool nice awesome alright right correct sounds works wonderful excellent
  lovely
light verbs: get got give go going make made want need like prefer let know tell send
  check see find keep stay ensure kind sort gonna wanna
"""
#: Clitics are the pieces tokenizers split off ("we'll" -> "we", "'ll"); contractions keep
#: their apostrophe (as the question reader reads them); negative stems are what is left of
#: a negative contraction without its clitic ("don" of "don't"); adverbs qualify a clause
#: without changing what it is about; light verbs are too general to say what a sentence
#: is about ("get", "want", "let me know").


def _read_classes(table: str) -> dict[str, frozenset[str]]:
    classes: dict[str, str] = {}
    name = ""
    for line in table.strip().splitlines():
        if line.startswith(" "):  # continues the class above
            classes[name] += " " + line
        else:
            name, _, rest = line.partition(":")
            classes[name] = rest
    return {key: words(value) for key, value in classes.items()}


WORD_CLASSES: dict[str, frozenset[str]] = _read_classes(_CLASSES)
#: Every function word above: the stop-word lexicon.
STOP_WORDS: frozenset[str] = frozenset().union(*WORD_CLASSES.values())


def word_class(*names: str) -> frozenset[str]:
    """The words of the named classes (see :data:`WORD_CLASSES`), together."""
    return frozenset().union(*(WORD_CLASSES[name] for name in names))


def function_words(text: str) -> frozenset[str]:
    """The words of ``text``, every one of which must be in :data:`STOP_WORDS`: how a rule
    names the function words of its own vocabulary (its other words it names apart)."""
    found = words(text)
    unknown = found - STOP_WORDS
    if unknown:
        raise ValueError(f"not in the stop-word lexicon: {', '.join(sorted(unknown))}")
    return found


#: Person words: the subjects the clause rules look for.
PERSONS = words("i we you me us my our your")
FIRST_PERSON = words("i we me us my our")
#: Words that join two clauses.
COORDINATORS = words("and but or so plus")


# -- stems -----------------------------------------------------------------------------

_IRREGULAR = {"saw": "see", "seen": "see", "found": "find", "sent": "send", "gave": "give",
              "given": "give", "made": "make", "paid": "pay", "told": "tell", "said": "say",
              "got": "get", "gotten": "get", "done": "do", "did": "do", "kept": "keep",
              "held": "hold", "took": "take", "taken": "take", "brought": "bring",
              "put": "put", "set": "set", "left": "leave", "was": "be", "were": "be",
              "been": "be", "had": "have", "won": "will", "ca": "can", "am": "be",
              "is": "be", "are": "be", "'m": "be", "'re": "be", "'s": "be", "'ve": "have",
              # a weekday and its abbreviations are one word ("Tue 14.05." for "tuesday")
              "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday",
              "weds": "wednesday", "thu": "thursday", "thur": "thursday",
              "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday"}
#: Irregular past participles ("seen", "sent"), for reading perfect and passive forms.
PARTICIPLE_IRREGULAR = frozenset({"seen", "found", "sent", "given", "made", "paid", "told",
                                  "said", "got", "gotten", "done", "kept", "held", "taken",
                                  "brought", "put", "set", "left", "been", "had"})


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Return a crude stem that maps inflections of one verb or noun to one key."""
    w = word.lower()
    if w.startswith("re-") and len(w) > 5:
        w = w[3:]  # "re-credited" is credited again (see extractors.text.nlp.KeepRedone)
    w = _IRREGULAR.get(w, w)
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if w.endswith("i"):
        w = w[:-1] + "y"
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


def stems(text: str) -> frozenset[str]:
    """The stems of the white-space separated words of ``text``."""
    return frozenset(stem(w) for w in text.split())


# -- terms -----------------------------------------------------------------------------

#: Words too common to tie two texts together (stems).
COMMON = frozenset(stem(w) for w in function_words("""
the a an and or but not no to of for on in at by with from into onto about my your our
their his her its it this that these those i you we they he she me us them is are was
were be been have has had do does did will would can could should must may might shall
please just also then so if as any some all one more less than very really only get got
make made want need like prefer rather instead keep stay sure ensure don dont can't cannot
won't there here what when where which who how something anything nothing""") | {"thing", "things"})

_LETTERS = {n: rx(rf"[^\W\d_]{{{n},}}", linear=True) for n in (1, 2, 3, 4)}
_NUMBER = rx(r"\d+(?:[.:,]\d+)*", linear=True)
_CODE = rx(r"(?<![\w./-])(?=[\w./-]*[A-Za-z])(?=[\w./-]*(?:\d|[./_]\w))"
           r"[\w][\w./-]*[\w]")
_NAME_PARTS = rx(r"[_\W]+", linear=True)


def terms(text: str, *, common: Iterable[str] = COMMON, shortest: int = 4,
          specific: bool = True) -> set[str]:
    """Return the distinctive terms of ``text``: the stems of its words of ``shortest``
    letters or more that are not in ``common`` (stems), and, with ``specific``, its
    numbers ("3.9", "14:00") and codes ("8XK4PD", "billing/totals.py")."""
    common = common if isinstance(common, frozenset | set) else frozenset(common)
    out = {stem(w) for w in _LETTERS[shortest].findall(text)} - common
    if specific:
        out |= {n for n in _NUMBER.findall(text) if len(n) >= 2}
        out |= {c.lower() for c in _CODE.findall(text)}
    return out


def is_specific(term: str) -> bool:
    """True for a number or a code: enough on its own to tie two texts."""
    return any(ch.isdigit() for ch in term) or any(ch in "./_" for ch in term)


def ties(a: set[str], b: set[str], extra: int = 0) -> bool:
    """True when term sets ``a`` and ``b`` share a number or code, or two words
    (``extra`` counts further evidence, e.g. a shared verb)."""
    shared = a & b
    return any(is_specific(t) for t in shared) or len(shared) + extra >= 2


def word_stems(text: str | None) -> set[str]:
    """The stems of every word of a label or a tool name ("return shipping",
    ``change_booking``), short and common ones included."""
    return {stem(w) for w in _NAME_PARTS.split(text or "") if w}
