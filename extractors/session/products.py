"""Products named in a support conversation: "my Orbi RBK752 router", "the Pro plan",
"the LinkSync desktop app", "our Acme Cloud Backup subscription".

A product is pinned where a name stands before a product noun, after a determiner, a
possessive or a preposition of use ("my", "the", "on an"): one to four words that are
capitalized, camel-cased or carry a digit ("Orbi RBK752"), optionally a plain modifier
("desktop", "mobile"), then a noun from :data:`HEADS` ("router", "app", "plan"). A product noun
alone ("the app") names nothing. Kind ``identifier``, subtype ``product``, label the
product noun.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind
from extractors.text.guard import rx
from extractors.text.lexicon import STOP_WORDS

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "products.regex.v1"
HEADS = (
    "app|apps|application|router|modem|mesh|extender|printer|scanner|laptop|notebook|"
    "desktop|pc|phone|smartphone|tablet|watch|tracker|band|console|controller|headset|"
    "headphones|earbuds|camera|doorbell|thermostat|speaker|soundbar|hub|tv|television|"
    "monitor|keyboard|mouse|device|plan|subscription|package|bundle|tier|edition|license|"
    "licence|software|service|platform|plugin|plug-in|extension|client|dashboard|"
    "integration|api|sdk|suite|vpn|server|kiosk|lock|sensor|charger|firmware")
_MODIFIERS = ("desktop|mobile|web|wireless|smart|home|cloud|business|premium|pro|plus|"
              "enterprise|team|family|basic|standard|annual|monthly|ios|android|mac|windows|"
              "online|video|fitness|payroll|banking|mesh|wifi|wi-fi|gaming|security")
#: A name word: capitalized ("Orbi"), camel-cased ("iPad") or carrying a digit ("RBK752");
#: inner dots only ("v2.1"), so a sentence's full stop never joins a name. Bounded, so a
#: run of digits or letters costs a scan in proportion to its length.
_WORD = (r"(?:\p{Lu}[\w+&'’-]{0,40}|\p{Ll}{1,3}\p{Lu}[\w+-]{0,40}|[\w-]{0,40}\d[\w-]{0,40})"
         r"(?:\.[\w-]{1,40}){0,4}")
#: What stands before a product's name: a determiner, a possessive or a preposition of
#: use ("my Orbi router", "the Pro plan", "on an iPad Pro tablet").
_BEFORE = (r"(?i:my|our|your|their|his|her|the|a|an|this|that|these|those|its|using|use|with|"
           r"on|for|from|in|into|onto|via|through|bought|ordered|got|have|own)\s+")
#: Edition words that end a product's name, capitalized: "Planwise Enterprise", "Acme Pro".
EDITIONS = "Enterprise|Pro|Plus|Premium|Business|Cloud|Server|Lite|Max|Ultra|Mini"
_NOT_NAME = r"(?!(?:I|The|My|Our|Your|This|That|A|An|We|It|So|If)\b)"
_NAME = (rf"{_NOT_NAME}(?P<name>{_WORD}(?:\s{_WORD}){{0,3}}?)"
         rf"(?:(?:\s(?i:{_MODIFIERS}))?\s(?P<head>(?i:{HEADS}))(?P<plural>(?i:e?s))?|"
         rf"\s(?P<edition>{EDITIONS}))\b")
PATTERN = rx(rf"(?<=(?<![\w'’-]){_BEFORE}){_NAME}", regex.V0, linear=True)
#: Without a determiner, only a name that looks made ("SecureTunnel VPN", "Halo S2 lock").
BARE = rx(rf"(?<![\w@/.'’-]){_NAME}", regex.V0)
#: Without a product noun, a made name after a determiner or a preposition of use: "in
#: CareSlot 7.2", "through SignFlow", "The Tapwell T650 on the counter". Each word
#: capitalized or coded, the name ends where they do.
MADE_NAME = rx(rf"(?<=(?<![\w'’-]){_BEFORE}){_NOT_NAME}(?P<name>{_WORD}(?:\s{_WORD}){{0,3}})"
               r"(?![\w.-]|\.\w)(?P<next>\s+\p{Ll}[\p{Ll}'’]*)?", regex.V0, linear=True)
#: Company forms: "Keller GmbH" names a firm, not a product.
_COMPANY = rx(r"\b(?:GmbH|AG|KG|Ltd|LLC|Inc|PLC|SARL|BV|NV|Pty)\b", regex.V0, linear=True)
#: What may follow a product's name after a determiner: a verb or a function word ("the
#: SignFlow app", no: "the Tallis K40 on the counter", "the DocuMint sends ..."), not a
#: noun it modifies ("the FitZone mandate", "the Acme one").
_DETERMINER = rx(r"(?i:\b(?:the|a|an|my|our|your|their|his|her|its|this|that))\s+$", regex.V0,
                 linear=True)
_VERB_FORM = rx(r"(?:s|ed|ing|n't|’t)$", regex.V0, linear=True)
_MADE = rx(r"\d|\p{Ll}\p{Lu}")
#: A made name's words: a name (not a code alone) with a camel case or a model code
#: after it ("CareSlot", "Tapwell T650", "iPad Air 5"); not a version or count alone.
_MADE_NAME = rx(r"^(?:\p{Lu}\p{Ll}+\p{Lu}\w*|\p{Ll}{1,3}\p{Lu}\w*|\p{Lu}\p{Ll}+(?:\s\S+)*?"
                r"\s(?:\p{Lu}{1,4}\d[\w-]*|\d+(?:\.\d+)*))(?:\s\S+)*$", regex.V0)
#: Number-only names are counts or sizes ("2 routers", "5 GB plan"), not products.
_NOT_A_NAME = rx(r"^[\d.,\s]+(?:[KMGT]B|x)?$|^\d+\s", regex.IGNORECASE)


class Products:
    """Pin product names."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role == "tool":
            return []
        text = turn.text
        out = []
        seen: set[int] = set()
        #: (start, end, head) of each name: with a product noun or an edition word, or made
        found: list[tuple[int, int, str | None]] = []
        for m in [*PATTERN.finditer(text),
                  *(m for m in BARE.finditer(text) if _MADE.search(m.group("name")))]:
            if m.group("plural") and not _MADE.search(m.group("name")):
                continue  # "DNS servers" is a kind of thing; "Halo S2 locks" a product line
            if not _NOT_A_NAME.match(m.group("name")):
                found.append((m.start(), m.end(), m.group("head") or m.group("edition")))
        for m in MADE_NAME.finditer(text):
            after = (m.group("next") or "").strip().lower()
            if after and _DETERMINER.search(text, max(0, m.start() - 8), m.start()) \
                    and after not in STOP_WORDS - {"one", "ones"} \
                    and not _VERB_FORM.search(after):
                continue  # after "the", the name modifies a noun: "the FitZone mandate"
            name = m.group("name")
            if _MADE_NAME.match(name) and not _COMPANY.search(name) and not _NOT_A_NAME.match(
                    name) and not any(a <= m.start() < b for a, b, _ in found):
                found.append((m.start(), m.end("name"), None))
        for start, end, head in sorted(found, key=lambda f: (f[1], f[0])):
            if end in seen:
                continue
            seen.add(end)
            out.append(Candidate.of(text, start, end, kind=Kind.IDENTIFIER,
                                    subtype="product", score=0.85 if head else 0.7,
                                    extractor=NAME,
                                    why="a name before a product noun" if head
                                    else "a made name where a product is named",
                                    label=head.lower() if head else None,
                                    value={"normalized": " ".join(text[start:end].split())}))
        return sorted(out, key=lambda c: c.start)
