"""Products named in a support conversation: "my Orbi RBK752 router", "the Pro plan",
"the LinkSync desktop app", "our Acme Cloud Backup subscription".

A product is pinned where a name stands before a product noun: one to four words that
are capitalized or carry a digit ("Orbi RBK752"), optionally a plain modifier ("desktop",
"mobile"), then a noun from :data:`HEADS` ("router", "app", "plan"). A product noun
alone ("the app") names nothing. Kind ``identifier``, subtype ``product``, label the
product noun.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView, register
from scratchpad.records import Kind

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "products.regex.v1"
HEADS = (
    "app|apps|application|router|modem|mesh|extender|printer|scanner|laptop|notebook|"
    "desktop|pc|phone|smartphone|tablet|watch|tracker|band|console|controller|headset|"
    "headphones|earbuds|camera|doorbell|thermostat|speaker|soundbar|hub|tv|television|"
    "monitor|keyboard|mouse|device|plan|subscription|package|bundle|tier|edition|license|"
    "licence|software|service|platform|plugin|plug-in|extension|client|dashboard|"
    "integration|api|sdk|suite|vpn|server|drive|card|reader|terminal|kiosk|lock|sensor|"
    "charger|firmware")
_MODIFIERS = ("desktop|mobile|web|wireless|smart|home|cloud|business|premium|pro|plus|"
              "enterprise|team|family|basic|standard|annual|monthly|ios|android|mac|windows|"
              "online|video|fitness|payroll|banking|mesh|wifi|wi-fi|gaming|security")
_WORD = r"(?:\p{Lu}[\w+.&'’-]*|\p{Ll}{1,3}\p{Lu}[\w+.-]*|[\w.-]*\d[\w.-]*)"
PATTERN = regex.compile(
    rf"(?<![\w@/.-])(?!(?:I|The|My|Our|Your|This|That|A|An|Hi|Hey|Hello|Thanks|Yes|No|So|"
    rf"It|We|You|They|Please|Also|And|But|Can|Could|Is|Are|Do|Does)\b)"
    rf"(?P<name>{_WORD}(?:\s{_WORD}){{0,3}})(?:\s(?i:{_MODIFIERS}))?\s(?P<head>(?i:{HEADS}))\b",
    regex.V0)
#: Number-only names are counts or sizes ("2 routers", "5 GB plan"), not products.
_NOT_A_NAME = regex.compile(r"^[\d.,\s]+(?:[KMGT]B|x)?$", regex.IGNORECASE)


@register(NAME)
class Products:
    """Pin product names."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        if turn.role == "tool":
            return []
        text = turn.text
        out = []
        for m in PATTERN.finditer(text, timeout=1.0):
            if _NOT_A_NAME.match(m.group("name")):
                continue
            out.append(Candidate.of(text, m.start(), m.end(), kind=Kind.IDENTIFIER,
                                    subtype="product", score=0.85, extractor=NAME,
                                    why="a name before a product noun",
                                    label=m.group("head").lower(),
                                    value={"normalized": " ".join(m.group(0).split())}))
        return out
