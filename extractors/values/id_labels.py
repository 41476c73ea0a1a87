"""What an identifier refers to: the noun just before it ("order 4921", "booking ref
QX7P2L", "mobile +44 ..."), or the JSON key it is the value of ("order_id": 4921).

The identifier extractor (:mod:`extractors.values.identifiers`) reads its labels and
subtypes here. Only the words of the same sentence count: they are read from a window of
characters before the match, cut at the last sentence break.
"""

from __future__ import annotations

from extractors.text.guard import rx

#: Context nouns (and verb forms) that name what a code identifies, mapped to a label.
SPECIFIC_NOUNS: dict[str, str] = {
    "order": "order", "orders": "order", "ordered": "order",
    "booking": "booking", "booked": "booking", "bookings": "booking",
    "reservation": "reservation", "reserved": "reservation",
    "hold": "hold", "held": "hold", "invoice": "invoice", "invoiced": "invoice",
    "ticket": "ticket", "case": "case", "claim": "claim", "account": "account",
    "tracking": "tracking", "confirmation": "confirmation", "policy": "policy",
    "transaction": "transaction", "receipt": "receipt", "shipment": "shipment",
    "parcel": "parcel", "package": "parcel", "return": "return", "rma": "return",
    "collection": "collection", "issue": "issue", "pr": "pull request",
    "customer": "customer", "member": "member", "membership": "member",
    "subscription": "subscription", "application": "application", "loan": "loan",
    "contract": "contract", "payment": "payment", "refund": "refund",
    "flight": "flight", "commit": "commit", "request": "request", "job": "job",
    "incident": "incident", "address": "address", "quote": "quote", "voucher": "voucher",
}
GENERIC_NOUNS: frozenset[str] = frozenset({"reference", "ref", "number", "no", "id", "code"})
#: Label nouns that are also identifier subtypes; others fall back to "reference".
SUBTYPES: frozenset[str] = frozenset(
    {"order", "booking", "reservation", "hold", "invoice", "ticket", "case", "claim",
     "account", "tracking", "confirmation", "policy", "transaction", "receipt", "issue",
     "customer", "member", "collection", "return", "commit", "flight"}
)
PHONE_NOUNS: dict[str, str] = {
    "phone": "phone", "mobile": "mobile", "cell": "mobile", "cellphone": "mobile",
    "telephone": "phone", "tel": "phone", "fax": "fax", "landline": "phone",
    "whatsapp": "mobile", "hotline": "hotline", "helpline": "hotline", "office": "office",
}

_WORD_RE = rx(r"[A-Za-z][A-Za-z'-]*")
_SENTENCE_BREAK = rx(r"[.!?;](?=\s|$)|\n")
#: A JSON key just before a value (``"order_id": "``).
JSON_KEY = rx(r"\"([A-Za-z_][\w-]*)\"\s*:\s*\[?\s*\"?\s*$")
_KEY_SUFFIX = rx(r"(?i)[_-]?(?:id|ids|ref|reference|number|no|code|num)$")


def _window_words(text: str, start: int, chars: int = 70, words: int = 6) -> list[str]:
    window = text[max(0, start - chars):start]
    breaks = list(_SENTENCE_BREAK.finditer(window))
    if breaks:
        window = window[breaks[-1].end():]
    return [m.group(0).lower() for m in _WORD_RE.finditer(window)][-words:]


def find_label(text: str, start: int) -> str | None:
    """Return the noun an identifier at ``start`` refers to: a JSON key or a context word."""
    key = JSON_KEY.search(text[max(0, start - 60):start])
    if key:
        name = key.group(1)
        stripped = _KEY_SUFFIX.sub("", name)
        if stripped and stripped != name:
            return stripped.replace("_", " ").replace("-", " ").lower()
        return SPECIFIC_NOUNS.get(name.lower())
    words = _window_words(text, start)
    for word in reversed(words):
        if word in SPECIFIC_NOUNS:
            return SPECIFIC_NOUNS[word]
    for word in reversed(words):
        if word in GENERIC_NOUNS:
            return "reference"
    return None


def phone_label(text: str, start: int) -> str | None:
    """Return what a phone number at ``start`` is: its JSON key, or "mobile", "fax", ..."""
    key = JSON_KEY.search(text[max(0, start - 60):start])
    if key:
        return key.group(1).replace("_", " ").lower()
    for word in reversed(_window_words(text, start)):
        if word in PHONE_NOUNS:
            return PHONE_NOUNS[word]
    return None


def sentence_start(text: str, start: int, chars: int = 60) -> int:
    """Return where the up to ``chars`` characters before ``start`` begin, cut at the last
    sentence break."""
    lo = max(0, start - chars)
    breaks = list(_SENTENCE_BREAK.finditer(text, lo, start))
    return breaks[-1].end() if breaks else lo


def sentence_before(text: str, start: int, chars: int = 60) -> str:
    """Return up to ``chars`` characters before ``start``, cut at the last sentence break."""
    return text[sentence_start(text, start, chars):start]


#: A diff's file header up to a path: "--- a/", "+++ b/", "diff --git a/x.py b/".
_DIFF_HEADER = rx(r"(?:^|\n)[ \t]*(?:---|\+\+\+)[ \t]+$|"
                  r"(?:^|\n)[ \t]*diff[ \t]+--git[ \t]+(?:a/\S+[ \t]+)?$")


def diff_side(text: str, start: int) -> int:
    """2 when the path at ``start`` is one side of a diff's file header ("a/src/app.py" in
    "--- a/src/app.py"): the ``a/`` or ``b/`` is git's, not the file's; else 0."""
    if text[start:start + 2] not in ("a/", "b/"):
        return 0
    return 2 if _DIFF_HEADER.search(text, max(0, start - 300), start) else 0
